package io.mqttload.testsupport;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import com.hivemq.client.mqtt.MqttClient;
import com.hivemq.client.mqtt.datatypes.MqttQos;
import com.hivemq.client.mqtt.mqtt5.Mqtt5AsyncClient;

class RateLimitedProxySelfIT {
    private static final double RATE = 200;
    private static final long TIMEOUT_SECONDS = 20;

    private static EmbeddedHiveMqBroker broker;

    @BeforeAll
    static void startBroker() {
        broker = EmbeddedHiveMqBroker.start();
    }

    @AfterAll
    static void stopBroker() {
        if (broker != null) {
            broker.close();
        }
    }

    @Test
    void publishesAboveTheCap_areForwardedAtTheCap_allOfThem() throws Exception {
        int count = (int) (3 * 2 * RATE); // 3 s worth at twice the cap: the proxy needs 6 s to forward them
        String topic = "selftest/rate-proxy/above";
        try (RateLimitedProxy proxy = RateLimitedProxy.to(broker.host(), broker.tcpPort(), RATE)) {
            // Message 0 goes first, alone: the first delivery on a fresh path arrived 5 to 10 ms late (class loading,
            // the interpreter), which would shift the reference of every check below.
            Arrivals through = subscribe("above-through-proxy", proxy.port(), topic, 1 + count);
            Mqtt5AsyncClient publisher = connect("above-publisher", broker.tcpPort());
            try {
                publish(publisher, topic, 0).get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
                await().atMost(Duration.ofSeconds(TIMEOUT_SECONDS)).until(() -> through.received.get() == 1);
                proxy.markScheduleStart();
                long publishing = System.nanoTime();
                List<CompletableFuture<?>> sent = new ArrayList<>(count);
                for (int i = 1; i <= count; i++) {
                    sent.add(publish(publisher, topic, i));
                }
                CompletableFuture.allOf(sent.toArray(new CompletableFuture<?>[0])).get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
                report("published %d messages in %.1f ms", count, (System.nanoTime() - publishing) / 1e6);

                await().atMost(Duration.ofSeconds(TIMEOUT_SECONDS)).until(() -> through.received.get() == 1 + count);
            } finally {
                disconnect(publisher, through.client);
            }
            long[] times = Arrays.copyOfRange(through.inOrder, 1, 1 + count);

            // The k-th message of the burst (from 0) is written no earlier than k / R after the first one's slot, the
            // schedule's start, and arrives after it is written: exactly, however late the proxy's threads or the
            // subscriber's callback run (the start was once estimated from the first arrivals, which a busy machine
            // delays by 7 to 11 ms). A cap above R moves every later message early: 1 % too fast, by 60 ms at the end.
            long interval = Math.round(1e9 / RATE);
            long scheduleStart = proxy.firstSlotSinceMark().orElseThrow();
            long fromFirst = Long.MAX_VALUE;
            for (int k = 0; k < count; k++) {
                fromFirst = Math.min(fromFirst, times[k] - k * interval - scheduleStart);
            }
            // Windows that start later are reported, not asserted: a write or a callback that runs late shortens
            // the gap after it by as much (the slots after it do not move, which is what keeps the rate exact).
            long anyWindow = Long.MAX_VALUE;
            for (int i = 0; i < count; i++) {
                for (int j = i + 1; j < count; j++) {
                    anyWindow = Math.min(anyWindow, (times[j] - times[i]) - (long) (j - i) * interval);
                }
            }
            // From the schedule's start, not the first arrival, which a late callback would move.
            double seconds = (times[count - 1] - scheduleStart) / 1e9;
            double rate = (count - 1) / seconds;
            report("received %d in %.3f s: %.2f/s against a cap of %.0f/s (%+.3f %%); earliest k-th after the"
                    + " schedule's start %+.3f ms from k / R; shortest window %+.3f ms from (messages - 1) / R", count, seconds, rate, RATE,
                    100 * (rate / RATE - 1), fromFirst / 1e6, anyWindow / 1e6);
            assertThat(fromFirst).as("the earliest k-th message after the schedule's start, less k / R, ns")
                    .isGreaterThanOrEqualTo(0);
            // Never above the cap (the check above says so message by message). How close to it depends on the
            // machine: a reader that gets its core more than a slot late starts the schedule again from its late read
            // (2.5 % below the cap with builds beside it, 12.8 % with a core kept busy as well), so only a proxy that
            // is not the bottleneck it claims to be is refused here; schedule_* checks the slots exactly.
            assertThat(rate).as("forwarded rate, msg/s").isLessThanOrEqualTo(RATE * 1.01)
                    .isGreaterThanOrEqualTo(RATE / 2);
            assertThat(proxy.publishesForwarded()).isEqualTo(1 + count);
        }
    }

