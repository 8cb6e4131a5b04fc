package io.mqttload.live;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import io.mqttload.engine.EngineRuntime;
import io.mqttload.engine.RunConfig;
import io.mqttload.engine.RunContext;
import io.mqttload.measure.EngineMetrics;
import io.mqttload.measure.Latency;
import io.mqttload.measure.SamplerMetrics;

/**
 * The Run Report panel's sampler and latency tables from a real engine's intervals (no broker: the counts are put in
 * as the operations would): rows in plan order whatever order the samplers first counted in, two samplers of one name
 * apart, a dash where a figure does not apply, and the publish acknowledgement latency live.
 */
class LiveTablesTest {
    private final EngineRuntime runtime = new EngineRuntime(RunConfig.from(Map.<String, String>of()::get, "live-tables"),
            new PrintStream(OutputStream.nullOutputStream(), true, StandardCharsets.UTF_8));

    @AfterEach
    void end() {
        runtime.abandon();
    }

    @Test
    void samplers_inPlanOrder_repeatedNamesNumbered_dashWhereAFigureDoesNotApply_publishAckLive() {
        RunContext run = runtime.context();
        LiveFeed feed = LiveFeed.attach(runtime);
        // Test start walks the plan in order: a connect, a publisher, a subscriber, and a second publisher of the same name.
        List<String> labels = List.of(run.planSampler("Connect"), run.planSampler("Publish"),
                run.planSampler("Subscribe"), run.planSampler("Publish"));
        assertThat(labels).containsExactly("Connect", "Publish", "Subscribe", "Publish #2");
        // The samplers count in another order than the plan's.
        EngineMetrics m = run.metrics();
        SamplerMetrics second = run.samplerMetrics("Publish #2");
        m.published(second, null, 5, 80);
        SamplerMetrics subscribe = run.samplerMetrics("Subscribe");
        m.received(subscribe, null, 16);
        m.received(subscribe, null, 16);
        SamplerMetrics publish = run.samplerMetrics("Publish");
        m.published(publish, null, 3, 48);
        m.acknowledged(publish, null, 2_000);
        run.samplerMetrics("Connect");

        LiveFigures f = await().atMost(Duration.ofSeconds(5)).until(feed::latest, latest -> latest != null);
        LiveTables.Table table = LiveTables.samplers(f);

        assertThat(table.columns).containsExactly("sampler", "published", "pub msg/s", "ack p99 ms", "received",
                "recv msg/s", "pub-to-sub p99 ms", "errors");
        assertThat(table.rows.stream().map(r -> r.get(0)).collect(Collectors.toList()))
                .containsExactly("Connect", "Publish", "Subscribe", "Publish #2");
        assertThat(table.rows.get(0)).containsExactly("Connect", "–", "–", "–", "–", "–", "–", "0");
        assertThat(table.rows.get(1).subList(0, 5)).containsExactly("Publish", "3", table.rows.get(1).get(2), "2.000",
                "–");
        assertThat(table.rows.get(2)).startsWith("Subscribe", "–", "–", "–", "2");
        // Received, but no message carried a latency header: no pub-to-sub figure, not a 0.
        assertThat(table.rows.get(2).get(6)).isEqualTo("–");
        // Published, never acknowledged (QoS 0 or not yet): a dash, not 0.000.
        assertThat(table.rows.get(3).subList(0, 4)).containsExactly("Publish #2", "5", table.rows.get(3).get(2), "–");
    }

    @Test
    void latency_hasThePublishAckRowsLive_andDashesForAFigureWithNoMessageYet() {
        RunContext run = runtime.context();
        LiveFeed feed = LiveFeed.attach(runtime);
        SamplerMetrics publish = run.samplerMetrics(run.planSampler("Publish"));
        run.metrics().published(publish, null, 1, 16);
        run.metrics().acknowledged(publish, null, 1_000);

        LiveFigures f = await().atMost(Duration.ofSeconds(5)).until(feed::latest, latest -> latest != null);
        LiveTables.Table table = LiveTables.latency(f);

        String ackRow = Latency.PUBLISH.title() + ", last second";
        List<String> ack = row(table, ackRow);
        assertThat(ack.subList(0, 3)).containsExactly(ackRow, "1", "1.000");
        List<String> pubToSub = row(table, Latency.PUB_TO_SUB.title() + ", last second");
        assertThat(pubToSub.subList(1, pubToSub.size())).first().isEqualTo("0");
        assertThat(pubToSub.subList(2, pubToSub.size())).containsOnly("–");
    }

    private static List<String> row(LiveTables.Table table, String name) {
        return table.rows.stream().filter(r -> r.get(0).equals(name)).findFirst()
                .orElseThrow(() -> new AssertionError("no row " + name + " in " + table.rows));
    }
}
