package io.mqttload.testsupport;

import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.locks.ReentrantLock;

import org.apache.jmeter.JMeter;
import org.apache.jmeter.engine.JMeterEngineException;
import org.apache.jmeter.engine.StandardJMeterEngine;
import org.apache.jmeter.engine.TreeCloner;
import org.apache.jmeter.engine.util.NoThreadClone;
import org.apache.jmeter.samplers.SampleEvent;
import org.apache.jmeter.samplers.SampleListener;
import org.apache.jmeter.samplers.SampleResult;
import org.apache.jmeter.save.SaveService;
import org.apache.jmeter.testelement.AbstractTestElement;
import org.apache.jmeter.testelement.TestPlan;
import org.apache.jmeter.testelement.TestStateListener;
import org.apache.jmeter.threads.JMeterContextService;
import org.apache.jmeter.util.JMeterUtils;
import org.apache.jorphan.collections.HashTree;
import org.apache.jorphan.collections.ListedHashTree;

/**
 * Runs real JMeter test plans inside the test JVM, the way {@code jmeter -n} does, and hands back every sample.
 *
 * <p>JMeter keeps its state in statics (properties, the running engine, thread counters), so runs are
 * serialised JVM-wide and that state is reset after each run; two runs in a row, or two test classes in one
 * JVM, do not see each other.
 */
public final class JMeterTestEngine {
    /** System property naming the unpacked JMeter home; Surefire sets it to {@code target/jmeter-home}. */
    public static final String HOME_PROPERTY = "jmeter.home";

    // Fallback for IDE runs that do not copy Surefire's system properties, with the module as working directory.
    private static final Path DEFAULT_HOME = Paths.get("target", "jmeter-home");
    // After a timeout JMeter interrupts its threads; a sampler that ignores interrupts gets this long.
    private static final Duration STOP_GRACE = Duration.ofSeconds(30);
    private static final ReentrantLock RUN_LOCK = new ReentrantLock();
    private static volatile boolean initialised;

    private JMeterTestEngine() {
    }

    /**
     * Points JMeter at its home, loads {@code bin/jmeter.properties} and the locale, and makes
     * {@link SaveService} find {@code bin/saveservice.properties}. Idempotent and thread-safe.
     */
    public static void initialise() {
        if (initialised) {
            return;
        }
        synchronized (JMeterTestEngine.class) {
            if (initialised) {
                return;
            }
            Path home = home();
            Path bin = home.resolve("bin");
            Path properties = bin.resolve("jmeter.properties");
            // loadJMeterProperties silently falls back to a classpath copy that lacks saveservice.properties.
            if (!Files.isReadable(properties)) {
                throw new IllegalStateException("JMeter home " + home + " has no bin/jmeter.properties: run the tests"
                        + " through Maven (generate-test-resources unpacks it) or set -D" + HOME_PROPERTY);
            }
            JMeterUtils.setJMeterHome(home.toString());
            JMeterUtils.loadJMeterProperties(properties.toString());
            Properties props = JMeterUtils.getJMeterProperties();
            props.setProperty("saveservice_properties", bin.resolve("saveservice.properties").toString());
            // Read once when StandardJMeterEngine is loaded: a test that cannot stop must fail, not exit the JVM.
            props.setProperty("jmeterengine.stopfail.system.exit", "false");
            props.setProperty("jmeterengine.force.system.exit", "false");
            // Resource strings in results and exceptions must not depend on the machine's locale.
            if (props.getProperty("language") == null) {
                props.setProperty("language", Locale.ENGLISH.getLanguage());
            }
            JMeterUtils.initLocale();
            initialised = true;
        }
    }

    private static Path home() {
        String configured = System.getProperty(HOME_PROPERTY);
        Path home = configured == null || configured.trim().isEmpty() ? DEFAULT_HOME : Paths.get(configured);
        return home.toAbsolutePath().normalize();
    }

    /** Runs {@code plan} with the JMeter properties it already has. */
    public static RunResult run(HashTree plan, Duration timeout) {
        return run(plan, timeout, Collections.emptyMap());
    }

