package io.mqttload.summary;

import com.fasterxml.jackson.annotation.JsonInclude;

/**
 * Expected and received deliveries of one Subscribe sampler's clients, and the duplicates and reordered messages among
 * what they received: whose subscribers lost messages, and where the duplicates were.
 */
public final class SamplerDelivery {
    public long expected;
    public long received;
    public long lost;
    /** Written only when not 0, so that summaries without them read and write back alike. */
    @JsonInclude(JsonInclude.Include.NON_DEFAULT)
    public long duplicates;
    @JsonInclude(JsonInclude.Include.NON_DEFAULT)
    public long reordered;

    public SamplerDelivery() {
    }

    /** From a delivery check's {@code [expected, received, duplicates, reordered]}. */
    SamplerDelivery(long[] figures) {
        this.expected = figures[0];
        this.received = figures[1];
        this.lost = expected - received;
        this.duplicates = figures.length > 2 ? figures[2] : 0;
        this.reordered = figures.length > 3 ? figures[3] : 0;
    }
}
