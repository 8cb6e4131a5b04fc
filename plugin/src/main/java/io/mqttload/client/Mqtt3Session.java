package io.mqttload.client;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.function.Consumer;

import io.reactivex.Flowable;

import com.hivemq.client.mqtt.MqttClientBuilder;
import com.hivemq.client.mqtt.MqttClientState;
import com.hivemq.client.mqtt.MqttGlobalPublishFilter;
import com.hivemq.client.mqtt.datatypes.MqttQos;
import com.hivemq.client.mqtt.mqtt3.Mqtt3AsyncClient;
import com.hivemq.client.mqtt.mqtt3.exceptions.Mqtt3SubAckException;
import com.hivemq.client.mqtt.mqtt3.message.auth.Mqtt3SimpleAuth;
import com.hivemq.client.mqtt.mqtt3.message.auth.Mqtt3SimpleAuthBuilder;
import com.hivemq.client.mqtt.mqtt3.message.publish.Mqtt3Publish;
import com.hivemq.client.mqtt.mqtt3.message.subscribe.Mqtt3Subscribe;
import com.hivemq.client.mqtt.mqtt3.message.subscribe.Mqtt3Subscription;
import com.hivemq.client.mqtt.mqtt3.message.subscribe.suback.Mqtt3SubAck;
import com.hivemq.client.mqtt.mqtt3.message.subscribe.suback.Mqtt3SubAckReturnCode;

/** An MQTT 3.1.1 session: clean session, return codes without reasons. */
final class Mqtt3Session implements MqttSession {
    private final Mqtt3AsyncClient client;
    private final Consumer<InboundMessage> onMessage;

    Mqtt3Session(MqttClientBuilder builder, Consumer<InboundMessage> onMessage) {
        this.client = builder.useMqttVersion3().buildAsync();
        this.onMessage = onMessage;
        receiveAgain();
    }

    @Override
    public void receiveAgain() {
        ReceivedPublish view = new ReceivedPublish();
        client.publishes(MqttGlobalPublishFilter.ALL, p -> {
            try {
                onMessage.accept(view.of(p));
            } finally {
                view.clear();
            }
        }, ON_EVENT_LOOP);
    }

    @Override
    public CompletableFuture<Boolean> connect(ConnectionSettings settings) {
        var connect = client.connectWith().cleanSession(settings.cleanStart()).keepAlive(settings.keepAliveSeconds())
                .willPublish(settings.connectOptions().will3());
        Mqtt3SimpleAuth auth = auth(settings);
        if (auth != null) {
            connect = connect.simpleAuth(auth);
        }
        return connect.send().thenApply(ack -> ack.isSessionPresent());
    }

    /** The settings' user name and password for MQTT 3.1.1, or null without a user name (3.1.1 has no password alone). */
    static Mqtt3SimpleAuth auth(ConnectionSettings settings) {
        if (settings.username().isEmpty()) {
            return null;
        }
        Mqtt3SimpleAuthBuilder.Complete auth = Mqtt3SimpleAuth.builder().username(settings.username());
        return (settings.password().isEmpty() ? auth
                : auth.password(settings.password().getBytes(StandardCharsets.UTF_8))).build();
    }

    @Override
    public CompletableFuture<Void> publish(String topic, byte[] payload, MqttQos qos, boolean retain,
            PublishProperties properties) {
        Mqtt3Publish message = Mqtt3Publish.builder().topic(topic).qos(qos).retain(retain).payload(payload).build();
        if (qos == MqttQos.EXACTLY_ONCE) {
            return MqttSession.untilComplete(client.toRx().publish(Flowable.just(message)).map(r -> r.getError()));
        }
        return client.publish(message).thenApply(published -> null);
    }

    @Override
    public void publish(String topic, byte[] payload, MqttQos qos, boolean retain, PublishProperties properties,
            Consumer<Throwable> done) {
        if (qos == MqttQos.EXACTLY_ONCE) {
            publish(topic, payload, qos, retain, properties).whenComplete((ok, error) -> done.accept(error));
            return;
        }
        client.publish(Mqtt3Publish.builder().topic(topic).qos(qos).retain(retain).payload(payload).build())
                .whenComplete((published, error) -> done.accept(error));
    }

    @Override
    public CompletableFuture<Void> subscribe(List<String> filters, MqttQos qos, SubscribeOptions options) {
        List<Mqtt3Subscription> subs = new ArrayList<>();
        for (String f : filters) {
            subs.add(Mqtt3Subscription.builder().topicFilter(f).qos(qos).build());
        }
        return client.subscribe(Mqtt3Subscribe.builder().addSubscriptions(subs).build()).handle((ack, error) -> {
            Throwable cause = error instanceof CompletionException && error.getCause() != null ? error.getCause() : error;
            // The 3.1.1 client fails only when every filter was refused; a partial refusal arrives as a SUBACK.
            Mqtt3SubAck subAck = cause instanceof Mqtt3SubAckException ? ((Mqtt3SubAckException) cause).getMqttMessage() : ack;
            if (subAck == null) {
                throw new CompletionException(cause);
            }
            List<Mqtt3SubAckReturnCode> codes = subAck.getReturnCodes();
            StringBuilder refused = new StringBuilder();
            int refusedCount = 0;
            for (int i = 0; i < codes.size(); i++) {
                if (codes.get(i).isError()) {
                    refused.append(refused.length() == 0 ? "" : ", ").append(filters.get(i)).append(" -> ")
                            .append(codes.get(i)).append(" (0x80)");
                    refusedCount++;
                }
            }
            if (refused.length() > 0) {
                throw new SubscribeRefusedException("SUBACK refused " + refused, "SUBACK refused " + refusedCount
                        + " of " + codes.size() + " filter(s): FAILURE (0x80)");
            }
            return null;
        });
    }

    @Override
    public CompletableFuture<Void> disconnect() {
        return client.disconnect();
    }

    @Override
    public MqttClientState state() {
        return client.getState();
    }

    @Override
    public boolean isMqtt5() {
        return false;
    }
}
