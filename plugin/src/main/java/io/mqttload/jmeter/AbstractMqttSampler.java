package io.mqttload.jmeter;

import java.util.Arrays;
import java.util.List;

import org.apache.jmeter.config.ConfigTestElement;
import org.apache.jmeter.samplers.AbstractSampler;
import org.apache.jmeter.samplers.Entry;
import org.apache.jmeter.samplers.SampleResult;
import org.apache.jmeter.testbeans.TestBean;
import org.apache.jmeter.testbeans.TestBeanHelper;
import org.apache.jmeter.testelement.property.FunctionProperty;
import org.apache.jmeter.testelement.property.JMeterProperty;
import org.apache.jmeter.testelement.property.PropertyIterator;
import org.apache.jmeter.threads.JMeterContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.mqttload.client.Errors;
import io.mqttload.common.InvalidSettingException;
import io.mqttload.engine.ClientGroup;
import io.mqttload.engine.EngineRuntime;
import io.mqttload.engine.RunContext;
import io.mqttload.engine.OperationResult;
import io.mqttload.measure.FailureTally;

/**
 * Common frame of the MQTT samplers: one sample times one operation on this thread's clients;
 * every failure, including an invalid setting, becomes a failed sample whose message names the
 * cause. No exception reaches JMeter's thread.
 */
public abstract class AbstractMqttSampler extends AbstractSampler implements TestBean, MqttTestStateListener {
    private static final long serialVersionUID = 1L;
    private static final Logger log = LoggerFactory.getLogger(AbstractMqttSampler.class);

    /** Groups let one thread drive several independent sets of clients (e.g. publishers and subscribers). */
    private String clientGroup = "default";

    /** A field, not a property: it goes to the engines with the plan, and never into a saved plan (see RemoteStartRunId). */
    private String runIdFromController;

    @Override
    public SampleResult sample(Entry entry) {
        SampleResult result = new SampleResult();
        result.setSampleLabel(getName());
        result.setDataType(SampleResult.TEXT);
        result.sampleStart();
        OperationResult outcome;
        // One read of the run for the whole sample: it may end meanwhile, and this sample then fails on its clients.
        EngineRuntime runtime = EngineLifecycle.running().orElse(null);
        try {
            if (runtime == null) {
                String startupError = MqttElements.startupError();
                outcome = OperationResult.failed(startupError != null ? "INVALID_SETTING" : "ERROR",
                        startupError != null ? startupError
                                : "the MQTT runtime is not running: MQTT elements work only inside a running test");
            } else {
                outcome = perform(runtime, getThreadContext());
            }
        } catch (InvalidSettingException e) {
            outcome = OperationResult.failed("INVALID_SETTING", e.getMessage());
        } catch (RuntimeException e) {
            log.debug("MQTT sampler '{}' failed", getName(), e);
            outcome = OperationResult.failed("ERROR", Errors.describe(e));
        }
        result.sampleEnd();
        if (!outcome.ok && "INVALID_SETTING".equals(outcome.code) && runtime != null) {
            // The run's verdict must say the plan could not run as written, not that there was nothing to check.
            RunContext run = runtime.context();
            run.metrics().failed(FailureTally.Kind.INVALID_SETTING, run.samplerMetrics(getName()), outcome.message);
        }
        result.setSuccessful(outcome.ok);
        result.setResponseCode(outcome.code);
        result.setResponseMessage(outcome.message);
        result.setSentBytes(outcome.bytesSent);
        result.setBytes(outcome.bytesReceived);
        result.setResponseData(outcome.message, "UTF-8");
        return result;
    }

    /**
     * The current field values: an operation is rebuilt only when they change, so a field that uses a per-iteration
     * variable takes effect, and a constant one costs nothing per sample. Compared value by value (a field JMeter
     * sets from an unchanged property is the same object, so equal at the first check) rather than joined into a
     * string, which cost a copy of every field, payload text included, on each sample.
     */
    protected static List<Object> settingsKey(Object... values) {
        return Arrays.asList(values);
    }

    /** Runs the sampler's operation; invalid settings are thrown as {@link InvalidSettingException}. */
    protected abstract OperationResult perform(EngineRuntime runtime, JMeterContext context);

    /** Checks the settings at test start where they do not depend on per-thread variables. */
    protected abstract void validate();

    protected ClientGroup group(EngineRuntime runtime, JMeterContext context) {
        return runtime.context().group(MqttElements.threadKey(context), groupName());
    }

    protected ClientGroup existingGroup(EngineRuntime runtime, JMeterContext context) {
        return runtime.context().existingGroup(MqttElements.threadKey(context), groupName());
    }

    private String groupName() {
        String g = clientGroup == null ? "" : clientGroup.trim();
        return g.isEmpty() ? "default" : g;
    }

    /** Thread groups in JMeter number their threads from 0; placeholders show them from 1, like ${__threadNum}. */
    protected static int threadNumber(JMeterContext context) {
        return context.getThreadNum() + 1;
    }

    @Override
    public boolean applies(ConfigTestElement configElement) {
        return false;
    }

    @Override
    public String runIdFromController() {
        return runIdFromController;
    }

    @Override
    public void runIdFromController(String runId) {
        runIdFromController = runId;
    }

    /** JMeter's clone copies properties only; the GUI clones the plan twice before sending it to the engines. */
    @Override
    public Object clone() {
        AbstractMqttSampler clone = (AbstractMqttSampler) super.clone();
        clone.runIdFromController = runIdFromController;
        return clone;
    }

    @Override
    public void testStarted() {
        MqttElements.startRuntime(runIdFromController);
        if (!hasPerThreadVariables()) {
            try {
                TestBeanHelper.prepare(this);
                validate();
            } catch (InvalidSettingException e) {
                MqttElements.reportInvalid(getName(), e);
            }
        }
    }

    /**
     * Settings that use ${...} may depend on thread variables: they are checked at their first sample. In a
     * running test JMeter has already turned such values into function properties, and reading one would
     * evaluate it here, at test start, outside any thread (a ${__jexl3(...)} over a loop index then fails).
     */
    private boolean hasPerThreadVariables() {
        for (PropertyIterator it = propertyIterator(); it.hasNext();) {
            JMeterProperty property = it.next();
            if (property instanceof FunctionProperty) {
                return true;
            }
            String value = property.getStringValue();
            if (value != null && value.contains("${")) {
                return true;
            }
        }
        return false;
    }

    public String getClientGroup() {
        return clientGroup;
    }

    public void setClientGroup(String clientGroup) {
        this.clientGroup = clientGroup;
    }
}
