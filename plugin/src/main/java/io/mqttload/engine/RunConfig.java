package io.mqttload.engine;

import java.lang.management.ManagementFactory;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Locale;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.Function;

import io.mqttload.common.Checks;
import io.mqttload.common.InvalidSettingException;
import io.mqttload.delivery.DeliveryLedger;

/**
 * Engine-wide settings of a run, read from JMeter properties ({@code -J} or {@code -G}) so that
 * every engine of a distributed run can be told apart and agrees on the run id.
 */
public final class RunConfig {
    public static final String ENGINE_ID = "mqttload.engineId";
    public static final String ENGINE_NUMBER = "mqttload.engineNumber";
    public static final String RUN_ID = "mqttload.runId";
    public static final String RESULTS_DIR = "mqttload.resultsDir";
    public static final String WARMUP_SECONDS = "mqttload.warmupSeconds";
    public static final String DRAIN_TIMEOUT_MS = "mqttload.drainTimeoutMs";
    public static final String CLOSE_TIMEOUT_MS = "mqttload.closeTimeoutMs";
    public static final String DRAIN_QUIET_MS = "mqttload.drainQuietMs";
    public static final String PROGRESS_SECONDS = "mqttload.progressSeconds";
    public static final String SCENARIO = "mqttload.scenario";
    /** How many engines take part: the rendezvous waits for all of them, and shared groups may span them. */
    public static final String ENGINES = "mqttload.engines";
    /** Failed connects, subscribes, publishes or lost connections up to this share of attempts do not fail the run. */
    public static final String FAILURE_TOLERANCE_PERCENT = "mqttload.failureTolerancePercent";
    /** Exchanges with the reference engine per clock measurement (the smallest round trip is kept); 0: none. */
    public static final String CLOCK_SAMPLES = "mqttload.clockSamples";
    /** Bound on each clock measurement, and on waiting for the reference engine once production started. */
    public static final String CLOCK_TIMEOUT_MS = "mqttload.clockTimeoutMs";
    /** How long a broker endpoint is given to say what it is ({@code $SYS} version) for the report; 0: not asked. */
    public static final String BROKER_VERSION_TIMEOUT_MS = "mqttload.brokerVersionTimeoutMs";
    /** The value of {@value #ENGINE_NUMBER} that has engines started alike claim their numbers through the broker. */
    public static final String CLAIM = "auto";
    /** The name engines started alike claim their numbers under (default: the scenario). */
    public static final String FLEET = "mqttload.fleet";
    /** The broker they claim through, {@code host:port} (default: the plans' {@code mqtt.host} and {@code mqtt.port}). */
    public static final String FLEET_BROKER = "mqttload.fleetBroker";
    /** How long an engine waits for the others of its fleet. */
    public static final String FLEET_TIMEOUT_SECONDS = "mqttload.fleetTimeoutSeconds";

    private final String engineId;
    private final int engineNumber;
    private final String runId;
    private final RunIdSource runIdSource;
    /** Where the run id, engine number and engine count came from, for the line the engine prints at test start. */
    private final String origins;
    private final String scenario;
    private final Path resultsDir;
    private final long warmupMillis;
    private final long drainTimeoutMillis;
    private final long closeTimeoutMillis;
    private final long progressMillis;
    private final long drainQuietMillis;
    private final int engines;
    private final double failureTolerancePercent;
    private final int clockSamples;
    private final long clockTimeoutMillis;
    private final long brokerVersionTimeoutMillis;

    /** Where an engine's run id came from: what decides whether another id at a barrier is a mistake. */
    public enum RunIdSource {
        /** The {@value #RUN_ID} property ({@code -J} on the engine, {@code -G} from a headless controller). */
        PROPERTY("property " + RUN_ID),
        /** The plan sent by a controller ({@code jmeter -n -R}, the GUI's Remote Start), one id for every engine it started. */
        CONTROLLER("given by the controller that started the engines"),
        /** Made up by this engine alone: no other engine can know it. */
        ENGINE("made up by the engine itself, as no " + RUN_ID + " was given"),
        /** Agreed through the broker by the engines of a fleet ({@value #ENGINE_NUMBER} {@value #CLAIM}). */
        FLEET("agreed through the broker by the engines of the fleet");

        private final String description;

        RunIdSource(String description) {
            this.description = description;
        }

        public String describe() {
            return description;
        }

        /**
         * Whether every engine of the run got this id from one place (a property, a controller, the fleet's claim): an
         * engine met under another such id belongs to another run on the same broker, not to a mistake in this one.
         */
        public boolean shared() {
            return this != ENGINE;
        }
    }

