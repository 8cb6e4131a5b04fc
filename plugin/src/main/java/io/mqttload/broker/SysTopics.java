package io.mqttload.broker;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.hivemq.client.mqtt.MqttGlobalPublishFilter;
import com.hivemq.client.mqtt.datatypes.MqttQos;
import com.hivemq.client.mqtt.mqtt3.Mqtt3AsyncClient;
import com.hivemq.client.mqtt.mqtt3.Mqtt3Client;
import com.hivemq.client.mqtt.mqtt3.message.publish.Mqtt3Publish;

import io.mqttload.client.Errors;
import io.mqttload.client.ClientConfigs;

/**
 * The broker's own statistics from its {@code $SYS} topics (Mosquitto, EMQX), by one MQTT 3.1.1 client:
 * the latest numeric value of each topic, and the well-known ones under stable field names.
 */
final class SysTopics implements AutoCloseable {
    private static final ObjectMapper JSON = new ObjectMapper();
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
    private final String agentTopic;
    /** Written by the client's one event-loop thread, read by the monitor. */
    private final AtomicLong messages = new AtomicLong();
    private volatile AgentReading agent;

    /** The last sample an agent published: what {@link BrokerAgent} sends as JSON. */
    static final class AgentReading {
        final long receivedNanos = System.nanoTime();
        final double cpuPercentOfCore;
        final double cpuPercentOfMachine;
        final long rssBytes;
        final int openFds;
        final int sockets;
        final int threads;

        AgentReading(JsonNode j) {
            cpuPercentOfCore = j.path("cpuPercentOfCore").asDouble(Double.NaN);
            cpuPercentOfMachine = j.path("cpuPercentOfMachine").asDouble(Double.NaN);
            rssBytes = j.path("rssBytes").asLong(-1);
            openFds = j.path("openFds").asInt(-1);
            sockets = j.path("sockets").asInt(-1);
            threads = j.path("threads").asInt(-1);
        }
    }

    /**
     * @param subscribeSys whether to read $SYS/#
     * @param agentTopic   an agent's topic to read, or null
     */
    SysTopics(String host, int port, String clientId, long timeoutMillis, boolean subscribeSys, String agentTopic) {
        this.agentTopic = agentTopic;
        client = Mqtt3Client.builder().identifier(clientId).serverHost(host).serverPort(port)
                .executorConfig(ClientConfigs.sharedEventLoop()).buildAsync();
        client.publishes(MqttGlobalPublishFilter.ALL, this::onMessage);
        try {
            client.connectWith().cleanSession(true).send().get(timeoutMillis, TimeUnit.MILLISECONDS);
            if (subscribeSys) {
                client.subscribeWith().topicFilter("$SYS/#").qos(MqttQos.AT_MOST_ONCE).send()
                        .get(timeoutMillis, TimeUnit.MILLISECONDS);
            }
            if (agentTopic != null) {
                client.subscribeWith().topicFilter(agentTopic).qos(MqttQos.AT_MOST_ONCE).send()
                        .get(timeoutMillis, TimeUnit.MILLISECONDS);
            }
        } catch (ExecutionException | TimeoutException e) {
            close();
            throw new IllegalStateException("cannot subscribe on " + host + ":" + port + ": "
                    + Errors.describe(e), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            close();
            throw new IllegalStateException("interrupted while subscribing to $SYS/#", e);
        }
    }

    private void onMessage(Mqtt3Publish p) {
        if (agentTopic != null && agentTopic.equals(p.getTopic().toString())) {
            try {
                agent = new AgentReading(JSON.readTree(p.getPayloadAsBytes()));
            } catch (IOException e) {
                // Not an agent's sample: someone else publishes on the topic; it is ignored.
            }
            return;
        }
        messages.lazySet(messages.get() + 1);
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

    /** The agent's last sample if it arrived within {@code maxAgeMillis}, else null. */
    AgentReading agentReading(long maxAgeMillis) {
        AgentReading a = agent;
        return a != null && System.nanoTime() - a.receivedNanos <= maxAgeMillis * 1_000_000 ? a : null;
    }

    /** Whether any $SYS message has arrived at all. */
    boolean heardAnything() {
        return messages.get() > 0;
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
