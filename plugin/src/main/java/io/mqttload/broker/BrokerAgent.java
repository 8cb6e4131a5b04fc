package io.mqttload.broker;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import com.hivemq.client.mqtt.datatypes.MqttQos;
import com.hivemq.client.mqtt.mqtt3.Mqtt3AsyncClient;
import com.hivemq.client.mqtt.mqtt3.Mqtt3Client;

/**
 * The broker monitor's agent mode, for a broker on another host (or in a container): runs next to the
 * broker, reads its process from /proc every interval and publishes each sample over MQTT on
 * {@code mqttload/broker/<name>}, where an MQTT Broker Monitor with {@code agent = true} picks them
 * up into the run. Runs until stopped; needs only the plugin jar:
 *
 * <pre>java -cp mqtt-load-jmeter.jar io.mqttload.broker.BrokerAgent --process mosquitto --name node1 \
 *     --mqtt-host 127.0.0.1 --mqtt-port 1883 [--interval 1] [--pid N | --pid-file F]</pre>
 */
public final class BrokerAgent {
    public static final String TOPIC_PREFIX = "mqttload/broker/";
    private static final int CORES = Runtime.getRuntime().availableProcessors();

    private BrokerAgent() {
    }

    public static void main(String[] args) throws InterruptedException {
        Map<String, String> options;
        try {
            options = parse(args);
        } catch (IllegalArgumentException e) {
            System.err.println("broker agent: " + e.getMessage());
            System.err.println("usage: BrokerAgent (--process NAME | --pid N | --pid-file FILE) --name NAME"
                    + " [--mqtt-host HOST] [--mqtt-port PORT] [--interval SECONDS] [--count N]");
            System.exit(2);
            return;
        }
        System.exit(run(options, System.out));
    }

    static Map<String, String> parse(String[] args) {
        Map<String, String> o = new LinkedHashMap<>();
        o.put("--mqtt-host", "127.0.0.1");
        o.put("--mqtt-port", "1883");
        o.put("--interval", "1");
        o.put("--name", "broker");
        o.put("--count", "0");
        for (int i = 0; i < args.length; i += 2) {
            if (!o.containsKey(args[i]) && !List.of("--process", "--pid", "--pid-file").contains(args[i])) {
                throw new IllegalArgumentException("unknown option '" + args[i] + "'");
            }
            if (i + 1 >= args.length) {
                throw new IllegalArgumentException("option " + args[i] + " needs a value");
            }
            o.put(args[i], args[i + 1]);
        }
        if (!o.containsKey("--process") && !o.containsKey("--pid") && !o.containsKey("--pid-file")) {
            throw new IllegalArgumentException("name the broker process: --process, --pid or --pid-file");
        }
        for (String number : List.of("--mqtt-port", "--interval", "--count", "--pid")) {
            if (!o.containsKey(number)) {
                continue;
            }
            try {
                Long.parseLong(o.get(number));
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException(number + " = '" + o.get(number) + "': not a whole number");
            }
        }
        return o;
    }

    /** Samples and publishes until stopped, or {@code --count} samples (for tests); returns the exit code. */
    static int run(Map<String, String> o, PrintStream out) throws InterruptedException {
        long pid;
        try {
            pid = pid(o);
        } catch (IOException | IllegalArgumentException e) {
            out.println("broker agent: " + e.getMessage());
            return 1;
        }
        String name = o.get("--name");
        String topic = TOPIC_PREFIX + name.replaceAll("[^A-Za-z0-9_.-]", "_");
        long intervalMillis = Math.max(1, Long.parseLong(o.get("--interval"))) * 1000;
        long count = Long.parseLong(o.get("--count"));
        Mqtt3AsyncClient client = Mqtt3Client.builder()
                .identifier("agent-" + Integer.toHexString((name + pid).hashCode()))
                .serverHost(o.get("--mqtt-host")).serverPort(Integer.parseInt(o.get("--mqtt-port")))
                .automaticReconnectWithDefaultConfig().buildAsync();
        try {
            client.connect().get(30, TimeUnit.SECONDS);
        } catch (ExecutionException | TimeoutException e) {
            out.println("broker agent: cannot connect to " + o.get("--mqtt-host") + ":" + o.get("--mqtt-port") + ": " + e);
            return 1;
        }
        CountDownLatch stop = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(stop::countDown, "broker-agent-stop"));
        out.println("broker agent: sampling process " + pid + " every " + intervalMillis / 1000 + " s to " + topic);
        long lastTicks = -1;
        long lastNanos = 0;
        long sent = 0;
        while (count == 0 || sent < count) {
            ProcessStats s;
            try {
                s = ProcessStats.read(pid);
            } catch (IOException e) {
                out.println("broker agent: " + e.getMessage());
                client.disconnect();
                return 1;
            }
            long nanos = System.nanoTime();
            if (lastTicks >= 0) {
                double cpu = 100.0 * (s.cpuTicks - lastTicks) / ProcessStats.TICKS_PER_SECOND / ((nanos - lastNanos) / 1e9);
                String json = String.format(Locale.ROOT, "{\"timeMillis\": %d, \"cpuPercentOfCore\": %.3f,"
                        + " \"cpuPercentOfMachine\": %.3f, \"rssBytes\": %d, \"openFds\": %d, \"sockets\": %d,"
                        + " \"threads\": %d}", System.currentTimeMillis(), cpu, cpu / CORES, s.rssBytes, s.openFds,
                        s.sockets, s.threads);
                client.publishWith().topic(topic).qos(MqttQos.AT_MOST_ONCE)
                        .payload(json.getBytes(StandardCharsets.UTF_8)).send();
                sent++;
            }
            lastTicks = s.cpuTicks;
            lastNanos = nanos;
            if (stop.await(intervalMillis, TimeUnit.MILLISECONDS)) {
                break;
            }
        }
        try {
            client.disconnect().get(5, TimeUnit.SECONDS);
        } catch (ExecutionException | TimeoutException e) {
            out.println("broker agent: disconnect: " + e);
        }
        return 0;
    }

    private static long pid(Map<String, String> o) throws IOException {
        if (o.containsKey("--pid")) {
            return Long.parseLong(o.get("--pid"));
        }
        if (o.containsKey("--pid-file")) {
            String text = new String(Files.readAllBytes(Path.of(o.get("--pid-file"))), StandardCharsets.US_ASCII).trim();
            if (!text.matches("\\d+")) {
                throw new IllegalArgumentException("--pid-file " + o.get("--pid-file") + " holds '" + text + "', not a process id");
            }
            return Long.parseLong(text);
        }
        List<Long> found = ProcessStats.findByName(o.get("--process"));
        if (found.isEmpty()) {
            throw new IllegalArgumentException("no process named '" + o.get("--process") + "'");
        }
        return found.get(0);
    }
}
