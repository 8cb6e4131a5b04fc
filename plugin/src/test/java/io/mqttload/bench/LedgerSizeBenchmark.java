package io.mqttload.bench;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import java.util.zip.GZIPOutputStream;
import java.util.zip.Inflater;

import com.fasterxml.jackson.databind.ObjectMapper;

import io.mqttload.delivery.DeliveryCheck;
import io.mqttload.delivery.DeliveryLedger;
import io.mqttload.summary.EngineSummary;
import io.mqttload.summary.MergedReport;
import io.mqttload.summary.SummaryJson;

/**
 * The size of an engine's summary against the number of its publish streams, format 3 (a JSON object per stream and
 * per received entry) beside format 4 (the compact ledger), each also gzip'd, and the time to write and read it.
 * One engine's ledger of N streams: N / 10 publishers on 10 topics each ({@code devices/00042/sensor/3}), one
 * subscriber scope per topic receiving every publisher, each stream 600-604 messages (a run ended by its duration).
 * Shapes: everything delivered; 0.1 % of the messages lost at random (gaps); 1 % of the entries with duplicates and
 * 0.5 % reordered; everything delivered but the streams created in random order (no two neighbours alike); and pairs,
 * N publishers on a topic each and a subscriber per publisher (N receiver scopes of one entry each).
 */
public final class LedgerSizeBenchmark {
    private static final int TOPICS = 10;
    private static final ObjectMapper JSON = new ObjectMapper();

    private LedgerSizeBenchmark() {
    }

    enum Shape { ALL_DELIVERED, LOST_0_1_PERCENT, DUPLICATES_AND_REORDERED, ALL_DELIVERED_RANDOM_ORDER, PAIRS }

    public static void main(String[] args) throws Exception {
        int repetitions = args.length > 0 ? Integer.parseInt(args[0]) : 3;
        List<Integer> sizes = new ArrayList<>();
        for (String n : (args.length > 1 ? args[1] : "160000,1000000").split(",")) {
            sizes.add(Integer.parseInt(n.trim()));
        }
        System.out.println("| streams | shape | format | summary bytes | per stream | gzip'd bytes | write ms | read ms |");
        System.out.println("| ---: | --- | --- | ---: | ---: | ---: | --- | --- |");
        List<String> ratios = new ArrayList<>();
        for (int streams : sizes) {
            for (Shape shape : Shape.values()) {
                EngineSummary summary = new EngineSummary();
                summary.runId = "bench";
                summary.engineId = "engine-1";
                summary.engineNumber = 1;
                summary.ledger = ledger(shape, streams);
                Figures v3 = measure(summary, SummaryJson.FORMAT_WITH_LEDGER_LISTS, repetitions, streams, shape);
                Figures v4 = measure(summary, SummaryJson.FORMAT_VERSION, repetitions, streams, shape);
                summary.ledger = null;
                String sameMerge = sameMerge(v3.json, v4.json) ? "same merged figures" : "MERGED FIGURES DIFFER";
                ratios.add(String.format(Locale.ROOT, "%,d %s: format 4 / format 3 size %.5f, gzip'd %.4f;"
                        + " format 4 / gzip'd format 3 %.3f; varints before deflate %,d bytes (%.2f per stream);"
                        + " write %.3f, read %.3f (median ratios); %s",
                        streams, shape, (double) v4.bytes / v3.bytes, (double) v4.gzipped / v3.gzipped,
                        (double) v4.bytes / v3.gzipped, v4.varints, (double) v4.varints / streams,
                        median(v4.writeMs) / median(v3.writeMs), median(v4.readMs) / median(v3.readMs), sameMerge));
                v3.json = null;
                v4.json = null;
            }
        }
        System.out.println();
        ratios.forEach(System.out::println);
    }

    static final class Figures {
        String json;
        long bytes;
        long gzipped;
        long varints;
        final List<Double> writeMs = new ArrayList<>();
        final List<Double> readMs = new ArrayList<>();
    }

    private static Figures measure(EngineSummary summary, int format, int repetitions, int streams, Shape shape)
            throws IOException {
        summary.formatVersion = format;
        Figures f = new Figures();
        // One untimed pass each way first: the JIT compiles Jackson's and the codec's paths.
        f.json = SummaryJson.write(summary);
        SummaryJson.readEngineSummary(f.json);
        for (int rep = 0; rep < repetitions; rep++) {
            long start = System.nanoTime();
            f.json = SummaryJson.write(summary);
            f.writeMs.add((System.nanoTime() - start) / 1e6);
            start = System.nanoTime();
            SummaryJson.readEngineSummary(f.json);
            f.readMs.add((System.nanoTime() - start) / 1e6);
        }
        byte[] utf8 = f.json.getBytes(StandardCharsets.UTF_8);
        f.bytes = utf8.length;
        f.gzipped = gzip(utf8);
        f.varints = format == SummaryJson.FORMAT_VERSION ? inflatedLength(f.json) : 0;
        System.out.printf(Locale.ROOT, "| %,d | %s | %d | %,d | %.2f | %,d | %s | %s |%n", streams, shape, format, f.bytes,
                (double) f.bytes / streams, f.gzipped, times(f.writeMs), times(f.readMs));
        return f;
    }

