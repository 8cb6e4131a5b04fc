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

import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import io.mqttload.common.PluginVersion;

/**
 * The sweep command line, checked up front: a bad option fails before any step has run. Parsed by picocli (which
 * also writes {@code --help}); the setters check each value so that an error names the option and the value.
 */
@Command(name = "sweep.sh", mixinStandardHelpOptions = true, versionProvider = PluginVersion.class,
        sortOptions = false, usageHelpAutoWidth = true,
        description = {"Runs one JMeter plan at increasing sizes, one headless run per step, and writes the scalability"
                + " table and charts (sweep.md, sweep.json, sweep.html, *.svg, *.png). docs/sweeps.md explains the output.",
            "With --search, finds the highest value of one property at which the plan's steps pass (capacity.md,"
                + " capacity.json, capacity.html, charts). docs/finding-a-brokers-limit.md explains how it decides."},
        footer = {"", "Exit code of a sweep: 0 every step passed, 1 a step failed, 2 bad arguments.",
            "Exit code of a search: 0 a limit found and confirmed (at least --require), 1 none sustained, not confirmed,"
                + " or below --require, 2 bad arguments, 3 inconclusive (generator-limited, or a step gave nothing to judge)."})
final class SweepOptions {

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
    /** With {@link #brokerPid}: the longest wait before a step for the broker to be quiet; 0: none. */
    long settleSeconds = 120;
    String brokerProcess = "";
    String brokerName = "broker";
    String brokerEngine = "";
    final List<String> remote = new ArrayList<>();
    /** One local jmeter-server for every step ({@link WarmEngine}) instead of a fresh JVM per step. */
    boolean warmEngine;
    /** With {@link #warmEngine}: seconds of an unmeasured run before the first step; 0: none. */
    long engineWarmUpSeconds = 10;
    boolean engineWarmUpGiven;
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
    /** The capacity search's settings and every step's criteria (a sweep's too). */
    @Mixin
    final SearchOptions capacity = new SearchOptions();
    /** -h/--help or -V/--version: print it, run nothing. */
    boolean helpRequested;
    boolean versionRequested;

    @Option(names = "--plan", paramLabel = "PLAN.jmx", description = "the plan to run at every step")
    void plan(String v) {
        plan = Path.of(v);
        if (!Files.isRegularFile(plan)) {
            throw invalid("--plan '" + v + "': no such file");
        }
    }

    @Option(names = "--steps", paramLabel = "[label:]k=v,k=v;...",
            description = "one step per ';', the properties of a step separated by ','")
    void steps(String v) {
        steps.addAll(parseSteps(v));
    }

    @Option(names = "--step-file", paramLabel = "FILE",
            description = "a Java properties file is one step, labelled with the file's name (repeatable)")
    void stepFile(String v) {
        steps.add(stepFromFile(v));
    }

    @Option(names = "--out", paramLabel = "DIR", description = "a new or empty directory for the sweep's files")
    void out(String v) {
        out = Path.of(v);
    }

    @Option(names = "--clients-property", paramLabel = "NAME",
            description = "the step property that labels each step (clients are measured)")
    void clientsProperty(String v) {
        clientsProperty = v.trim();
    }

    @Option(names = "--broker-pid", paramLabel = "N", description = "adds an MQTT Broker Monitor of this process")
    void brokerPid(String v) {
        brokerPid = number("--broker-pid", v, 1, Long.MAX_VALUE);
    }

    @Option(names = "--broker-process", paramLabel = "NAME", description = "adds an MQTT Broker Monitor of this process")
    void brokerProcess(String v) {
        brokerProcess = nonEmpty("--broker-process", v);
    }

    @Option(names = "--broker-name", paramLabel = "NAME", description = "the monitored broker's name (default broker)")
    void brokerName(String v) {
        brokerName = nonEmpty("--broker-name", v);
    }

    @Option(names = "--broker-engine", paramLabel = "REGEX",
            description = "with --remote: the engine that runs next to the broker and monitors it")
    void brokerEngine(String v) {
        brokerEngine = nonEmpty("--broker-engine", v);
    }

    @Option(names = "--remote", paramLabel = "HOST:PORT,...",
            description = "drive these jmeter-server engines (-R); step properties, -J and -q go to them as -G too")
    void remote(String v) {
        for (String host : v.split(",")) {
            if (!host.trim().matches("[^\\s:,]+(:\\d{1,5})?")) {
                throw invalid("--remote '" + v + "': expected host[:port],host[:port],...");
            }
            remote.add(host.trim());
        }
    }

    @Option(names = "--warm-engine", description = "run every step on one local jmeter-server started for the sweep,"
            + " so that no step pays (or measures as load) a fresh JVM's compilation; stopped at the end")
    void warmEngine(boolean v) {
        warmEngine = v;
    }

    @Option(names = "--engine-warm-up", paramLabel = "SECONDS", description = "with --warm-engine: an unmeasured run of"
            + " the first step's properties for this long before the first step (default 10; 0: none)")
    void engineWarmUp(String v) {
        engineWarmUpSeconds = number("--engine-warm-up", v, 0, 3600);
        engineWarmUpGiven = true;
    }

