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
import io.mqttload.common.NameTemplate;

/**
 * TLS material for secure transports: an optional trust store (otherwise the JVM's default CAs), an
 * optional key store for mutual TLS, and whether the broker's host name is verified. The stores are
 * loaded once, when the settings are built, so a wrong path or password fails the test at its start.
 *
 * <p>A key store path or alias with placeholders ({@link NameTemplate#CLIENT_PLACEHOLDERS}) gives each client its own
 * certificate: the templates are checked here, at the start, and expanded per client by {@link #clientKeys}, which
 * reads each distinct file once per run through the run's {@link ClientKeyStores}.
 */
public final class TlsSettings {
    private final TrustManagerFactory trustManagers;
    private final KeyManagerFactory keyManagers;
    private final boolean verifyHostname;
    /** Per-client key material: the path and alias templates; null when every client presents the same key. */
    private final NameTemplate keyStorePathTemplate;
    private final NameTemplate keyStoreAliasTemplate;
    private final String keyStorePassword;

    private TlsSettings(TrustManagerFactory trustManagers, KeyManagerFactory keyManagers, boolean verifyHostname,
            NameTemplate keyStorePathTemplate, NameTemplate keyStoreAliasTemplate, String keyStorePassword) {
        this.trustManagers = trustManagers;
        this.keyManagers = keyManagers;
        this.verifyHostname = verifyHostname;
        this.keyStorePathTemplate = keyStorePathTemplate;
        this.keyStoreAliasTemplate = keyStoreAliasTemplate;
        this.keyStorePassword = keyStorePassword;
    }

    public static TlsSettings systemDefaults() {
        return new TlsSettings(null, null, true, null, null, "");
    }

    /**
     * @param trustStorePath empty for the JVM's default trust store
     * @param keyStorePath   empty for no client certificate
     */
    public static TlsSettings load(String trustStorePath, String trustStorePassword, String keyStorePath,
            String keyStorePassword, boolean verifyHostname) {
        return load(trustStorePath, trustStorePassword, keyStorePath, keyStorePassword, "", verifyHostname);
    }

    /**
     * @param keyStorePath  empty for no client certificate; placeholders give each client its own file
     * @param keyStoreAlias empty for the store's only key (or, with one file for every client, the key the JDK picks
     *                      for the broker's issuers); placeholders give each client its own entry
     */
    public static TlsSettings load(String trustStorePath, String trustStorePassword, String keyStorePath,
            String keyStorePassword, String keyStoreAlias, boolean verifyHostname) {
        String path = keyStorePath == null ? "" : keyStorePath.trim();
        String alias = keyStoreAlias == null ? "" : keyStoreAlias.trim();
        if (path.isEmpty() && !alias.isEmpty()) {
            throw new InvalidSettingException("keyStoreAlias", alias, "names a key, but keyStorePath is empty");
        }
        NameTemplate pathTemplate = NameTemplate.compile("keyStorePath", path, NameTemplate.CLIENT_PLACEHOLDERS);
        NameTemplate aliasTemplate = NameTemplate.compile("keyStoreAlias", alias, NameTemplate.CLIENT_PLACEHOLDERS);
        TrustManagerFactory tmf = trustManagers(trustStorePath, trustStorePassword);
        if (!pathTemplate.isConstant() || !aliasTemplate.isConstant()) {
            if (pathTemplate.isConstant()) {
                // One file for every client: a wrong path or password fails at the start, not at each connect.
                loadStore("keyStorePath", "keyStorePassword", path, keyStorePassword);
            }
            return new TlsSettings(tmf, null, verifyHostname, pathTemplate, aliasTemplate, keyStorePassword);
        }
        if (!alias.isEmpty()) {
            KeyStore keys = loadStore("keyStorePath", "keyStorePassword", path, keyStorePassword);
            return new TlsSettings(tmf, ClientKeyStores.keysFor(keys, path, keyStorePassword, alias, ""), verifyHostname,
                    null, null, keyStorePassword);
        }
        return new TlsSettings(tmf, keyManagers(path, keyStorePassword), verifyHostname, null, null, keyStorePassword);
    }

    private static TrustManagerFactory trustManagers(String trustStorePath, String trustStorePassword) {
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
        return tmf;
    }

    private static KeyManagerFactory keyManagers(String keyStorePath, String keyStorePassword) {
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
        return kmf;
    }

    static KeyStore loadStore(String pathField, String passwordField, String path, String password) {
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

    /** Null means no client certificate, or one per client ({@link #keysPerClient()}). */
    public KeyManagerFactory keyManagers() {
        return keyManagers;
    }

    /** Whether each client presents its own key: the key store's path or alias has placeholders. */
    public boolean keysPerClient() {
        return keyStorePathTemplate != null;
    }

    /**
     * One client's key material, from the path and alias expanded with {@code values}: a missing file or alias fails
     * naming the field, the expanded value and the client.
     */
    public KeyManagerFactory clientKeys(ClientKeyStores stores, NameTemplate.Values values, String clientId) {
        return stores.keysFor(keyStorePathTemplate.expand(values), keyStorePassword, keyStoreAliasTemplate.expand(values),
                clientId);
    }

    public boolean verifyHostname() {
        return verifyHostname;
    }
}
