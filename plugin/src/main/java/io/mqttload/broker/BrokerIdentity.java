package io.mqttload.broker;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CompletableFuture;

import io.mqttload.client.ConnectionSettings;
import io.mqttload.client.ControlConnection;
import io.mqttload.client.Errors;
import io.mqttload.client.MqttConnector;

/**
 * What a broker says it is: the retained {@code $SYS} version topic that Mosquitto ({@code $SYS/broker/version}) and
 * EMQX ({@code $SYS/brokers/<node>/version}) publish, read by a short-lived MQTT 3.1.1 client with the connection's
 * transport, TLS and credentials. Brokers without it (HiveMQ CE, RabbitMQ, Artemis) or with {@code $SYS} closed by
 * their access rules say nothing, which is reported as such rather than guessed.
 */
public final class BrokerIdentity {
    static final List<String> VERSION_TOPICS = List.of("$SYS/broker/version", "$SYS/brokers/+/version");

    private BrokerIdentity() {
    }

    /**
     * Asks the broker at the settings' node, waiting at most {@code timeoutMillis} for the connect and again for the
     * announcement.
     *
     * @return the announcement (e.g. {@code mosquitto version 2.0.11}), or empty when the broker said nothing in time
     * @throws IllegalStateException naming the broker and why, when it could not be reached
     */
    public static String ask(MqttConnector connector, String clientId, ConnectionSettings node, long timeoutMillis) {
        CompletableFuture<String> heard = new CompletableFuture<>();
        ControlConnection client = connector.controlConnection(clientId, node, timeoutMillis, null,
                (topic, payload) -> heard.complete(new String(payload, StandardCharsets.UTF_8).trim()));
        try {
            for (String topic : VERSION_TOPICS) {
                client.subscribe(topic, 0);
            }
            return ControlConnection.await(heard, timeoutMillis) == null ? heard.getNow("") : "";
        } catch (RuntimeException e) {
            throw new IllegalStateException("asking " + node.describe() + " for its version failed: " + Errors.describe(e),
                    e);
        } finally {
            client.close(timeoutMillis);
        }
    }
}
