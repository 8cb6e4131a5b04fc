package io.mqttload.client;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.function.Consumer;

import io.reactivex.Flowable;

import com.hivemq.client.mqtt.MqttClientBuilder;
import com.hivemq.client.mqtt.MqttClientState;
import com.hivemq.client.mqtt.MqttGlobalPublishFilter;
import com.hivemq.client.mqtt.datatypes.MqttQos;
import com.hivemq.client.mqtt.mqtt5.Mqtt5AsyncClient;
import com.hivemq.client.mqtt.mqtt5.exceptions.Mqtt5SubAckException;
import com.hivemq.client.mqtt.mqtt5.message.auth.Mqtt5SimpleAuth;
import com.hivemq.client.mqtt.mqtt5.message.auth.Mqtt5SimpleAuthBuilder;
import com.hivemq.client.mqtt.mqtt5.message.publish.Mqtt5PayloadFormatIndicator;
import com.hivemq.client.mqtt.mqtt5.message.publish.Mqtt5Publish;
import com.hivemq.client.mqtt.mqtt5.message.publish.Mqtt5PublishBuilder;
import com.hivemq.client.mqtt.mqtt5.message.subscribe.Mqtt5RetainHandling;
import com.hivemq.client.mqtt.mqtt5.message.subscribe.Mqtt5Subscribe;
import com.hivemq.client.mqtt.mqtt5.message.subscribe.Mqtt5Subscription;
import com.hivemq.client.mqtt.mqtt5.message.subscribe.suback.Mqtt5SubAck;
import com.hivemq.client.mqtt.mqtt5.message.subscribe.suback.Mqtt5SubAckReasonCode;

/** An MQTT 5 session: clean start and session expiry, reason codes and reason strings. */
final class Mqtt5Session implements MqttSession {
    private final Mqtt5AsyncClient client;
    private final Consumer<InboundMessage> onMessage;

    Mqtt5Session(MqttClientBuilder builder, Consumer<InboundMessage> onMessage) {
        this.client = builder.useMqttVersion5().buildAsync();
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
        var connect = client.connectWith().cleanStart(settings.cleanStart())
                .sessionExpiryInterval(settings.sessionExpirySeconds())
                .keepAlive(settings.keepAliveSeconds())
                .restrictions(settings.connectOptions().restrictions())
                .userProperties(settings.connectOptions().userProperties())
                .willPublish(settings.connectOptions().will5())
                .enhancedAuth(settings.connectOptions().enhancedAuth(settings.connectTimeoutMs()));
        if (!settings.username().isEmpty() || !settings.password().isEmpty()) {
            connect = connect.simpleAuth(auth(settings));
        }
        return connect.send().thenApply(ack -> ack.isSessionPresent());
    }

    private static Mqtt5SimpleAuth auth(ConnectionSettings settings) {
        byte[] password = settings.password().getBytes(StandardCharsets.UTF_8);
        if (settings.username().isEmpty()) {
            return Mqtt5SimpleAuth.builder().password(password).build();
        }
        Mqtt5SimpleAuthBuilder.Complete auth = Mqtt5SimpleAuth.builder().username(settings.username());
        return (settings.password().isEmpty() ? auth : auth.password(password)).build();
    }

    @Override
    public CompletableFuture<Void> publish(String topic, byte[] payload, MqttQos qos, boolean retain,
            PublishProperties properties) {
        Mqtt5Publish message = message(topic, payload, qos, retain, properties);
        if (qos == MqttQos.EXACTLY_ONCE) {
            return MqttSession.untilComplete(client.toRx().publish(Flowable.just(message)).map(r -> r.getError()));
        }
        return client.publish(message).thenApply(result -> {
            if (result.getError().isPresent()) {
                throw new CompletionException(result.getError().get());
            }
            return null;
        });
    }

    @Override
    public void publish(String topic, byte[] payload, MqttQos qos, boolean retain, PublishProperties properties,
            Consumer<Throwable> done) {
        if (qos == MqttQos.EXACTLY_ONCE) {
            publish(topic, payload, qos, retain, properties).whenComplete((ok, error) -> done.accept(error));
            return;
        }
        client.publish(message(topic, payload, qos, retain, properties))
                .whenComplete((result, error) -> done.accept(error != null ? error : result.getError().orElse(null)));
    }

