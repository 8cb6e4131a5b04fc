package io.mqttload.engine;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

import org.HdrHistogram.Histogram;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.mqttload.broker.BrokerMonitor;
import io.mqttload.client.ConnectionSettings;
import io.mqttload.client.Errors;
import io.mqttload.client.HiveMqConnector;
import io.mqttload.client.MqttConnector;
import io.mqttload.clock.ClockFigures;
import io.mqttload.delivery.DeliveryLedger;
import io.mqttload.measure.Count;
import io.mqttload.measure.MicroClock;
import io.mqttload.measure.EngineMetrics;
import io.mqttload.measure.Interval;
import io.mqttload.measure.Latency;
import io.mqttload.measure.LatencyStats;
import io.mqttload.measure.SamplerMetrics;
import io.mqttload.rendezvous.Rendezvous;
import io.mqttload.summary.RunSummary;
import io.mqttload.summary.WindowCounts;

/**
 * Everything one engine holds for one run: the operations' {@link RunContext} (configuration, metrics, delivery
 * ledger, clients), the rendezvous clients, broker monitors, interval listeners and the metrics ticker, and the end of
 * the run (drain, close, summary). Made when the test starts and shut down when it ends, whatever stopped the
 * threads, so that two runs in one JVM share nothing; which one is running is the JMeter side's to hold.
 */
public final class EngineRuntime {
    private static final Logger log = LoggerFactory.getLogger(EngineRuntime.class);

    private final RunConfig config;
    private final EngineMetrics metrics = new EngineMetrics();
    private final Timeline timeline = new Timeline(metrics);
    private final DeliveryLedger ledger;
    private final RunContext context;
    private final RunClients clients;
    private final ConcurrentHashMap<String, Integer> threadGroupNumbers = new ConcurrentHashMap<>();
    private final AtomicInteger nextThreadGroupNumber = new AtomicInteger();
    /** Rendezvous clients by broker: one per engine for each broker barriers go through. */
    private final ConcurrentHashMap<String, Rendezvous> rendezvous = new ConcurrentHashMap<>();
    /** Why the rendezvous client of a broker could not connect, by broker: told to every later thread at once. */
    private final ConcurrentHashMap<String, String> rendezvousFailures = new ConcurrentHashMap<>();
    /** Clock offsets to the run's reference engine, through the first rendezvous's broker. */
    private final EngineClock clock;
    private final Set<String> reportedOnce = ConcurrentHashMap.newKeySet();
    private volatile boolean stopRequested;
    private volatile String invalidAtStart;
    private volatile Map<String, String> engineFacts = Map.of();
    private volatile Map<String, String> parameters = Map.of();
    private final BrokerWatch brokers;
    private final List<IntervalListener> intervalListeners = new CopyOnWriteArrayList<>();
    private final ScheduledExecutorService ticker;
    private final long startedAtMillis = System.currentTimeMillis();
    private final long startedAtNanos = System.nanoTime();
    private final PrintStream console;
    private volatile long warmupEndPublished;
    private volatile long warmupEndReceived;
    /** Publishes in flight where the measured counts were taken: the window's start. */
    private volatile long warmupEndInFlight;
    /** When the measured counts were taken (ms since the run's start), or -1 before: the measured window's start. */
    private volatile long measuredFromMillis = -1;
    private volatile boolean warmupOver;
    /** Elapsed ms at which production started (the first barrier released), or -1: then the test start counts. */
    private volatile long productionStartMillis = -1;
    private volatile long lastPublishEndMillis = -1;
    /** {@link System#nanoTime()} at the last Publish sample's end: tells a cut taken after it from one taken before. */
    private volatile long lastPublishEndNanos;
    /** The window's counts where production ended, or null: see {@link #draining()}. Guarded by {@code this}. */
    private WindowCut cut;
    private final ProgressReport progress;
    private final GeneratorLoad generatorLoad = new GeneratorLoad();
    private final PublishSchedule publishSchedule = new PublishSchedule();
    private volatile boolean disconnectStarted;

    /** Starts a run on the network: its metrics ticker runs from now until {@link #shutdown()}. */
    public EngineRuntime(RunConfig config, PrintStream console) {
        this(config, console, HiveMqConnector.INSTANCE);
    }

