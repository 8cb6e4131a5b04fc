package io.mqttload.compare;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

import io.mqttload.measure.Count;
import io.mqttload.summary.ReportFigures;

/** A comparison's figures read a report's rates as every other output does, through {@code summary.Rates}. */
class FigureTest {
    @Test
    void brokerCpuPerMessage_dividesByTheWindowsReceiveRate_notTheDrainInclusiveFieldOfAFormat4Report() {
        ReportFigures r = new ReportFigures();
        r.formatVersion = 4;
        r.measuredSeconds = 10;
        // Format 4's field: the drain's messages over the window's seconds, twice what the window received.
        r.receiveRate = 2000;
        r.counts.put(Count.RECEIVED_IN_WINDOW.key(), 10_000L);
        r.counts.put(Count.ACKNOWLEDGED_IN_WINDOW.key(), 10_000L);
        ReportFigures.BrokerLine broker = new ReportFigures.BrokerLine();
        broker.cpuAvg = 50;
        r.brokers.put("broker", broker);

        // Half a core over 1,000 deliveries a second.
        assertThat(Figure.BROKER_CPU_PER_MESSAGE.of(r, 1000)).isEqualTo(500.0);
    }
}
