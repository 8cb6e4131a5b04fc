package io.mqttload.jmeter;

import java.nio.charset.StandardCharsets;

import org.apache.jmeter.samplers.AbstractSampler;
import org.apache.jmeter.samplers.Entry;
import org.apache.jmeter.samplers.SampleResult;
import org.apache.jmeter.testbeans.TestBean;

import io.mqttload.delivery.Judgement;
import io.mqttload.jmeter.remote.ControllerStamp;
import io.mqttload.jmeter.run.JvmRun;
import io.mqttload.jmeter.run.MqttElements;
import io.mqttload.jmeter.run.RunState;
import io.mqttload.summary.RunSummary;

/**
 * MQTT Run End: ends this engine's MQTT run (waits, bounded, for acknowledgements and for every expected
 * message, then closes every client) and returns the engine's exact summary as its sample. Placed in a
 * tearDown Thread Group, it runs on every engine after the load; its sample travels to the controller
 * like any other, so the MQTT Run Report there can merge the summaries of every engine.
 */
public class MqttRunEndSampler extends AbstractSampler implements TestBean, MqttTestStateListener {
    private static final long serialVersionUID = 1L;

    /** A plan saved before the element had its own panel opens with that panel, not JMeter's generic bean editor. */
    @Override
    public void setProperty(String name, String value) {
        super.setProperty(name, MqttBeanGui.guiClassAsRead(name, value, MqttRunEndSamplerGui.class));
    }
    /** Marks the sample that carries a summary; content type survives JMeter's stripping remote senders. */
    static final String SUMMARY_CONTENT_TYPE = "application/vnd.mqttload.summary+json";

    /** The run this element's test start joined: its summary is the one this sampler sends. */
    private transient volatile RunState run;

    /** A field, not a property: the controller fills it as it sends the plan, and it never goes into a saved plan. */
    private ControllerStamp controllerStamp = new ControllerStamp();

    @Override
    public ControllerStamp controllerStamp() {
        return controllerStamp;
    }

    @Override
    public void testStarted() {
        MqttElements.startRuntime(controllerStamp.given());
        run = JvmRun.current();
    }

    @Override
    public SampleResult sample(Entry entry) {
        SampleResult result = new SampleResult();
        result.setSampleLabel(getName());
        result.setDataType(SampleResult.TEXT);
        result.sampleStart();
        // A second Run End (another tearDown thread) gets the same summary again; the report keeps one per engine.
        RunState ending = run != null ? run : JvmRun.current();
        RunSummary summary = JvmRun.stopOrSummaryOf(ending);
        result.sampleEnd();
        if (summary == null) {
            String why = MqttElements.startupError();
            result.setSuccessful(false);
            result.setResponseCode(why == null ? "NO_RUN" : "INVALID_SETTING");
            result.setResponseMessage(why == null ? "no MQTT run on this engine to end" : why);
            return result;
        }
        Judgement judgement = summary.judgement();
        ending.verdict(judgement.verdict);
        // A fault fails the sample; an engine that only checked less (judged elsewhere, nothing to check) does not.
        result.setSuccessful(!judgement.verdict.isFault());
        result.setResponseCode(judgement.verdict.name());
        result.setResponseMessage(judgement.line());
        result.setResponseData(summary.toTable(), StandardCharsets.UTF_8.name());
        result.setContentType(SUMMARY_CONTENT_TYPE);
        result.setSamplerData(summary.toJson());
        return result;
    }
}
