package io.mqttload.testsupport;

import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;

import com.hivemq.extension.sdk.api.ExtensionMain;
import com.hivemq.extension.sdk.api.interceptor.subscribe.SubscribeInboundInterceptor;
import com.hivemq.extension.sdk.api.packets.subscribe.Subscription;
import com.hivemq.extension.sdk.api.parameter.ExtensionStartInput;
import com.hivemq.extension.sdk.api.parameter.ExtensionStartOutput;
import com.hivemq.extension.sdk.api.parameter.ExtensionStopInput;
import com.hivemq.extension.sdk.api.parameter.ExtensionStopOutput;
import com.hivemq.extension.sdk.api.services.Services;

/** A HiveMQ CE extension that keeps the subscription options of every SUBSCRIBE, by client id, as the broker got them. */
public final class RecordSubscriptions implements ExtensionMain {
    private final Map<String, List<String>> byClient = new ConcurrentHashMap<>();

    /**
     * Each subscription of {@code clientId} as {@code filter qos=Q noLocal=B retainAsPublished=B retainHandling=H id=I}
     * (I: the SUBSCRIBE's subscription identifier, or none); empty when none arrived.
     */
    public List<String> of(String clientId) {
        return byClient.getOrDefault(clientId, List.of());
    }

    @Override
    public void extensionStart(ExtensionStartInput input, ExtensionStartOutput output) {
        SubscribeInboundInterceptor record = (in, out) -> {
            List<String> seen = byClient.computeIfAbsent(in.getClientInformation().getClientId(),
                    k -> new CopyOnWriteArrayList<>());
            String id = in.getSubscribePacket().getSubscriptionIdentifier().map(String::valueOf).orElse("none");
            for (Subscription s : in.getSubscribePacket().getSubscriptions()) {
                seen.add(s.getTopicFilter() + " qos=" + s.getQos().getQosNumber() + " noLocal=" + s.getNoLocal()
                        + " retainAsPublished=" + s.getRetainAsPublished() + " retainHandling=" + s.getRetainHandling()
                        + " id=" + id);
            }
        };
        Services.initializerRegistry().setClientInitializer((init, client) -> client.addSubscribeInboundInterceptor(record));
    }

    @Override
    public void extensionStop(ExtensionStopInput input, ExtensionStopOutput output) {
        // Nothing to release: the interceptor goes with the broker.
    }
}
