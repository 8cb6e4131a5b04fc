package io.mqttload.testsupport;

import com.hivemq.extension.sdk.api.ExtensionMain;
import com.hivemq.extension.sdk.api.packets.subscribe.ModifiableSubscription;
import com.hivemq.extension.sdk.api.parameter.ExtensionStartInput;
import com.hivemq.extension.sdk.api.parameter.ExtensionStartOutput;
import com.hivemq.extension.sdk.api.parameter.ExtensionStopInput;
import com.hivemq.extension.sdk.api.parameter.ExtensionStopOutput;
import com.hivemq.extension.sdk.api.services.Services;

/**
 * A HiveMQ CE extension that makes the broker behave like one without shared subscriptions (amqtt, aedes, ActiveMQ 5,
 * Moquette at MQTT 3.1.1, RabbitMQ 3.10): it grants {@code $share/group/filter} as an ordinary filter, which no
 * published topic matches. HiveMQ would read {@code $share/...} as shared whatever it is given, so the filter becomes
 * {@code $plain-share/group/filter}: a topic-level-for-level ordinary filter under a {@code $} prefix, as those brokers
 * hold it, matching nothing a plan publishes.
 */
public final class PlainShareFilters implements ExtensionMain {
    private static final String SHARE = "$share/";

    @Override
    public void extensionStart(ExtensionStartInput input, ExtensionStartOutput output) {
        Services.initializerRegistry().setClientInitializer((init, client) -> client.addSubscribeInboundInterceptor(
                (in, out) -> {
                    for (ModifiableSubscription s : out.getSubscribePacket().getSubscriptions()) {
                        if (s.getTopicFilter().startsWith(SHARE)) {
                            s.setTopicFilter("$plain-share/" + s.getTopicFilter().substring(SHARE.length()));
                        }
                    }
                }));
    }

    @Override
    public void extensionStop(ExtensionStopInput input, ExtensionStopOutput output) {
        // Nothing to release: the interceptors go with the broker.
    }
}
