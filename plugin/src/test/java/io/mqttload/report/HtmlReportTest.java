package io.mqttload.report;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;

import org.junit.jupiter.api.Test;

import io.mqttload.measure.Count;
import io.mqttload.measure.FailureTally;
import io.mqttload.summary.EngineSummary;
import io.mqttload.summary.MergedReport;

/** The page's template escapes whatever a plan, a broker or an engine put into the report. */
class HtmlReportTest {

    @Test
    void textFromThePlanAndTheBroker_isEscaped() {
        EngineSummary s = new EngineSummary();
        s.runId = "run-<1>";
        s.engineId = "engine-\"1\"";
        s.scenario = "a & b";
        s.counts.put(Count.CONNECTS_FAILED.key(), 3L);
        s.failures.add(new FailureTally.Row("<script>alert(1)</script>", FailureTally.Kind.CONNECT,
                "CONNACK refused: <b>NOT_AUTHORIZED</b>", 3));
        s.parameters.put("topic", "a/<b>/c");

        String page = HtmlReport.render(MergedReport.of(List.of(s), List.of("engine <2>")));

        assertThat(page).doesNotContain("<script>").doesNotContain("<b>NOT_AUTHORIZED</b>").doesNotContain("a/<b>/c")
                .contains("&lt;script&gt;alert(1)&lt;/script&gt;").contains("CONNACK refused: &lt;b&gt;NOT_AUTHORIZED")
                .contains("<title>MQTT run run-&lt;1&gt;</title>").contains("scenario a &amp; b")
                .contains("engine &lt;2&gt;: no summary received").contains("a/&lt;b&gt;/c");
    }
}
