package io.mqttload.sweep;

import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;

/** The sweep command line, checked up front: a bad option fails before any step has run. */
final class SweepOptions {
    static final String USAGE = String.join("\n",
            "usage: sweep.sh --plan PLAN.jmx (--steps \"[label:]k=v,k=v;...\" | --step-file FILE ...) --out DIR",
            "       [--clients-property NAME] [--broker-pid N | --broker-process NAME] [--broker-name NAME]",
            "       [--broker-engine REGEX] [--remote HOST:PORT,...] [-Jk=v ...] [-Gk=v ...] [-q FILE ...]",
            "       [--jvm-arg ARG ...] [--heap \"ARGS\"] [--step-timeout SECONDS] [--on-failure continue|stop]",
            "       [--sweep-id ID] [--jmeter-home DIR]");

    /** One run of the plan: its label and the properties that make it that size. */
    static final class Step {
        final String label;
        final Map<String, String> properties;

        Step(String label, Map<String, String> properties) {
            this.label = label;
            this.properties = properties;
        }

        /** {@code k=v,k=v} as written, for tables. */
        String describe() {
            List<String> parts = new ArrayList<>();
            properties.forEach((k, v) -> parts.add(k + "=" + v));
            return String.join(",", parts);
        }
    }

    /** Bad input: the message names the option and the value; the command exits with 2. */
    static final class UsageException extends Exception {
        private static final long serialVersionUID = 1L;

        UsageException(String message) {
            super(message);
        }
    }

    Path plan;
    Path out;
    Path jmeterHome;
    final List<Step> steps = new ArrayList<>();
    String clientsProperty = "";
    long brokerPid;
    String brokerProcess = "";
    String brokerName = "broker";
    String brokerEngine = "";
    final List<String> remote = new ArrayList<>();
    final Map<String, String> localProperties = new LinkedHashMap<>();
    final Map<String, String> globalProperties = new LinkedHashMap<>();
    final List<Path> propertyFiles = new ArrayList<>();
    final List<String> jvmArgs = new ArrayList<>();
    /** As JMeter's bin/jmeter script sets it. */
    String heap = "-Xms1g -Xmx1g -XX:MaxMetaspaceSize=256m";
    long stepTimeoutSeconds = 3600;
    boolean stopOnFailure;
    String sweepId = "sweep-" + LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss", Locale.ROOT));
    /** The arguments as given, for the record in sweep.json and sweep.md. */
    final List<String> arguments = new ArrayList<>();

    boolean monitorsBroker() {
        return brokerPid > 0 || !brokerProcess.isEmpty();
    }

    static SweepOptions parse(String[] args) throws UsageException {
        SweepOptions o = new SweepOptions();
        for (String a : args) {
            // The record of the command goes into shared files: secrets passed as properties stay out of it.
            o.arguments.add(a.matches("-[JG][^=]*(?i:password|token|secret)[^=]*=.*") ? a.substring(0, a.indexOf('=') + 1)
                    + "****" : a);
        }
        for (int i = 0; i < args.length; i++) {
            String a = args[i];
            if (a.startsWith("-J") || a.startsWith("-G")) {
                Map<String, String> target = a.startsWith("-J") ? o.localProperties : o.globalProperties;
                String kv = a.substring(2);
                int eq = kv.indexOf('=');
                if (eq <= 0) {
                    throw new UsageException(a.substring(0, 2) + " '" + kv + "': expected " + a.substring(0, 2)
                            + "name=value");
                }
                target.put(kv.substring(0, eq), kv.substring(eq + 1));
                continue;
            }
            if (!a.equals("-q") && !a.startsWith("--")) {
                throw new UsageException("unknown argument '" + a + "'");
            }
            if (i + 1 >= args.length) {
                throw new UsageException(a + ": needs a value");
            }
            String v = args[++i];
            switch (a) {
                case "--plan":
                    o.plan = Path.of(v);
                    if (!Files.isRegularFile(o.plan)) {
                        throw new UsageException("--plan '" + v + "': no such file");
                    }
                    break;
                case "--steps":
                    o.steps.addAll(parseSteps(v));
                    break;
                case "--step-file":
                    o.steps.add(stepFromFile(v));
                    break;
                case "--out":
                    o.out = Path.of(v);
                    break;
                case "--clients-property":
                    o.clientsProperty = v.trim();
                    break;
                case "--broker-pid":
                    o.brokerPid = number(a, v, 1, Long.MAX_VALUE);
                    break;
                case "--broker-process":
                    o.brokerProcess = nonEmpty(a, v);
                    break;
                case "--broker-name":
                    o.brokerName = nonEmpty(a, v);
                    break;
                case "--broker-engine":
                    o.brokerEngine = nonEmpty(a, v);
                    break;
                case "--remote":
                    for (String host : v.split(",")) {
                        if (!host.trim().matches("[^\\s:,]+(:\\d{1,5})?")) {
                            throw new UsageException("--remote '" + v + "': expected host[:port],host[:port],...");
                        }
                        o.remote.add(host.trim());
                    }
                    break;
                case "-q":
                    o.propertyFiles.add(Path.of(v));
                    if (!Files.isRegularFile(Path.of(v))) {
                        throw new UsageException("-q '" + v + "': no such file");
                    }
                    break;
                case "--jvm-arg":
                    o.jvmArgs.add(v);
                    break;
                case "--heap":
                    o.heap = v.trim();
                    break;
                case "--step-timeout":
                    o.stepTimeoutSeconds = number(a, v, 1, 7 * 24 * 3600);
                    break;
                case "--on-failure":
                    if (!v.equals("continue") && !v.equals("stop")) {
                        throw new UsageException("--on-failure '" + v + "': expected continue or stop");
                    }
                    o.stopOnFailure = v.equals("stop");
                    break;
                case "--sweep-id":
                    // It names files (report-<sweep>-s<N>.json): no separators, nothing a shell would expand.
                    if (!v.matches("[A-Za-z0-9][A-Za-z0-9._-]{0,99}")) {
                        throw new UsageException("--sweep-id '" + v + "': letters, digits, '.', '_' and '-' only");
                    }
                    o.sweepId = v;
                    break;
                case "--jmeter-home":
                    o.jmeterHome = Path.of(v);
                    if (!Files.isDirectory(o.jmeterHome.resolve("bin"))) {
                        throw new UsageException("--jmeter-home '" + v + "': no bin/ directory there");
                    }
                    break;
                default:
                    throw new UsageException("unknown option '" + a + "'");
            }
        }
        if (o.plan == null) {
            throw new UsageException("--plan: missing");
        }
        if (o.out == null) {
            throw new UsageException("--out: missing");
        }
        if (o.steps.isEmpty()) {
            throw new UsageException("--steps / --step-file: no step given");
        }
        if (o.jmeterHome == null) {
            throw new UsageException("--jmeter-home: missing (sweep.sh finds the one the build assembled)");
        }
        if (o.brokerPid > 0 && !o.brokerProcess.isEmpty()) {
            throw new UsageException("--broker-pid " + o.brokerPid + " and --broker-process '" + o.brokerProcess
                    + "': give one");
        }
        if (Files.isDirectory(o.out)) {
            try (var entries = Files.list(o.out)) {
                if (entries.findAny().isPresent()) {
                    throw new UsageException("--out '" + o.out + "': not empty; every sweep gets a directory of its own");
                }
            } catch (IOException e) {
                throw new UsageException("--out '" + o.out + "': " + e.getMessage());
            }
        } else if (Files.exists(o.out)) {
            throw new UsageException("--out '" + o.out + "': not a directory");
        }
        if (!o.clientsProperty.isEmpty()) {
            for (Step s : o.steps) {
                if (s.label == null && !s.properties.containsKey(o.clientsProperty)) {
                    throw new UsageException("--clients-property '" + o.clientsProperty + "': step '" + s.describe()
                            + "' does not set it (nor has a label)");
                }
            }
        }
        return o;
    }

