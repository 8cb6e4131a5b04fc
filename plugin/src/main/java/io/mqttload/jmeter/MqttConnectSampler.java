package io.mqttload.jmeter;

import java.util.List;

import org.apache.jmeter.config.ConfigTestElement;
import org.apache.jmeter.testbeans.TestBeanHelper;
import org.apache.jmeter.testelement.TestElement;
import org.apache.jmeter.threads.JMeterContext;

import io.mqttload.client.ConnectionSettings;
import io.mqttload.client.ReconnectPolicy;
import io.mqttload.common.settings.ConnectSettings;
import io.mqttload.common.settings.SettingValues;
import io.mqttload.engine.ConnectOperation;
import io.mqttload.engine.EngineRuntime;
import io.mqttload.engine.OperationResult;
import io.mqttload.jmeter.run.MqttElements;

/**
 * MQTT Connect: opens this thread's clients (one, or thousands) with the settings of the nearest
 * MQTT Connection config element in scope. The sample lasts until every CONNACK arrived or the
 * connect timeout passed; each client's connect latency goes into the engine's histogram.
 */
public class MqttConnectSampler extends AbstractMqttSampler {
    private static final long serialVersionUID = 1L;

    private String clientCount = ConnectSettings.CLIENT_COUNT.defaultText();
    private String clientIdTemplate = ConnectSettings.CLIENT_ID_TEMPLATE.defaultText();
    private String clientIdsWithin23 = ConnectSettings.CLIENT_IDS_WITHIN_23.defaultText();
    private String connectRate = ConnectSettings.CONNECT_RATE.defaultText();
    private String reconnectPolicy = ConnectSettings.RECONNECT_POLICY.defaultText();
    private String reconnectAttempts = ConnectSettings.RECONNECT_ATTEMPTS.defaultText();
    private String reconnectDelayMs = ConnectSettings.RECONNECT_DELAY_MS.defaultText();
    private String reconnectMaxDelayMs = ConnectSettings.RECONNECT_MAX_DELAY_MS.defaultText();
    private String retryFirstConnect = ConnectSettings.RETRY_FIRST_CONNECT.defaultText();
    private String initialWaitMinMs = ConnectSettings.INITIAL_WAIT_MIN_MS.defaultText();
    private String initialWaitMaxMs = ConnectSettings.INITIAL_WAIT_MAX_MS.defaultText();
    private String localAddresses = ConnectSettings.LOCAL_ADDRESSES.defaultText();
    private String consumeDelayMs = ConnectSettings.CONSUME_DELAY_MS.defaultText();
    private String brokerNode = ConnectSettings.BROKER_NODE.defaultText();

    /** The thread's clone of the nearest MQTT Connection in scope, for the sample being run. */
    private transient MqttConnectionConfig connection;
    private transient ConnectOperation operation;
    private transient List<Object> operationKey;

    @Override
    public boolean applies(ConfigTestElement configElement) {
        return configElement instanceof MqttConnectionConfig;
    }

    @Override
    public void addTestElement(TestElement element) {
        // JMeter offers the configs in scope innermost first; the innermost one wins, as with HTTP defaults.
        if (element instanceof MqttConnectionConfig) {
            if (connection == null) {
                connection = (MqttConnectionConfig) element;
            }
            return;
        }
        super.addTestElement(element);
    }

    @Override
    public void clearTestElementChildren() {
        connection = null;
        super.clearTestElementChildren();
    }

    @Override
    protected OperationResult perform(EngineRuntime runtime, JMeterContext context) {
        if (connection == null) {
            return OperationResult.failed("NO_CONNECTION_CONFIG",
                    "no MQTT Connection config element in scope of '" + getName() + "': add one to the test plan or thread group");
        }
        List<Object> key = settingsKey(clientCount, clientIdTemplate, clientIdsWithin23, connectRate, reconnectPolicy,
                reconnectAttempts, reconnectDelayMs, reconnectMaxDelayMs, retryFirstConnect, initialWaitMinMs,
                initialWaitMaxMs, localAddresses, consumeDelayMs, brokerNode);
        if (!key.equals(operationKey)) {
            TestBeanHelper.prepare(connection);
            // The node is checked against the connection's own list, known only here.
            operation = operation(connection.settings()).onNode(brokerNode);
            operationKey = key;
        }
        return operation.run(runtime.context(), group(runtime, context), MqttElements.threadGroupNumber(runtime, context),
                threadNumber(context),
                metrics(runtime.context()));
    }

