package io.mqttload.measure;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Arrays;
import java.util.HashSet;
import java.util.Locale;
import java.util.Set;
import java.util.function.LongSupplier;
import java.util.stream.Collectors;

import org.junit.jupiter.api.Test;

/** The declaration of the counts: one key each, no key read as 0 by mistake, and each level keeping what it declares. */
class CountTest {

    @Test
    void of_misspeltKey_isRefusedNamingTheKey() {
        assertThatThrownBy(() -> Count.of("connectOk")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'connectOk'").hasMessageContaining("not a declared count");
        assertThat(Count.of("connectsOk")).isEqualTo(Count.CONNECTS_OK);
    }

    @Test
    void keys_areUniqueAndEachConstantIsNamedAfterItsKey() {
        Set<String> keys = Arrays.stream(Count.values()).map(Count::key).collect(Collectors.toSet());

        assertThat(keys).hasSize(Count.values().length);
        for (Count c : Count.values()) {
            assertThat(c.key().replaceAll("([a-z0-9])([A-Z])", "$1_$2").toUpperCase(Locale.ROOT))
                    .isEqualTo(c.name());
        }
    }

    @Test
    void meanings_areOneLineForATableCell() {
        for (Count c : Count.values()) {
            assertThat(c.meaning()).as(c.key()).isNotBlank().doesNotContain("\n").doesNotContain("|");
        }
    }

    @Test
    void errors_areExactlyTheCountsOfTheFailureKinds() {
        Set<Count> ofKinds = new HashSet<>();
        for (FailureTally.Kind kind : FailureTally.Kind.values()) {
            Count c = Count.of(kind);
            assertThat(c).as(kind.text()).isNotNull();
            assertThat(c.failureKind()).isEqualTo(kind);
            ofKinds.add(c);
        }

        assertThat(Count.ERRORS).containsExactlyInAnyOrderElementsOf(ofKinds);
        assertThat(Count.ERRORS).allSatisfy(c -> {
            assertThat(c.errorText()).isNotBlank();
            assertThat(c.source()).isEqualTo(Count.Source.COUNTER);
        });
    }

    @Test
    void count_addsOnEveryLevelThatKeepsIt_andALevelRefusesToReadWhatItDoesNotKeep() {
        EngineMetrics metrics = new EngineMetrics();
        SamplerMetrics sampler = new SamplerMetrics("s");
        NodeMetrics node = metrics.nodes.node(0, "n");
        long n = 1;
        for (Count c : Count.values()) {
            if (c.source() == Count.Source.PEAK) {
                metrics.peak(c, n);
                metrics.peak(c, n - 1);
            } else if (c.counted()) {
                metrics.count(c, sampler, node, n);
            }
            n++;
        }

        n = 1;
        for (Count c : Count.values()) {
            long value = n++;
            expectKept(c, Count.Level.ENGINE, () -> metrics.sum(c), value);
            expectKept(c, Count.Level.SAMPLER, () -> sampler.sum(c), value);
            expectKept(c, Count.Level.NODE, () -> node.sum(c), value);
        }
    }

    private static void expectKept(Count c, Count.Level level, LongSupplier sum, long value) {
        if (c.counted() && c.at(level)) {
            assertThat(sum.getAsLong()).as(c.key() + " per " + level).isEqualTo(value);
        } else {
            assertThatThrownBy(sum::getAsLong).as(c.key() + " per " + level).isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining(c.key());
        }
    }

    @Test
    void failed_countsTheKindsCountWithItsReason_andAProtocolViolationAsALostConnectionToo() {
        EngineMetrics metrics = new EngineMetrics();
        SamplerMetrics sampler = new SamplerMetrics("connect");
        NodeMetrics node = metrics.nodes.node(0, "n");

        metrics.failed(FailureTally.Kind.CONNECT, sampler, "refused");
        metrics.failed(FailureTally.Kind.PROTOCOL_VIOLATION, sampler, node, "PUBACK to a QoS 2 PUBLISH");
        metrics.failed(FailureTally.Kind.CONNECTION_LOST, sampler, node, "reset");

        assertThat(metrics.sum(Count.CONNECTS_FAILED)).isEqualTo(1);
        assertThat(sampler.sum(Count.CONNECTS_FAILED)).isEqualTo(1);
        assertThat(metrics.sum(Count.PROTOCOL_VIOLATIONS)).isEqualTo(1);
        assertThat(metrics.sum(Count.CONNECTIONS_LOST)).isEqualTo(2);
        assertThat(node.sum(Count.CONNECTIONS_LOST)).isEqualTo(2);
        assertThat(node.firstLossMillis.get()).isPositive();
        assertThat(metrics.errors()).isEqualTo(4).isEqualTo(Count.errors(metrics::sum));
        assertThat(sampler.errors()).isEqualTo(1);
        assertThat(metrics.failures.rows()).extracting(r -> r.reason)
                .containsExactlyInAnyOrder("refused", "PUBACK to a QoS 2 PUBLISH", "reset");
    }
}
