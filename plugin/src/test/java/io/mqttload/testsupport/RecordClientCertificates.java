package io.mqttload.testsupport;

import java.security.cert.X509Certificate;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;

import com.hivemq.extension.sdk.api.ExtensionMain;
import com.hivemq.extension.sdk.api.client.parameter.ClientTlsInformation;
import com.hivemq.extension.sdk.api.interceptor.connect.ConnectInboundInterceptor;
import com.hivemq.extension.sdk.api.parameter.ExtensionStartInput;
import com.hivemq.extension.sdk.api.parameter.ExtensionStartOutput;
import com.hivemq.extension.sdk.api.parameter.ExtensionStopInput;
import com.hivemq.extension.sdk.api.parameter.ExtensionStopOutput;
import com.hivemq.extension.sdk.api.services.Services;

/**
 * A HiveMQ CE extension that keeps, by client id, the subject of the certificate each client presented in its TLS
 * handshake (as the broker saw it), so a test can tell which certificate each client of the load used.
 */
public final class RecordClientCertificates implements ExtensionMain {
    private final Map<String, String> subjects = new ConcurrentHashMap<>();

    /** Forgets what was recorded: a class that shares its broker between tests starts each test with none. */
    public void clear() {
        subjects.clear();
    }

    /** Client id to the subject of its certificate ("(none)" for a client that presented none), sorted by id. */
    public Map<String, String> subjects() {
        return new TreeMap<>(subjects);
    }

    @Override
    public void extensionStart(ExtensionStartInput input, ExtensionStartOutput output) {
        Services.interceptorRegistry().setConnectInboundInterceptorProvider(provider -> (ConnectInboundInterceptor) (in,
                out) -> subjects.put(in.getClientInformation().getClientId(), in.getConnectionInformation()
                        .getClientTlsInformation().flatMap(ClientTlsInformation::getClientCertificate)
                        .map(X509Certificate::getSubjectX500Principal).map(Object::toString).orElse("(none)")));
    }

    @Override
    public void extensionStop(ExtensionStopInput input, ExtensionStopOutput output) {
        // Nothing to release: the interceptor goes with the broker.
    }
}