    private static Mqtt5Publish message(String topic, byte[] payload, MqttQos qos, boolean retain,
            PublishProperties properties) {
        Mqtt5PublishBuilder.Complete message = Mqtt5Publish.builder().topic(topic).qos(qos).retain(retain).payload(payload);
        if (properties == PublishProperties.NONE) {
            return message.build();
        }
        if (properties.messageExpirySeconds() >= 0) {
            message = message.messageExpiryInterval(properties.messageExpirySeconds());
        }
        if (properties.contentType() != null) {
            message = message.contentType(properties.contentType());
        }
        if (properties.payloadFormat() != PublishProperties.PayloadFormat.NONE) {
            message = message.payloadFormatIndicator(properties.payloadFormat() == PublishProperties.PayloadFormat.UTF_8
                    ? Mqtt5PayloadFormatIndicator.UTF_8 : Mqtt5PayloadFormatIndicator.UNSPECIFIED);
        }
        if (properties.responseTopic() != null) {
            message = message.responseTopic(properties.responseTopic());
        }
        if (properties.correlationData() != null) {
            message = message.correlationData(properties.correlationData());
        }
        if (properties.mqtt5UserProperties() != null) {
            message = message.userProperties(properties.mqtt5UserProperties());
        }
        return message.build();
    }

    @Override
    public CompletableFuture<Void> subscribe(List<String> filters, MqttQos qos, SubscribeOptions options) {
        List<Mqtt5Subscription> subs = new ArrayList<>();
        for (String f : filters) {
            subs.add(Mqtt5Subscription.builder().topicFilter(f).qos(qos).noLocal(options.noLocal())
                    .retainAsPublished(options.retainAsPublished()).retainHandling(retainHandling(options)).build());
        }
        return client.subscribe(Mqtt5Subscribe.builder().addSubscriptions(subs).build()).handle((ack, error) -> {
            if (error instanceof CompletionException && error.getCause() != null) {
                error = error.getCause();
            }
            if (error instanceof Mqtt5SubAckException) {
                Mqtt5SubAck refused = ((Mqtt5SubAckException) error).getMqttMessage();
                throw new SubscribeRefusedException(describeRefusal(filters, refused), refusalReason(refused));
            }
            if (error != null) {
                throw new CompletionException(error);
            }
            return null;
        });
    }

    private static Mqtt5RetainHandling retainHandling(SubscribeOptions options) {
        switch (options.retainHandling()) {
            case SEND_IF_NEW:
                return Mqtt5RetainHandling.SEND_IF_SUBSCRIPTION_DOES_NOT_EXIST;
            case DO_NOT_SEND:
                return Mqtt5RetainHandling.DO_NOT_SEND;
            default:
                return Mqtt5RetainHandling.SEND;
        }
    }

    private static String describeRefusal(List<String> filters, Mqtt5SubAck ack) {
        List<Mqtt5SubAckReasonCode> codes = ack.getReasonCodes();
        StringBuilder refused = new StringBuilder("SUBACK refused ");
        boolean first = true;
        for (int i = 0; i < codes.size(); i++) {
            if (codes.get(i).isError()) {
                refused.append(first ? "" : ", ").append(filters.get(i)).append(" -> ").append(codes.get(i))
                        .append(" (0x").append(Integer.toHexString(codes.get(i).getCode())).append(')');
                first = false;
            }
        }
        ack.getReasonString().ifPresent(r -> refused.append(": ").append(r));
        return refused.toString();
    }

    /** The refusal codes alone, without the filters (which differ from client to client). */
    private static String refusalReason(Mqtt5SubAck ack) {
        Set<String> codes = new TreeSet<>();
        for (Mqtt5SubAckReasonCode code : ack.getReasonCodes()) {
            if (code.isError()) {
                codes.add(code + " (0x" + Integer.toHexString(code.getCode()) + ")");
            }
        }
        return "SUBACK refused: " + String.join(", ", codes) + ack.getReasonString().map(r -> ": " + r).orElse("");
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
        return true;
    }
}
