package io.mqttload.delivery;

import java.io.ByteArrayOutputStream;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.zip.DataFormatException;
import java.util.zip.Deflater;
import java.util.zip.Inflater;

/**
 * The delivery ledger in bytes whose number follows what went wrong, not how many streams there were: every field
 * as a varint of its difference to the same field of the stream or entry before (the next id, the same counts, the
 * same topic template with the next number), then deflated. A stream or receiver entry with nothing missing is then
 * a run of one-byte differences that repeats the one before, which deflate stores in a fraction of a byte; a gap costs
 * its ranges. Decoding gives back the very ledger encoded, so the merge reads exactly what the engine booked.
 *
 * <p>Layout (version {@link #LAYOUT}), every number a varint, "±" zigzag-coded against the previous value of that
 * field: layout; stream count; per stream ±id, topic, ±sent, ±(sent − acknowledged), failed, publisher; scope count;
 * per scope key, label, node, grantedAt, filter count and filters, no-local count and filters, entry count, per entry
 * ±stream id, ±highest (see {@link ScopeColumns}), ±(highest − unique), missing, ±duplicates, ±reordered. Texts are
 * {@link TextColumn}s (one per field), number arrays {@link Varints.Out#longs} (null, or length and each element
 * against the one before). Layout 2 adds, after the last scope, when things happened: per stream its send-time
 * checkpoints (count + 1, 0 for none; per checkpoint ±sequence against the one before, ±µs against the one before,
 * a stream's first against the first of the stream before), per scope its subscription windows (count; per window
 * filter, engine, ±from against the one before, to − from). Layout 1 (without them) is still read, and written for a
 * ledger that has none. Layout 3 adds, after those, the lapses of client scopes' subscriptions: per scope its
 * sessions kept, its lapse count, per lapse engine, ±from against the one before, to − from, then its highest, sent
 * before and sent after by stream, each an entry count and per entry ±stream id and ±value against the entry before.
 * Layout 2 is still read, and written for a ledger without lapses.
 */
public final class LedgerCodec {
    /** Raised when the layout changes; a decoder refuses any other. */
    static final int LAYOUT = 3;
    /** The layout before the lapses: still read, the ledger then has none. */
    static final int LAYOUT_WITHOUT_LAPSES = 2;
    /** The layout before the send times and subscription windows: still read, the ledger then has neither. */
    static final int LAYOUT_WITHOUT_TIMES = 1;

    private LedgerCodec() {
    }

    public static byte[] encode(DeliveryCheck.Ledger ledger) {
        return deflate(varints(ledger));
    }

    /** The ledger {@link #encode} was given; data this class did not write is refused with what is wrong with it. */
    public static DeliveryCheck.Ledger decode(byte[] deflated) {
        return fromVarints(inflate(deflated));
    }

    /** Before deflate: what the field-by-field differences alone make of a ledger (for the benchmark's comparison). */
    static byte[] varints(DeliveryCheck.Ledger ledger) {
        Varints.Out out = new Varints.Out();
        // A ledger without times (read from an earlier summary) is written as it came, for the plugins that wrote it.
        boolean lapsed = hasLapses(ledger);
        boolean timed = lapsed || hasTimes(ledger);
        out.unsigned(lapsed ? LAYOUT : timed ? LAYOUT_WITHOUT_LAPSES : LAYOUT_WITHOUT_TIMES);
        out.unsigned(ledger.streams.size());
        TextColumn topics = new TextColumn();
        TextColumn publishers = new TextColumn();
        long id = 0;
        long sent = 0;
        for (DeliveryCheck.Stream s : ledger.streams) {
            out.signed(s.id - id);
            id = s.id;
            topics.write(s.topic, out);
            out.signed(s.sent - sent);
            sent = s.sent;
            out.signed(s.sent - s.acknowledged);
            out.longs(s.failed);
            publishers.write(s.publisher, out);
        }
        ScopeColumns columns = new ScopeColumns(ledger.streams);
        out.unsigned(ledger.scopes.size());
        for (DeliveryCheck.Scope scope : ledger.scopes) {
            columns.write(scope, out);
        }
        if (timed) {
            writeTimes(ledger, out);
        }
        if (lapsed) {
            writeLapses(ledger, out);
        }
        return out.toByteArray();
    }

