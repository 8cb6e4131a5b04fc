package io.mqttload.sweep;

import java.util.List;
import java.util.Map;

import picocli.CommandLine.Option;

/**
 * The capacity search's options and the criteria every step is judged by (a sweep's steps too): a picocli mixin of
 * {@link SweepOptions}, checked the same way (each setter names the option and the value).
 */
final class SearchOptions {
    /** The property a capacity search varies; empty for a sweep of fixed steps. */
    String property = "";
    final CapacitySearch.Settings settings = new CapacitySearch.Settings();
    boolean resolutionGiven;
    boolean brokerCoresGiven;
    String durationProperty = "durationSeconds";
    long stepSeconds = 30;
    long confirmSeconds = 120;
    long warmupSeconds = 10;
    /** A search sustaining less than this exits 1; 0: no requirement. */
    double required;
    final StepCriteria criteria = new StepCriteria();

    @Option(names = "--search", paramLabel = "NAME", description = "search for the highest value of this property"
            + " (an offered msg/s, or a number of clients at a fixed rate each) at which a step passes")
    void search(String v) {
        property = SweepOptions.nonEmpty("--search", v);
    }

    @Option(names = "--start", paramLabel = "VALUE", description = "the search's first value; values keep its precision")
    void start(String v) {
        settings.start = SweepOptions.decimal("--start", v, 0, Double.MAX_VALUE, false);
        if (!resolutionGiven) {
            int dot = v.trim().indexOf('.');
            settings.resolution = dot < 0 ? 1 : Math.pow(10, -(v.trim().length() - dot - 1));
        }
    }

    @Option(names = "--max", paramLabel = "VALUE", description = "the search goes no higher (default: no maximum)")
    void max(String v) {
        settings.max = SweepOptions.decimal("--max", v, 0, Double.MAX_VALUE, false);
    }

    @Option(names = "--factor", paramLabel = "F", description = "each ramp step is the last times F (default 2)")
    void factor(String v) {
        settings.factor = SweepOptions.decimal("--factor", v, 1, 100, false);
    }

    @Option(names = "--tolerance", paramLabel = "PERCENT",
            description = "bisect until the lowest fail is within this of the highest pass (default 2)")
    void tolerance(String v) {
        settings.tolerancePercent = SweepOptions.decimal("--tolerance", v, 0, 100, false);
    }

    @Option(names = "--resolution", paramLabel = "VALUE", description = "values are multiples of it (default: the"
            + " start's precision, 1 for a whole number)")
    void resolution(String v) {
        settings.resolution = SweepOptions.decimal("--resolution", v, 0, Double.MAX_VALUE, false);
        resolutionGiven = true;
    }

    @Option(names = "--max-steps", paramLabel = "N", description = "the search gives up after N steps (default 40)")
    void maxSteps(String v) {
        settings.maxSteps = (int) SweepOptions.number("--max-steps", v, 2, 1000);
    }

    @Option(names = "--disturbed", paramLabel = "repeat|accept", description = "a step that fails while its generator or"
            + " machine was saturated for a short while (at most 2 s, or 10 %% of its window) is run once more and the"
            + " repeat decides (repeat, the default), or its failure stands (accept)")
    void disturbed(String v) {
        if (!v.equals("repeat") && !v.equals("accept")) {
            throw SweepOptions.invalid("--disturbed '" + v + "': expected repeat or accept");
        }
        settings.repeatDisturbed = v.equals("repeat");
    }

    @Option(names = "--step-seconds", paramLabel = "S", description = "measured seconds of each search step (default 30)")
    void stepSeconds(String v) {
        stepSeconds = SweepOptions.number("--step-seconds", v, 1, 86_400);
    }

    @Option(names = "--confirm-seconds", paramLabel = "S",
            description = "measured seconds of the run that confirms the answer (default 120)")
    void confirmSeconds(String v) {
        confirmSeconds = SweepOptions.number("--confirm-seconds", v, 1, 7 * 86_400);
    }

    @Option(names = "--warmup-seconds", paramLabel = "S",
            description = "warm-up of each search step, excluded from its figures (default 10)")
    void warmupSeconds(String v) {
        warmupSeconds = SweepOptions.number("--warmup-seconds", v, 0, 86_400);
    }

    @Option(names = "--duration-property", paramLabel = "NAME",
            description = "the plan property that sets production seconds (default durationSeconds)")
    void durationProperty(String v) {
        durationProperty = SweepOptions.nonEmpty("--duration-property", v);
    }

    @Option(names = "--require", paramLabel = "VALUE",
            description = "a search that sustains less exits 1: a CI gate (default: none)")
    void require(String v) {
        required = SweepOptions.decimal("--require", v, 0, Double.MAX_VALUE, false);
    }

    @Option(names = "--max-loss", paramLabel = "PERCENT",
            description = "a step passes with at most this share of deliveries lost (default 0; meant for QoS 0)")
    void maxLoss(String v) {
        criteria.maxLossPercent = SweepOptions.decimal("--max-loss", v, 0, 100, true);
    }