    /**
     * What the controller that started this engine gave it with the plan: the run id, the engine's number and how many
     * engines it started ({@link #NONE}: nothing, as for an engine run alone). Properties win over each of them.
     */
    public static final class FromController {
        public static final FromController NONE = new FromController(null, 0, 0);
        /** Null: none. */
        public final String runId;
        /** 0: none. */
        public final int engineNumber;
        /** 0: not known. */
        public final int engines;

        public FromController(String runId, int engineNumber, int engines) {
            this.runId = runId == null || runId.trim().isEmpty() ? null : runId.trim();
            this.engineNumber = engineNumber;
            this.engines = engines;
        }
    }

    private RunConfig(String engineId, int engineNumber, String runId, RunIdSource runIdSource, String origins, String scenario,
            Path resultsDir, long warmupMillis, long drainTimeoutMillis, long closeTimeoutMillis, long progressMillis,
            long drainQuietMillis, int engines, double failureTolerancePercent, int clockSamples, long clockTimeoutMillis,
            long brokerVersionTimeoutMillis) {
        this.brokerVersionTimeoutMillis = brokerVersionTimeoutMillis;
        this.runIdSource = runIdSource;
        this.origins = origins;
        this.failureTolerancePercent = failureTolerancePercent;
        this.clockSamples = clockSamples;
        this.clockTimeoutMillis = clockTimeoutMillis;
        this.drainQuietMillis = drainQuietMillis;
        this.engines = engines;
        this.engineId = engineId;
        this.engineNumber = engineNumber;
        this.runId = runId;
        this.scenario = scenario;
        this.resultsDir = resultsDir;
        this.warmupMillis = warmupMillis;
        this.drainTimeoutMillis = drainTimeoutMillis;
        this.closeTimeoutMillis = closeTimeoutMillis;
        this.progressMillis = progressMillis;
    }

    /**
     * @param property looks up a property by name; null when unset
     * @param defaultScenario name used when {@link #SCENARIO} is unset (the test plan's name)
     */
    public static RunConfig from(Function<String, String> property, String defaultScenario) {
        return from(property, defaultScenario, FromController.NONE);
    }

    /**
     * @param controller what the controller gave this engine with the plan; the {@value #RUN_ID}, {@value #ENGINE_NUMBER}
     *     and {@value #ENGINES} properties win over it, so that a value given on purpose is kept
     */
    public static RunConfig from(Function<String, String> property, String defaultScenario, FromController controller) {
        return from(property, defaultScenario, controller, 0, null);
    }