    @Option(names = "-J", paramLabel = "name=value", description = "a JMeter property for every step (with --remote, for the engines too)")
    void localProperty(String kv) {
        property("-J", kv, localProperties);
    }

    @Option(names = "-G", paramLabel = "name=value", description = "a property for the remote engines only, overriding -J there")
    void globalProperty(String kv) {
        property("-G", kv, globalProperties);
    }

    @Option(names = "-q", paramLabel = "FILE",
            description = "a JMeter property file for every step (with --remote, sent to the engines too)")
    void propertyFile(String v) {
        if (!Files.isRegularFile(Path.of(v))) {
            throw invalid("-q '" + v + "': no such file");
        }
        propertyFiles.add(Path.of(v));
    }

    @Option(names = "--jvm-arg", paramLabel = "ARG", description = "an argument of the JMeter JVM (repeatable)")
    void jvmArg(String v) {
        jvmArgs.add(v);
    }

    @Option(names = "--heap", paramLabel = "ARGS",
            description = "the JMeter JVM's heap (default -Xms1g -Xmx1g -XX:MaxMetaspaceSize=256m)")
    void heap(String v) {
        heap = v.trim();
    }

    @Option(names = "--settle-seconds", paramLabel = "SECONDS",
            description = "with --broker-pid, without --remote: before each step after the first, wait at most this"
                    + " long for the broker to use under 20 %% of a core for 3 s (default 120; 0: do not wait)")
    void settleSeconds(String v) {
        settleSeconds = number("--settle-seconds", v, 0, 3600);
    }

    @Option(names = "--step-timeout", paramLabel = "SECONDS",
            description = "a step still running then is stopped and recorded as timed out (default 3600)")
    void stepTimeout(String v) {
        stepTimeoutSeconds = number("--step-timeout", v, 1, 7 * 24 * 3600);
    }

    @Option(names = "--on-failure", paramLabel = "continue|stop",
            description = "after a failed step (exit code, no report, verdict not NO_LOSS); default continue")
    void onFailure(String v) {
        if (!v.equals("continue") && !v.equals("stop")) {
            throw invalid("--on-failure '" + v + "': expected continue or stop");
        }
        stopOnFailure = v.equals("stop");
    }

    @Option(names = "--sweep-id", paramLabel = "ID",
            description = "run ids are ID-s1, ID-s2, ... (default sweep-<date>-<time>)")
    void sweepId(String v) {
        // It names files (report-<sweep>-s<N>.json): no separators, nothing a shell would expand.
        if (!v.matches("[A-Za-z0-9][A-Za-z0-9._-]{0,99}")) {
            throw invalid("--sweep-id '" + v + "': letters, digits, '.', '_' and '-' only");
        }
        sweepId = v;
    }

    @Option(names = "--jmeter-home", paramLabel = "DIR",
            description = "the JMeter home to run (sweep.sh finds the one the build assembled)")
    void jmeterHome(String v) {
        jmeterHome = Path.of(v);
        if (!Files.isDirectory(jmeterHome.resolve("bin"))) {
            throw invalid("--jmeter-home '" + v + "': no bin/ directory there");
        }
    }

    boolean monitorsBroker() {
        return brokerPid > 0 || !brokerProcess.isEmpty();
    }

    /** The help text picocli writes from the options above. */
    static String usage() {
        return new CommandLine(new SweepOptions()).getUsageMessage(CommandLine.Help.Ansi.OFF);
    }

    static SweepOptions parse(String[] args) throws UsageException {
        SweepOptions o = new SweepOptions();
        for (String a : args) {
            // The record of the command goes into shared files: secrets passed as properties stay out of it.
            o.arguments.add(a.matches("-[JG][^=]*(?i:password|token|secret)[^=]*=.*") ? a.substring(0, a.indexOf('=') + 1)
                    + "****" : a);
        }
        // Repeatable options (-J, -q, --step-file, --jvm-arg) are setters that add: each occurrence is one call.
        CommandLine command = new CommandLine(o).setOverwrittenOptionsAllowed(true);
        try {
            command.parseArgs(args);
        } catch (CommandLine.UnmatchedArgumentException e) {
            throw new UsageException((e.getUnmatched().get(0).startsWith("-") ? "unknown option '" : "unknown argument '")
                    + e.getUnmatched().get(0) + "'");
        } catch (CommandLine.ParameterException e) {
            throw new UsageException(e.getMessage());
        }
        o.helpRequested = command.isUsageHelpRequested();
        o.versionRequested = command.isVersionHelpRequested();
        if (o.helpRequested || o.versionRequested) {
            return o;
        }
        o.check();
        return o;
    }