    static DeliveryCheck.Ledger fromVarints(byte[] bytes) {
        Varints.In in = new Varints.In(bytes);
        long layout = in.unsigned();
        if (layout != LAYOUT && layout != LAYOUT_WITHOUT_LAPSES && layout != LAYOUT_WITHOUT_TIMES) {
            throw new IllegalArgumentException("a ledger of layout " + layout + ", and this plugin reads layout " + LAYOUT
                    + " (and the earlier " + LAYOUT_WITHOUT_LAPSES + " and " + LAYOUT_WITHOUT_TIMES + ")");
        }
        DeliveryCheck.Stream[] streams = new DeliveryCheck.Stream[in.count()];
        TextColumn topics = new TextColumn();
        TextColumn publishers = new TextColumn();
        long id = 0;
        long sent = 0;
        for (int i = 0; i < streams.length; i++) {
            id += in.signed();
            String topic = topics.read(in);
            sent += in.signed();
            long acknowledged = sent - in.signed();
            long[] failed = in.longs();
            streams[i] = new DeliveryCheck.Stream((int) id, topic, sent, acknowledged, failed, publishers.read(in));
        }
        ScopeColumns columns = new ScopeColumns(List.of(streams));
        DeliveryCheck.Scope[] scopes = new DeliveryCheck.Scope[in.count()];
        for (int i = 0; i < scopes.length; i++) {
            scopes[i] = columns.read(in);
        }
        if (layout >= LAYOUT_WITHOUT_LAPSES) {
            readTimes(streams, scopes, in);
        }
        if (layout == LAYOUT) {
            readLapses(scopes, in);
        }
        if (!in.atEnd()) {
            throw new IllegalArgumentException("the ledger's data goes on after its last receiver scope");
        }
        return new DeliveryCheck.Ledger(List.of(streams), List.of(scopes));
    }

    /**
     * A receiver scope's texts, each in a column of its own, and its entries' counts: the highest sequence number
     * against what its stream sent when the stream is in this ledger (a subscriber that got everything then writes 0,
     * whatever each publisher sent), else against the entry before.
     */
    private static final class ScopeColumns {
        final TextColumn keys = new TextColumn();
        final TextColumn labels = new TextColumn();
        final TextColumn nodes = new TextColumn();
        final TextColumn grantedAt = new TextColumn();
        final TextColumn filters = new TextColumn();
        /** Stream ids in the high half, their index in {@link #sent} in the low half, sorted. */
        final long[] streamIds;
        final long[] sent;
        long lastHighest;
        /** Not reset per scope: one subscriber per publisher gives scopes whose only entries are consecutive streams. */
        long lastStreamId;

        ScopeColumns(List<DeliveryCheck.Stream> streams) {
            streamIds = new long[streams.size()];
            sent = new long[streams.size()];
            for (int i = 0; i < streamIds.length; i++) {
                streamIds[i] = (long) streams.get(i).id << 32 | i;
                sent[i] = streams.get(i).sent;
            }
            Arrays.sort(streamIds);
        }

        /** What the stream with this id sent, or the last entry's highest when the stream is not in this ledger. */
        long reference(int streamId) {
            int at = Arrays.binarySearch(streamIds, (long) streamId << 32);
            int insertion = at >= 0 ? at : -at - 1;
            if (insertion < streamIds.length && (int) (streamIds[insertion] >> 32) == streamId) {
                return sent[(int) streamIds[insertion]];
            }
            return lastHighest;
        }