    /**
     * As {@link #from(Function, String, FromController)} for an engine whose number and run id its fleet agreed on (see
     * {@link #claimsEngineNumber}): {@code claimedNumber} replaces {@value #ENGINE_NUMBER}, the engine id is
     * {@value #ENGINE_ID} (or "engine") and the number, and {@code claimedRunId} is taken unless {@value #RUN_ID} is given.
     */
    public static RunConfig from(Function<String, String> property, String defaultScenario, FromController controller,
            int claimedNumber, String claimedRunId) {
        boolean claimed = claimedRunId != null;
        String givenNumber = text(property, ENGINE_NUMBER, null);
        boolean numberFromController = !claimed && givenNumber == null && controller.engineNumber > 0;
        String engineId;
        if (claimed) {
            engineId = text(property, ENGINE_ID, "engine") + "-" + claimedNumber;
        } else {
            engineId = text(property, ENGINE_ID, numberFromController ? "engine-" + controller.engineNumber
                    : defaultEngineId());
        }
        if (!engineId.matches("[A-Za-z0-9_.-]{1,32}")) {
            throw new InvalidSettingException(ENGINE_ID, engineId, "use 1 to 32 letters, digits, '_', '.' or '-'");
        }
        if (!claimed && claimsEngineNumber(property)) {
            throw new InvalidSettingException(ENGINE_NUMBER, givenNumber, "the fleet's claim through the broker did not run");
        }
        int engineNumber;
        String numberOrigin;
        if (claimed) {
            engineNumber = claimedNumber;
            numberOrigin = "claimed through the broker";
        } else if (givenNumber != null) {
            engineNumber = (int) parse(ENGINE_NUMBER, givenNumber, 0, DeliveryLedger.MAX_ENGINE_NUMBER);
            numberOrigin = "property " + ENGINE_NUMBER;
        } else if (numberFromController) {
            engineNumber = (int) parse(ENGINE_NUMBER + " (from the controller)", Integer.toString(controller.engineNumber),
                    1, DeliveryLedger.MAX_ENGINE_NUMBER);
            numberOrigin = "given by the controller";
        } else {
            engineNumber = Math.floorMod(engineId.hashCode(), DeliveryLedger.MAX_ENGINE_NUMBER + 1);
            numberOrigin = "made from the engine id, as no " + ENGINE_NUMBER + " was given";
        }
        String givenRunId = text(property, RUN_ID, null);
        String runId;
        RunIdSource runIdSource;
        if (claimed && givenRunId == null) {
            runId = claimedRunId;
            runIdSource = RunIdSource.FLEET;
        } else if (givenRunId != null) {
            runId = givenRunId;
            runIdSource = RunIdSource.PROPERTY;
        } else if (controller.runId != null) {
            runId = controller.runId;
            runIdSource = RunIdSource.CONTROLLER;
        } else {
            runId = newRunId();
            runIdSource = RunIdSource.ENGINE;
        }
        String scenario = text(property, SCENARIO, defaultScenario == null || defaultScenario.isEmpty() ? "mqtt" : defaultScenario);
        Path results = Path.of(text(property, RESULTS_DIR, "mqttload-results"));
        long warmup = parse(WARMUP_SECONDS, text(property, WARMUP_SECONDS, "0"), 0, 86_400) * 1000;
        long drain = parse(DRAIN_TIMEOUT_MS, text(property, DRAIN_TIMEOUT_MS, "10000"), 0, 3_600_000);
        long close = parse(CLOSE_TIMEOUT_MS, text(property, CLOSE_TIMEOUT_MS, "10000"), 1, 3_600_000);
        long progress = parse(PROGRESS_SECONDS, text(property, PROGRESS_SECONDS, "5"), 0, 3600) * 1000;
        long quiet = parse(DRAIN_QUIET_MS, text(property, DRAIN_QUIET_MS, "500"), 0, 600_000);
        String givenEngines = text(property, ENGINES, null);
        int engines;
        String enginesOrigin;
        if (givenEngines != null || controller.engines <= 0) {
            engines = (int) parse(ENGINES, givenEngines == null ? "1" : givenEngines, 1, 100_000);
            enginesOrigin = givenEngines == null ? "the default, as no " + ENGINES + " was given" : "property " + ENGINES;
        } else {
            engines = (int) parse(ENGINES + " (from the controller)", Integer.toString(controller.engines), 1, 100_000);
            enginesOrigin = "given by the controller";
        }
        String origins = String.format(Locale.ROOT, "run id %s (%s), engine number %d (%s), %d engine(s) (%s)", runId,
                runIdSource.describe(), engineNumber, numberOrigin, engines, enginesOrigin);
        double tolerance = percent(FAILURE_TOLERANCE_PERCENT, text(property, FAILURE_TOLERANCE_PERCENT, "0"));
        int clockSamples = (int) parse(CLOCK_SAMPLES, text(property, CLOCK_SAMPLES, "16"), 0, 1000);
        long clockTimeout = parse(CLOCK_TIMEOUT_MS, text(property, CLOCK_TIMEOUT_MS, "5000"), 1, 600_000);
        long brokerVersionTimeout = parse(BROKER_VERSION_TIMEOUT_MS, text(property, BROKER_VERSION_TIMEOUT_MS, "3000"), 0,
                60_000);
        return new RunConfig(engineId, engineNumber, runId, runIdSource, origins, scenario, results, warmup, drain, close, progress, quiet,
                engines, tolerance, clockSamples, clockTimeout, brokerVersionTimeout);
    }

    /**
     * A run id for a run started now: the seconds since the epoch in base 36, and a random part, so that two
     * controllers (or engines) that start a run in the same second still make different ids.
     */
    /** Where and how engines started alike claim their numbers (see {@link #claimsEngineNumber}). */
    public static final class Fleet {
        public final String name;
        public final String brokerHost;
        public final int brokerPort;
        public final int engines;
        public final long timeoutMillis;

        Fleet(String name, String brokerHost, int brokerPort, int engines, long timeoutMillis) {
            this.name = name;
            this.brokerHost = brokerHost;
            this.brokerPort = brokerPort;
            this.engines = engines;
            this.timeoutMillis = timeoutMillis;
        }

        public String broker() {
            return brokerHost + ":" + brokerPort;
        }
    }

