package io.mqttload.jmeter;

import java.util.List;

import org.apache.jmeter.threads.JMeterContext;

import io.mqttload.client.PublishProperties;
import io.mqttload.client.UserProperties;
import io.mqttload.common.InvalidSettingException;
import io.mqttload.common.settings.PublishSettings;
import io.mqttload.common.settings.SettingValues;
import io.mqttload.engine.ClientGroup;
import io.mqttload.engine.EngineRuntime;
import io.mqttload.engine.OperationResult;
import io.mqttload.engine.PayloadSource;
import io.mqttload.engine.PublishOperation;
import io.mqttload.engine.PublishSlots;
import io.mqttload.jmeter.run.MqttElements;
import io.mqttload.jmeter.run.PublishPacing;
import io.mqttload.measure.MicroClock;
import io.mqttload.measure.SamplerMetrics;

/**
 * MQTT Publish: sends {@code messagesPerSample} messages, round-robin over this thread's clients.
 * One sample is one batch: its time is the batch's time and it counts as one sample in JMeter's
 * listeners, never as N samples of time/N. Per-message latency is in the engine's histograms. With a {@code rate}, the
 * sampler keeps its own schedule ({@link PublishSlots}) and one sample is one second of the thread's slots.
 */
public class MqttPublishSampler extends AbstractMqttSampler {
    private static final long serialVersionUID = 1L;
    /** The period of the thread's slots one sample of a scheduled sampler sends, µs. */
    private static final long SCHEDULED_SAMPLE_MICROS = 1_000_000;

    /** A plan saved before the element had its own panel opens with that panel, not JMeter's generic bean editor. */
    @Override
    public void setProperty(String name, String value) {
        super.setProperty(name, MqttBeanGui.guiClassAsRead(name, value, MqttPublishSamplerGui.class));
    }

    private String topic = PublishSettings.TOPIC.defaultText();
    private String qos = PublishSettings.QOS.defaultText();
    private String retain = PublishSettings.RETAIN.defaultText();
    private String payloadType = PublishSettings.PAYLOAD_TYPE.defaultText();
    private String payloadText = PublishSettings.PAYLOAD_TEXT.defaultText();
    private String payloadSize = PublishSettings.PAYLOAD_SIZE.defaultText();
    private String payloadFile = PublishSettings.PAYLOAD_FILE.defaultText();
    private String measureLatency = PublishSettings.MEASURE_LATENCY.defaultText();
    private String messagesPerSample = PublishSettings.MESSAGES_PER_SAMPLE.defaultText();
    private String rate = PublishSettings.RATE.defaultText();
    private String ratePer = PublishSettings.RATE_PER.defaultText();
    private String offlineBuffer = PublishSettings.OFFLINE_BUFFER.defaultText();
    private String mode = PublishSettings.MODE.defaultText();
    private String maxInFlight = PublishSettings.MAX_IN_FLIGHT.defaultText();
    private String maxInFlightPerClient = PublishSettings.MAX_IN_FLIGHT_PER_CLIENT.defaultText();
    private String ackTimeoutMs = PublishSettings.ACK_TIMEOUT_MS.defaultText();
    private String messageExpirySeconds = PublishSettings.MESSAGE_EXPIRY_SECONDS.defaultText();
    private String contentType = PublishSettings.CONTENT_TYPE.defaultText();
    private String payloadFormat = PublishSettings.PAYLOAD_FORMAT.defaultText();
    private String responseTopic = PublishSettings.RESPONSE_TOPIC.defaultText();
    private String correlationData = PublishSettings.CORRELATION_DATA.defaultText();
    private String userProperties = PublishSettings.USER_PROPERTIES.defaultText();

    private transient PublishOperation operation;
    private transient List<Object> operationKey;
    private transient boolean pacingRead;
    private transient PublishPacing.ThreadPace pace;
    /** This thread's slots, when the sampler keeps a schedule of its own; made at its first sample. */
    private transient PublishSlots slots;
    /** The end of the period the thread's last sample covered (wall clock, µs). */
    private transient long coveredUntilMicros;

