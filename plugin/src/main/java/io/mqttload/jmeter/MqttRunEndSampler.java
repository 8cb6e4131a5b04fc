package io.mqttload.jmeter;

import java.nio.charset.StandardCharsets;

import org.apache.jmeter.samplers.AbstractSampler;
import org.apache.jmeter.samplers.Entry;
import org.apache.jmeter.samplers.SampleResult;
import org.apache.jmeter.testbeans.TestBean;

import io.mqttload.delivery.Judgement;
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

    private transient volatile long runsBefore;

    /** A field, not a property: the controller fills it as it sends the plan, and it never goes into a saved plan. */
    private ControllerStamp controllerStamp = ControllerStamp.NONE;

    @Override
    public ControllerStamp controllerStamp() {
        return controllerStamp;
    }

    @Override
    public void testStarted() {
        runsBefore = EngineLifecycle.runsBefore();
        MqttElements.startRuntime(controllerStamp);
    }

    @Override
    public SampleResult sample(Entry entry) {
        SampleResult result = new SampleResult();
        result.setSampleLabel(getName());
        result.setDataType(SampleResult.TEXT);
        result.sampleStart();
        // A second Run End (another tearDown thread) gets the same summary again; the report keeps one per engine.
        RunSummary summary = EngineLifecycle.stopOrLastSummary(runsBefore);
        result.sampleEnd();
        if (summary == null) {
            String why = MqttElements.startupError();
            result.setSuccessful(false);
            result.setResponseCode(why == null ? "NO_RUN" : "INVALID_SETTING");
            result.setResponseMessage(why == null ? "no MQTT run on this engine to end" : why);
            return result;
        }
        Judgement judgement = summary.judgement();
        ExitStatus.record(judgement.verdict);
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
