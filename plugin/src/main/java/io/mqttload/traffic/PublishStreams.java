package io.mqttload.traffic;

import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.Semaphore;

import io.mqttload.common.NameTemplate;
import io.mqttload.delivery.DeliveryLedger;
import io.mqttload.delivery.PublishStream;

/**
 * A client's publishing state: a stream per topic, the topic its per-client template expands to, and its in-flight
 * window. Touched only by the JMeter thread that owns the client, so nothing here is shared.
 */
final class PublishStreams {
    private final String clientId;
    private final DeliveryLedger ledger;
    private final Map<String, PublishStream> byTopic = new HashMap<>();
    private String lastTopic;
    private PublishStream lastStream;
    /** The last topic a per-client template expanded to for this client, and the template it came from. */
    private NameTemplate topicTemplate;
    private String topicOfTemplate;
    private Semaphore inFlight;

    PublishStreams(String clientId, DeliveryLedger ledger) {
        this.clientId = clientId;
        this.ledger = ledger;
    }

    String topic(NameTemplate template, NameTemplate.Values values) {
        if (template != topicTemplate) {
            topicOfTemplate = template.expand(values);
            topicTemplate = template;
        }
        return topicOfTemplate;
    }

    PublishStream stream(String topic) {
        if (topic.equals(lastTopic) && !lastStream.isExhausted()) {
            return lastStream;
        }
        PublishStream s = byTopic.get(topic);
        if (s == null || s.isExhausted()) {
            // A stream whose sequence numbers are used up is complete in the ledger; the topic goes on in a new one.
            s = ledger.newStream(topic, clientId);
            byTopic.put(topic, s);
        }
        lastTopic = topic;
        lastStream = s;
        return s;
    }

    Semaphore inFlight(int limit) {
        if (inFlight == null) {
            inFlight = new Semaphore(limit);
        }
        return inFlight;
    }
}