    /**
     * Runs {@code plan} (not modified) until it ends and returns every top-level sample. {@code properties} are
     * JMeter properties, readable in the plan as {@code ${__P(name)}}, set for this run only.
     *
     * @throws AssertionError when the plan does not end within {@code timeout}, or JMeter aborts it
     */
    public static RunResult run(HashTree plan, Duration timeout, Map<String, String> properties) {
        initialise();
        long deadline = System.nanoTime() + timeout.toNanos();
        try {
            if (!RUN_LOCK.tryLock(timeout.toNanos(), TimeUnit.NANOSECONDS)) {
                throw new AssertionError("another JMeter run kept the engine busy for " + timeout);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted while waiting for the JMeter engine", e);
        }
        Map<String, Object> previous = new HashMap<>();
        try {
            setProperties(properties, previous);
            return runLocked(plan, timeout, Duration.ofNanos(Math.max(0, deadline - System.nanoTime())));
        } finally {
            restoreProperties(previous);
            // A run that failed early skips JMeter's own reset, and the next run would inherit "test running".
            JMeterContextService.endTest();
            RUN_LOCK.unlock();
        }
    }

    private static RunResult runLocked(HashTree plan, Duration timeout, Duration remaining) {
        HashTree tree = prepare(plan);
        SampleCapture capture = new SampleCapture();
        tree.add(tree.getArray()[0], capture);

        StandardJMeterEngine engine = new StandardJMeterEngine();
        engine.configure(tree);
        long started = System.nanoTime();
        try {
            engine.runTest();
            engine.awaitTermination(remaining);
        } catch (TimeoutException e) {
            engine.stopTest(true);
            String stopped = awaitStop(engine);
            throw new AssertionError(String.format(Locale.ROOT,
                    "JMeter plan did not end within %s (%s); %d samples so far:%n%s", timeout, stopped,
                    capture.size(), new RunResult(capture.samples(), elapsedSince(started)).describe()), e);
        } catch (ExecutionException e) {
            throw new AssertionError("JMeter aborted the run: " + e.getCause(), e.getCause());
        } catch (InterruptedException e) {
            engine.stopTest(true);
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted while JMeter was running", e);
        } catch (JMeterEngineException e) {
            throw new AssertionError("JMeter could not start the run", e);
        }
        RunResult result = new RunResult(capture.samples(), elapsedSince(started));
        if (!capture.ended) {
            // StandardJMeterEngine only logs some failures (e.g. compiling the tree) and returns early.
            throw new AssertionError("JMeter ended the run before notifying test listeners; see the log. " + result);
        }
        return result;
    }

    private static String awaitStop(StandardJMeterEngine engine) {
        try {
            engine.awaitTermination(STOP_GRACE);
            return "stopped it";
        } catch (TimeoutException e) {
            return "its threads ignored the stop request for " + STOP_GRACE.getSeconds() + " s";
        } catch (ExecutionException e) {
            return "stopping it failed: " + e.getCause();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "interrupted while stopping it";
        }
    }

    private static Duration elapsedSince(long startNanos) {
        return Duration.ofNanos(System.nanoTime() - startNanos);
    }

    /** A deep copy with disabled elements removed and controllers resolved, as {@code jmeter -n} runs it. */
    private static HashTree prepare(HashTree plan) {
        Object[] roots = plan.getArray();
        if (roots.length != 1 || !(roots[0] instanceof TestPlan)) {
            throw new IllegalArgumentException("the tree's single root must be a TestPlan, found " + plan.list());
        }
        // convertSubTree edits the tree it is given; the caller's plan stays reusable.
        TreeCloner cloner = new TreeCloner(false);
        plan.traverse(cloner);
        ListedHashTree copy = cloner.getClonedTree();
        return JMeter.convertSubTree(copy, true);
    }

    private static void setProperties(Map<String, String> properties, Map<String, Object> previous) {
        Properties props = JMeterUtils.getJMeterProperties();
        for (Map.Entry<String, String> property : properties.entrySet()) {
            // get, not getProperty: the latter falls back to system properties, which are not JMeter's own.
            previous.put(property.getKey(), props.get(property.getKey()));
            props.setProperty(property.getKey(), property.getValue());
        }
    }

    private static void restoreProperties(Map<String, Object> previous) {
        Properties props = JMeterUtils.getJMeterProperties();
        for (Map.Entry<String, Object> property : previous.entrySet()) {
            if (property.getValue() == null) {
                props.remove(property.getKey());
            } else {
                props.put(property.getKey(), property.getValue());
            }
        }
    }

    /** Reads a .jmx file, as JMeter's GUI or {@code jmeter -n -t} would. */
    public static HashTree load(Path jmx) {
        initialise();
        try {
            HashTree tree = SaveService.loadTree(jmx.toFile());
            if (tree == null) {
                // SaveService returns null, after logging why, for XML it cannot map to test elements.
                throw new IllegalArgumentException("JMeter could not read " + jmx + "; see the log");
            }
            return tree;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot load " + jmx, e);
        }
    }

    /** Writes {@code plan} as a .jmx file that JMeter's GUI can open. */
    public static void save(HashTree plan, Path jmx) {
        initialise();
        try {
            Path parent = jmx.toAbsolutePath().getParent();
            if (parent != null) {
                Files.createDirectories(parent);
            }
            try (OutputStream out = Files.newOutputStream(jmx)) {
                SaveService.saveTree(plan, out);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot save " + jmx, e);
        }
    }

    /**
     * Collects the samples of all threads. {@link NoThreadClone} makes every JMeter thread report to this one
     * instance instead of to a per-thread copy.
     */
    public static final class SampleCapture extends AbstractTestElement
            implements SampleListener, TestStateListener, NoThreadClone {
        private static final long serialVersionUID = 1L;

        private final transient ConcurrentLinkedQueue<SampleResult> samples = new ConcurrentLinkedQueue<>();
        private transient volatile boolean ended;

        public SampleCapture() {
            setName("mqttload test sample capture");
        }

        @Override
        public void sampleOccurred(SampleEvent event) {
            samples.add(event.getResult());
        }

        @Override
        public void sampleStarted(SampleEvent event) {
            // Only finished samples carry results.
        }

        @Override
        public void sampleStopped(SampleEvent event) {
            // Only finished samples carry results.
        }

        @Override
        public void testStarted() {
            ended = false;
        }

        @Override
        public void testStarted(String host) {
            testStarted();
        }

        @Override
        public void testEnded() {
            ended = true;
        }

        @Override
        public void testEnded(String host) {
            testEnded();
        }

        int size() {
            return samples.size();
        }

        List<SampleResult> samples() {
            return List.copyOf(samples);
        }
    }
}