    /**
     * The fleet's settings: {@value #FLEET} (default: the scenario), {@value #FLEET_BROKER} (default: the plans'
     * {@code mqtt.host} and {@code mqtt.port}), {@value #ENGINES} and {@value #FLEET_TIMEOUT_SECONDS}; each refused
     * naming the property and the value.
     */
    public static Fleet fleet(Function<String, String> property, String scenario) {
        String name = text(property, FLEET, scenario == null || scenario.isEmpty() ? "mqtt" : scenario);
        if (!name.matches("[A-Za-z0-9_.-]{1,64}")) {
            throw new InvalidSettingException(FLEET, name, "use 1 to 64 letters, digits, '_', '.' or '-'"
                    + (property.apply(FLEET) == null ? " (it defaults to the scenario: set " + FLEET + ")" : ""));
        }
        String broker = text(property, FLEET_BROKER, null);
        String planHost = text(property, "mqtt.host", null);
        if (broker == null && planHost != null) {
            broker = planHost + ":" + text(property, "mqtt.port", "1883");
        }
        if (broker == null) {
            throw new InvalidSettingException(ENGINE_NUMBER, CLAIM, "engines claim their numbers through a broker: set "
                    + FLEET_BROKER + "=host:port (or mqtt.host and mqtt.port)");
        }
        int colon = broker.lastIndexOf(':');
        if (colon <= 0) {
            throw new InvalidSettingException(FLEET_BROKER, broker, "expected host:port");
        }
        int port = (int) parse(FLEET_BROKER, broker.substring(colon + 1), 1, 65_535);
        int engines = (int) parse(ENGINES, text(property, ENGINES, "1"), 1, 100_000);
        long timeout = parse(FLEET_TIMEOUT_SECONDS, text(property, FLEET_TIMEOUT_SECONDS, "120"), 1, 86_400) * 1000;
        return new Fleet(name, broker.substring(0, colon), port, engines, timeout);
    }

    /** Whether {@value #ENGINE_NUMBER} asks this engine to claim its number through the broker ({@value #CLAIM}). */
    public static boolean claimsEngineNumber(Function<String, String> property) {
        String v = property.apply(ENGINE_NUMBER);
        return v != null && v.trim().equalsIgnoreCase(CLAIM);
    }

    public static String newRunId() {
        // No longer than the earlier "run-<seconds>": plans put {run} into client ids, which MQTT 3.1.1 caps at 23.
        String random = Integer.toString(36 * 36 + ThreadLocalRandom.current().nextInt(36 * 36 * 35), 36);
        return "r" + Long.toString(System.currentTimeMillis() / 1000, 36) + random;
    }

    private static String text(Function<String, String> property, String name, String fallback) {
        String v = property.apply(name);
        return v == null || v.trim().isEmpty() ? fallback : v.trim();
    }

    private static long parse(String name, String text, long min, long max) {
        try {
            return Checks.between(name, Long.parseLong(text.trim()), min, max);
        } catch (NumberFormatException e) {
            throw new InvalidSettingException(name, text, "not a whole number", e);
        }
    }

    private static double percent(String name, String text) {
        double v;
        try {
            v = Double.parseDouble(text.trim());
        } catch (NumberFormatException e) {
            throw new InvalidSettingException(name, text, "not a number", e);
        }
        if (!(v >= 0 && v <= 100)) {
            throw new InvalidSettingException(name, text, "must be a percentage between 0 and 100");
        }
        return v;
    }

    /** Short, stable for one process, distinct across processes and hosts: keeps client ids within 23 characters. */
    private static String defaultEngineId() {
        String host;
        try {
            host = InetAddress.getLocalHost().getHostName();
        } catch (UnknownHostException e) {
            host = "localhost";
        }
        String seed = host + "/" + ManagementFactory.getRuntimeMXBean().getName();
        long h = 1125899906842597L;
        for (byte b : seed.getBytes(StandardCharsets.UTF_8)) {
            h = 31 * h + b;
        }
        String id = Long.toString(h & 0xFFFFFFL, 36).toLowerCase(Locale.ROOT);
        return "e" + id;
    }

    public String engineId() {
        return engineId;
    }

    public int engineNumber() {
        return engineNumber;
    }

    public int engines() {
        return engines;
    }

    public String runId() {
        return runId;
    }

    public RunIdSource runIdSource() {
        return runIdSource;
    }

    /** Where this engine's run id, engine number and engine count came from, in words: said once at test start. */
    public String origins() {
        return origins;
    }

    public String scenario() {
        return scenario;
    }

    public Path resultsDir() {
        return resultsDir;
    }

    public long warmupMillis() {
        return warmupMillis;
    }

    public long drainTimeoutMillis() {
        return drainTimeoutMillis;
    }

    public long closeTimeoutMillis() {
        return closeTimeoutMillis;
    }

    /** How long no message may arrive before a drain that waits for other engines' messages ends. */
    public long drainQuietMillis() {
        return drainQuietMillis;
    }

    /** Failures up to this share of attempts (percent) leave the verdict to loss; 0: any failure fails the run. */
    public double failureTolerancePercent() {
        return failureTolerancePercent;
    }

    /** Exchanges per clock measurement; 0: clocks are not measured. */
    public int clockSamples() {
        return clockSamples;
    }

    public long clockTimeoutMillis() {
        return clockTimeoutMillis;
    }

    public long brokerVersionTimeoutMillis() {
        return brokerVersionTimeoutMillis;
    }

    public long progressMillis() {
        return progressMillis;
    }
}