    private void check() throws UsageException {
        if (plan == null) {
            throw new UsageException("--plan: missing");
        }
        if (out == null) {
            throw new UsageException("--out: missing");
        }
        if (capacity.searching()) {
            capacity.check(steps, localProperties, globalProperties);
        } else if (steps.isEmpty()) {
            throw new UsageException("--steps / --step-file: no step given (or --search for a capacity search)");
        }
        if (jmeterHome == null) {
            throw new UsageException("--jmeter-home: missing (sweep.sh finds the one the build assembled)");
        }
        if (brokerPid > 0 && !brokerProcess.isEmpty()) {
            throw new UsageException("--broker-pid " + brokerPid + " and --broker-process '" + brokerProcess
                    + "': give one");
        }
        if (warmEngine && !remote.isEmpty()) {
            throw new UsageException("--warm-engine with --remote '" + String.join(",", remote) + "': give one (remote"
                    + " engines stay up between steps already)");
        }
        if (engineWarmUpGiven && !warmEngine) {
            throw new UsageException("--engine-warm-up " + engineWarmUpSeconds + ": only with --warm-engine (a fresh"
                    + " JVM per step would not keep what it warmed)");
        }
        capacity.checkCriteria();
        BrokerCpuSource.require(this);
        if (Files.isDirectory(out)) {
            try (var entries = Files.list(out)) {
                if (entries.findAny().isPresent()) {
                    throw new UsageException("--out '" + out + "': not empty; every sweep gets a directory of its own");
                }
            } catch (IOException e) {
                throw new UsageException("--out '" + out + "': " + e.getMessage());
            }
        } else if (Files.exists(out)) {
            throw new UsageException("--out '" + out + "': not a directory");
        }
        if (!clientsProperty.isEmpty()) {
            for (Step s : steps) {
                if (s.label == null && !s.properties.containsKey(clientsProperty)) {
                    throw new UsageException("--clients-property '" + clientsProperty + "': step '" + s.describe()
                            + "' does not set it (nor has a label)");
                }
            }
        }
    }

    private static void property(String option, String kv, Map<String, String> target) {
        int eq = kv.indexOf('=');
        if (eq <= 0) {
            throw invalid(option + " '" + kv + "': expected " + option + "name=value");
        }
        target.put(kv.substring(0, eq), kv.substring(eq + 1));
    }

    /** Thrown from an option's setter: picocli hands it on as the parse error, message unchanged. */
    static CommandLine.ParameterException invalid(String message) {
        return new CommandLine.ParameterException(new CommandLine(new SweepOptions()), message);
    }

    /**
     * {@code [label:]k=v,k=v;[label:]k=v...}. A label is what comes before the first ':' when that part holds no
     * '=', so a value such as {@code http://host} is no label.
     */
    static List<Step> parseSteps(String text) {
        List<Step> steps = new ArrayList<>();
        for (String raw : text.split(";", -1)) {
            String step = raw.trim();
            if (step.isEmpty()) {
                throw invalid("--steps '" + text + "': empty step (two ';' in a row, or one at the end)");
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
                    throw invalid("--steps '" + raw.trim() + "': '" + kv.trim() + "' is not name=value");
                }
                properties.put(kv.substring(0, eq).trim(), kv.substring(eq + 1).trim());
            }
            steps.add(new Step(label == null || label.isEmpty() ? null : label, properties));
        }
        return steps;
    }

    /** A Java properties file is one step; its name without extension is the label. */
    static Step stepFromFile(String file) {
        Path path = Path.of(file);
        Properties p = new Properties();
        try (Reader r = Files.newBufferedReader(path, StandardCharsets.UTF_8)) {
            p.load(r);
        } catch (IOException | IllegalArgumentException e) {
            throw invalid("--step-file '" + file + "': " + (Files.exists(path) ? "unreadable: " + e.getMessage()
                    : "no such file"));
        }
        if (p.isEmpty()) {
            throw invalid("--step-file '" + file + "': sets no property");
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

    static long number(String option, String v, long min, long max) {
        try {
            long n = Long.parseLong(v.trim());
            if (n < min || n > max) {
                throw invalid(option + " '" + v + "': out of range " + min + ".." + max);
            }
            return n;
        } catch (NumberFormatException e) {
            throw invalid(option + " '" + v + "': not a whole number");
        }
    }

    /** A decimal in (min, max], or [min, max] when {@code minIncluded}; the error names the option and the value. */
    static double decimal(String option, String v, double min, double max, boolean minIncluded) {
        double d;
        try {
            d = Double.parseDouble(v.trim());
        } catch (NumberFormatException e) {
            throw invalid(option + " '" + v + "': not a number");
        }
        if (Double.isNaN(d) || d > max || d < min || (!minIncluded && d == min)) {
            throw invalid(option + " '" + v + "': " + (max == Double.MAX_VALUE ? "must be " + (minIncluded ? "at least "
                    : "above ") + StepCriteria.plain(min) : "out of range " + (minIncluded ? "[" : "(")
                    + StepCriteria.plain(min) + ".." + StepCriteria.plain(max) + "]"));
        }
        return d;
    }

    static String nonEmpty(String option, String v) {
        if (v.trim().isEmpty()) {
            throw invalid(option + ": empty value");
        }
        return v.trim();
    }
}
