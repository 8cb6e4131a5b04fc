package io.mqttload.sweep;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;


import io.mqttload.common.PluginVersion;
import io.mqttload.engine.RunConfig;

/**
 * The sweep runner: one scenario at increasing sizes. Each step is one headless JMeter run of the plan (local,
 * or a controller with {@code -R} remote engines) with the step's properties, its own run id and its own
 * results directory; after the last step the run reports are collected into the scalability table and charts
 * ({@link SweepOutput}). Lives in the plugin jar, next to the report code it draws with, and runs on the
 * JMeter home's own libraries: whoever has the plugin in a JMeter home can sweep, and {@code sweep.sh} only
 * finds that home.
 */
public final class Sweep {
    private static final Duration STOP_GRACE = Duration.ofSeconds(15);
    private static final Pattern TEST_PLAN_TREE = Pattern.compile("</TestPlan>\\s*<hashTree>\\R?");

    private final SweepOptions o;
    private final PrintStream console;
    /** With --warm-engine: the one local engine every step runs on; null otherwise. */
    private WarmEngine engine;
    /** An unmeasured run before the first step: the broker is settled after it as after any step. */
    private boolean warmedUp;
    /** The step's JMeter while it runs: a sweep stopped by a signal stops it too (the finally blocks do not run). */
    private volatile Process running;

    Sweep(SweepOptions options, PrintStream console) {
        this.o = options;
        this.console = console;
    }

    public static void main(String[] args) {
        SweepOptions options;
        try {
            options = SweepOptions.parse(args);
            if (options.helpRequested || options.versionRequested) {
                System.out.print(options.helpRequested ? SweepOptions.usage()
                        : PluginVersion.text() + System.lineSeparator());
                System.exit(0);
                return;
            }
            if (!options.globalProperties.isEmpty() && options.remote.isEmpty()) {
                throw new SweepOptions.UsageException("-G" + options.globalProperties.keySet().iterator().next()
                        + ": -G properties go to remote engines; without --remote use -J");
            }
        } catch (SweepOptions.UsageException e) {
            System.err.println("sweep: " + e.getMessage());
            System.err.println("sweep: --help lists the options");
            System.exit(2);
            return;
        }
        try {
            System.exit(new Sweep(options, System.out).run());
        } catch (SweepOptions.UsageException e) {
            System.err.println("sweep: " + e.getMessage());
            System.exit(2);
        } catch (IOException e) {
            System.err.println("sweep: " + e);
            System.exit(1);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            System.err.println("sweep: interrupted");
            System.exit(1);
        }
    }

    /** Runs every step and writes the sweep's files; 0 when every step ended NO_LOSS, 1 otherwise. */
    int run() throws IOException, InterruptedException, SweepOptions.UsageException {
        Path jar = jmeterJar(o.jmeterHome);
        String archive = StartupArchive.problem(jar);
        if (!archive.isEmpty()) {
            console.println("sweep " + o.sweepId + ": JMeter starts without the start-up archive: " + archive);
        }
        Files.createDirectories(o.out);
        Path dir = o.out.toAbsolutePath().normalize();
        Path plan = preparePlan(dir);
        Thread hook = new Thread(() -> {
            Process p = running;
            if (p != null) {
                p.descendants().forEach(ProcessHandle::destroy);
                p.destroy();
            }
        }, "sweep-step-stop");
        Runtime.getRuntime().addShutdownHook(hook);
        try {
            if (o.warmEngine) {
                engine = WarmEngine.start(o, jar, dir.resolve("engine"), console);
            }
            return o.capacity.searching() ? search(jar, plan, dir) : sweep(jar, plan, dir);
        } finally {
            try {
                Runtime.getRuntime().removeShutdownHook(hook);
            } catch (IllegalStateException e) {
                // Shutting down: the hook runs now, which is what it is for.
            }
            if (engine != null) {
                engine.close();
            }
        }
    }

