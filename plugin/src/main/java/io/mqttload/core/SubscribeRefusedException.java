package io.mqttload.core;

/** The broker refused one or more filters of a SUBSCRIBE; the message names each filter and code. */
public final class SubscribeRefusedException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public SubscribeRefusedException(String message) {
        super(message);
    }
}
