package io.mqttload.core.broker;

import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import com.hivemq.client.mqtt.MqttGlobalPublishFilter;
import com.hivemq.client.mqtt.datatypes.MqttQos;
import com.hivemq.client.mqtt.mqtt3.Mqtt3AsyncClient;
import com.hivemq.client.mqtt.mqtt3.Mqtt3Client;
import com.hivemq.client.mqtt.mqtt3.message.publish.Mqtt3Publish;

/**
 * The broker's own statistics from its {@code $SYS} topics (Mosquitto, EMQX), by one MQTT 3.1.1 client:
 * the latest numeric value of each topic, and the well-known ones under stable field names.
 */
final class SysTopics implements AutoCloseable {
    /** Field name for topics that mean the same on different brokers; '+' matches one level. */
    private static final Map<String, String> KNOWN = new LinkedHashMap<>();

    static {
        KNOWN.put("$SYS/broker/clients/connected", "clientsConnected");
        KNOWN.put("$SYS/broker/messages/received", "messagesReceived");
        KNOWN.put("$SYS/broker/messages/sent", "messagesSent");
        KNOWN.put("$SYS/broker/load/messages/received/1min", "messagesReceivedPerMinute1m");
        KNOWN.put("$SYS/broker/load/messages/sent/1min", "messagesSentPerMinute1m");
        KNOWN.put("$SYS/broker/heap/current", "heapBytes");
        // EMQX 4.x publishes statistics per node.
        KNOWN.put("$SYS/brokers/+/stats/connections/count", "clientsConnected");
        KNOWN.put("$SYS/brokers/+/metrics/messages/received", "messagesReceived");
        KNOWN.put("$SYS/brokers/+/metrics/messages/sent", "messagesSent");
    }

    private final Mqtt3AsyncClient client;
    private final Map<String, Double> latest = new ConcurrentHashMap<>();
    private volatile long messages;

    SysTopics(String host, int port, String clientId, long timeoutMillis) {
        client = Mqtt3Client.builder().identifier(clientId).serverHost(host).serverPort(port).buildAsync();
        client.publishes(MqttGlobalPublishFilter.ALL, this::onMessage);
        try {
            client.connectWith().cleanSession(true).send().get(timeoutMillis, TimeUnit.MILLISECONDS);
            client.subscribeWith().topicFilter("$SYS/#").qos(MqttQos.AT_MOST_ONCE).send()
                    .get(timeoutMillis, TimeUnit.MILLISECONDS);
        } catch (ExecutionException | TimeoutException e) {
            close();
            throw new IllegalStateException("cannot subscribe to $SYS/# on " + host + ":" + port + ": "
                    + io.mqttload.core.Errors.describe(e), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            close();
            throw new IllegalStateException("interrupted while subscribing to $SYS/#", e);
        }
    }

    private void onMessage(Mqtt3Publish p) {
        messages++;
        String text = new String(p.getPayloadAsBytes(), StandardCharsets.UTF_8).trim();
        // Mosquitto appends units to some values ("12 seconds"); the number comes first.
        String number = text.split("\\s+", 2)[0];
        double value;
        try {
            value = Double.parseDouble(number);
        } catch (NumberFormatException e) {
            return;
        }
        String field = fieldFor(p.getTopic().toString());
        if (field != null) {
            latest.put(field, value);
        }
    }

    static String fieldFor(String topic) {
        for (Map.Entry<String, String> k : KNOWN.entrySet()) {
            if (matches(k.getKey(), topic)) {
                return k.getValue();
            }
        }
        return null;
    }

    private static boolean matches(String pattern, String topic) {
        String[] p = pattern.split("/", -1);
        String[] t = topic.split("/", -1);
        if (p.length != t.length) {
            return false;
        }
        for (int i = 0; i < p.length; i++) {
            if (!p[i].equals("+") && !p[i].equals(t[i])) {
                return false;
            }
        }
        return true;
    }

    /** Whether any $SYS message has arrived at all. */
    boolean heardAnything() {
        return messages > 0;
    }

    Map<String, Double> snapshot() {
        return new LinkedHashMap<>(latest);
    }

    @Override
    public void close() {
        try {
            client.disconnect().get(5, TimeUnit.SECONDS);
        } catch (ExecutionException | TimeoutException e) {
            // Already gone, or the broker is: nothing is owed to it.
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