        void write(DeliveryCheck.Scope scope, Varints.Out out) {
            keys.write(scope.key, out);
            labels.write(scope.label, out);
            nodes.write(scope.node, out);
            grantedAt.write(scope.grantedAt, out);
            out.unsigned(scope.filters.size());
            scope.filters.forEach(f -> filters.write(f, out));
            out.unsigned(scope.noLocalFilters.size());
            scope.noLocalFilters.forEach(f -> filters.write(f, out));
            out.unsigned(scope.seen.size());
            for (Map.Entry<Integer, DeliveryCheck.Seen> e : scope.seen.entrySet()) {
                DeliveryCheck.Seen seen = e.getValue();
                out.signed(e.getKey() - lastStreamId);
                lastStreamId = e.getKey();
                out.signed(seen.highest - reference(e.getKey()));
                lastHighest = seen.highest;
                out.signed(seen.highest - seen.unique);
                out.longs(seen.missing);
                out.signed(seen.duplicates);
                out.signed(seen.reordered);
            }
        }

        DeliveryCheck.Scope read(Varints.In in) {
            DeliveryCheck.Scope scope = new DeliveryCheck.Scope(keys.read(in), labels.read(in));
            scope.node = nodes.read(in);
            scope.grantedAt = grantedAt.read(in);
            for (int n = in.count(); n > 0; n--) {
                scope.filters.add(filters.read(in));
            }
            for (int n = in.count(); n > 0; n--) {
                scope.noLocalFilters.add(filters.read(in));
            }
            for (int n = in.count(); n > 0; n--) {
                lastStreamId += in.signed();
                long highest = reference((int) lastStreamId) + in.signed();
                lastHighest = highest;
                long unique = highest - in.signed();
                long[] missing = in.longs();
                long duplicates = in.signed();
                long reordered = in.signed();
                scope.seen.put((int) lastStreamId, new DeliveryCheck.Seen(unique, highest, missing, duplicates, reordered));
            }
            return scope;
        }
    }

    private static boolean hasTimes(DeliveryCheck.Ledger ledger) {
        return ledger.streams.stream().anyMatch(s -> s.sendTimes != null)
                || ledger.scopes.stream().anyMatch(s -> !s.windows.isEmpty());
    }

    private static void writeTimes(DeliveryCheck.Ledger ledger, Varints.Out out) {
        long firstMicros = 0;
        for (DeliveryCheck.Stream s : ledger.streams) {
            long[] times = s.sendTimes;
            out.unsigned(times == null ? 0 : times.length / 2 + 1);
            if (times == null || times.length == 0) {
                continue;
            }
            // A stream's first send against the stream before's (streams start close together), the rest in the stream.
            long sequence = 0;
            long micros = firstMicros;
            firstMicros = times[1];
            for (int i = 0; i + 1 < times.length; i += 2) {
                out.signed(times[i] - sequence);
                sequence = times[i];
                out.signed(times[i + 1] - micros);
                micros = times[i + 1];
            }
        }
        TextColumn filters = new TextColumn();
        long from = 0;
        for (DeliveryCheck.Scope scope : ledger.scopes) {
            out.unsigned(scope.windows.size());
            for (DeliveryCheck.Window w : scope.windows) {
                filters.write(w.filter, out);
                out.unsigned(w.engine);
                out.signed(w.from - from);
                from = w.from;
                out.signed(w.to - w.from);
            }
        }
    }

    private static void readTimes(DeliveryCheck.Stream[] streams, DeliveryCheck.Scope[] scopes, Varints.In in) {
        long firstMicros = 0;
        for (DeliveryCheck.Stream s : streams) {
            int checkpoints = in.count() - 1;
            if (checkpoints < 0) {
                continue;
            }
            long[] times = new long[2 * checkpoints];
            long sequence = 0;
            long micros = firstMicros;
            for (int i = 0; i < checkpoints; i++) {
                sequence += in.signed();
                micros += in.signed();
                times[2 * i] = sequence;
                times[2 * i + 1] = micros;
            }
            if (checkpoints > 0) {
                firstMicros = times[1];
            }
            s.sendTimes = times;
        }
        TextColumn filters = new TextColumn();
        long from = 0;
        for (DeliveryCheck.Scope scope : scopes) {
            int windows = in.count();
            for (int i = 0; i < windows; i++) {
                String filter = filters.read(in);
                int engine = (int) in.unsigned();
                from += in.signed();
                scope.windows.add(new DeliveryCheck.Window(filter, engine, from, from + in.signed()));
            }
        }
    }

