package io.mqttload.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Locale;

import org.junit.jupiter.api.Test;

import io.mqttload.report.influx.LineProtocol;
import io.mqttload.testsupport.InfluxDbServer;

/**
 * Tag values a user can type (spaces, commas, '=', quotes, backslashes, non-ASCII) written as line
 * protocol to a real InfluxDB 1.6 and read back unchanged, whatever the default Locale.
 */
class LineProtocolIT {
    private static final String[] TAG_VALUES = {"plain", "with space", "a,b", "k=v", "quote\"d", "back\\slash",
        "ünïcödé 测试", "=,= ,", "tab\tand\nnewline"};

    @Test
    void awkwardTagValuesAndDecimalFields_roundTripThroughInfluxDb() throws Exception {
        Locale previous = Locale.getDefault();
        // A decimal comma in the default Locale must not leak into the line protocol.
        Locale.setDefault(Locale.GERMANY);
        try (InfluxDbServer influx = InfluxDbServer.start()) {
            assertThat(influx.query("", "CREATE DATABASE mqtt")).doesNotContain("error");
            StringBuilder lines = new StringBuilder();
            long now = System.currentTimeMillis();
            for (int i = 0; i < TAG_VALUES.length; i++) {
                LineProtocol.measurement(lines, "mqtt stats,x");
                LineProtocol.tag(lines, "engine id", TAG_VALUES[i]);
                LineProtocol.tag(lines, "empty", "");
                LineProtocol.firstField(lines, "count", i);
                LineProtocol.field(lines, "mean latency", 1234.5 + i);
                LineProtocol.field(lines, "note", "say \"hi\"");
                LineProtocol.end(lines, now + i);
            }

            assertThat(influx.write("mqtt", lines.toString())).startsWith("204");

            String tags = influx.query("mqtt", "SHOW TAG VALUES FROM \"mqtt stats,x\" WITH KEY = \"engine id\"");
            for (String value : TAG_VALUES) {
                // Line breaks cannot travel in line protocol; they arrive as spaces.
                String stored = value.replace('\t', ' ').replace('\n', ' ');
                String json = stored.replace("\\", "\\\\").replace("\"", "\\\"");
                assertThat(tags).contains("\"" + json + "\"");
            }
            String sum = influx.query("mqtt", "SELECT sum(\"count\"), sum(\"mean latency\") FROM \"mqtt stats,x\"");
            long count = TAG_VALUES.length;
            assertThat(sum).contains("," + (count * (count - 1) / 2) + ",");
            double expected = 1234.5 * count + count * (count - 1) / 2.0;
            assertThat(sum).contains(Double.toString(expected).replace(".0", ""));
        } finally {
            Locale.setDefault(previous);
        }
    }

    @Test
    void aTagValueEndingWithABackslash_isRefusedNotMangled() {
        StringBuilder line = new StringBuilder("m");
        assertThatThrownBy(() -> LineProtocol.tag(line, "engine", "trailing\\"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("ends with a backslash");
    }
}
