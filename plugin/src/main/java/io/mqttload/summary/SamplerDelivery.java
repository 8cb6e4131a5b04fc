package io.mqttload.summary;

/** Expected and received deliveries of one Subscribe sampler's clients: whose subscribers lost messages. */
public final class SamplerDelivery {
    public long expected;
    public long received;
    public long lost;

    public SamplerDelivery() {
    }

    SamplerDelivery(long expected, long received) {
        this.expected = expected;
        this.received = received;
        this.lost = expected - received;
    }
}