    @Test
    void publishesBelowTheCap_passWithLittleAddedLatency() throws Exception {
        int count = 250; // one every 10 ms for 2.5 s: half the cap
        // The first messages through a fresh path pay class loading and the interpreter (8 to 17 ms were seen on the
        // first few), which is the JVM's start and not the proxy's delay: they count as arrived, not in the figures.
        int warmUp = 50;
        long periodMillis = 10;
        String topic = "selftest/rate-proxy/below";
        try (RateLimitedProxy proxy = RateLimitedProxy.to(broker.host(), broker.tcpPort(), RATE)) {
            Arrivals through = subscribe("below-through-proxy", proxy.port(), topic, count);
            Arrivals direct = subscribe("below-direct", broker.tcpPort(), topic, count);
            Mqtt5AsyncClient publisher = connect("below-publisher", broker.tcpPort());
            ScheduledExecutorService pacer = Executors.newSingleThreadScheduledExecutor();
            try {
                AtomicInteger next = new AtomicInteger();
                pacer.scheduleAtFixedRate(() -> {
                    int i = next.getAndIncrement();
                    if (i < count) {
                        publish(publisher, topic, i);
                    }
                }, 0, periodMillis, TimeUnit.MILLISECONDS);
                await().atMost(Duration.ofSeconds(TIMEOUT_SECONDS))
                        .until(() -> through.received.get() == count && direct.received.get() == count);
            } finally {
                pacer.shutdownNow();
                disconnect(publisher, through.client, direct.client);
            }

            // The same message's arrival through the proxy minus its arrival at a subscriber connected directly.
            int measured = count - warmUp;
            long[] added = new long[measured];
            for (int i = 0; i < measured; i++) {
                added[i] = through.byIndex[warmUp + i] - direct.byIndex[warmUp + i];
            }
            Arrays.sort(added);
            long p50 = percentile(added, 0.50);
            long p99 = percentile(added, 0.99);
            report("added latency below the cap, %d messages: p50 %.3f ms, p95 %.3f ms, p99 %.3f ms, max %.3f ms",
                    measured, p50 / 1e6, percentile(added, 0.95) / 1e6, p99 / 1e6, added[measured - 1] / 1e6);
            // What the proxy's two extra hops add is how busy the machine is: p50 0.2 ms and p99 9.4 ms on a quiet
            // one, p50 24 ms and p99 331 ms with builds beside it and a core kept busy. That a PUBLISH below the cap
            // waits for no slot is the schedule's, checked exactly by schedule_*; here only a proxy that holds the
            // typical message for many slots is refused.
            long slot = Math.round(1e9 / RATE);
            assertThat(p50).as("p50 of the added latency, ns, against 50 slots").isLessThan(50 * slot);
            assertThat(proxy.publishesForwarded()).isEqualTo(count);
        }
    }

    @Test
    void schedule_belowTheCap_givesEachPublishItsArrival() {
        long interval = Math.round(1e9 / RATE);
        RateLimitedProxy.Schedule schedule = new RateLimitedProxy.Schedule(interval);
        long arrival = 1_000_000_000L;
        for (int k = 0; k < 250; k++) {
            // Every 10 ms as in the test above, or exactly one slot after the last: neither waits.
            arrival += k % 2 == 0 ? 2 * interval : interval;
            assertThat(schedule.slot(arrival)).as("publish %d", k).isEqualTo(arrival);
        }
    }

