package io.mqttload.client;

/**
 * The MQTT 5 subscription options a plan asks for: no local, retain as published, retain handling. The defaults
 * are MQTT's (and all MQTT 3.1.1 can express). Subscription identifiers are not here: the HiveMQ client assigns one
 * per SUBSCRIBE itself and neither lets a caller set it nor shows it on received messages.
 */
public final class SubscribeOptions {
    public static final SubscribeOptions DEFAULT = new SubscribeOptions(false, false, RetainHandling.SEND);

    /** When the broker sends retained messages on subscribing: always, only for a new subscription, never. */
    public enum RetainHandling {
        SEND, SEND_IF_NEW, DO_NOT_SEND
    }

    private final boolean noLocal;
    private final boolean retainAsPublished;
    private final RetainHandling retainHandling;

    public SubscribeOptions(boolean noLocal, boolean retainAsPublished, RetainHandling retainHandling) {
        this.noLocal = noLocal;
        this.retainAsPublished = retainAsPublished;
        this.retainHandling = retainHandling;
    }

    /** The first option that differs from MQTT's default, for the error an MQTT 3.1.1 connection gives. */
    public String firstFieldSet() {
        if (noLocal) {
            return "noLocal";
        }
        if (retainAsPublished) {
            return "retainAsPublished";
        }
        return retainHandling == RetainHandling.SEND ? null : "retainHandling";
    }

    public boolean noLocal() {
        return noLocal;
    }

    public boolean retainAsPublished() {
        return retainAsPublished;
    }

    public RetainHandling retainHandling() {
        return retainHandling;
    }
}
