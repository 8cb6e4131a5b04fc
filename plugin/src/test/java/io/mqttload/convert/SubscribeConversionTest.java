package io.mqttload.convert;

import static io.mqttload.convert.Converted.childrenOf;
import static io.mqttload.convert.Converted.nextSibling;
import static io.mqttload.convert.Converted.prop;
import static io.mqttload.convert.XmeterPlans.bool;
import static io.mqttload.convert.XmeterPlans.connect;
import static io.mqttload.convert.XmeterPlans.constantTimer;
import static io.mqttload.convert.XmeterPlans.loop;
import static io.mqttload.convert.XmeterPlans.node;
import static io.mqttload.convert.XmeterPlans.plan;
import static io.mqttload.convert.XmeterPlans.str;
import static io.mqttload.convert.XmeterPlans.sub;
import static io.mqttload.convert.XmeterPlans.threadGroup;
import static io.mqttload.convert.XmeterPlans.xmeter;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.w3c.dom.Element;

/** XMeter's SubSampler: a subscription once per thread, then a pause per pass in place of the collection. */
class SubscribeConversionTest {
    @TempDir
    Path dir;

    private Converted convert(String sub) {
        return Converted.convert(dir, plan(threadGroup("Subs", 1, 1, connect("Connect", str("mqtt.server", "h")),
                loop("Collect", 5, sub))));
    }

    @Test
    void timeMode_subscribesOnce_thenPausesForTheTime() {
        Converted c = convert(sub("Sub", "a/${__threadNum}", "1", false, SubscribeMapping.TIME_MODE, "500"));

        assertThat(c.exitCode).as(c.out + c.err).isZero();
        Element loop = c.element("LoopController", "Collect");
        List<Element> inLoop = childrenOf(loop);
        assertThat(inLoop).extracting(Element::getTagName).containsExactly("OnceOnlyController", "TestAction");
        Element once = inLoop.get(0);
        assertThat(once.getAttribute("testname")).isEqualTo("Sub: subscribe once");
        List<Element> subscribes = childrenOf(once);
        assertThat(subscribes).hasSize(1);
        Element s = subscribes.get(0);
        assertThat(s.getTagName()).isEqualTo("io.mqttload.jmeter.MqttSubscribeSampler");
        assertThat(s.getAttribute("testname")).isEqualTo("Sub");
        assertThat(prop(s, "topicFilters")).isEqualTo("a/${__threadNum}");
        assertThat(prop(s, "qos")).isEqualTo("1");
        assertThat(prop(s, "clientGroup")).isEqualTo("default");
        Element pause = inLoop.get(1);
        assertThat(pause.getAttribute("testname")).isEqualTo("Sub: collect");
        assertThat(prop(pause, "ActionProcessor.action")).isEqualTo("1");
        assertThat(prop(pause, "ActionProcessor.duration")).isEqualTo("500");
    }

    @Test
    void countMode_becomesAPause_reportedAsApproximation() {
        Converted c = convert(sub("Sub", "a", "0", false, SubscribeMapping.COUNT_MODE, "20"));

        assertThat(c.exitCode).as(c.out + c.err).isZero();
        Element pause = nextSibling(c.element("OnceOnlyController", "Sub: subscribe once"));
        assertThat(prop(pause, "ActionProcessor.duration")).isEqualTo("1000");
        assertThat(c.reportText()).contains("## Approximations").contains("`mqtt.sample_condition` = `number of received "
                + "messages`: no per-pass equivalent").contains("`mqtt.sample_condition_value` = `20`");
    }

    @Test
    void commaList_becomesOneFilterPerLine_trimmed() {
        Converted c = convert(sub("Sub", "a/1, a/2 ,a/+", "2", false, SubscribeMapping.TIME_MODE, "100"));

        Element s = c.suite("MqttSubscribeSampler", "Sub");
        assertThat(prop(s, "topicFilters")).isEqualTo("a/1\na/2\na/+");
        assertThat(prop(s, "qos")).isEqualTo("2");
        assertThat(c.reportText()).contains("XMeter does not trim");
    }

    @Test
    void braceOrEmptyFilter_isReported() {
        Converted c = convert(sub("Sub", "devices/{id}/#,,b", "1", false, SubscribeMapping.TIME_MODE, "100"));

        assertThat(c.exitCode).isEqualTo(2);
        assertThat(c.out).contains("mqtt.topic_name = devices/{id}/#,,b: a brace in a filter");
        assertThat(prop(c.suite("MqttSubscribeSampler", "Sub"), "topicFilters")).isEqualTo("devices/{id}/#\n\nb");
    }

    @Test
    void debugResponse_isNotConverted() {
        Converted c = convert(node(xmeter("SubSampler", "Sub", str("mqtt.topic_name", "a"), bool("mqtt.debug_response", true))));

        assertThat(c.exitCode).isEqualTo(2);
        assertThat(c.out).contains("not converted: XMeter plan > Subs > Collect > Sub [net.xmeter.samplers.SubSampler]: "
                + "mqtt.debug_response = true");
        assertThat(c.reportText()).contains("## Not converted\n\n- `Sub`");
    }

    @Test
    void timestampOnTheSubscriber_needsThePublishersHeader() {
        Converted c = convert(sub("Sub", "a", "1", true, SubscribeMapping.TIME_MODE, "100"));

        assertThat(c.exitCode).as(c.out + c.err).isZero();
        assertThat(c.reportText()).contains("`mqtt.add_timestamp` | `true` | mapped | nothing to set: the suite measures "
                + "pub-to-sub latency of every message that carries the publishers' header");
    }

    @Test
    void absentCondition_isTimeModeOfOneSecond_andInvalidQosFallsBackToZero() {
        Converted c = convert(node(xmeter("SubSampler", "Sub", str("mqtt.topic_name", "a"), str("mqtt.qos_level", "5"))));

        assertThat(prop(nextSibling(c.element("OnceOnlyController", "Sub: subscribe once")), "ActionProcessor.duration"))
                .isEqualTo("1000");
        assertThat(prop(c.suite("MqttSubscribeSampler", "Sub"), "qos")).isEqualTo("0");
    }

    @Test
    void childrenOfTheSub_stayWithTheSubscribe() {
        Converted c = convert(node(xmeter("SubSampler", "Sub", str("mqtt.topic_name", "a")), constantTimer("Think", "10")));

        List<Element> kids = childrenOf(c.suite("MqttSubscribeSampler", "Sub"));
        assertThat(kids).extracting(e -> e.getAttribute("testname")).containsExactly("Think");
        assertThat(c.reportText()).contains("Its child elements");
    }
}
