package io.mqttload.convert;

/** The input cannot be converted at all (unreadable, not XML, not a JMeter plan); the message names the file and why. */
public final class InvalidPlanException extends Exception {
    private static final long serialVersionUID = 1L;

    InvalidPlanException(String message) {
        super(message);
    }

    InvalidPlanException(String message, Throwable cause) {
        super(message, cause);
    }
}
