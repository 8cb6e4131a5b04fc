package io.mqttload.client;

import java.net.ConnectException;
import java.net.UnknownHostException;
import java.security.GeneralSecurityException;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;

import javax.net.ssl.SSLException;

import com.hivemq.client.mqtt.exceptions.ConnectionClosedException;
import com.hivemq.client.mqtt.exceptions.ConnectionFailedException;
import com.hivemq.client.mqtt.exceptions.MqttSessionExpiredException;
import com.hivemq.client.mqtt.lifecycle.MqttDisconnectSource;
import com.hivemq.client.mqtt.mqtt3.exceptions.Mqtt3DisconnectException;
import com.hivemq.client.mqtt.mqtt5.exceptions.Mqtt5DisconnectException;
import com.hivemq.client.mqtt.mqtt3.exceptions.Mqtt3ConnAckException;
import com.hivemq.client.mqtt.mqtt5.exceptions.Mqtt5ConnAckException;

/** Turns client exceptions into one-line messages a user can act on, without stack traces. */
public final class Errors {
    /** How the HiveMQ client's own CONNACK timeout reads (MqttConnectHandler). */
    private static final String CONNACK_TIMEOUT = "Timeout while waiting for CONNACK";

    private Errors() {
    }

    public static Throwable unwrap(Throwable t) {
        Throwable e = t;
        while ((e instanceof CompletionException || e instanceof ExecutionException) && e.getCause() != null) {
            e = e.getCause();
        }
        return e;
    }

    public static String describe(Throwable t) {
        Throwable e = unwrap(t);
        if (e instanceof SubscribeRefusedException) {
            return e.getMessage();
        }
        if (e instanceof Mqtt5ConnAckException) {
            var ack = ((Mqtt5ConnAckException) e).getMqttMessage();
            return "CONNACK refused: " + ack.getReasonCode() + " (0x" + Integer.toHexString(ack.getReasonCode().getCode())
                    + ")" + ack.getReasonString().map(r -> ": " + r).orElse("");
        }
        if (e instanceof Mqtt3ConnAckException) {
            var ack = ((Mqtt3ConnAckException) e).getMqttMessage();
            return "CONNACK refused: " + ack.getReturnCode() + " (0x" + Integer.toHexString(ack.getReturnCode().getCode()) + ")";
        }
        if (e instanceof MqttSessionExpiredException) {
            // What the HiveMQ client fails in-flight publishes with when the connection goes and no session is kept
            // ("Session expired as connection was closed."): the lost connection is the cause, so it comes first.
            Throwable lost = e.getCause();
            return "connection lost with the publish in flight" + (lost == null || lost == e ? "" : " (" + describe(lost)
                    + ")") + ": not acknowledged, and no session was kept to resend it (clean session, or its expiry"
                    + " passed)";
        }
        Throwable root = rootCause(e);
        if (root instanceof UnknownHostException) {
            return "unknown host: " + root.getMessage();
        }
        if (isTls(e)) {
            // The root is often a PKIX path error (an untrusted CA) wrapped in an SSLHandshakeException.
            return "TLS handshake failed: " + root.getMessage();
        }
        if (root instanceof ConnectException) {
            return "connection refused: " + root.getMessage();
        }
        if (e instanceof ConnectionFailedException && root != e) {
            return "connection failed: " + root.getClass().getSimpleName() + ": " + root.getMessage();
        }
        String message = e.getMessage();
        return e.getClass().getSimpleName() + (message == null ? "" : ": " + message);
    }

    /**
     * The reason code of a CONNACK that refused the connect (MQTT 5 reason code, MQTT 3.1.1 return code), or -1 when
     * the connect was not refused by a CONNACK (unreachable, unanswered, closed).
     */
    static int connackCode(Throwable t) {
        Throwable e = unwrap(t);
        if (e instanceof Mqtt5ConnAckException) {
            return ((Mqtt5ConnAckException) e).getMqttMessage().getReasonCode().getCode();
        }
        if (e instanceof Mqtt3ConnAckException) {
            return ((Mqtt3ConnAckException) e).getMqttMessage().getReturnCode().getCode();
        }
        return -1;
    }

    /**
     * A failure's reason for counting: like {@link #describe} but without what differs from client to client (the
     * filters a SUBACK refused), so that thousands of clients failing alike make one reason with a count.
     */
    public static String reason(Throwable t) {
        Throwable e = unwrap(t);
        return e instanceof SubscribeRefusedException ? ((SubscribeRefusedException) e).reason() : describe(e);
    }

    /**
     * Whether the client itself closed the connection because the broker broke the protocol: the HiveMQ client
     * then disconnects with a DISCONNECT exception of its own (source CLIENT), naming the violation, e.g. "PUBACK
     * must not be received for a QoS 2 PUBLISH". A broker's own DISCONNECT has source SERVER.
     */
    public static boolean isProtocolViolation(MqttDisconnectSource source, Throwable cause) {
        return source == MqttDisconnectSource.CLIENT
                && (cause instanceof Mqtt3DisconnectException || cause instanceof Mqtt5DisconnectException);
    }

    /**
     * The protocol violation that made the client give up a CONNECT, naming the packet, or null when the connect failed
     * otherwise. Before CONNACK the HiveMQ client closes the connection itself (a DISCONNECT exception of its own) on a
     * packet it cannot decode ("Exception while decoding CONNACK: wrong reason code": Moquette's MQTT 5 CONNACK with a
     * 3.1.1 return code) and on any packet but CONNACK ("DISCONNECT message must not be received before CONNACK":
     * Artemis under load). Its own CONNACK timeout takes the same path, but a broker that does not answer in time
     * broke no rule.
     */
    public static String connectViolation(Throwable t) {
        Throwable e = unwrap(t);
        if (!(e instanceof Mqtt3DisconnectException || e instanceof Mqtt5DisconnectException)) {
            return null;
        }
        String message = e.getMessage();
        if (message == null || message.startsWith(CONNACK_TIMEOUT)) {
            return null;
        }
        return "the client closed the connection during CONNECT: " + message;
    }

    /** Whether the connect failed on the HiveMQ client's own CONNACK timeout: the broker did not answer, nor refuse. */
    static boolean isConnackTimeout(Throwable t) {
        Throwable e = unwrap(t);
        return (e instanceof Mqtt3DisconnectException || e instanceof Mqtt5DisconnectException)
                && e.getMessage() != null && e.getMessage().startsWith(CONNACK_TIMEOUT);
    }

    /**
     * Whether an operation failed because its connection went (closed, or the client's session ended with it), not on
     * an answer of the broker's: at a loss this may be read before the client reads itself as disconnected.
     */
    public static boolean isConnectionGone(Throwable t) {
        return hasCause(t, ConnectionClosedException.class) || hasCause(t, MqttSessionExpiredException.class);
    }

    /** Whether TLS failed: a handshake, or an alert the broker sent (it refused the client's certificate). */
    static boolean isTls(Throwable t) {
        return hasCause(t, SSLException.class) || hasCause(t, GeneralSecurityException.class);
    }

    private static boolean hasCause(Throwable t, Class<? extends Throwable> type) {
        for (Throwable e = t; e != null; e = e.getCause() == e ? null : e.getCause()) {
            if (type.isInstance(e)) {
                return true;
            }
        }
        return false;
    }

    private static Throwable rootCause(Throwable t) {
        Throwable e = t;
        while (e.getCause() != null && e.getCause() != e) {
            e = e.getCause();
        }
        return e;
    }
}
