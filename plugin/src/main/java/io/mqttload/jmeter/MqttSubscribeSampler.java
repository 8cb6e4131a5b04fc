package io.mqttload.jmeter;

import java.util.List;

import org.apache.jmeter.threads.JMeterContext;

import io.mqttload.common.settings.SettingValues;
import io.mqttload.common.settings.SubscribeSettings;
import io.mqttload.engine.ClientGroup;
import io.mqttload.engine.EngineRuntime;
import io.mqttload.engine.OperationResult;
import io.mqttload.engine.SubscribeOperation;
import io.mqttload.jmeter.run.MqttElements;

/**
 * MQTT Subscribe: subscribes all or some of this thread's clients and waits for the SUBACKs. The
 * messages that then arrive are measured on the clients' network threads into the engine's
 * metrics; they are not JMeter samples (see docs/measurement.md).
 */
public class MqttSubscribeSampler extends AbstractMqttSampler {
    private static final long serialVersionUID = 1L;

    private String topicFilters = SubscribeSettings.TOPIC_FILTERS.defaultText();
    private String qos = SubscribeSettings.QOS.defaultText();
    private String clients = SubscribeSettings.CLIENTS.defaultText();
    private String subackTimeoutMs = SubscribeSettings.SUBACK_TIMEOUT_MS.defaultText();
    private String noLocal = SubscribeSettings.NO_LOCAL.defaultText();
    private String retainAsPublished = SubscribeSettings.RETAIN_AS_PUBLISHED.defaultText();
    private String retainHandling = SubscribeSettings.RETAIN_HANDLING.defaultText();
    private String answerRequests = SubscribeSettings.ANSWER_REQUESTS.defaultText();

    private transient SubscribeOperation operation;
    private transient List<Object> operationKey;

    @Override
    protected OperationResult perform(EngineRuntime runtime, JMeterContext context) {
        List<Object> key = settingsKey(topicFilters, qos, clients, subackTimeoutMs, noLocal, retainAsPublished, retainHandling,
                answerRequests);
        if (!key.equals(operationKey)) {
            operation = operation();
            operationKey = key;
        }
        ClientGroup group = existingGroup(runtime, context);
        if (group == null || group.size() == 0) {
            return noClientInGroup(runtime, context, "MQTT Subscribe");
        }
        return operation.run(runtime.context(), group, MqttElements.threadGroupNumber(runtime, context),
                threadNumber(context),
                metrics(runtime.context()));
    }

    /** The one place this element's fields are parsed and checked. */
    private SubscribeOperation operation() {
        SettingValues v = new SettingValues(SubscribeSettings.ALL);
        v.read(SubscribeSettings.NO_LOCAL, noLocal);
        v.read(SubscribeSettings.RETAIN_AS_PUBLISHED, retainAsPublished);
        v.read(SubscribeSettings.RETAIN_HANDLING, retainHandling);
        v.read(SubscribeSettings.QOS, qos);
        v.read(SubscribeSettings.SUBACK_TIMEOUT_MS, subackTimeoutMs);
        v.read(SubscribeSettings.ANSWER_REQUESTS, answerRequests);
        v.read(SubscribeSettings.TOPIC_FILTERS, topicFilters);
        v.read(SubscribeSettings.CLIENTS, clients);
        return new SubscribeOperation(v);
    }

    @Override
    protected void validate() {
        operation();
    }

    public String getTopicFilters() {
        return topicFilters;
    }

    public void setTopicFilters(String topicFilters) {
        this.topicFilters = topicFilters;
    }

    public String getQos() {
        return qos;
    }

    public void setQos(String qos) {
        this.qos = qos;
    }

    public String getClients() {
        return clients;
    }

    public void setClients(String clients) {
        this.clients = clients;
    }

    public String getSubackTimeoutMs() {
        return subackTimeoutMs;
    }

    public void setSubackTimeoutMs(String subackTimeoutMs) {
        this.subackTimeoutMs = subackTimeoutMs;
    }

    public String getNoLocal() {
        return noLocal;
    }

    public void setNoLocal(String noLocal) {
        this.noLocal = noLocal;
    }

    public String getRetainAsPublished() {
        return retainAsPublished;
    }

    public void setRetainAsPublished(String retainAsPublished) {
        this.retainAsPublished = retainAsPublished;
    }

    public String getRetainHandling() {
        return retainHandling;
    }

    public void setRetainHandling(String retainHandling) {
        this.retainHandling = retainHandling;
    }

    public String getAnswerRequests() {
        return answerRequests;
    }

    public void setAnswerRequests(String answerRequests) {
        this.answerRequests = answerRequests;
    }
}
