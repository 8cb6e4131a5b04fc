package io.mqttload.broker;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import io.mqttload.client.ControlConnection;
import io.mqttload.client.MqttConnector;

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

    private final ControlConnection client;
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
    SysTopics(MqttConnector connector, String host, int port, String clientId, long timeoutMillis, boolean subscribeSys,
            String agentTopic) {
        this.agentTopic = agentTopic;
        client = connector.controlConnection(clientId, host, port, timeoutMillis, null, this::onMessage);
        try {
            if (subscribeSys) {
                client.subscribe("$SYS/#", 0, timeoutMillis);
            }
            if (agentTopic != null) {
                client.subscribe(agentTopic, 0, timeoutMillis);
            }
        } catch (IllegalStateException e) {
            close();
            throw e;
        }
    }

    private void onMessage(String topic, byte[] payload) {
        if (agentTopic != null && agentTopic.equals(topic)) {
            try {
                agent = new AgentReading(JSON.readTree(payload));
            } catch (IOException e) {
                // Not an agent's sample: someone else publishes on the topic; it is ignored.
            }
            return;
        }
        messages.lazySet(messages.get() + 1);
        String text = new String(payload, StandardCharsets.UTF_8).trim();
        // Mosquitto appends units to some values ("12 seconds"); the number comes first.
        String number = text.split("\\s+", 2)[0];
        double value;
        try {
            value = Double.parseDouble(number);
        } catch (NumberFormatException e) {
            return;
        }
        String field = fieldFor(topic);
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
        // A failure means the broker is gone already: nothing is owed to it.
        client.close(5_000);
    }
}
