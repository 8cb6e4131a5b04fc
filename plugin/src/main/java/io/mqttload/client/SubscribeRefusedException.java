package io.mqttload.client;

/** The broker refused one or more filters of a SUBSCRIBE (SUBACK failure codes). */
public final class SubscribeRefusedException extends RuntimeException {
    private static final long serialVersionUID = 1L;
    private final String reason;

    /**
     * @param message names each refused filter and its code, for the failed sample
     * @param reason  the codes alone ("SUBACK refused: NOT_AUTHORIZED (0x87)"), the same for every client refused alike
     */
    public SubscribeRefusedException(String message, String reason) {
        super(message);
        this.reason = reason;
    }

    public String reason() {
        return reason;
    }
}