    private int sweep(Path jar, Path plan, Path dir) throws IOException, InterruptedException {
        if (!o.steps.isEmpty()) {
            warmUp(o.steps.get(0), jar, plan, dir);
        }
        Instant started = Instant.now().truncatedTo(ChronoUnit.SECONDS);
        List<StepResult> results = new ArrayList<>();
        boolean stop = false;
        for (int i = 0; i < o.steps.size(); i++) {
            SweepOptions.Step step = o.steps.get(i);
            int index = i + 1;
            StepResult.Builder b = new StepResult.Builder(index, o.label(step), step, o.sweepId + "-s" + index,
                    "step-" + index);
            if (stop) {
                results.add(b.skipped());
                continue;
            }
            settle(b, "sweep");
            console.printf(Locale.ROOT, "sweep %s: step %d/%d (%s) starting: %s%n", o.sweepId, index, o.steps.size(),
                    b.label, step.describe());
            runStep(b, jar, plan, dir.resolve(b.dir));
            StepResult r = b.judgedBy(o.capacity.criteria);
            results.add(r);
            console.printf(Locale.ROOT, "sweep %s: step %d/%d (%s) %s in %.0f s%s%n", o.sweepId, index, o.steps.size(),
                    r.label, r.status(), r.run.seconds, r.hasReport() ? String.format(Locale.ROOT,
                            ": %d clients, delivered %.1f msg/s, p99 %.3f ms", r.throughput.clients,
                            r.throughput.rates.receive, r.latency.pubToSubMillis(StepResult.P99)) : "");
            stop = !r.ok() && o.stopOnFailure;
        }
        SweepOutput output = new SweepOutput(o, results, started, Instant.now().truncatedTo(ChronoUnit.SECONDS));
        List<String> files = output.write(dir);
        console.print(firstTable(output.markdown()));
        console.println("sweep " + o.sweepId + ": wrote " + String.join(", ", files) + " in " + dir);
        return results.stream().allMatch(StepResult::ok) ? 0 : 1;
    }

    /**
     * The capacity search: each step is a run of the plan like a sweep step, at the value the search chose, with the
     * step's warm-up and duration; progress on the console as it goes, the answer and every step's row at the end.
     */
    private int search(Path jar, Path plan, Path dir) throws IOException, InterruptedException {
        Instant started = Instant.now().truncatedTo(ChronoUnit.SECONDS);
        CapacitySearch.Settings settings = o.capacity.settings;
        CapacitySearch search = new CapacitySearch(settings);
        List<StepResult> results = new ArrayList<>();
        List<StepResult> superseded = new ArrayList<>();
        console.printf(Locale.ROOT, "capacity %s: searching %s from %s (x%s up, then bisecting to %s %%); a step passes"
                + " when %s%n", o.sweepId, o.capacity.property, search.number(settings.start),
                StepCriteria.plain(settings.factor), StepCriteria.plain(settings.tolerancePercent),
                o.capacity.criteria.describe());
        warmUp(searchStep(search, settings.start, CapacitySearch.Phase.RAMP), jar, plan, dir);
        CapacitySearch.Result result = search.run((value, phase, repeat) -> {
            int index = results.size() + 1;
            SweepOptions.Step step = searchStep(search, value, phase);
            long seconds = phase == CapacitySearch.Phase.CONFIRM ? o.capacity.confirmSeconds : o.capacity.stepSeconds;
            String label = step.label;
            if (repeat) {
                superseded.add(results.get(results.size() - 1));
            }
            StepResult.Builder b = new StepResult.Builder(index, label, step, o.sweepId + "-s" + index, "step-" + index);
            settle(b, "capacity");
            console.printf(Locale.ROOT, "capacity %s: step %d (%s) %s for %d s; %s%n", o.sweepId, index,
                    repeat ? phase.title + ", repeated: step " + (index - 1) + "'s generator or machine was saturated"
                            : phase.title, label, seconds, soFar(search, results, superseded));
            runStep(b, jar, plan, dir.resolve(b.dir));
            StepResult r = b.judgedBy(o.capacity.criteria);
            results.add(r);
            console.printf(Locale.ROOT, "capacity %s: step %d %s %s in %.0f s%s%n", o.sweepId, index, label,
                    r.ok() ? "passed" : "failed: " + r.judgement.reasons(), r.run.seconds, r.hasReport()
                            ? String.format(Locale.ROOT, " (offered %.1f msg/s, delivered %.1f, p99 from intended %.1f ms)",
                                    r.load.offeredRate, r.throughput.deliveredRate, r.latency.intendedP99Millis) : "");
            return r;
        });
        CapacityOutput output = new CapacityOutput(o, search, result, started,
                Instant.now().truncatedTo(ChronoUnit.SECONDS));
        List<String> files = output.write(dir);
        console.print(firstTable(output.markdown()));
        console.println("capacity " + o.sweepId + ": " + output.verdict());
        if (!output.operatingPoint().isEmpty()) {
            console.println("capacity " + o.sweepId + ": " + output.operatingPoint());
        }
        console.println("capacity " + o.sweepId + ": wrote " + String.join(", ", files) + " in " + dir);
        return output.exitCode();
    }

