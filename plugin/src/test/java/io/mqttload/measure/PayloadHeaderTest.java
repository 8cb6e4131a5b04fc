package io.mqttload.measure;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;

import org.junit.jupiter.api.Test;

class PayloadHeaderTest {
    @Test
    void writeThenRead_roundTripsEveryField_inSixteenBytes() {
        byte[] payload = new byte[PayloadHeader.SIZE];
        long now = MicroClock.nowMicros();

        PayloadHeader.write(payload, now, 0xABC12345, 0x7FFFFFFE);

        assertThat(PayloadHeader.sendMicros(payload)).isEqualTo(now);
        assertThat(PayloadHeader.streamId(payload)).isEqualTo(0xABC12345);
        assertThat(PayloadHeader.sequence(payload)).isEqualTo(0x7FFFFFFE);
        assertThat(PayloadHeader.isPlausible(payload, now + 1000)).isTrue();
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
    void publisherNode_travelsInTheTimeFieldsTopBits_withoutChangingTheTime() {
        long now = MicroClock.nowMicros();
        for (int node : new int[] {-1, 0, 1, 62}) {
            byte[] payload = new byte[PayloadHeader.SIZE];
            PayloadHeader.write(payload, now, 5, 6, node);

            assertThat(PayloadHeader.node(payload)).isEqualTo(node);
            assertThat(PayloadHeader.node(java.nio.ByteBuffer.wrap(payload))).isEqualTo(node);
            assertThat(PayloadHeader.sendMicros(payload)).isEqualTo(now);
            assertThat(PayloadHeader.sendMicros(java.nio.ByteBuffer.wrap(payload))).isEqualTo(now);
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
        long wallMicros = System.currentTimeMillis() * 1000;
        long clockMicros = MicroClock.nowMicros();

        assertThat(Math.abs(clockMicros - wallMicros)).isLessThan(2_000);
    }
}
