package io.mqttload.engine;

/** What one sampler call did: success, a short code, a message for people, and byte counts. */
public final class OperationResult {
    public final boolean ok;
    public final String code;
    public final String message;
    public final long bytesSent;
    public final long bytesReceived;
    /**
     * A failure the operation has already counted with its reason through {@code EngineMetrics.failed}, per client or per
     * message (a refused connect, a publish not acknowledged): the sampler then does not count the sample again.
     */
    public final boolean counted;

    private OperationResult(boolean ok, String code, String message, long bytesSent, long bytesReceived, boolean counted) {
        this.ok = ok;
        this.code = code;
        this.message = message;
        this.bytesSent = bytesSent;
        this.bytesReceived = bytesReceived;
        this.counted = counted;
    }

    public static OperationResult ok(String message, long bytesSent) {
        return new OperationResult(true, "200", message, bytesSent, 0, false);
    }

    /** A failure nothing has counted yet: the sampler counts it as a failed sample. */
    public static OperationResult failed(String code, String message) {
        return new OperationResult(false, code, message, 0, 0, false);
    }

    public static OperationResult failed(String code, String message, long bytesSent) {
        return new OperationResult(false, code, message, bytesSent, 0, false);
    }

    /** A failure whose clients' or messages' failures the operation has counted already (see {@link #counted}). */
    public static OperationResult failedCounted(String code, String message, long bytesSent) {
        return new OperationResult(false, code, message, bytesSent, 0, true);
    }
}
