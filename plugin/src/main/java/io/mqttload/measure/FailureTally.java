package io.mqttload.measure;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonValue;

/**
 * Failures counted by sampler, kind and reason, the way JMeter's dashboard counts its top errors by sampler: the
 * "why" beside every failure count. Reasons are short, client-independent texts ("connection refused: ...",
 * "CONNACK refused: UNSUPPORTED_PROTOCOL_VERSION (0x84)"), so thousands of clients failing alike make one row.
 */
public final class FailureTally {
    /** Distinct (sampler, kind, reason) rows kept; more are folded into one "other reasons" row per sampler and kind. */
    static final int MAX_ROWS = 200;
    static final String OTHER = "other reasons (more than " + MAX_ROWS + " distinct ones)";

    /** What failed; each kind has its error count ({@link Count#of(Kind)}). */
    public enum Kind {
        CONNECT("connect"),
        SUBSCRIBE("subscribe"),
        PUBLISH("publish"),
        CONNECTION_LOST("connection lost"),
        PROTOCOL_VIOLATION("protocol violation"),
        RENDEZVOUS("rendezvous"),
        INVALID_SETTING("invalid setting"),
        REPLY("reply"),
        /** A failed sample whose cause no other kind counts (its clients' and messages' failures are counted by theirs). */
        SAMPLE("sample");

        private final String text;

        Kind(String text) {
            this.text = text;
        }

        @JsonValue
        public String text() {
            return text;
        }

        /** Reads {@link #text()} back, as the summaries carry it. */
        @JsonCreator
        public static Kind of(String text) {
            for (Kind k : values()) {
                if (k.text.equals(text)) {
                    return k;
                }
            }
            throw new IllegalArgumentException("not a kind of MQTT failure: '" + text + "'");
        }
    }

    /** One row: how often one reason made one kind of operation of one sampler fail. */
    public static final class Row {
        public final String sampler;
        public final Kind kind;
        public final String reason;
        public final long count;

        @JsonCreator
        public Row(@JsonProperty("sampler") String sampler, @JsonProperty("kind") Kind kind,
                @JsonProperty("reason") String reason, @JsonProperty("count") long count) {
            this.sampler = sampler;
            this.kind = kind;
            this.reason = reason;
            this.count = count;
        }
    }

    private final ConcurrentHashMap<Key, LongAdder> counts = new ConcurrentHashMap<>();

    public void add(String sampler, Kind kind, String reason, long n) {
        Key key = new Key(sampler == null ? "" : sampler, kind, reason == null ? "unknown" : reason);
        LongAdder adder = counts.get(key);
        if (adder == null) {
            if (counts.size() >= MAX_ROWS) {
                key = new Key(key.sampler, kind, OTHER);
            }
            adder = counts.computeIfAbsent(key, k -> new LongAdder());
        }
        adder.add(n);
    }

    /** Every row, most frequent first. */
    public List<Row> rows() {
        List<Row> rows = new ArrayList<>();
        counts.forEach((k, v) -> rows.add(new Row(k.sampler, k.kind, k.reason, v.sum())));
        rows.sort(ORDER);
        return rows;
    }

    /** Most frequent first; ties by sampler, kind and reason, so that reports are stable. */
    public static final Comparator<Row> ORDER = Comparator.comparingLong((Row r) -> -r.count)
            .thenComparing(r -> r.sampler).thenComparing(r -> r.kind).thenComparing(r -> r.reason);

    /**
     * Up to {@code perSampler} rows of each sampler, most frequent first, as lines for people:
     * {@code sampler  kind  count  reason}.
     */
    public static List<String> topLines(List<Row> rows, int perSampler) {
        List<String> lines = new ArrayList<>();
        Map<String, Integer> shown = new HashMap<>();
        for (Row r : rows) {
            int n = shown.merge(r.sampler, 1, Integer::sum);
            if (n <= perSampler) {
                lines.add(String.format(Locale.ROOT, "%-22s %-18s %9d  %s",
                        r.sampler.isEmpty() ? "(engine)" : r.sampler, r.kind.text(), r.count, r.reason));
            }
        }
        return lines;
    }

    private static final class Key {
        final String sampler;
        final Kind kind;
        final String reason;

        Key(String sampler, Kind kind, String reason) {
            this.sampler = sampler;
            this.kind = kind;
            this.reason = reason;
        }

        @Override
        public boolean equals(Object o) {
            if (!(o instanceof Key)) {
                return false;
            }
            Key k = (Key) o;
            return sampler.equals(k.sampler) && kind == k.kind && reason.equals(k.reason);
        }

        @Override
        public int hashCode() {
            return Objects.hash(sampler, kind, reason);
        }
    }
}
