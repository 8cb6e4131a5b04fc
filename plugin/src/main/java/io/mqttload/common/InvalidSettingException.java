package io.mqttload.common;

/**
 * A setting a user typed is unusable. The message always names the field and the value, so the
 * user can find it in the GUI without reading a stack trace.
 */
public final class InvalidSettingException extends IllegalArgumentException {
    private static final long serialVersionUID = 1L;

    private final String field;
    private final String value;

    public InvalidSettingException(String field, Object value, String reason) {
        super(field + " = '" + value + "': " + reason);
        this.field = field;
        this.value = String.valueOf(value);
    }

    public InvalidSettingException(String field, Object value, String reason, Throwable cause) {
        this(field, value, reason);
        initCause(cause);
    }

    public String field() {
        return field;
    }

    public String value() {
        return value;
    }
}
