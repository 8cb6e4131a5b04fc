package io.mqttload.report;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashMap;
import java.util.List;
import java.util.Map;


import io.mqttload.delivery.DeliveryLedger;
import io.mqttload.engine.RunConfig;
import io.mqttload.measure.Count;
import io.mqttload.measure.EngineMetrics;
import io.mqttload.measure.Interval;
import io.mqttload.measure.NodeMetrics;
import io.mqttload.measure.SamplerMetrics;
import io.mqttload.summary.RunSummary;
import io.mqttload.summary.WindowCounts;

/**
 * One engine's figures with a distinct value in every counter (sampler "probe", nodes "left" and "right"), for
 * EveryCountShownTest and EveryCountShownIT: a count shown under another's name or not at all cannot go unnoticed.
 */
final class EveryCountFigures {
    final EngineMetrics metrics = new EngineMetrics();
    final SamplerMetrics sampler = new SamplerMetrics("probe");
    final NodeMetrics left = metrics.nodes.node(0, "left");
    final NodeMetrics right = metrics.nodes.node(1, "right");
    final RunSummary summary;
    final RunConfig config = RunConfig.from(Map.of(RunConfig.RUN_ID, "run-c", RunConfig.ENGINE_ID, "engine-c")::get,
            "every-count");
    /** A metrics tick of the sampler and both nodes, with no latency. */
    final Interval interval;

    EveryCountFigures() {
        for (Count c : Count.values()) {
            if (c.source() == Count.Source.PEAK) {
                metrics.peak(c, 1000 + c.ordinal());
            } else if (c.counted()) {
                metrics.count(c, sampler, left, 1000 + c.ordinal());
                metrics.count(c, null, right, 1);
            }
        }
        DeliveryLedger ledger = new DeliveryLedger(1);
        summary = new RunSummary("run-c", "engine-c", 1, "every-count", 1_000, 9_000, 0, 8.0, metrics, ledger.delivery(),
                0, 0, new WindowCounts(2_001, 2_002, 2_003, 2_004, 2_005, 2_006, 2_007), new long[] {0, 0, 0}, ledger.book(), 0);
        interval = new Interval(5_000, Map.of(), List.of(new Interval.OfSampler(sampler, Map.of())),
                List.of(new Interval.OfNode(left, Map.of()), new Interval.OfNode(right, Map.of())), true);
    }

    /** A line's fields (none of the points read here has a space in a tag or a comma in a string field). */
    static Map<String, String> fieldsOf(String line) {
        String fieldSet = line.split(" ")[1];
        Map<String, String> fields = new HashMap<>();
        for (String field : fieldSet.split(",")) {
            String[] kv = field.split("=", 2);
            assertThat(fields.put(kv[0], kv[1])).as("field " + kv[0] + " written once").isNull();
        }
        return fields;
    }
}