    /** Starts a run whose every connection goes through {@code connector} (tests give an in-memory broker's). */
    public EngineRuntime(RunConfig config, PrintStream console, MqttConnector connector) {
        this.config = config;
        this.brokers = new BrokerWatch(connector);
        this.console = console;
        this.progress = new ProgressReport(metrics, config.engineId());
        this.ledger = new DeliveryLedger(config.engineNumber());
        ledger.sharedGroupsSpanEngines(config.engines() > 1);
        metrics.pubToSubPairs.ownEngine(config.engineNumber());
        this.clock = new EngineClock(config, connector, metrics.pubToSubPairs);
        this.context = new RunContext(config, connector, metrics, ledger, this::disconnecting, this::draining,
                clock::firstConnection);
        this.clients = context.clients();
        this.warmupOver = config.warmupMillis() == 0;
        this.ticker = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "mqttload-metrics-" + config.engineId());
            t.setDaemon(true);
            return t;
        });
        ticker.scheduleAtFixedRate(this::tick, 1, 1, TimeUnit.SECONDS);
        log.info("MQTT run {} started on engine {} (engine number {}), scenario {}", config.runId(), config.engineId(),
                config.engineNumber(), config.scenario());
    }

    /**
     * Ends a run whose start failed before any element could use it: its ticker stops; nothing was measured, so
     * nothing is drained or written.
     */
    public void abandon() {
        ticker.shutdownNow();
    }

    /** What the operations of this run work with. */
    public RunContext context() {
        return context;
    }

    public RunConfig config() {
        return config;
    }

    public void addIntervalListener(IntervalListener listener) {
        intervalListeners.add(listener);
    }

    /** Tells every interval listener that {@code type} happened now (see {@link IntervalListener#onEvent}). */
    public void event(String type, String text) {
        long now = System.currentTimeMillis();
        for (IntervalListener l : intervalListeners) {
            try {
                l.onEvent(type, text, now);
            } catch (RuntimeException e) {
                log.warn("MQTT event '{}' not recorded: {}", type, Errors.describe(e));
            }
        }
    }

    /** A number for a thread group, unique on this engine, in the order thread groups first used MQTT. */
    public int threadGroupNumber(String threadGroupName) {
        return threadGroupNumbers.computeIfAbsent(threadGroupName, k -> nextThreadGroupNumber.incrementAndGet());
    }

    /**
     * Production begins when the first rendezvous releases the threads: the warm-up and the measured
     * window count from here, so however long connecting took, it is neither warm-up nor measured.
     */
    public void productionStarted(String why) {
        synchronized (this) {
            if (productionStartMillis >= 0) {
                return;
            }
            productionStartMillis = elapsedMillis();
            warmupEndPublished = metrics.sum(Count.ACKNOWLEDGED);
            warmupEndReceived = metrics.sum(Count.RECEIVED);
            warmupEndInFlight = clients.inFlight();
            warmupOver = config.warmupMillis() == 0;
            measuredFromMillis = warmupOver ? productionStartMillis : -1;
        }
        clock.productionStarted();
        log.info("MQTT production started at {} s ({}); warm-up of {} s from now", productionStartMillis / 1000.0, why,
                config.warmupMillis() / 1000);
        event("phase", "production started (" + why + "); warm-up " + config.warmupMillis() / 1000 + " s");
    }

    private long productionStart() {
        return Math.max(0, productionStartMillis);
    }

    /** The measured window's start: where the measured counts were taken, or the nominal warm-up end before that. */
    private long measuredFrom() {
        long from = measuredFromMillis;
        return from >= 0 ? from : productionStart() + config.warmupMillis();
    }

    /** A Publish sample ended: production lasts until the last one, not until the run's end. */
    public void publishSampleEnded() {
        lastPublishEndNanos = System.nanoTime();
        lastPublishEndMillis = TimeUnit.NANOSECONDS.toMillis(lastPublishEndNanos - startedAtNanos);
        // Without a rendezvous the first publish is production's start for the clock exchange's bounded wait.
        clock.productionStarted();
    }

    /**
     * The first MQTT Disconnect of the run begins: the steady phase is over for the broker too. A sample taken now
     * closes the broker's measured window, so the CPU of thousands of clients disconnecting is not its steady load.
     */
    private void disconnecting() {
        disconnectStarted = true;
        brokers.disconnecting();
    }

    /**
     * An MQTT Disconnect begins to wait for its subscribers' messages: production is over if no Publish sample ends
     * after this, and the window's counts are cut here, so that a backlog the broker delivers during the plan's own
     * drain is the drain's and not the window's. A cut that a later Publish sample (subscribers disconnected while
     * others still publish) or the warm-up's end made early is taken again at the next drain, or at the run's end.
     */
    private void draining() {
        synchronized (this) {
            if (cut != null && cutEndsProduction(cut)) {
                return;
            }
            cut = cutNow();
        }
        event("phase", "production over: an MQTT Disconnect drains its subscribers; what arrives from now on is the"
                + " drain's");
    }

    /** The window's counts now. */
    private WindowCut cutNow() {
        long nanos = System.nanoTime();
        return new WindowCut(nanos, TimeUnit.NANOSECONDS.toMillis(nanos - startedAtNanos),
                metrics.sum(Count.ACKNOWLEDGED), metrics.sum(Count.RECEIVED), clients.inFlight());
    }

    /** Whether {@code c} was taken in the measured window and after the last Publish sample's end. */
    private boolean cutEndsProduction(WindowCut c) {
        return c.atMillis >= measuredFrom() && (lastPublishEndMillis < 0 || c.atNanos - lastPublishEndNanos >= 0);
    }

    /**
     * Facts about this engine (machine, JVM, JMeter) and the plan's parameters as this engine resolved
     * them, for the run report; set by the JMeter side, which knows them.
     */
    public void describe(Map<String, String> facts, Map<String, String> planParameters) {
        engineFacts = new LinkedHashMap<>(facts);
        parameters = new LinkedHashMap<>(planParameters);
    }

    /** Starts monitoring a broker for this run; its samples go to the interval listeners, its figures to the summary. */
    public void addBrokerMonitor(BrokerMonitor.Settings settings) {
        String clientId = "mon-" + Integer.toHexString(config.engineNumber()) + "-"
                + Integer.toHexString((config.runId() + "/" + settings.name).hashCode());
        brokers.add(settings, clientId, sample -> {
            timeline.addBroker(settings.name, sample);
            for (IntervalListener l : intervalListeners) {
                l.onBrokerSample(settings.name, sample);
            }
        }, console);
    }

    /** Notes that an MQTT element asked JMeter to stop the test (a barrier that timed out). */
    public void requestStop() {
        stopRequested = true;
    }

    public boolean isStopRequested() {
        return stopRequested;
    }

    /**
     * Notes that an element's setting was found invalid at test start: the plan cannot run as written, and the
     * elements stop the test at once (the first {@code why} is kept).
     */
    public void invalidAtStart(String why) {
        synchronized (this) {
            if (invalidAtStart == null) {
                invalidAtStart = why;
            }
        }
    }

    /** Why the plan cannot run as written, found at test start, or null. */
    public String invalidAtStart() {
        return invalidAtStart;
    }

    /**
     * Notes, the first time it is seen, that JMeter was asked to stop the test before the plan's end: the summary keeps
     * when ({@link Count#STOPPED_AT_MILLIS}), so the verdict cannot read a run cut short as a clean one.
     */
    public void stoppedBeforePlanEnd() {
        if (firstTime("stopped before the plan's end")) {
            long at = Math.max(1, elapsedMillis());
            metrics.peak(Count.STOPPED_AT_MILLIS, at);
            event("stopped", String.format(Locale.ROOT, "JMeter was asked to stop the test at %.1f s, before the plan's end",
                    at / 1000.0));
        }
    }

    /** True the first time {@code key} is asked in this run: for problems every thread hits, reported once. */
    public boolean firstTime(String key) {
        return reportedOnce.add(key);
    }

    /**
     * This engine's rendezvous client for the broker of {@code settings}, connected on first use, trying again for up
     * to {@code patienceMillis} while the broker gives no answer. A client that could not connect is not tried again by
     * every thread that arrives after (each would wait its own timeout, and the test's stop with them): they get the
     * first one's failure at once.
     *
     * @throws IllegalStateException naming the broker and why
     */
    public Rendezvous rendezvous(ConnectionSettings settings, long patienceMillis) {
        String key = settings.describe();
        // A failed client stays out of the map, so every later thread comes in here, one at a time, and finds it.
        return rendezvous.computeIfAbsent(key, k -> {
            String failed = rendezvousFailures.get(key);
            if (failed != null) {
                throw new IllegalStateException(failed);
            }
            Rendezvous r;
            try {
                r = new Rendezvous(context.connector(), settings, config.runId(), config.runIdSource().shared(),
                        config.runIdSource().describe(), config.engineId(), config.engineNumber(), patienceMillis);
            } catch (IllegalStateException e) {
                rendezvousFailures.putIfAbsent(key, e.getMessage());
                throw e;
            }
            // Before the first announcement: see EngineClock.start.
            clock.start(settings);
            return r;
        });
    }

    /** Whether the warm-up is over: what happens from now on counts in the figures. */
    public boolean measuring() {
        return warmupOver;
    }

    /** What the figures of this moment are: "warm-up", "steady", or "ending" (disconnecting and draining). */
    public String phase() {
        if (disconnectStarted) {
            return "ending";
        }
        return warmupOver ? "steady" : "warm-up";
    }

    /** The plan's publishing schedule, as its throughput timers set it, checked every second. */
    public PublishSchedule publishSchedule() {
        return publishSchedule;
    }

    public long elapsedMillis() {
        return TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - startedAtNanos);
    }

    private void tick() {
        try {
            long elapsed = elapsedMillis();
            Interval interval;
            if (!warmupOver && elapsed - productionStart() >= config.warmupMillis()) {
                // Counts and histograms cut at one instant: the interval closed now is the warm-up's last second and
                // stays out of the run's histograms, as its messages stay out of the measured counts taken here.
                warmupEndPublished = metrics.sum(Count.ACKNOWLEDGED);
                warmupEndReceived = metrics.sum(Count.RECEIVED);
                warmupEndInFlight = clients.inFlight();
                interval = takeInterval(false);
                // Up to a tick after the nominal end: the rates divide the counts taken now by the time from now.
                measuredFromMillis = elapsed;
                publishSchedule.measuredFrom(MicroClock.nowMicros());
                warmupOver = true;
                log.info("MQTT warm-up of {} s over: figures from now on count", config.warmupMillis() / 1000);
                event("phase", "warm-up of " + config.warmupMillis() / 1000 + " s over: steady phase, figures count");
            } else {
                interval = takeInterval(warmupOver);
            }
            // Only the steady phase (production begun, before the first Disconnect): connecting thousands of clients
            // saturates a generator and is not what the figures measure.
            boolean steady = warmupOver && !disconnectStarted && (productionStartMillis >= 0 || metrics.sum(Count.PUBLISHED) > 0);
            generatorLoad.tick(metrics, steady, text -> event("saturation", text));
            publishSchedule.tick(metrics, steady, text -> event("schedule", text));
            String errors = progress.newErrors();
            if (errors != null) {
                event("errors", errors);
            }
            timeline.add(interval.endMillis, interval.of(Latency.PUB_TO_SUB), interval.of(Latency.PUBLISH));
            for (IntervalListener l : intervalListeners) {
                l.onInterval(interval);
            }
            if (config.progressMillis() > 0 && elapsed / 1000 % Math.max(1, config.progressMillis() / 1000) == 0) {
                console.println(progress.line(interval, elapsed, warmupOver));
            }
        } catch (RuntimeException e) {
            log.error("MQTT metrics interval failed", e);
        }
    }

    private Interval takeInterval(boolean countInTotal) {
        return metrics.takeInterval(context.samplers(), countInTotal);
    }

    /**
     * Ends the run: waits (bounded) for in-flight publishes and for expected messages, closes every client, writes
     * and prints the summary, and releases every thread and buffer. Called once.
     */
    public RunSummary shutdown() {
        // The window's own counts, before the drain: what the broker acknowledges or delivers after them was queued
        // during production, and a rate over the window must not count it as sustained. Cut where the first drain after
        // the last Publish sample began (a Disconnect's of its subscribers, or the run end's here), not at that sample's
        // end, so that the window holds what its own last samples still had in flight; one instant for every count, so
        // that the window and the drain share no message and lose none.
        long shutdownAt = elapsedMillis();
        WindowCut end;
        boolean cutBefore;
        synchronized (this) {
            cutBefore = cut != null && cutEndsProduction(cut);
            end = cutBefore ? cut : cutNow();
        }
        // Rates cover the production window, up to the end of the last Publish sample (on an engine that published
        // nothing, to where its drain began): the barrier, disconnects and the waits for acknowledgements and
        // messages do not count.
        long lastPublish = lastPublishEndMillis;
        long productionEndMillis = lastPublish > productionStart() ? lastPublish : end.atMillis;
        long brokerEnd = brokers.windowEnd(startedAtMillis + shutdownAt);
        long inFlight = end.inFlight;
        long acknowledgedInWindow = end.acknowledged - warmupEndPublished;
        long receivedAtWindowEnd = end.received;
        long scheduled = publishSchedule.scheduledInWindow(MicroClock.nowMicros() - (shutdownAt - productionEndMillis) * 1000);
        event("phase", (cutBefore ? "run end" : "production over") + ": waiting for " + clients.inFlight()
                + " acknowledgements and for expected messages"
                + " (drain)");
        // Measured while this engine drains: the engines reach their end together after the last barrier.
        clock.endOfRun();
        Drain.await(clients, ledger, metrics, config);
        clients.closeAll(config.closeTimeoutMillis());
        // Closed: nothing arrives after this, so the window and the drain hold every message received after warm-up.
        WindowCounts window = new WindowCounts(acknowledgedInWindow, receivedAtWindowEnd - warmupEndReceived,
                warmupEndInFlight, inFlight, scheduled, metrics.sum(Count.RECEIVED) - receivedAtWindowEnd,
                elapsedMillis() - end.atMillis);
        List<BrokerMonitor.Stats> brokerStats = brokers.close(startedAtMillis + measuredFrom(), brokerEnd);
        List<Rendezvous.Barrier> barriers = new ArrayList<>();
        for (Rendezvous r : rendezvous.values()) {
            barriers.addAll(r.barriers());
            r.close();
        }
        ClockFigures clockFigures = clock.finish();
        ticker.shutdownNow();
        try {
            if (!ticker.awaitTermination(config.closeTimeoutMillis(), TimeUnit.MILLISECONDS)) {
                log.warn("MQTT metrics ticker did not stop within {} ms", config.closeTimeoutMillis());
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        Interval last = takeInterval(true);
        timeline.add(last.endMillis, last.of(Latency.PUB_TO_SUB), last.of(Latency.PUBLISH));
        for (IntervalListener l : intervalListeners) {
            // A listener that fails here must not cost the run its summary.
            try {
                l.onInterval(last);
            } catch (RuntimeException e) {
                log.error("MQTT interval listener {} failed at the end of the run", l.getClass().getSimpleName(), e);
            }
        }
        long ended = System.currentTimeMillis();
        double measured = Math.max(0, (productionEndMillis - measuredFrom()) / 1000.0);
        long[] perClient = clients.receivedPerSubscriber();
        RunSummary summary = new RunSummary(config.runId(), config.engineId(), config.engineNumber(), config.scenario(),
                startedAtMillis, ended,
                config.warmupMillis(), measured, metrics, ledger.delivery(),
                metrics.sum(Count.ACKNOWLEDGED) - warmupEndPublished, metrics.sum(Count.RECEIVED) - warmupEndReceived, window,
                perClient,
                ledger.book(), config.failureTolerancePercent());
        summary.rendezvous(barriers);
        summary.broker(brokerStats);
        summary.clock(clockFigures);
        Map<String, LatencyStats> pubToSubBySampler = new TreeMap<>();
        for (SamplerMetrics s : context.samplers()) {
            Histogram total = s.latency.totalCopy(Latency.PUB_TO_SUB);
            if (total.getTotalCount() > 0) {
                pubToSubBySampler.put(s.label, new LatencyStats(total));
            }
        }
        summary.pubToSubBySampler(pubToSubBySampler);
        summary.timeline(timeline.figures());
        summary.engineFacts(engineFacts, parameters);
        // A broker still being asked had a connect timeout and an answer timeout to go.
        summary.setup(context.setup().snapshot(2 * config.brokerVersionTimeoutMillis()));
        for (IntervalListener l : intervalListeners) {
            l.onRunEnd(summary);
        }
        SummaryFiles.write(summary, config.resultsDir(), console);
        clients.clear();
        return summary;
    }

    /** The counts where the measured window ended, all taken at one instant. */
    private static final class WindowCut {
        final long atNanos;
        /** Since the run's start. */
        final long atMillis;
        final long acknowledged;
        final long received;
        final long inFlight;

        WindowCut(long atNanos, long atMillis, long acknowledged, long received, long inFlight) {
            this.atNanos = atNanos;
            this.atMillis = atMillis;
            this.acknowledged = acknowledged;
            this.received = received;
            this.inFlight = inFlight;
        }
    }
}