    /**
     * Before every step but the first, with a local broker watched by PID: waits (bounded) for it to finish the step
     * before's work, and says how that went. With remote engines the PID is of the broker engine's host, not this one.
     */
    private void settle(StepResult.Builder r, String what) throws InterruptedException {
        if ((r.index == 1 && !warmedUp) || o.brokerPid <= 0 || o.settleSeconds <= 0 || !o.remote.isEmpty()) {
            return;
        }
        r.settle = BrokerSettle.await(o.brokerPid, o.settleSeconds);
        console.printf(Locale.ROOT, "%s %s: step %d: %s%n", what, o.sweepId, r.index, r.settle.describe());
    }

    /**
     * A search step's properties: the searched value, the duration (warm-up and measured seconds: longer for the
     * confirmation) and the warm-up; they go to the engines like a sweep step's.
     */
    SweepOptions.Step searchStep(CapacitySearch search, double value, CapacitySearch.Phase phase) {
        Map<String, String> properties = new LinkedHashMap<>();
        properties.put(o.capacity.property, search.number(value));
        long seconds = phase == CapacitySearch.Phase.CONFIRM ? o.capacity.confirmSeconds : o.capacity.stepSeconds;
        properties.put(o.capacity.durationProperty, Long.toString(o.capacity.warmupSeconds + seconds));
        properties.put(RunConfig.WARMUP_SECONDS, Long.toString(o.capacity.warmupSeconds));
        return new SweepOptions.Step(o.capacity.property + "=" + search.number(value), properties);
    }

    /** The table of every step's figures, from the Markdown written, for the console at the end. */
    static String firstTable(String markdown) {
        return markdown.lines().filter(l -> l.startsWith("|")).takeWhile(l -> !l.startsWith("| step | properties"))
                .reduce("", (a, b) -> a + b + "\n");
    }

    /**
     * What the search has found so far, for the progress line: the lowest fail (a disturbed step run again does not
     * count: its repeat does), and the highest pass below it.
     */
    private static String soFar(CapacitySearch search, List<StepResult> results, List<StepResult> superseded) {
        double pass = Double.NaN;
        double fail = Double.NaN;
        for (StepResult r : results) {
            double v = Double.parseDouble(r.step.properties.values().iterator().next());
            if (!r.ok() && !superseded.contains(r) && !(v >= fail)) {
                fail = v;
            }
        }
        for (StepResult r : results) {
            double v = Double.parseDouble(r.step.properties.values().iterator().next());
            if (r.ok() && !(v <= pass) && !(v >= fail)) {
                pass = v;
            }
        }
        if (Double.isNaN(pass) && Double.isNaN(fail)) {
            return "nothing found yet";
        }
        return (Double.isNaN(pass) ? "nothing passed yet" : "passed up to " + search.number(pass))
                + (Double.isNaN(fail) ? ", nothing failed yet" : ", failed from " + search.number(fail));
    }

    /**
     * With a warm engine: the first step's properties for --engine-warm-up seconds, all of it warm-up, in
     * {@code warm-up/}; not judged, not in the results. What a fresh engine compiles and loads at its first run is
     * paid here rather than in the first measured step.
     */
    private void warmUp(SweepOptions.Step first, Path jar, Path plan, Path dir) throws IOException, InterruptedException {
        if (engine == null || o.engineWarmUpSeconds == 0) {
            return;
        }
        StepResult.Builder b = new StepResult.Builder(0, "warm-up", WarmEngine.warmUpStep(o, first),
                o.sweepId + "-warm-up", "warm-up");
        console.printf(Locale.ROOT, "warm engine: warm-up run, %s%n", b.step.describe());
        runStep(b, jar, plan, dir.resolve(b.dir));
        console.printf(Locale.ROOT, "warm engine: warm-up run %s in %.0f s (not measured)%n", b.timedOut ? "timed out"
                : "ended with exit code " + b.exitCode, b.seconds);
        warmedUp = true;
    }

