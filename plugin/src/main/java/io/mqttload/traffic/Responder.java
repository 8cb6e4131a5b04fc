package io.mqttload.traffic;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;

import io.mqttload.client.Errors;
import io.mqttload.client.InboundMessage;
import io.mqttload.client.PublishProperties;
import io.mqttload.measure.Count;
import io.mqttload.measure.EngineMetrics;
import io.mqttload.measure.SamplerMetrics;

/**
 * A client's answers to requests (MQTT 5 messages with a response topic): the request's payload, so that its
 * measurement header and send time travel back for the round trip, to its response topic, with its correlation data,
 * at its QoS, sent asynchronously from the event loop with a bounded number in flight.
 */
final class Responder {
    /** Most replies a responder may have that the broker has not taken yet: the client would queue more without bound. */
    static final int MAX_REPLIES_IN_FLIGHT = 1000;

    /** How a reply leaves: the client's asynchronous publish, calling back with null or the error. */
    @FunctionalInterface
    interface ReplySender {
        void send(String topic, byte[] payload, int qos, PublishProperties properties, Consumer<Throwable> done);
    }

    private final ReplySender sender;
    private final EngineMetrics metrics;
    private final AtomicInteger inFlight = new AtomicInteger();

    Responder(ReplySender sender, EngineMetrics metrics) {
        this.sender = sender;
        this.metrics = metrics;
    }

    /** Answers {@code request} if it is one; a failed reply counts for {@code sampler}'s responders (null: none). */
    void answer(InboundMessage request, SamplerMetrics sampler) {
        String responseTopic = request.responseTopic();
        if (responseTopic == null) {
            return;
        }
        byte[] body = request.payloadCopy();
        if (inFlight.incrementAndGet() > MAX_REPLIES_IN_FLIGHT) {
            inFlight.decrementAndGet();
            metrics.replyFailed(sampler, "responder has " + MAX_REPLIES_IN_FLIGHT + " replies the broker has not taken");
            return;
        }
        metrics.count(Count.REPLIES_PENDING);
        try {
            sender.send(responseTopic, body, request.qos(), PublishProperties.reply(request.correlationData()), error -> {
                inFlight.decrementAndGet();
                metrics.replySettled(sampler, error == null ? null : Errors.reason(error));
            });
        } catch (RuntimeException e) {
            inFlight.decrementAndGet();
            metrics.replySettled(sampler, Errors.reason(e));
        }
    }

    /** Replies sent that the broker has not yet taken. */
    int inFlight() {
        return inFlight.get();
    }
}
