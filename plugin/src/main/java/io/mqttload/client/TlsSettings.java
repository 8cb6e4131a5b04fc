package io.mqttload.client;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.UnrecoverableKeyException;
import java.util.Locale;

import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.TrustManagerFactory;

import io.mqttload.common.InvalidSettingException;

/**
 * TLS material for secure transports: an optional trust store (otherwise the JVM's default CAs), an
 * optional key store for mutual TLS, and whether the broker's host name is verified. The stores are
 * loaded once, when the settings are built, so a wrong path or password fails the test at its start.
 */
public final class TlsSettings {
    private final TrustManagerFactory trustManagers;
    private final KeyManagerFactory keyManagers;
    private final boolean verifyHostname;

    private TlsSettings(TrustManagerFactory trustManagers, KeyManagerFactory keyManagers, boolean verifyHostname) {
        this.trustManagers = trustManagers;
        this.keyManagers = keyManagers;
        this.verifyHostname = verifyHostname;
    }

    public static TlsSettings systemDefaults() {
        return new TlsSettings(null, null, true);
    }

    /**
     * @param trustStorePath empty for the JVM's default trust store
     * @param keyStorePath   empty for no client certificate
     */
    public static TlsSettings load(String trustStorePath, String trustStorePassword, String keyStorePath,
            String keyStorePassword, boolean verifyHostname) {
        TrustManagerFactory tmf = null;
        if (!isBlank(trustStorePath)) {
            KeyStore trust = loadStore("trustStorePath", "trustStorePassword", trustStorePath, trustStorePassword);
            try {
                tmf = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
                tmf.init(trust);
            } catch (GeneralSecurityException e) {
                throw new InvalidSettingException("trustStorePath", trustStorePath, "unusable trust store: " + e.getMessage(), e);
            }
        }
        KeyManagerFactory kmf = null;
        if (!isBlank(keyStorePath)) {
            KeyStore keys = loadStore("keyStorePath", "keyStorePassword", keyStorePath, keyStorePassword);
            try {
                kmf = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
                kmf.init(keys, chars(keyStorePassword));
            } catch (UnrecoverableKeyException e) {
                throw new InvalidSettingException("keyStorePassword", "******",
                        "cannot read the private key in " + keyStorePath + " with this password", e);
            } catch (GeneralSecurityException e) {
                throw new InvalidSettingException("keyStorePath", keyStorePath, "unusable key store: " + e.getMessage(), e);
            }
        }
        return new TlsSettings(tmf, kmf, verifyHostname);
    }

    private static KeyStore loadStore(String pathField, String passwordField, String path, String password) {
        Path file = Paths.get(path.trim());
        if (!Files.isReadable(file)) {
            throw new InvalidSettingException(pathField, path, "file does not exist or is not readable");
        }
        String type = path.toLowerCase(Locale.ROOT).endsWith(".jks") ? "JKS" : "PKCS12";
        try (InputStream in = Files.newInputStream(file)) {
            KeyStore store = KeyStore.getInstance(type);
            store.load(in, chars(password));
            return store;
        } catch (IOException e) {
            if (e.getCause() instanceof UnrecoverableKeyException || String.valueOf(e.getMessage()).contains("password")) {
                throw new InvalidSettingException(passwordField, "******", "wrong password for " + path, e);
            }
            throw new InvalidSettingException(pathField, path, "cannot read it as a " + type + " key store: " + e.getMessage(), e);
        } catch (GeneralSecurityException e) {
            throw new InvalidSettingException(pathField, path, "cannot read it as a " + type + " key store: " + e.getMessage(), e);
        }
    }

    private static char[] chars(String password) {
        return password == null ? new char[0] : password.toCharArray();
    }

    private static boolean isBlank(String s) {
        return s == null || s.trim().isEmpty();
    }

    /** Null means the JVM's default trust store. */
    public TrustManagerFactory trustManagers() {
        return trustManagers;
    }

    /** Null means no client certificate. */
    public KeyManagerFactory keyManagers() {
        return keyManagers;
    }

    public boolean verifyHostname() {
        return verifyHostname;
    }
}
