package io.mqttload.broker;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintStream;
import java.io.OutputStream;
import java.util.List;

import org.junit.jupiter.api.Test;

/** The monitor on a real process (this JVM), read from /proc. */
class BrokerMonitorTest {
    @Test
    void sampleNow_rightAfterAReading_givesMemoryButNoCpuFromATickOrTwo() {
        BrokerMonitor.Settings settings = new BrokerMonitor.Settings();
        settings.pid = ProcessHandle.current().pid();
        settings.intervalMillis = 60_000;
        try (BrokerMonitor monitor = new BrokerMonitor(settings, "test", s -> { }, new PrintStream(OutputStream.nullOutputStream()))) {
            monitor.sampleNow(5_000);
            monitor.sampleNow(5_000);

            List<BrokerSample> samples = monitor.samples();
            // The scheduled first reading and two more within milliseconds: 10 ms clock ticks over a few
            // milliseconds would read as 0 % or several hundred %, so no CPU figure is given.
            assertThat(samples).hasSize(3).allSatisfy(s -> {
                assertThat(s.cpuPercentOfCore).isNaN();
                assertThat(s.rssBytes).isPositive();
            });
        }
    }
}
