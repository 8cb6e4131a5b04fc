package io.mqttload.common;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Locale;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.ObjectMapper;

class JsonTest {
    @Test
    void number_nearlyWholeOrFractional_isAlwaysValidJsonWithThreeDecimalsAtMost() throws Exception {
        Locale previous = Locale.getDefault();
        Locale.setDefault(Locale.GERMANY);
        try {
            assertThat(Json.number(12.0000001)).isEqualTo("12");
            assertThat(Json.number(5.1)).isEqualTo("5.1");
            assertThat(Json.number(1818.1818181818)).isEqualTo("1818.182");
            assertThat(Json.number(0.0004)).isEqualTo("0");
            assertThat(Json.number(Double.NaN)).isEqualTo("0");
            for (double v : new double[] {12.0000001, 0.9999999, -3.0000002, 1e-9, 123456.0005}) {
                String json = new Json().open().field("v", v).close().toString();
                assertThat(new ObjectMapper().readTree(json).path("v").asDouble()).as(json)
                        .isEqualTo(v, org.assertj.core.data.Offset.offset(0.001));
            }
        } finally {
            Locale.setDefault(previous);
        }
    }
}
