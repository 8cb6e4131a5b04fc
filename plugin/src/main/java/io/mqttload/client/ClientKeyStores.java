package io.mqttload.client;

import java.net.Socket;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.Principal;
import java.security.PrivateKey;
import java.security.UnrecoverableKeyException;
import java.security.cert.Certificate;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;

import javax.net.ssl.KeyManager;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.KeyManagerFactorySpi;
import javax.net.ssl.ManagerFactoryParameters;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.X509ExtendedKeyManager;

import io.mqttload.common.InvalidSettingException;

/**
 * The key stores of one run's per-client certificates ({@code keyStorePath} or {@code keyStoreAlias} with
 * placeholders): each distinct file is read once, however many clients take their key from it, and each client
 * gets a key manager that presents its one key and chain whatever the broker's list of acceptable issuers says
 * (a certificate the broker does not trust is then refused by the broker, as a device's would be). Safe for the
 * JMeter threads that connect at once.
 */
public final class ClientKeyStores {
    /** By path and password: the loaded store, or why it could not be loaded. */
    private final ConcurrentHashMap<String, Loaded> stores = new ConcurrentHashMap<>();

    private static final class Loaded {
        final KeyStore store;
        final InvalidSettingException failure;

        Loaded(KeyStore store, InvalidSettingException failure) {
            this.store = store;
            this.failure = failure;
        }
    }

    /** How many distinct key store files were read (each once). */
    public int filesLoaded() {
        return stores.size();
    }

    /**
     * The key material of one client. A failure names the field, its value as expanded for this client and the client.
     *
     * @param alias empty: the file's only key entry
     */
    KeyManagerFactory keysFor(String path, String password, String alias, String clientId) {
        Loaded loaded = stores.computeIfAbsent(path + '\0' + password, key -> load(path, password));
        if (loaded.failure != null) {
            throw new InvalidSettingException(loaded.failure.field(), loaded.failure.value(),
                    reasonOf(loaded.failure) + " (client " + clientId + ")", loaded.failure);
        }
        return keysFor(loaded.store, path, password, alias, clientId);
    }

    private static String reasonOf(InvalidSettingException e) {
        String prefix = e.field() + " = '" + e.value() + "': ";
        String message = e.getMessage();
        return message.startsWith(prefix) ? message.substring(prefix.length()) : message;
    }

    private static Loaded load(String path, String password) {
        try {
            return new Loaded(TlsSettings.loadStore("keyStorePath", "keyStorePassword", path, password), null);
        } catch (InvalidSettingException e) {
            return new Loaded(null, e);
        }
    }

    /** One client's key and chain from a loaded store; the store is read under its lock (KeyStore is not thread-safe). */
    static KeyManagerFactory keysFor(KeyStore store, String path, String password, String alias, String clientId) {
        PrivateKey key;
        X509Certificate[] chain;
        synchronized (store) {
            try {
                String entry = alias.isEmpty() ? onlyKeyEntry(store, path, clientId) : alias;
                if (!store.isKeyEntry(entry)) {
                    throw new InvalidSettingException("keyStoreAlias", alias, "no key entry of that name in " + path
                            + (clientId.isEmpty() ? "" : " (client " + clientId + ")"));
                }
                key = (PrivateKey) store.getKey(entry, chars(password));
                chain = x509(store.getCertificateChain(entry));
            } catch (UnrecoverableKeyException e) {
                throw new InvalidSettingException("keyStorePassword", "******", "cannot read the private key"
                        + (alias.isEmpty() ? "" : " '" + alias + "'") + " in " + path + " with this password", e);
            } catch (GeneralSecurityException | ClassCastException e) {
                throw new InvalidSettingException(alias.isEmpty() ? "keyStorePath" : "keyStoreAlias",
                        alias.isEmpty() ? path : alias, "unusable key entry: " + e.getMessage(), e);
            }
        }
        return factory(new OneKey(key, chain));
    }

    private static String onlyKeyEntry(KeyStore store, String path, String clientId) throws GeneralSecurityException {
        List<String> keys = new ArrayList<>();
        for (String a : Collections.list(store.aliases())) {
            if (store.isKeyEntry(a)) {
                keys.add(a);
            }
        }
        if (keys.size() != 1) {
            throw new InvalidSettingException("keyStorePath", path, "holds " + keys.size() + " keys; name the one to"
                    + " use with keyStoreAlias" + (clientId.isEmpty() ? "" : " (client " + clientId + ")"));
        }
        return keys.get(0);
    }

    private static X509Certificate[] x509(Certificate[] chain) {
        X509Certificate[] out = new X509Certificate[chain.length];
        for (int i = 0; i < chain.length; i++) {
            out[i] = (X509Certificate) chain[i];
        }
        return out;
    }

    private static char[] chars(String password) {
        return password == null ? new char[0] : password.toCharArray();
    }

    /** A key manager factory that hands out one ready key manager (the HiveMQ client takes factories only). */
    private static KeyManagerFactory factory(KeyManager manager) {
        return new KeyManagerFactory(new KeyManagerFactorySpi() {
            @Override
            protected void engineInit(KeyStore ks, char[] password) {
                // Made ready: nothing to initialise.
            }

            @Override
            protected void engineInit(ManagerFactoryParameters spec) {
                // Made ready: nothing to initialise.
            }

            @Override
            protected KeyManager[] engineGetKeyManagers() {
                return new KeyManager[] {manager};
            }
        }, null, "mqttload-one-key") {
        };
    }

    /** Presents one key and its chain when the handshake asks for a key of its type. */
    private static final class OneKey extends X509ExtendedKeyManager {
        private static final String ALIAS = "client";
        private final PrivateKey key;
        private final X509Certificate[] chain;

        OneKey(PrivateKey key, X509Certificate[] chain) {
            this.key = key;
            this.chain = chain;
        }

        private String aliasFor(String[] keyTypes) {
            String algorithm = key.getAlgorithm();
            for (String type : keyTypes) {
                // TLS 1.2 names some types by key and signature ("EC_EC"); TLS 1.3 by key ("EC", "RSA").
                if (type.equals(algorithm) || type.startsWith(algorithm + "_")) {
                    return ALIAS;
                }
            }
            return null;
        }

        @Override
        public String chooseEngineClientAlias(String[] keyType, Principal[] issuers, SSLEngine engine) {
            return aliasFor(keyType);
        }

        @Override
        public String chooseClientAlias(String[] keyType, Principal[] issuers, Socket socket) {
            return aliasFor(keyType);
        }

        @Override
        public String[] getClientAliases(String keyType, Principal[] issuers) {
            return aliasFor(new String[] {keyType}) == null ? null : new String[] {ALIAS};
        }

        @Override
        public String[] getServerAliases(String keyType, Principal[] issuers) {
            return null;
        }

        @Override
        public String chooseServerAlias(String keyType, Principal[] issuers, Socket socket) {
            return null;
        }

        @Override
        public X509Certificate[] getCertificateChain(String alias) {
            return ALIAS.equals(alias) ? chain.clone() : null;
        }

        @Override
        public PrivateKey getPrivateKey(String alias) {
            return ALIAS.equals(alias) ? key : null;
        }
    }
}
