package io.mqttload.client;

import java.nio.ByteBuffer;
import java.util.concurrent.CompletableFuture;

import com.hivemq.client.mqtt.datatypes.MqttUtf8String;
import com.hivemq.client.mqtt.mqtt5.Mqtt5ClientConfig;
import com.hivemq.client.mqtt.mqtt5.auth.Mqtt5EnhancedAuthMechanism;
import com.hivemq.client.mqtt.mqtt5.message.auth.Mqtt5Auth;
import com.hivemq.client.mqtt.mqtt5.message.auth.Mqtt5AuthBuilder;
import com.hivemq.client.mqtt.mqtt5.message.auth.Mqtt5EnhancedAuthBuilder;
import com.hivemq.client.mqtt.mqtt5.message.connect.Mqtt5Connect;
import com.hivemq.client.mqtt.mqtt5.message.connect.connack.Mqtt5ConnAck;
import com.hivemq.client.mqtt.mqtt5.message.disconnect.Mqtt5Disconnect;

/**
 * MQTT 5 enhanced authentication with one method and fixed data, which is what a plan's settings can describe: the
 * data goes in the CONNECT and the broker decides with its CONNACK. A broker asking for another step (AUTH, Continue
 * authentication) is not answered: the client then disconnects with Not authorized ("Server auth not accepted."),
 * rather than send data the broker did not ask for. It keeps no state, so reconnects reuse it.
 */
final class FixedEnhancedAuth implements Mqtt5EnhancedAuthMechanism {
    private final MqttUtf8String method;
    /** Read-only; null for a method without data. */
    private final ByteBuffer data;
    private final int timeoutSeconds;

    FixedEnhancedAuth(MqttUtf8String method, ByteBuffer data, int timeoutSeconds) {
        this.method = method;
        this.data = data;
        this.timeoutSeconds = timeoutSeconds;
    }

    @Override
    public MqttUtf8String getMethod() {
        return method;
    }

    @Override
    public int getTimeout() {
        return timeoutSeconds;
    }

    @Override
    public CompletableFuture<Void> onAuth(Mqtt5ClientConfig clientConfig, Mqtt5Connect connect,
            Mqtt5EnhancedAuthBuilder authBuilder) {
        // A duplicate each time: the client reads the buffer, and clients connect concurrently.
        authBuilder.data(data == null ? null : data.duplicate());
        return CompletableFuture.completedFuture(null);
    }

    @Override
    public CompletableFuture<Void> onReAuth(Mqtt5ClientConfig clientConfig, Mqtt5AuthBuilder authBuilder) {
        authBuilder.data(data == null ? null : data.duplicate());
        return CompletableFuture.completedFuture(null);
    }

    @Override
    public CompletableFuture<Boolean> onContinue(Mqtt5ClientConfig clientConfig, Mqtt5Auth auth,
            Mqtt5AuthBuilder authBuilder) {
        return CompletableFuture.completedFuture(false);
    }

    @Override
    public CompletableFuture<Boolean> onAuthSuccess(Mqtt5ClientConfig clientConfig, Mqtt5ConnAck connAck) {
        return CompletableFuture.completedFuture(true);
    }

    @Override
    public CompletableFuture<Boolean> onReAuthSuccess(Mqtt5ClientConfig clientConfig, Mqtt5Auth auth) {
        return CompletableFuture.completedFuture(true);
    }

    @Override
    public void onAuthRejected(Mqtt5ClientConfig clientConfig, Mqtt5ConnAck connAck) {
        // The connect fails with this CONNACK, whose reason code the Connect sample and the verdict name.
    }

    @Override
    public void onReAuthRejected(Mqtt5ClientConfig clientConfig, Mqtt5Disconnect disconnect) {
        // The connection ends with this DISCONNECT, counted and named as a lost connection.
    }

    @Override
    public void onAuthError(Mqtt5ClientConfig clientConfig, Throwable cause) {
        // The connect fails with this cause, which the Connect sample names.
    }

    @Override
    public void onReAuthError(Mqtt5ClientConfig clientConfig, Throwable cause) {
        // The connection ends with this cause, counted and named as a lost connection.
    }
}
