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
import io.mqttload.engine.OperationResult;
import io.mqttload.engine.RunContext;
import io.mqttload.jmeter.remote.ControllerStamp;
import io.mqttload.jmeter.run.JMeterStop;
import io.mqttload.jmeter.run.JvmRun;
import io.mqttload.jmeter.run.MqttElements;
import io.mqttload.measure.FailureTally;
import io.mqttload.measure.SamplerMetrics;

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

    /** A field, not a property: the controller fills it as it sends the plan, and it never goes into a saved plan. */
    private ControllerStamp controllerStamp = new ControllerStamp();

    /** The label of this sampler's figures, given at test start and copied to the threads' clones; null: its name. */
    private String metricsLabel;

    @Override
    public SampleResult sample(Entry entry) {
        SampleResult result = new SampleResult();
        result.setSampleLabel(getName());
        result.setDataType(SampleResult.TEXT);
        result.sampleStart();
        OperationResult outcome;
        // One read of the run for the whole sample: it may end meanwhile, and this sample then fails on its clients.
        EngineRuntime runtime = JvmRun.running().orElse(null);
        String invalidAtStart = runtime == null ? MqttElements.startupError() : runtime.invalidAtStart();
        try {
            if (invalidAtStart != null) {
                // Counted where it was found, at test start; this sample only says it and stops the test (see below).
                outcome = OperationResult.failedCounted("INVALID_SETTING", invalidAtStart, 0);
            } else if (runtime == null) {
                outcome = OperationResult.failed("ERROR",
                        "the MQTT runtime is not running: MQTT elements work only inside a running test");
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
        if (runtime != null && JMeterStop.asked()) {
            // Sooner than the once-a-second check: the stop's time is within one sample of when it was asked for.
            runtime.stoppedBeforePlanEnd();
        }
        if (!outcome.ok && !outcome.counted && runtime != null && !interruptedByStop(outcome)) {
            // Every failed sample counts once: its clients' and messages' failures where the operation counted them,
            // else here, so that no failed sample leaves the errors at 0 and the verdict clean.
            RunContext run = runtime.context();
            boolean invalid = "INVALID_SETTING".equals(outcome.code);
            run.metrics().failed(invalid ? FailureTally.Kind.INVALID_SETTING : FailureTally.Kind.SAMPLE,
                    metrics(run), invalid ? outcome.message : outcome.code + ": " + outcome.message);
        }
        if (invalidAtStart != null) {
            // A plan found wrong at test start must not run its full length to say so: JMeter stops the test now.
            result.setStopTestNow(true);
            // Once per run, the sample or the metrics tick first (see MqttElements.startRuntime).
            if (runtime == null || runtime.firstTime("stopping: invalid at start")) {
                MqttElements.stopTestNow(invalidAtStart);
            }
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
     * A wait cut short because JMeter is stopping the test (Stop interrupts the threads): the stop is the run's own
     * mark (see {@link JMeterStop}), not a failure of the plan or the broker.
     */
    private static boolean interruptedByStop(OperationResult outcome) {
        return "INTERRUPTED".equals(outcome.code) && JMeterStop.asked();
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

    /**
     * This sampler's figures: under its name, or its name and number when an earlier sampler of the plan has the same
     * name (see {@link RunContext#planSampler}).
     */
    protected SamplerMetrics metrics(RunContext run) {
        return run.samplerMetrics(metricsLabel());
    }

    private String metricsLabel() {
        if (metricsLabel != null) {
            return metricsLabel;
        }
        String name = getName();
        return name == null ? "" : name;
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

    /**
     * The failed sample of a Publish or Subscribe whose client group holds no client on this thread: it names the group
     * and the thread's groups that do hold clients, since a Connect with another group name is the usual cause.
     */
    protected OperationResult noClientInGroup(EngineRuntime runtime, JMeterContext context, String element) {
        List<String> others = runtime.context().groupsWithClients(MqttElements.threadKey(context));
        String missing = "no MQTT client in client group '" + groupName() + "' on this JMeter thread";
        if (others.isEmpty()) {
            return OperationResult.failed("NOT_CONNECTED", missing + ", nor in any other client group: an MQTT Connect"
                    + " with clientGroup '" + groupName() + "' must run before " + element + " in the same thread");
        }
        return OperationResult.failed("NOT_CONNECTED", missing + "; this thread's clients are in client group(s) '"
                + String.join("', '", others) + "': set clientGroup to the one its MQTT Connect uses");
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
    public ControllerStamp controllerStamp() {
        return controllerStamp;
    }

    /** JMeter's clone copies properties only: the threads' clones need the label given at test start. */
    @Override
    public Object clone() {
        AbstractMqttSampler clone = (AbstractMqttSampler) super.clone();
        clone.metricsLabel = metricsLabel;
        return clone;
    }

    @Override
    public void testStarted() {
        MqttElements.startRuntime(controllerStamp.given());
        JvmRun.running().ifPresent(r -> metricsLabel = r.context().planSampler(getName()));
        if (!hasPerThreadVariables()) {
            try {
                TestBeanHelper.prepare(this);
                validate();
            } catch (InvalidSettingException e) {
                MqttElements.invalidAtStart(metricsLabel(), e);
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