    @Override
    protected OperationResult perform(EngineRuntime runtime, JMeterContext context) {
        List<Object> key = settingsKey(topic, qos, retain, payloadType, payloadText, payloadSize, payloadFile, measureLatency,
                messagesPerSample, rate, ratePer, offlineBuffer, mode, maxInFlight, maxInFlightPerClient, ackTimeoutMs,
                messageExpirySeconds, contentType, payloadFormat, responseTopic, correlationData, userProperties);
        if (!key.equals(operationKey)) {
            operation = operation();
            operationKey = key;
        }
        SamplerMetrics metrics = metrics(runtime.context());
        if (operation.scheduled()) {
            return performScheduled(runtime, context, metrics);
        }
        if (!pacingRead) {
            // Once per thread: this element is the thread's own copy, and which timers pace it does not change.
            pacingRead = true;
            pace = PublishPacing.threadPace(context, this);
            if (pace != null) {
                runtime.publishSchedule().offer(metrics, pace);
            }
        }
        long intendedMicros = PublishOperation.NO_INTENDED_TIME;
        if (pace != null) {
            boolean measuring = runtime.measuring();
            intendedMicros = pace.intendedMicros(MicroClock.nowMicros(), measuring);
            pace.sampleStarted();
            if (measuring && intendedMicros != PublishOperation.NO_INTENDED_TIME) {
                runtime.publishSchedule().offeredInWindow(operation.messagesPerSample());
            }
        }
        try {
            ClientGroup group = existingGroup(runtime, context);
            if (group == null || group.size() == 0) {
                return noClientInGroup(runtime, context, "MQTT Publish");
            }
            return operation.run(runtime.context(), group, MqttElements.threadGroupNumber(runtime, context),
                    threadNumber(context), metrics, intendedMicros);
        } finally {
            if (pace != null) {
                pace.sampleEnded(operation.messagesPerSample());
            }
            runtime.publishSampleEnded();
        }
    }

    /**
     * One second of the thread's slots: the sample sends each of them at its time (those already due, after a stall or
     * a timer's wait, at once), so a message costs no JMeter sample, and JMeter's timers change no intended time.
     */
    private OperationResult performScheduled(EngineRuntime runtime, JMeterContext context, SamplerMetrics metrics) {
        try {
            ClientGroup group = existingGroup(runtime, context);
            if (group == null || group.size() == 0) {
                return noClientInGroup(runtime, context, "MQTT Publish");
            }
            long now = MicroClock.nowMicros();
            if (slots == null) {
                slots = operation.slots(group.size(), threadNumber(context), now);
                coveredUntilMicros = now;
                runtime.publishSchedule().offer(metrics, slots);
            }
            coveredUntilMicros += SCHEDULED_SAMPLE_MICROS;
            slots.sampleStarted();
            try {
                return operation.runScheduled(runtime.context(), group, MqttElements.threadGroupNumber(runtime, context),
                        threadNumber(context), metrics, slots, coveredUntilMicros);
            } finally {
                slots.sampleEnded(coveredUntilMicros);
            }
        } finally {
            runtime.publishSampleEnded();
        }
    }

    /** The one place this element's fields are parsed and checked, in the order their errors have always come. */
    private PublishOperation operation() {
        SettingValues v = new SettingValues(PublishSettings.ALL);
        PayloadSource.Kind kind = PayloadSource.Kind.valueOf(v.read(PublishSettings.PAYLOAD_TYPE, payloadType));
        long size = kind == PayloadSource.Kind.RANDOM ? v.read(PublishSettings.PAYLOAD_SIZE, payloadSize) : 0;
        boolean measured = v.read(PublishSettings.MEASURE_LATENCY, measureLatency);
        PayloadSource payload = PayloadSource.create(kind, payloadText, size, payloadFile, measured);
        PublishProperties.PayloadFormat format = PublishProperties.PayloadFormat.valueOf(
                v.read(PublishSettings.PAYLOAD_FORMAT, payloadFormat));
        if (format == PublishProperties.PayloadFormat.UTF_8 && (measured || kind != PayloadSource.Kind.TEXT)) {
            // A broker may check the claim and refuse the message (Payload format invalid, 0x99).
            throw new InvalidSettingException("payloadFormat", payloadFormat, "declares UTF-8 text, but the payload "
                    + (measured ? "starts with the 16-byte binary measurement header (measureLatency = true)"
                            : "is " + kind + ", not TEXT"));
        }
        v.read(PublishSettings.QOS, qos);
        v.read(PublishSettings.RETAIN, retain);
        v.read(PublishSettings.MESSAGES_PER_SAMPLE, messagesPerSample);
        v.read(PublishSettings.RATE, rate);
        v.read(PublishSettings.RATE_PER, ratePer);
        v.read(PublishSettings.OFFLINE_BUFFER, offlineBuffer);
        v.read(PublishSettings.MODE, mode);
        v.read(PublishSettings.MAX_IN_FLIGHT, maxInFlight);
        v.read(PublishSettings.MAX_IN_FLIGHT_PER_CLIENT, maxInFlightPerClient);
        v.read(PublishSettings.ACK_TIMEOUT_MS, ackTimeoutMs);
        PublishProperties properties = PublishProperties.of(
                v.read(PublishSettings.MESSAGE_EXPIRY_SECONDS, messageExpirySeconds), contentType, format, correlationData,
                UserProperties.parse("userProperties", userProperties));
        v.read(PublishSettings.TOPIC, topic);
        v.read(PublishSettings.RESPONSE_TOPIC, responseTopic);
        return new PublishOperation(v, payload, properties);
    }

