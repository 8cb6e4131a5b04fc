package io.mqttload.sweep;

import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Properties;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Whether the steps will report the broker's CPU, checked before the first step when {@code --max-broker-cpu} asks for
 * it: a search that found out at its first step would have spent a step, and one that judged without the figure would
 * answer something else. A step that still reports none (a process not found) is judged not measured by
 * {@link StepCriteria}.
 */
final class BrokerCpuSource {
    /** An MQTT Broker Monitor element of a saved plan, its properties up to its end tag. */
    private static final Pattern MONITOR = Pattern.compile("<io\\.mqttload\\.jmeter\\.MqttBrokerMonitor\\b([^>]*)>(.*?)"
            + "</io\\.mqttload\\.jmeter\\.MqttBrokerMonitor>", Pattern.DOTALL);
    /** {@code ${__P(name)}} or {@code ${__P(name,default)}}, the whole field. */
    private static final Pattern PROPERTY = Pattern.compile("\\$\\{__P\\(([^,)]+)(?:,([^)]*))?\\)}");

    private BrokerCpuSource() {
    }

    /** Refuses the criterion, naming it, when nothing would monitor the broker's CPU. */
    static void require(SweepOptions o) throws SweepOptions.UsageException {
        StepCriteria c = o.capacity.criteria;
        if (!c.brokerCpuAsked() || o.monitorsBroker() || planMonitorsCpu(o)) {
            return;
        }
        throw new SweepOptions.UsageException("--max-broker-cpu " + StepCriteria.plain(c.maxBrokerCpuPercent)
                + ": nothing reports the broker's CPU to judge it by; give --broker-pid or --broker-process, or a plan"
                + " whose MQTT Broker Monitor watches the broker's process (pid, pid file, process name or agent)");
    }

    /**
     * Whether the plan carries an enabled MQTT Broker Monitor that reads CPU: one of its process fields (or the agent)
     * set, directly or through a property this command sets (the shipped plans read {@code broker.pid} and
     * {@code broker.process}). A monitor of {@code $SYS} only gives no CPU.
     */
    private static boolean planMonitorsCpu(SweepOptions o) throws SweepOptions.UsageException {
        String xml;
        try {
            xml = Files.readString(o.plan, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new SweepOptions.UsageException("--plan '" + o.plan + "': unreadable: " + e.getMessage());
        }
        Matcher m = MONITOR.matcher(xml);
        while (m.find()) {
            if (m.group(1).contains("enabled=\"false\"")) {
                continue;
            }
            String fields = m.group(2);
            for (String name : new String[] {"pid", "pidFile", "processName"}) {
                if (!value(o, field(fields, name)).isEmpty()) {
                    return true;
                }
            }
            if (value(o, field(fields, "agent")).equals("true")) {
                return true;
            }
        }
        return false;
    }

    private static String field(String fields, String name) {
        Matcher m = Pattern.compile("<stringProp name=\"" + name + "\">([^<]*)</stringProp>").matcher(fields);
        return m.find() ? m.group(1).trim() : "";
    }

    /** A field as a step would read it: a {@code __P} property as this command sets it, else its default. */
    private static String value(SweepOptions o, String field) {
        Matcher m = PROPERTY.matcher(field);
        if (!m.matches()) {
            return field;
        }
        String set = property(o, m.group(1).trim());
        return set != null ? set.trim() : m.group(2) == null ? "" : m.group(2).trim();
    }

    /** A property as every step gets it (-J, -G, -q files, or every step of a sweep); null when not set everywhere. */
    private static String property(SweepOptions o, String name) {
        if (o.localProperties.containsKey(name)) {
            return o.localProperties.get(name);
        }
        if (o.globalProperties.containsKey(name)) {
            return o.globalProperties.get(name);
        }
        for (Path q : o.propertyFiles) {
            Properties p = new Properties();
            try (Reader r = Files.newBufferedReader(q, StandardCharsets.UTF_8)) {
                p.load(r);
            } catch (IOException | IllegalArgumentException e) {
                // JMeter reports an unreadable -q file itself when the step starts; here it only sets nothing.
                continue;
            }
            if (p.containsKey(name)) {
                return p.getProperty(name);
            }
        }
        if (!o.steps.isEmpty() && o.steps.stream().allMatch(s -> s.properties.containsKey(name))) {
            return o.steps.get(0).properties.get(name);
        }
        return null;
    }
}
