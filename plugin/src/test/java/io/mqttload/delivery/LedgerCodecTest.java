package io.mqttload.delivery;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.ObjectMapper;

import io.mqttload.common.SharedSubscription;
import io.mqttload.measure.EngineMetrics;

/**
 * The compact ledger gives back exactly the ledger it was given: compared through the ledger's format-3 JSON, which
 * writes every field of every stream and entry, and byte for byte when encoded again.
 */
class LedgerCodecTest {
    /** Without the summary's module: the ledger's own field-by-field mapping, as format 3 wrote it. */
    private static final ObjectMapper FIELDS = new ObjectMapper();
    private final EngineMetrics metrics = new EngineMetrics();

    private static String fields(DeliveryCheck.Ledger ledger) throws Exception {
        return FIELDS.writeValueAsString(ledger);
    }

    private static DeliveryCheck.Ledger roundTrip(DeliveryCheck.Ledger ledger) throws Exception {
        byte[] encoded = LedgerCodec.encode(ledger);
        DeliveryCheck.Ledger decoded = LedgerCodec.decode(encoded);
        assertThat(fields(decoded)).isEqualTo(fields(ledger));
        assertThat(LedgerCodec.encode(decoded)).as("encoded again, byte for byte").isEqualTo(encoded);
        return decoded;
    }

    private void publish(PublishStream stream, int messages, int... failed) {
        for (int i = 0; i < messages; i++) {
            int seq = stream.nextSequence();
            stream.sent();
            if (Arrays.stream(failed).anyMatch(f -> f == seq)) {
                stream.failed(seq);
            } else {
                stream.acknowledged();
            }
        }
    }

    private void receive(ReceiverScope scope, PublishStream stream, int... sequences) {
        for (int seq : sequences) {
            scope.track(stream.id(), seq, metrics);
        }
    }

    @Test
    void ledgerWithGapsDuplicatesReorderingFailuresNoLocalAndSharedGroups_decodesToTheSameLedger() throws Exception {
        DeliveryLedger ledger = new DeliveryLedger(7);
        PublishStream plain = ledger.newStream("plant/0001/temp");
        PublishStream own = ledger.newStream("plant/0002/temp", "client-0002");
        PublishStream jobs = ledger.newStream("jobs/9");
        publish(plain, 30, 5, 6, 20);
        publish(own, 12);
        publish(jobs, 8, 8);
        ReceiverScope lossy = ledger.clientScope("sub-1", "plant/#");
        lossy.labelIfUnset("Subscribe lossy");
        lossy.nodeOf("node-2");
        receive(lossy, plain, 1, 2, 4, 3, 3, 7, 8, 12, 13, 9, 30);
        receive(lossy, own, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12);
        ReceiverScope noLocal = ledger.clientScope("client-0002", "plant/#", true);
        ledger.clientScope("client-0002", "jobs/+");
        receive(noLocal, own, 1, 2);
        receive(noLocal, jobs, 1, 2, 3, 4, 5, 6, 7, 8, 8);
        ReceiverScope shared = ledger.sharedScope(SharedSubscription.parse("topicFilters", "$share/workers/jobs/#"));
        shared.granted("MQTT_5_0");
        shared.nodeOf("node-1");
        shared.nodeOf("node-3");
        receive(shared, jobs, 2, 4, 6);
        ReceiverScope heavy = ledger.clientScope("sub-heavy", "plant/0001/temp");
        PublishStream many = ledger.newStream("plant/0001/temp");
        publish(many, 2 * DeliveryLedger.MAX_EXPORTED_GAPS + 10);
        for (int seq = 1; seq <= 2 * DeliveryLedger.MAX_EXPORTED_GAPS + 10; seq += 2) {
            heavy.track(many.id(), seq, metrics);
        }
        DeliveryCheck.Ledger book = ledger.book();

        DeliveryCheck.Ledger decoded = roundTrip(book);

        assertThat(fields(decoded)).contains("\"missing\":null", "\"duplicates\":1", "\"reordered\":2", "\"failed\":[5,6,20,20]",
                "\"publisher\":\"client-0002\"", "\"noLocalFilters\":[\"plant/#\"]", "\"grantedAt\":\"MQTT_5_0\"",
                "\"node\":\"(several nodes)\"");
        DeliveryCheck.Result before = DeliveryCheck.check(book.streams, book.scopes);
        DeliveryCheck.Result after = DeliveryCheck.check(decoded.streams, decoded.scopes);
        assertThat(after).usingRecursiveComparison().isEqualTo(before);
        assertThat(before.deliveredDespiteNoLocal).isEqualTo(2);
    }