    private void runStep(StepResult.Builder r, Path jar, Path plan, Path stepDir) throws IOException, InterruptedException {
        Files.createDirectories(stepDir);
        if (engine != null) {
            engine = engine.orAnother(o, jar);
        }
        List<String> command = command(r, jar, plan, stepDir);
        Files.writeString(stepDir.resolve("command.txt"), String.join(" ", command) + "\n", StandardCharsets.UTF_8);
        long t0 = System.nanoTime();
        Process p = new ProcessBuilder(command).directory(stepDir.toFile()).redirectErrorStream(true)
                .redirectOutput(stepDir.resolve("jmeter.out").toFile()).start();
        running = p;
        try {
            if (p.waitFor(o.stepTimeoutSeconds, TimeUnit.SECONDS)) {
                r.exitCode = p.exitValue();
            } else {
                r.timedOut = true;
            }
        } finally {
            stop(p);
            running = null;
            r.seconds = (System.nanoTime() - t0) / 1e9;
            if (r.timedOut && engine != null) {
                // The controller was stopped, not the run it started there: the engine would still be busy with it.
                engine.close();
            }
        }
        Path report = stepDir.resolve("report-" + r.runId + ".json");
        if (Files.isRegularFile(report)) {
            r.readReport(o.out.toAbsolutePath().normalize(), report);
        }
    }

    /** Set by preparePlan when the plan's own monitor reads broker.* properties. */
    private boolean brokerByProperties;

    /** A step's JVM settings: --heap, the start-up archive next to {@code jar}, then --jvm-arg. */
    static List<String> jvmSettings(SweepOptions o, Path jar) {
        List<String> a = new ArrayList<>();
        for (String h : o.heap.split("\\s+")) {
            if (!h.isEmpty()) {
                a.add(h);
            }
        }
        // Before the user's --jvm-arg, so that -Xshare:off or an archive of their own wins.
        a.addAll(StartupArchive.jvmArgs(jar));
        a.addAll(o.jvmArgs);
        return a;
    }

    List<String> command(StepResult.Builder r, Path jar, Path plan, Path stepDir) {
        List<String> c = new ArrayList<>();
        c.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        c.addAll(jvmSettings(o, jar));
        List<String> hosts = engine == null ? o.remote : List.of(engine.address());
        if (engine != null) {
            // The engine calls the controller back on this address, on loopback like itself.
            c.add("-Djava.rmi.server.hostname=" + WarmEngine.HOST);
        }
        c.addAll(List.of("-jar", jar.toString(), "-n", "-t", plan.toString(), "-j", stepDir.resolve("jmeter.log")
                .toString(), "-l", stepDir.resolve("results.jtl").toString()));
        for (Path q : o.propertyFiles) {
            c.addAll(List.of("-q", q.toAbsolutePath().toString()));
        }
        if (engine != null) {
            c.addAll(List.of("-q", engine.rmiProperties.toString()));
        }
        Map<String, String> local = new LinkedHashMap<>(o.localProperties);
        local.putAll(brokerProperties());
        local.putAll(r.step.properties);
        local.put("mqttload.runId", r.runId);
        local.put("mqttload.resultsDir", stepDir.toString());
        local.forEach((k, v) -> c.add("-J" + k + "=" + v));
        if (!hosts.isEmpty()) {
            c.addAll(List.of("-R", String.join(",", hosts)));
            Map<String, String> global = new LinkedHashMap<>();
            // The barriers wait for threads x engines: without it a multi-engine run would release too early.
            global.put(RunConfig.ENGINES, Integer.toString(hosts.size()));
            // The plan runs on the engines, not here: what the user set for every step (-J, -q) goes to them too, or
            // a -Jmqtt.port would reach only the controller and every engine would connect to the plan's default.
            global.putAll(o.localProperties);
            global.putAll(o.globalProperties);
            global.putAll(brokerProperties());
            global.putAll(r.step.properties);
            global.put("mqttload.runId", r.runId);
            if (engine != null) {
                // The engine is on this machine: its summaries go next to the step's report, as a local step's do.
                global.put(RunConfig.RESULTS_DIR, stepDir.toString());
            }
            for (Path q : o.propertyFiles) {
                // -G with a file name sends the file's properties to every engine.
                c.add("-G" + q.toAbsolutePath());
            }
            global.forEach((k, v) -> c.add("-G" + k + "=" + v));
        }
        return c;
    }

