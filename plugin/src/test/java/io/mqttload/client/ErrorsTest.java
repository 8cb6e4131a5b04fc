package io.mqttload.client;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.CompletionException;

import org.junit.jupiter.api.Test;

import com.hivemq.client.mqtt.exceptions.ConnectionClosedException;
import com.hivemq.client.mqtt.exceptions.MqttSessionExpiredException;

/** How client failures read: the cause a user can act on first. */
class ErrorsTest {

    @Test
    void publishInFlightWhenTheBrokerDies_readsAsTheLostConnectionFirst_notAsASessionExpiry() {
        // As the HiveMQ client fails an in-flight publish of a clean session when its connection closes.
        Throwable failed = new CompletionException(new MqttSessionExpiredException(
                "Session expired as connection was closed.",
                new ConnectionClosedException("Server closed connection without DISCONNECT.")));

        assertThat(Errors.reason(failed)).isEqualTo("connection lost with the publish in flight"
                + " (ConnectionClosedException: Server closed connection without DISCONNECT.): not acknowledged, and no"
                + " session was kept to resend it (clean session, or its expiry passed)");
    }
}