    /**
     * {@code [label:]k=v,k=v;[label:]k=v...}. A label is what comes before the first ':' when that part holds no
     * '=', so a value such as {@code http://host} is no label.
     */
    static List<Step> parseSteps(String text) throws UsageException {
        List<Step> steps = new ArrayList<>();
        for (String raw : text.split(";", -1)) {
            String step = raw.trim();
            if (step.isEmpty()) {
                throw new UsageException("--steps '" + text + "': empty step (two ';' in a row, or one at the end)");
            }
            String label = null;
            int colon = step.indexOf(':');
            if (colon > 0 && step.substring(0, colon).indexOf('=') < 0) {
                label = step.substring(0, colon).trim();
                step = step.substring(colon + 1).trim();
            }
            Map<String, String> properties = new LinkedHashMap<>();
            for (String kv : step.split(",", -1)) {
                int eq = kv.indexOf('=');
                if (eq <= 0 || kv.substring(0, eq).trim().isEmpty()) {
                    throw new UsageException("--steps '" + raw.trim() + "': '" + kv.trim() + "' is not name=value");
                }
                properties.put(kv.substring(0, eq).trim(), kv.substring(eq + 1).trim());
            }
            steps.add(new Step(label == null || label.isEmpty() ? null : label, properties));
        }
        return steps;
    }

    /** A Java properties file is one step; its name without extension is the label. */
    static Step stepFromFile(String file) throws UsageException {
        Path path = Path.of(file);
        Properties p = new Properties();
        try (Reader r = Files.newBufferedReader(path, StandardCharsets.UTF_8)) {
            p.load(r);
        } catch (IOException | IllegalArgumentException e) {
            throw new UsageException("--step-file '" + file + "': " + (Files.exists(path) ? "unreadable: " + e.getMessage()
                    : "no such file"));
        }
        if (p.isEmpty()) {
            throw new UsageException("--step-file '" + file + "': sets no property");
        }
        Map<String, String> properties = new LinkedHashMap<>();
        new TreeMap<>(p).forEach((k, v) -> properties.put(k.toString(), v.toString()));
        String name = String.valueOf(path.getFileName());
        return new Step(name.contains(".") ? name.substring(0, name.lastIndexOf('.')) : name, properties);
    }

    /** The step's label: given, else the clients property's value, else its properties. */
    String label(Step s) {
        if (s.label != null) {
            return s.label;
        }
        if (!clientsProperty.isEmpty()) {
            return clientsProperty + "=" + s.properties.get(clientsProperty);
        }
        return s.describe();
    }

    private static long number(String option, String v, long min, long max) throws UsageException {
        try {
            long n = Long.parseLong(v.trim());
            if (n < min || n > max) {
                throw new UsageException(option + " '" + v + "': out of range " + min + ".." + max);
            }
            return n;
        } catch (NumberFormatException e) {
            throw new UsageException(option + " '" + v + "': not a whole number");
        }
    }

    private static String nonEmpty(String option, String v) throws UsageException {
        if (v.trim().isEmpty()) {
            throw new UsageException(option + ": empty value");
        }
        return v.trim();
    }
}