    private static DeliveryCheck.Ledger ledger(Shape shape, int streamCount) {
        Random random = new Random(streamCount * 31L + shape.ordinal());
        if (shape == Shape.PAIRS) {
            return pairs(streamCount, random);
        }
        List<DeliveryCheck.Scope> scopes = new ArrayList<>();
        for (int topic = 0; topic < TOPICS; topic++) {
            DeliveryCheck.Scope scope = new DeliveryCheck.Scope("client:sub-" + topic, "Subscribe");
            scope.addFilter("devices/+/sensor/" + topic);
            scopes.add(scope);
        }
        List<int[]> order = new ArrayList<>();
        for (int device = 0; device < streamCount / TOPICS; device++) {
            for (int topic = 0; topic < TOPICS; topic++) {
                order.add(new int[] {device, topic});
            }
        }
        if (shape == Shape.ALL_DELIVERED_RANDOM_ORDER) {
            Collections.shuffle(order, random);
        }
        List<DeliveryCheck.Stream> streams = new ArrayList<>(streamCount);
        int id = 1 << DeliveryLedger.LOCAL_STREAM_BITS;
        for (int[] deviceTopic : order) {
            long sent = 600 + random.nextInt(5);
            String topic = String.format(Locale.ROOT, "devices/%05d/sensor/%d", deviceTopic[0], deviceTopic[1]);
            streams.add(new DeliveryCheck.Stream(++id, topic, sent, sent, new long[0]));
            scopes.get(deviceTopic[1]).see(id, seen(shape, sent, random));
        }
        return new DeliveryCheck.Ledger(streams, scopes);
    }

    private static DeliveryCheck.Ledger pairs(int streamCount, Random random) {
        List<DeliveryCheck.Stream> streams = new ArrayList<>(streamCount);
        List<DeliveryCheck.Scope> scopes = new ArrayList<>(streamCount);
        int id = 1 << DeliveryLedger.LOCAL_STREAM_BITS;
        for (int pair = 0; pair < streamCount; pair++) {
            long sent = 600 + random.nextInt(5);
            String topic = String.format(Locale.ROOT, "pairs/%07d", pair);
            streams.add(new DeliveryCheck.Stream(++id, topic, sent, sent, new long[0]));
            DeliveryCheck.Scope scope = new DeliveryCheck.Scope(String.format(Locale.ROOT, "client:sub-%07d", pair), "Subscribe");
            scope.addFilter(topic);
            scope.see(id, new DeliveryCheck.Seen(sent, sent, new long[0]));
            scopes.add(scope);
        }
        return new DeliveryCheck.Ledger(streams, scopes);
    }

    /** What a subscriber saw of {@code sent} messages: every one, or with losses, duplicates or reordering. */
    private static DeliveryCheck.Seen seen(Shape shape, long sent, Random random) {
        if (shape == Shape.DUPLICATES_AND_REORDERED) {
            long duplicates = random.nextInt(100) == 0 ? 1 + random.nextInt(3) : 0;
            long reordered = random.nextInt(200) == 0 ? 1 + random.nextInt(2) : 0;
            return new DeliveryCheck.Seen(sent, sent, new long[0], duplicates, reordered);
        }
        if (shape != Shape.LOST_0_1_PERCENT) {
            return new DeliveryCheck.Seen(sent, sent, new long[0]);
        }
        List<Long> lost = new ArrayList<>();
        // Losses at rate 0.001, placed by their geometric distances rather than a draw per message.
        for (long seq = 1 + geometric(random); seq <= sent; seq += 1 + geometric(random)) {
            lost.add(seq);
        }
        long highest = sent;
        while (!lost.isEmpty() && lost.get(lost.size() - 1) == highest) {
            lost.remove(lost.size() - 1);
            highest--;
        }
        long[] missing = new long[2 * lost.size()];
        int k = 0;
        for (long seq : lost) {
            if (k > 0 && missing[k - 1] + 1 == seq) {
                missing[k - 1] = seq;
            } else {
                missing[k++] = seq;
                missing[k++] = seq;
            }
        }
        return new DeliveryCheck.Seen(highest - lost.size(), highest, Arrays.copyOf(missing, k));
    }

    private static long geometric(Random random) {
        return (long) Math.floor(Math.log(1 - random.nextDouble()) / Math.log(1 - 0.001));
    }

    /** Both formats merge to the same report (expected, received, lost, per sampler and node, clock crossings). */
    private static boolean sameMerge(String v3, String v4) {
        return MergedReport.merge(List.of(v3), List.of()).toJson().equals(MergedReport.merge(List.of(v4), List.of()).toJson());
    }

    private static long gzip(byte[] bytes) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (GZIPOutputStream gz = new GZIPOutputStream(out)) {
            gz.write(bytes);
        }
        return out.size();
    }

    private static long inflatedLength(String json) throws IOException {
        byte[] deflated = JSON.readTree(json).path("ledger").path("deflated").binaryValue();
        Inflater inflater = new Inflater();
        try {
            inflater.setInput(deflated);
            byte[] chunk = new byte[64 * 1024];
            long n = 0;
            while (!inflater.finished()) {
                n += inflater.inflate(chunk);
            }
            return n;
        } catch (java.util.zip.DataFormatException e) {
            throw new IOException(e);
        } finally {
            inflater.end();
        }
    }

    private static double median(List<Double> values) {
        List<Double> sorted = new ArrayList<>(values);
        Collections.sort(sorted);
        return sorted.get(sorted.size() / 2);
    }

    private static String times(List<Double> ms) {
        StringBuilder b = new StringBuilder();
        for (double v : ms) {
            b.append(b.length() == 0 ? "" : ", ").append(String.format(Locale.ROOT, "%.0f", v));
        }
        return b.toString();
    }
}