    /** The one place this element's fields are parsed and checked. */
    private ConnectOperation operation(ConnectionSettings settings) {
        SettingValues v = new SettingValues(ConnectSettings.ALL);
        ReconnectPolicy policy = new ReconnectPolicy(
                ReconnectPolicy.Kind.valueOf(v.read(ConnectSettings.RECONNECT_POLICY, reconnectPolicy)),
                v.read(ConnectSettings.RECONNECT_ATTEMPTS, reconnectAttempts),
                v.read(ConnectSettings.RECONNECT_DELAY_MS, reconnectDelayMs),
                v.read(ConnectSettings.RECONNECT_MAX_DELAY_MS, reconnectMaxDelayMs),
                v.read(ConnectSettings.INITIAL_WAIT_MIN_MS, initialWaitMinMs),
                v.read(ConnectSettings.INITIAL_WAIT_MAX_MS, initialWaitMaxMs),
                v.read(ConnectSettings.RETRY_FIRST_CONNECT, retryFirstConnect));
        v.read(ConnectSettings.CLIENT_COUNT, clientCount);
        v.read(ConnectSettings.CLIENT_ID_TEMPLATE, clientIdTemplate);
        v.read(ConnectSettings.CLIENT_IDS_WITHIN_23, clientIdsWithin23);
        v.read(ConnectSettings.CONNECT_RATE, connectRate);
        v.read(ConnectSettings.LOCAL_ADDRESSES, localAddresses);
        v.read(ConnectSettings.CONSUME_DELAY_MS, consumeDelayMs);
        return new ConnectOperation(settings, v, policy);
    }

    @Override
    protected void validate() {
        operation(ConnectionSettings.builder().build());
    }

    public String getBrokerNode() {
        return brokerNode;
    }

    public void setBrokerNode(String brokerNode) {
        this.brokerNode = brokerNode;
    }

    public String getConsumeDelayMs() {
        return consumeDelayMs;
    }

    public void setConsumeDelayMs(String consumeDelayMs) {
        this.consumeDelayMs = consumeDelayMs;
    }

    public String getClientCount() {
        return clientCount;
    }

    public void setClientCount(String clientCount) {
        this.clientCount = clientCount;
    }

    public String getClientIdTemplate() {
        return clientIdTemplate;
    }

    public void setClientIdTemplate(String clientIdTemplate) {
        this.clientIdTemplate = clientIdTemplate;
    }

    public String getClientIdsWithin23() {
        return clientIdsWithin23;
    }

    public void setClientIdsWithin23(String clientIdsWithin23) {
        this.clientIdsWithin23 = clientIdsWithin23;
    }

    public String getConnectRate() {
        return connectRate;
    }

    public void setConnectRate(String connectRate) {
        this.connectRate = connectRate;
    }

    public String getReconnectAttempts() {
        return reconnectAttempts;
    }

    public void setReconnectAttempts(String reconnectAttempts) {
        this.reconnectAttempts = reconnectAttempts;
    }

    public String getReconnectDelayMs() {
        return reconnectDelayMs;
    }

    public void setReconnectDelayMs(String reconnectDelayMs) {
        this.reconnectDelayMs = reconnectDelayMs;
    }

    public String getReconnectMaxDelayMs() {
        return reconnectMaxDelayMs;
    }

    public void setReconnectMaxDelayMs(String reconnectMaxDelayMs) {
        this.reconnectMaxDelayMs = reconnectMaxDelayMs;
    }

    public String getReconnectPolicy() {
        return reconnectPolicy;
    }

    public void setReconnectPolicy(String reconnectPolicy) {
        this.reconnectPolicy = reconnectPolicy;
    }

    public String getRetryFirstConnect() {
        return retryFirstConnect;
    }

    public void setRetryFirstConnect(String retryFirstConnect) {
        this.retryFirstConnect = retryFirstConnect;
    }

    public String getInitialWaitMinMs() {
        return initialWaitMinMs;
    }

    public void setInitialWaitMinMs(String initialWaitMinMs) {
        this.initialWaitMinMs = initialWaitMinMs;
    }

    public String getInitialWaitMaxMs() {
        return initialWaitMaxMs;
    }

    public void setInitialWaitMaxMs(String initialWaitMaxMs) {
        this.initialWaitMaxMs = initialWaitMaxMs;
    }

    public String getLocalAddresses() {
        return localAddresses;
    }

    public void setLocalAddresses(String localAddresses) {
        this.localAddresses = localAddresses;
    }
}