    private static boolean hasLapses(DeliveryCheck.Ledger ledger) {
        return ledger.scopes.stream().anyMatch(s -> !s.lapses.isEmpty() || s.sessionsKept > 0);
    }

    private static void writeLapses(DeliveryCheck.Ledger ledger, Varints.Out out) {
        long from = 0;
        long[] last = new long[2];
        for (DeliveryCheck.Scope scope : ledger.scopes) {
            out.unsigned(scope.sessionsKept);
            out.unsigned(scope.lapses.size());
            for (DeliveryCheck.Lapse lapse : scope.lapses) {
                out.unsigned(lapse.engine);
                out.signed(lapse.from - from);
                from = lapse.from;
                out.signed(lapse.to - lapse.from);
                writeByStream(lapse.highest, last, out);
                writeByStream(lapse.sentBefore, last, out);
                writeByStream(lapse.sentAfter, last, out);
            }
        }
    }

    /** Entry count, then per entry ±stream id and ±value against {@code last}'s, which it updates. */
    private static void writeByStream(Map<Integer, Long> byStream, long[] last, Varints.Out out) {
        out.unsigned(byStream.size());
        for (Map.Entry<Integer, Long> e : byStream.entrySet()) {
            out.signed(e.getKey() - last[0]);
            last[0] = e.getKey();
            out.signed(e.getValue() - last[1]);
            last[1] = e.getValue();
        }
    }

    private static void readLapses(DeliveryCheck.Scope[] scopes, Varints.In in) {
        long from = 0;
        long[] last = new long[2];
        for (DeliveryCheck.Scope scope : scopes) {
            scope.sessionsKept = in.unsigned();
            for (int lapses = in.count(); lapses > 0; lapses--) {
                int engine = (int) in.unsigned();
                from += in.signed();
                long to = from + in.signed();
                scope.lapses.add(new DeliveryCheck.Lapse(engine, from, to, readByStream(last, in), readByStream(last, in),
                        readByStream(last, in)));
            }
        }
    }

    private static Map<Integer, Long> readByStream(long[] last, Varints.In in) {
        Map<Integer, Long> byStream = new TreeMap<>();
        for (int entries = in.count(); entries > 0; entries--) {
            last[0] += in.signed();
            last[1] += in.signed();
            byStream.put((int) last[0], last[1]);
        }
        return byStream;
    }

    /** Deflate's default level: level 9 made 160,000 streams 11 % smaller and took 7 times as long (0.7 s against 0.1). */
    private static byte[] deflate(byte[] bytes) {
        Deflater deflater = new Deflater(Deflater.DEFAULT_COMPRESSION);
        try {
            deflater.setInput(bytes);
            deflater.finish();
            ByteArrayOutputStream out = new ByteArrayOutputStream(Math.max(64, bytes.length / 8));
            byte[] chunk = new byte[64 * 1024];
            while (!deflater.finished()) {
                out.write(chunk, 0, deflater.deflate(chunk));
            }
            return out.toByteArray();
        } finally {
            deflater.end();
        }
    }

    private static byte[] inflate(byte[] deflated) {
        Inflater inflater = new Inflater();
        try {
            inflater.setInput(deflated);
            ByteArrayOutputStream out = new ByteArrayOutputStream(Math.max(64, deflated.length * 8));
            byte[] chunk = new byte[64 * 1024];
            while (!inflater.finished()) {
                int n = inflater.inflate(chunk);
                if (n == 0 && (inflater.needsInput() || inflater.needsDictionary())) {
                    throw new IllegalArgumentException("the ledger's deflated data ends early");
                }
                out.write(chunk, 0, n);
            }
            return out.toByteArray();
        } catch (DataFormatException e) {
            throw new IllegalArgumentException("the ledger's data is not deflated data: " + e.getMessage(), e);
        } finally {
            inflater.end();
        }
    }
}