    @Override
    protected void validate() {
        operation();
    }

    public String getTopic() {
        return topic;
    }

    public void setTopic(String topic) {
        this.topic = topic;
    }

    public String getQos() {
        return qos;
    }

    public void setQos(String qos) {
        this.qos = qos;
    }

    public String getRetain() {
        return retain;
    }

    public void setRetain(String retain) {
        this.retain = retain;
    }

    public String getPayloadType() {
        return payloadType;
    }

    public void setPayloadType(String payloadType) {
        this.payloadType = payloadType;
    }

    public String getPayloadText() {
        return payloadText;
    }

    public void setPayloadText(String payloadText) {
        this.payloadText = payloadText;
    }

    public String getPayloadSize() {
        return payloadSize;
    }

    public void setPayloadSize(String payloadSize) {
        this.payloadSize = payloadSize;
    }

    public String getPayloadFile() {
        return payloadFile;
    }

    public void setPayloadFile(String payloadFile) {
        this.payloadFile = payloadFile;
    }

    public String getMeasureLatency() {
        return measureLatency;
    }

    public void setMeasureLatency(String measureLatency) {
        this.measureLatency = measureLatency;
    }

    public String getMessagesPerSample() {
        return messagesPerSample;
    }

    public void setMessagesPerSample(String messagesPerSample) {
        this.messagesPerSample = messagesPerSample;
    }

    public String getRate() {
        return rate;
    }

    public void setRate(String rate) {
        this.rate = rate;
    }

    public String getRatePer() {
        return ratePer;
    }

    public void setRatePer(String ratePer) {
        this.ratePer = ratePer;
    }

    public String getOfflineBuffer() {
        return offlineBuffer;
    }

    public void setOfflineBuffer(String offlineBuffer) {
        this.offlineBuffer = offlineBuffer;
    }

    public String getMode() {
        return mode;
    }

    public void setMode(String mode) {
        this.mode = mode;
    }

    public String getMaxInFlight() {
        return maxInFlight;
    }

    public void setMaxInFlight(String maxInFlight) {
        this.maxInFlight = maxInFlight;
    }

    public String getMaxInFlightPerClient() {
        return maxInFlightPerClient;
    }

    public void setMaxInFlightPerClient(String maxInFlightPerClient) {
        this.maxInFlightPerClient = maxInFlightPerClient;
    }

    public String getAckTimeoutMs() {
        return ackTimeoutMs;
    }

    public void setAckTimeoutMs(String ackTimeoutMs) {
        this.ackTimeoutMs = ackTimeoutMs;
    }

    public String getMessageExpirySeconds() {
        return messageExpirySeconds;
    }

    public void setMessageExpirySeconds(String messageExpirySeconds) {
        this.messageExpirySeconds = messageExpirySeconds;
    }

    public String getContentType() {
        return contentType;
    }

    public void setContentType(String contentType) {
        this.contentType = contentType;
    }

    public String getPayloadFormat() {
        return payloadFormat;
    }

    public void setPayloadFormat(String payloadFormat) {
        this.payloadFormat = payloadFormat;
    }

    public String getResponseTopic() {
        return responseTopic;
    }

    public void setResponseTopic(String responseTopic) {
        this.responseTopic = responseTopic;
    }

    public String getCorrelationData() {
        return correlationData;
    }

    public void setCorrelationData(String correlationData) {
        this.correlationData = correlationData;
    }

    public String getUserProperties() {
        return userProperties;
    }

    public void setUserProperties(String userProperties) {
        this.userProperties = userProperties;
    }
}
