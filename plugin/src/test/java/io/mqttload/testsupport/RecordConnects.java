package io.mqttload.testsupport;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import com.hivemq.extension.sdk.api.ExtensionMain;
import com.hivemq.extension.sdk.api.auth.EnhancedAuthenticator;
import com.hivemq.extension.sdk.api.auth.parameter.EnhancedAuthConnectInput;
import com.hivemq.extension.sdk.api.auth.parameter.EnhancedAuthInput;
import com.hivemq.extension.sdk.api.auth.parameter.EnhancedAuthOutput;
import com.hivemq.extension.sdk.api.interceptor.connect.ConnectInboundInterceptor;
import com.hivemq.extension.sdk.api.packets.connect.ConnectPacket;
import com.hivemq.extension.sdk.api.packets.connect.WillPublishPacket;
import com.hivemq.extension.sdk.api.packets.general.DisconnectedReasonCode;
import com.hivemq.extension.sdk.api.packets.general.UserProperty;
import com.hivemq.extension.sdk.api.parameter.ExtensionStartInput;
import com.hivemq.extension.sdk.api.parameter.ExtensionStartOutput;
import com.hivemq.extension.sdk.api.parameter.ExtensionStopInput;
import com.hivemq.extension.sdk.api.parameter.ExtensionStopOutput;
import com.hivemq.extension.sdk.api.services.Services;

/**
 * A HiveMQ CE extension that keeps what each client's CONNECT carried (by client id), so a test can check what the
 * load generator sent, and that authenticates clients with an authentication method: the {@code method} given with
 * its {@code data} succeeds, another method is refused with Bad authentication method, other data with Not authorized.
 * Clients without a method are let in, as the embedded broker does without an authenticator.
 */
public final class RecordConnects implements ExtensionMain {
    private final String method;
    private final byte[] data;
    private final Map<String, Connect> connects = new ConcurrentHashMap<>();

    public RecordConnects(String method, byte[] data) {
        this.method = method;
        this.data = data.clone();
    }

    /** What the broker received in the last CONNECT of {@code clientId}, or null. */
    public Connect connect(String clientId) {
        return connects.get(clientId);
    }

    @Override
    public void extensionStart(ExtensionStartInput input, ExtensionStartOutput output) {
        Services.interceptorRegistry().setConnectInboundInterceptorProvider(
                provider -> (ConnectInboundInterceptor) (in, out) -> record(in.getConnectPacket()));
        Services.securityRegistry().setEnhancedAuthenticatorProvider(provider -> new EnhancedAuthenticator() {
            @Override
            public void onConnect(EnhancedAuthConnectInput in, EnhancedAuthOutput out) {
                ConnectPacket connect = in.getConnectPacket();
                if (connect.getAuthenticationMethod().isEmpty()) {
                    out.authenticateSuccessfully();
                } else if (!connect.getAuthenticationMethod().get().equals(method)) {
                    out.failAuthentication(DisconnectedReasonCode.BAD_AUTHENTICATION_METHOD, "not this broker's method");
                } else if (Arrays.equals(bytes(connect.getAuthenticationData().orElse(null)), data)) {
                    out.authenticateSuccessfully();
                } else {
                    out.failAuthentication(DisconnectedReasonCode.NOT_AUTHORIZED, "wrong authentication data");
                }
            }

            @Override
            public void onAuth(EnhancedAuthInput in, EnhancedAuthOutput out) {
                out.failAuthentication(DisconnectedReasonCode.NOT_AUTHORIZED, "one step only");
            }
        });
    }

    @Override
    public void extensionStop(ExtensionStopInput input, ExtensionStopOutput output) {
        // Nothing to release: the interceptor and the authenticator go with the broker.
    }

    private void record(ConnectPacket packet) {
        List<String> properties = new ArrayList<>();
        for (UserProperty p : packet.getUserProperties().asList()) {
            properties.add(p.getName() + "=" + p.getValue());
        }
        WillPublishPacket will = packet.getWillPublish().orElse(null);
        connects.put(packet.getClientId(), new Connect(packet.getReceiveMaximum(), packet.getMaximumPacketSize(),
                packet.getTopicAliasMaximum(), properties, will == null ? null : will.getTopic(),
                will == null ? null : new String(bytes(will.getPayload().orElse(null)), StandardCharsets.UTF_8),
                will == null ? -1 : will.getQos().getQosNumber(), will != null && will.getRetain(),
                will == null ? -1 : will.getWillDelay(), packet.getAuthenticationMethod().orElse(null),
                packet.getAuthenticationData().map(RecordConnects::bytes).orElse(null)));
    }

    private static byte[] bytes(ByteBuffer buffer) {
        if (buffer == null) {
            return new byte[0];
        }
        byte[] copy = new byte[buffer.remaining()];
        buffer.duplicate().get(copy);
        return copy;
    }

    /** The fields of a CONNECT that the MQTT Connection element sets. */
    public static final class Connect {
        public final int receiveMaximum;
        public final long maximumPacketSize;
        public final int topicAliasMaximum;
        /** name=value, in order. */
        public final List<String> userProperties;
        public final String willTopic;
        public final String willPayload;
        public final int willQos;
        public final boolean willRetain;
        public final long willDelaySeconds;
        public final String authMethod;
        public final byte[] authData;

        Connect(int receiveMaximum, long maximumPacketSize, int topicAliasMaximum, List<String> userProperties,
                String willTopic, String willPayload, int willQos, boolean willRetain, long willDelaySeconds,
                String authMethod, byte[] authData) {
            this.receiveMaximum = receiveMaximum;
            this.maximumPacketSize = maximumPacketSize;
            this.topicAliasMaximum = topicAliasMaximum;
            this.userProperties = List.copyOf(userProperties);
            this.willTopic = willTopic;
            this.willPayload = willPayload;
            this.willQos = willQos;
            this.willRetain = willRetain;
            this.willDelaySeconds = willDelaySeconds;
            this.authMethod = authMethod;
            this.authData = authData;
        }
    }
}