    /**
     * The plan as run: the given file, or with --broker-pid / --broker-process a copy in the sweep directory with
     * an MQTT Broker Monitor at test-plan level, so that any plan gets broker CPU and memory without editing it.
     */
    Path preparePlan(Path dir) throws IOException, SweepOptions.UsageException {
        Path plan = o.plan.toAbsolutePath().normalize();
        if (!o.monitorsBroker()) {
            return plan;
        }
        String xml = Files.readString(plan, StandardCharsets.UTF_8);
        String option = o.brokerPid > 0 ? "--broker-pid" : "--broker-process";
        if (xml.contains("testclass=\"io.mqttload.jmeter.MqttBrokerMonitor\"")) {
            if (!xml.contains("__P(broker.pid") && !xml.contains("__P(broker.process")) {
                throw new SweepOptions.UsageException(option + ": the plan '" + o.plan + "' has an MQTT Broker Monitor"
                        + " of its own that reads neither broker.pid nor broker.process; set the broker there instead");
            }
            // The shipped plans carry a monitor driven by broker.* properties: the sweep sets those instead.
            brokerByProperties = true;
            return plan;
        }
        Matcher m = TEST_PLAN_TREE.matcher(xml);
        if (!m.find()) {
            throw new SweepOptions.UsageException("--plan '" + o.plan + "': no TestPlan element to add the broker monitor to");
        }
        String name = String.valueOf(plan.getFileName()).replaceAll("\\.jmx$", "");
        Path copy = dir.resolve(name + "-broker-monitor.jmx");
        Files.writeString(copy, xml.substring(0, m.end()) + monitorXml() + xml.substring(m.end()), StandardCharsets.UTF_8);
        return copy;
    }

    /** The broker.* properties of the shipped plans' own monitor, when the plan has one (see preparePlan). */
    private Map<String, String> brokerProperties() {
        Map<String, String> p = new LinkedHashMap<>();
        if (brokerByProperties) {
            p.put("broker.name", o.brokerName);
            if (o.brokerPid > 0) {
                p.put("broker.pid", Long.toString(o.brokerPid));
            } else {
                p.put("broker.process", o.brokerProcess);
            }
            if (!o.brokerEngine.isEmpty()) {
                p.put("broker.engines", o.brokerEngine);
            }
        }
        return p;
    }

    private String monitorXml() {
        Map<String, String> p = new LinkedHashMap<>();
        p.put("agent", "false");
        p.put("brokerName", o.brokerName);
        p.put("engineFilter", o.brokerEngine);
        p.put("intervalSeconds", "1");
        p.put("pid", o.brokerPid > 0 ? Long.toString(o.brokerPid) : "");
        p.put("pidFile", "");
        p.put("processName", o.brokerProcess);
        // CPU and memory from /proc are what the sweep plots; $SYS is left to plans that ask for it.
        p.put("sysHost", "");
        p.put("sysPort", "1883");
        p.put("sysTopics", "false");
        StringBuilder x = new StringBuilder("      <io.mqttload.jmeter.MqttBrokerMonitor guiclass=\"TestBeanGUI\""
                + " testclass=\"io.mqttload.jmeter.MqttBrokerMonitor\" testname=\"MQTT Broker Monitor (sweep)\""
                + " enabled=\"true\">\n");
        p.forEach((k, v) -> x.append("        <stringProp name=\"").append(k).append("\">").append(xmlText(v))
                .append("</stringProp>\n"));
        x.append("      </io.mqttload.jmeter.MqttBrokerMonitor>\n      <hashTree/>\n");
        return x.toString();
    }

    private static String xmlText(String s) {
        return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;");
    }

    static Path jmeterJar(Path home) throws IOException, SweepOptions.UsageException {
        try (var files = Files.list(home.resolve("bin"))) {
            return files.filter(f -> f.getFileName().toString().matches("ApacheJMeter(-.*)?\\.jar")).findFirst()
                    .orElseThrow(() -> new SweepOptions.UsageException("--jmeter-home '" + home
                            + "': no bin/ApacheJMeter*.jar there"));
        }
    }

    /** SIGTERM to JMeter and anything it started, SIGKILL after a grace period: a step never outlives its timeout long. */
    private static void stop(Process p) throws InterruptedException {
        if (!p.isAlive()) {
            return;
        }
        p.descendants().forEach(ProcessHandle::destroy);
        p.destroy();
        try {
            p.onExit().get(STOP_GRACE.toMillis(), TimeUnit.MILLISECONDS);
        } catch (TimeoutException | ExecutionException e) {
            p.descendants().forEach(ProcessHandle::destroyForcibly);
            p.destroyForcibly();
            p.onExit().orTimeout(STOP_GRACE.toMillis(), TimeUnit.MILLISECONDS);
        }
    }
}