    @Test
    void textsOfEveryShape_surviveTheirTemplates() throws Exception {
        List<String> topics = List.of("dev/0999/t", "dev/1000/t", "dev/999/t", "dev/0007/t", "dev/7/t", "", "0", "00", "007",
                "-1", "a1b2c3", "x/123456789012345678/y", "x/1234567890123456789/y", "x/99999999999999999999999/y",
                "ü/∑/1/ß", "a//b", "/", "9", "10", "dev/0999/t", "$SYS/broker/1");
        List<DeliveryCheck.Stream> streams = new ArrayList<>();
        int id = 5;
        for (String topic : topics) {
            String publisher = id % 3 == 0 ? null : "pub-" + topic;
            streams.add(new DeliveryCheck.Stream(id, topic, id * 3L, id * 3L - 1, new long[0], publisher));
            id += id % 2 == 0 ? 7 : -3;
        }

        roundTrip(new DeliveryCheck.Ledger(streams, List.of()));
    }

    @Test
    void extremeNumbers_andNegativeStreamIds_survive() throws Exception {
        int highEngine = DeliveryLedger.MAX_ENGINE_NUMBER << DeliveryLedger.LOCAL_STREAM_BITS | 1;
        DeliveryCheck.Stream a = new DeliveryCheck.Stream(highEngine, "t/1", Long.MAX_VALUE, Long.MIN_VALUE,
                new long[] {Long.MIN_VALUE, -1, 0, Long.MAX_VALUE, 3}, "p");
        DeliveryCheck.Stream b = new DeliveryCheck.Stream(Integer.MAX_VALUE, "t/2", 0, 0, new long[0], null);
        DeliveryCheck.Scope scope = new DeliveryCheck.Scope("client:s", "label");
        scope.see(highEngine, new DeliveryCheck.Seen(Long.MIN_VALUE, Long.MAX_VALUE, null, Long.MAX_VALUE, -5));
        scope.see(Integer.MAX_VALUE, new DeliveryCheck.Seen(0, 0, new long[0]));
        scope.see(1, new DeliveryCheck.Seen(3, 9, new long[] {2, 4, 6, 7}));
        DeliveryCheck.Scope bare = new DeliveryCheck.Scope(null, null);
        bare.node = null;
        bare.grantedAt = null;

        roundTrip(new DeliveryCheck.Ledger(List.of(a, b), List.of(scope, bare)));
        roundTrip(new DeliveryCheck.Ledger(List.of(), List.of()));
    }

    /** 16,000 publishers' worth of realistic counts: each stream a few more or fewer messages, some lost or doubled. */
    @Test
    void manyStreams_withSomeLoss_decodeToTheSameLedger() throws Exception {
        Random random = new Random(30);
        List<DeliveryCheck.Stream> streams = new ArrayList<>();
        List<DeliveryCheck.Scope> scopes = new ArrayList<>();
        for (int topic = 0; topic < 10; topic++) {
            DeliveryCheck.Scope scope = new DeliveryCheck.Scope("client:sub-" + topic, "Subscribe");
            scope.addFilter("devices/+/sensor/" + topic);
            scopes.add(scope);
        }
        int id = 3 << DeliveryLedger.LOCAL_STREAM_BITS;
        for (int device = 0; device < 16_000; device++) {
            for (int topic = 0; topic < 10; topic++) {
                long sent = 600 + random.nextInt(5);
                long[] failed = random.nextInt(1000) == 0 ? new long[] {sent, sent} : new long[0];
                String topicName = String.format(java.util.Locale.ROOT, "devices/%05d/sensor/%d", device, topic);
                streams.add(new DeliveryCheck.Stream(++id, topicName, sent, sent - failed.length / 2, failed));
                long lost = random.nextInt(100) == 0 ? 1 + random.nextInt((int) sent - 2) : 0;
                long[] missing = lost == 0 ? new long[0] : new long[] {lost, lost};
                scopes.get(topic).see(id, new DeliveryCheck.Seen(sent - missing.length / 2, sent, missing,
                        random.nextInt(500) == 0 ? 1 : 0, 0));
            }
        }
        DeliveryCheck.Ledger ledger = new DeliveryCheck.Ledger(streams, scopes);

        roundTrip(ledger);
    }