    @Test
    void schedule_aboveTheCap_spacesPublishesBy1OverR_fromTheFirst_andStartsAgainAfterAPause() {
        long interval = Math.round(1e9 / RATE);
        RateLimitedProxy.Schedule schedule = new RateLimitedProxy.Schedule(interval);
        long start = Long.MAX_VALUE - 500 * interval;
        // A burst: all arrive together, and the slots run one interval apart from the first arrival, across the
        // nanoTime values' wrap.
        for (int k = 0; k < 1_000; k++) {
            assertThat(schedule.slot(start + k)).as("publish %d", k).isEqualTo(start + k * interval);
        }
        // One arriving after its would-be slot starts the schedule again from its arrival: nothing is owed for a pause.
        long afterPause = start + 1_000 * interval + 3 * interval / 2;
        assertThat(schedule.slot(afterPause)).isEqualTo(afterPause);
        assertThat(schedule.slot(afterPause + 1)).isEqualTo(afterPause + interval);
    }

    @Test
    void close_whileAPublishWaitsForItsSlot_returnsAtOnce() throws Exception {
        String topic = "selftest/rate-proxy/close";
        RateLimitedProxy proxy = RateLimitedProxy.to(broker.host(), broker.tcpPort(), 0.1); // a slot every 10 s
        Arrivals through = subscribe("close-through-proxy", proxy.port(), topic, 2);
        Mqtt5AsyncClient publisher = connect("close-publisher", broker.tcpPort());
        try {
            publish(publisher, topic, 0).get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
            publish(publisher, topic, 1).get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
            await().atMost(Duration.ofSeconds(TIMEOUT_SECONDS)).until(() -> through.received.get() == 1);
        } finally {
            disconnect(publisher);
        }
        long closing = System.nanoTime();
        proxy.close();
        long closeNanos = System.nanoTime() - closing;
        report("close with a PUBLISH 10 s from its slot took %.1f ms", closeNanos / 1e6);
        assertThat(closeNanos).as("close(), ns").isLessThan(TimeUnit.SECONDS.toNanos(2));
        assertThat(proxy.publishesForwarded()).isEqualTo(1);
        assertThat(through.received.get()).isEqualTo(1);
    }

    /** The value at {@code fraction} of a sorted array, nearest rank. */
    private static long percentile(long[] sorted, double fraction) {
        return sorted[Math.max(0, (int) Math.ceil(fraction * sorted.length) - 1)];
    }

    /** A subscriber's arrival times, by message index and in the order it received them. */
    private static final class Arrivals {
        final Mqtt5AsyncClient client;
        final long[] byIndex;
        final long[] inOrder;
        final AtomicInteger received = new AtomicInteger();

        Arrivals(Mqtt5AsyncClient client, int count) {
            this.client = client;
            this.byIndex = new long[count];
            this.inOrder = new long[count];
        }

        /** Runs on the client's one callback thread; the counter's increment publishes the arrays' writes. */
        void arrived(int index, long now) {
            byIndex[index] = now;
            inOrder[received.get()] = now;
            received.incrementAndGet();
        }
    }

    private static Arrivals subscribe(String name, int port, String topic, int count) throws Exception {
        Mqtt5AsyncClient client = connect(name, port);
        Arrivals arrivals = new Arrivals(client, count);
        client.subscribeWith().topicFilter(topic).qos(MqttQos.AT_MOST_ONCE)
                .callback(p -> arrivals.arrived(ByteBuffer.wrap(p.getPayloadAsBytes()).getInt(), System.nanoTime()))
                .send().get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
        return arrivals;
    }

    private static Mqtt5AsyncClient connect(String name, int port) throws Exception {
        Mqtt5AsyncClient client = MqttClient.builder().useMqttVersion5()
                .identifier("rate-proxy-" + name)
                .serverHost(FreePorts.LOOPBACK).serverPort(port)
                .buildAsync();
        client.connect().get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
        return client;
    }

    private static CompletableFuture<?> publish(Mqtt5AsyncClient client, String topic, int index) {
        return client.publishWith().topic(topic).qos(MqttQos.AT_MOST_ONCE)
                .payload(ByteBuffer.allocate(Integer.BYTES).putInt(index).array()).send();
    }

    private static void disconnect(Mqtt5AsyncClient... clients) throws Exception {
        for (Mqtt5AsyncClient client : clients) {
            client.disconnect().get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
        }
    }

    private static void report(String format, Object... arguments) {
        System.out.println("[RateLimitedProxySelfIT] " + String.format(Locale.ROOT, format, arguments));
    }
}