    @Option(names = "--min-delivered", paramLabel = "PERCENT",
            description = "a step passes delivering at least this share of the offered rate in its window (default 98)")
    void minDelivered(String v) {
        criteria.minDeliveredPercent = SweepOptions.decimal("--min-delivered", v, 0, 100, true);
    }

    @Option(names = "--sla-p99-ms", paramLabel = "MS",
            description = "a step passes with p99 latency from the intended send time at most this (default 100)")
    void slaP99(String v) {
        criteria.p99SlaMillis = SweepOptions.decimal("--sla-p99-ms", v, 0, 3_600_000, false);
    }

    @Option(names = "--max-schedule-lag-ms", paramLabel = "MS",
            description = "a step passes with p99 schedule lag at most this (default: the SLA)")
    void maxScheduleLag(String v) {
        criteria.maxScheduleLagMillis = SweepOptions.decimal("--max-schedule-lag-ms", v, 0, 3_600_000, true);
    }

    @Option(names = "--max-backlog-growth", paramLabel = "PERCENT", description = "a step passes when what is owed"
            + " rose by at most this share of its window's deliveries, or what the SLA lets be in transit (default 1)")
    void maxBacklogGrowth(String v) {
        criteria.maxBacklogGrowthPercent = SweepOptions.decimal("--max-backlog-growth", v, 0, 100, true);
    }

    @Option(names = "--max-saturated", paramLabel = "PERCENT", description = "a step whose generator or machine was"
            + " saturated longer than this share of its window is the generator's limit (default 10)")
    void maxSaturated(String v) {
        criteria.maxSaturatedPercent = SweepOptions.decimal("--max-saturated", v, 0, 100, true);
    }

    @Option(names = "--max-broker-cpu", paramLabel = "PERCENT", description = "the recommended operating point: a step"
            + " passes with the monitored broker's CPU, averaged over its window, at most this share of --broker-cores"
            + " cores (needs --broker-pid, --broker-process or the plan's own MQTT Broker Monitor; default: not judged)")
    void maxBrokerCpu(String v) {
        criteria.maxBrokerCpuPercent = SweepOptions.decimal("--max-broker-cpu", v, 0, 100, false);
    }

    @Option(names = "--broker-cores", paramLabel = "N", description = "with --max-broker-cpu: the cores the broker"
            + " may use, over every monitored node (default 1: a single-threaded broker such as Mosquitto)")
    void brokerCores(String v) {
        criteria.brokerCores = SweepOptions.decimal("--broker-cores", v, 0, 100_000, false);
        brokerCoresGiven = true;
    }

    boolean searching() {
        return !property.isEmpty();
    }

    /** The criteria checked together, for a sweep and a search alike. */
    void checkCriteria() throws SweepOptions.UsageException {
        if (brokerCoresGiven && !criteria.brokerCpuAsked()) {
            throw new SweepOptions.UsageException("--broker-cores " + StepCriteria.plain(criteria.brokerCores)
                    + ": only with --max-broker-cpu, whose cores it counts");
        }
    }

    /** The search's settings checked together, and its steps made to need an offered rate. */
    void check(List<SweepOptions.Step> steps, Map<String, String> localProperties, Map<String, String> globalProperties)
            throws SweepOptions.UsageException {
        if (!steps.isEmpty()) {
            throw new SweepOptions.UsageException("--search '" + property + "' and --steps / --step-file: give one; a search"
                    + " chooses its own steps");
        }
        if (!(settings.start > 0)) {
            throw new SweepOptions.UsageException("--search '" + property + "': --start missing (the first value to try)");
        }
        if (settings.max > 0 && settings.max < settings.start) {
            throw new SweepOptions.UsageException("--max " + StepCriteria.plain(settings.max) + ": below --start "
                    + StepCriteria.plain(settings.start));
        }
        if (!(settings.factor > 1)) {
            throw new SweepOptions.UsageException("--factor " + StepCriteria.plain(settings.factor) + ": must be above 1");
        }
        if (!(settings.tolerancePercent > 0)) {
            throw new SweepOptions.UsageException("--tolerance " + StepCriteria.plain(settings.tolerancePercent) + ": must be above 0");
        }
        if (!(settings.resolution > 0) || settings.resolution > settings.start) {
            throw new SweepOptions.UsageException("--resolution " + StepCriteria.plain(settings.resolution) + ": must be above 0 and"
                    + " at most --start " + StepCriteria.plain(settings.start));
        }
        for (Map<String, String> given : List.of(localProperties, globalProperties)) {
            for (String fixed : List.of(property, durationProperty, "mqttload.warmupSeconds")) {
                if (given.containsKey(fixed)) {
                    throw new SweepOptions.UsageException((given == localProperties ? "-J" : "-G") + fixed + ": the search sets it at"
                            + " every step (" + (fixed.equals(property) ? "--start, --max" : fixed.equals(
                            durationProperty) ? "--step-seconds, --confirm-seconds" : "--warmup-seconds") + ")");
                }
            }
        }
        criteria.paceRequired = true;
    }
}