    @Test
    void sendTimesAndSubscriptionWindows_survive_andALedgerWithoutThemKeepsTheEarlierLayout() throws Exception {
        DeliveryLedger ledger = new DeliveryLedger(3);
        ReceiverScope sub = ledger.clientScope("sub", "t/#");
        ReceiverScope group = ledger.sharedScope(SharedSubscription.parse("topicFilters", "$share/g/t/+"));
        sub.subscribed("t/#", 1_700_000_000_000_000L, 1_700_000_000_004_321L);
        group.subscribed("t/+", 1_700_000_000_100_000L, 1_700_000_000_100_100L);
        PublishStream timed = ledger.newStream("t/1");
        for (int s = 1; s <= 5_000; s++) {
            timed.sent(timed.nextSequence(), 1_700_000_000_000_000L + 997L * s);
            timed.acknowledged();
        }
        publish(ledger.newStream("t/2"), 10);
        receive(sub, timed, 1, 2, 5);

        DeliveryCheck.Ledger decoded = roundTrip(ledger.book());

        assertThat(decoded.streams.get(0).sendTimes).isEqualTo(ledger.book().streams.get(0).sendTimes).isNotEmpty();
        assertThat(decoded.streams.get(1).sendTimes).isNull();
        assertThat(decoded.scopes).flatExtracting(s -> s.windows).extracting(w -> w.filter + "@" + w.engine + ":"
                + w.from + "-" + w.to).containsExactlyInAnyOrder("t/#@3:1700000000000000-1700000000004321",
                        "t/+@3:1700000000100000-1700000000100100");
        DeliveryLedger untimed = new DeliveryLedger(3);
        publish(untimed.newStream("t/1"), 10);
        assertThat(LedgerCodec.varints(untimed.book())[0]).isEqualTo((byte) LedgerCodec.LAYOUT_WITHOUT_TIMES);
        roundTrip(untimed.book());
    }

