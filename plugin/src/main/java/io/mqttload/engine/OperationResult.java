package io.mqttload.engine;

/** What one sampler call did: success, a short code, a message for people, and byte counts. */
public final class OperationResult {
    public final boolean ok;
    public final String code;
    public final String message;
    public final long bytesSent;
    public final long bytesReceived;

    private OperationResult(boolean ok, String code, String message, long bytesSent, long bytesReceived) {
        this.ok = ok;
        this.code = code;
        this.message = message;
        this.bytesSent = bytesSent;
        this.bytesReceived = bytesReceived;
    }

    public static OperationResult ok(String message, long bytesSent) {
        return new OperationResult(true, "200", message, bytesSent, 0);
    }

    public static OperationResult failed(String code, String message) {
        return new OperationResult(false, code, message, 0, 0);
    }

    public static OperationResult failed(String code, String message, long bytesSent) {
        return new OperationResult(false, code, message, bytesSent, 0);
    }
}
