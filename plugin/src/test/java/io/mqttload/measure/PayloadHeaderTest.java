package io.mqttload.measure;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;

import org.junit.jupiter.api.Test;

class PayloadHeaderTest {
    @Test
    void writeThenRead_roundTripsEveryField_inSixteenBytes() {
        byte[] payload = new byte[PayloadHeader.SIZE];
        long now = MicroClock.nowMicros();

        PayloadHeader.write(payload, now, 1_500_000, 0xABC12345, PayloadHeader.MAX_SEQUENCE, 62);

        assertThat(PayloadHeader.sendMicros(payload)).isEqualTo(now);
        assertThat(PayloadHeader.lagMicros(payload)).isCloseTo(1_500_000, org.assertj.core.data.Offset.offset(1_500_000 / 256L));
        assertThat(PayloadHeader.streamId(payload)).isEqualTo(0xABC12345);
        assertThat(PayloadHeader.sequence(payload)).isEqualTo(PayloadHeader.MAX_SEQUENCE);
        assertThat(PayloadHeader.node(payload)).isEqualTo(62);
        assertThat(PayloadHeader.isPlausible(payload, now + 1000)).isTrue();
    }

    @Test
    void unpacedMessage_carriesNoIntendedTime() {
        byte[] payload = new byte[PayloadHeader.SIZE];
        long now = MicroClock.nowMicros();

        PayloadHeader.write(payload, now, 9, 10, 3);

        assertThat(PayloadHeader.lagMicros(payload)).isEqualTo(-1);
        assertThat(PayloadHeader.lagMicros(ByteBuffer.wrap(payload))).isEqualTo(-1);
        assertThat(PayloadHeader.sendMicros(payload)).isEqualTo(now);
    }

    @Test
    void lagCode_isExactBelow128MicrosAndWithinOne256thAbove_overTheWholeRange() {
        for (long lag = 0; lag < 128; lag++) {
            assertThat(PayloadHeader.lag(PayloadHeader.lagCode(lag))).isEqualTo(lag);
        }
        long previous = -1;
        // Every lag from 128 µs to an hour, stepping by 0.1 %: the nearest code, never further than 1/256 of the lag.
        for (double lag = 128; lag <= 3_600_000_000.0; lag *= 1.001) {
            long v = (long) lag;
            long decoded = PayloadHeader.lag(PayloadHeader.lagCode(v));
            assertThat(Math.abs(decoded - v)).as("lag %d decoded as %d", v, decoded).isLessThanOrEqualTo(v / 256 + 1);
            assertThat(decoded).as("codes keep the order of lags").isGreaterThanOrEqualTo(previous);
            previous = decoded;
        }
        assertThat(PayloadHeader.lagCode(-5)).isEqualTo(PayloadHeader.NO_INTENDED_TIME);
        assertThat(PayloadHeader.lag(PayloadHeader.lagCode(Long.MAX_VALUE))).isEqualTo(PayloadHeader.MAX_LAG_MICROS);
        assertThat(PayloadHeader.MAX_LAG_MICROS).as("longer than the longest trackable latency")
                .isGreaterThan(LatencyRecorder.HIGHEST_TRACKABLE_MICROS);
    }

    @Test
    void byteBufferRead_honoursThePositionAndLeavesItAlone() {
        byte[] payload = new byte[40];
        PayloadHeader.write(payload, 1_700_000_000_000_000L, 7, 9);
        byte[] framed = new byte[50];
        System.arraycopy(payload, 0, framed, 5, 40);
        ByteBuffer buffer = ByteBuffer.wrap(framed, 5, 40).slice().asReadOnlyBuffer();

        assertThat(PayloadHeader.sendMicros(buffer)).isEqualTo(1_700_000_000_000_000L);
        assertThat(PayloadHeader.streamId(buffer)).isEqualTo(7);
        assertThat(PayloadHeader.sequence(buffer)).isEqualTo(9);
        assertThat(buffer.position()).isZero();
    }

    @Test
    void publisherNode_travelsBesideTheSequence_withoutChangingTimeLagOrSequence() {
        long now = MicroClock.nowMicros();
        for (int node : new int[] {-1, 0, 1, 62}) {
            byte[] payload = new byte[PayloadHeader.SIZE];
            PayloadHeader.write(payload, now, 40, 5, 6, node);

            assertThat(PayloadHeader.node(payload)).isEqualTo(node);
            assertThat(PayloadHeader.node(java.nio.ByteBuffer.wrap(payload))).isEqualTo(node);
            assertThat(PayloadHeader.sendMicros(payload)).isEqualTo(now);
            assertThat(PayloadHeader.sendMicros(java.nio.ByteBuffer.wrap(payload))).isEqualTo(now);
            assertThat(PayloadHeader.lagMicros(payload)).isEqualTo(40);
            assertThat(PayloadHeader.sequence(payload)).isEqualTo(6);
            assertThat(PayloadHeader.isPlausible(payload, now + 1000)).isTrue();
        }
    }

    @Test
    void isPlausible_rejectsForeignBytesAndShortPayloads() {
        byte[] text = "hello, this is not a header at all".getBytes(java.nio.charset.StandardCharsets.UTF_8);
        long now = MicroClock.nowMicros();

        assertThat(PayloadHeader.isPlausible(text, now)).isFalse();
        assertThat(PayloadHeader.isPlausible(new byte[15], now)).isFalse();
        assertThat(PayloadHeader.isPlausible(ByteBuffer.wrap(new byte[16]), now)).isFalse();
    }

    @Test
    void microClock_tracksWallClockWithinTwoMilliseconds() {
        // Read between two wall-clock readings, so that a thread preempted between the reads widens the interval
        // rather than failing the test: what is checked is the clock's anchor, not how promptly this thread ran.
        long before = System.currentTimeMillis() * 1000;
        long clockMicros = MicroClock.nowMicros();
        long after = (System.currentTimeMillis() + 1) * 1000;

        assertThat(clockMicros).isBetween(before - 2_000, after + 2_000);
    }
}