    @Test
    void lapsesAndKeptSessions_survive_andALedgerWithoutThemKeepsLayoutTwo() throws Exception {
        DeliveryLedger ledger = new DeliveryLedger(3);
        ReceiverScope lapsing = ledger.clientScope("lapsing", "t/#");
        ReceiverScope kept = ledger.clientScope("kept", "t/#");
        lapsing.subscribed("t/#", 1_700_000_000_000_000L, 1_700_000_000_004_321L);
        kept.subscribed("t/#", 1_700_000_000_000_100L, 1_700_000_000_004_000L);
        PublishStream one = ledger.newStream("t/1");
        PublishStream two = ledger.newStream("t/2");
        for (int s = 1; s <= 50; s++) {
            one.sent(one.nextSequence(), 1_700_000_000_010_000L + 1_000L * s);
            one.acknowledged();
            two.sent(two.nextSequence(), 1_700_000_000_010_000L + 1_000L * s);
            two.acknowledged();
        }
        receive(lapsing, one, 1, 2, 3);
        receive(lapsing, two, 1);
        lapsing.connectionLost();
        lapsing.lapsed(1_700_000_000_070_000L, 1_700_000_000_070_900L, Map.of(one.id(), 30L, two.id(), 31L),
                Map.of(one.id(), 34L, two.id(), 35L));
        receive(lapsing, one, 40);
        // A second outage with nothing received in between: the same highest, a later window.
        lapsing.connectionLost();
        lapsing.lapsed(1_700_000_000_090_000L, 1_700_000_000_090_050L, Map.of(), Map.of());
        kept.connectionLost();
        kept.sessionKept(true);
        DeliveryCheck.Ledger book = ledger.book();

        DeliveryCheck.Ledger decoded = roundTrip(book);

        assertThat(LedgerCodec.varints(book)[0]).isEqualTo((byte) LedgerCodec.LAYOUT);
        assertThat(decoded.scopes).filteredOn(s -> s.key.endsWith("lapsing")).singleElement().satisfies(s -> {
            assertThat(s.lapses).extracting(l -> l.engine + ":" + l.from + "-" + l.to + " " + l.highest + " " + l.sentBefore
                    + " " + l.sentAfter).containsExactly(
                    "3:1700000000070000-1700000000070900 {" + one.id() + "=3, " + two.id() + "=1} {" + one.id() + "=30, "
                            + two.id() + "=31} {" + one.id() + "=34, " + two.id() + "=35}",
                    "3:1700000000090000-1700000000090050 {" + one.id() + "=40, " + two.id() + "=1} {} {}");
            assertThat(s.sessionsKept).isZero();
        });
        assertThat(decoded.scopes).filteredOn(s -> s.key.endsWith("kept")).singleElement()
                .satisfies(s -> assertThat(s.sessionsKept).isEqualTo(1));
        assertThat(DeliveryCheck.check(decoded.streams, decoded.scopes)).usingRecursiveComparison()
                .isEqualTo(DeliveryCheck.check(book.streams, book.scopes));

        // Without lapses the ledger is written as layout 2 wrote it, and read back as it was.
        DeliveryLedger timedOnly = new DeliveryLedger(3);
        timedOnly.clientScope("sub", "t/#").subscribed("t/#", 1_000, 2_000);
        assertThat(LedgerCodec.varints(timedOnly.book())[0]).isEqualTo((byte) LedgerCodec.LAYOUT_WITHOUT_LAPSES);
        assertThat(roundTrip(timedOnly.book()).scopes).singleElement().satisfies(s -> assertThat(s.lapses).isEmpty());
    }

    @Test
    void perfectStreams_takeLessThanAByteEach() {
        List<DeliveryCheck.Stream> streams = new ArrayList<>();
        DeliveryCheck.Scope scope = new DeliveryCheck.Scope("client:sub", "Subscribe");
        scope.addFilter("devices/#");
        for (int i = 1; i <= 100_000; i++) {
            streams.add(new DeliveryCheck.Stream(i, "devices/" + (i / 10) + "/sensor/" + (i % 10), 600, 600, new long[0]));
            scope.see(i, new DeliveryCheck.Seen(600, 600, new long[0]));
        }

        byte[] encoded = LedgerCodec.encode(new DeliveryCheck.Ledger(streams, List.of(scope)));

        assertThat(encoded.length).as("100,000 streams and 100,000 received entries with nothing missing")
                .isLessThan(100_000);
    }

    @Test
    void dataNotWrittenByTheCodec_isRefusedSayingWhatIsWrong() {
        byte[] encoded = LedgerCodec.encode(new DeliveryCheck.Ledger(
                List.of(new DeliveryCheck.Stream(1, "t/1", 5, 5, new long[0])), List.of()));
        byte[] varints = LedgerCodec.varints(new DeliveryCheck.Ledger(
                List.of(new DeliveryCheck.Stream(1, "t/1", 5, 5, new long[0])), List.of()));

        assertThatThrownBy(() -> LedgerCodec.decode("not deflated".getBytes(java.nio.charset.StandardCharsets.UTF_8)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("not deflated data");
        assertThatThrownBy(() -> LedgerCodec.decode(Arrays.copyOf(encoded, encoded.length - 3)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("ledger");
        assertThatThrownBy(() -> LedgerCodec.fromVarints(Arrays.copyOf(varints, varints.length - 2)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("ledger's data");
        byte[] otherLayout = varints.clone();
        otherLayout[0] = (byte) (LedgerCodec.LAYOUT + 1);
        assertThatThrownBy(() -> LedgerCodec.fromVarints(otherLayout)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("layout " + (LedgerCodec.LAYOUT + 1)).hasMessageContaining("reads layout " + LedgerCodec.LAYOUT);
    }
}
