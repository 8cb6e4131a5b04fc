package io.mqttload.testsupport;

import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.math.BigInteger;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.KeyStore;
import java.security.SecureRandom;
import java.security.cert.Certificate;
import java.security.cert.X509Certificate;
import java.security.spec.ECGenParameterSpec;
import java.time.Duration;
import java.time.Instant;
import java.util.Date;
import java.util.List;

import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.asn1.x509.BasicConstraints;
import org.bouncycastle.asn1.x509.ExtendedKeyUsage;
import org.bouncycastle.asn1.x509.Extension;
import org.bouncycastle.asn1.x509.GeneralName;
import org.bouncycastle.asn1.x509.GeneralNames;
import org.bouncycastle.asn1.x509.KeyPurposeId;
import org.bouncycastle.asn1.x509.KeyUsage;
import org.bouncycastle.cert.CertIOException;
import org.bouncycastle.cert.X509v3CertificateBuilder;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.cert.jcajce.JcaX509ExtensionUtils;
import org.bouncycastle.cert.jcajce.JcaX509v3CertificateBuilder;
import org.bouncycastle.operator.OperatorCreationException;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;

/**
 * A throw-away PKI for TLS tests: one CA, a server certificate valid for {@code localhost} and
 * {@code 127.0.0.1}, a server certificate valid only for {@code wrong.example} (to provoke a host-name
 * verification failure) and a client certificate for mutual TLS, all signed by the CA.
 *
 * <p>Clients read the PKCS12 files. HiveMQ CE 2025.5 hard-codes the key store type {@code JKS} for its
 * listeners' key store and trust store, so the server side and the broker's trust store are also written as
 * real JKS files.
 */
public final class TestCertificates {
    public static final String PASSWORD = "changeit";
    public static final String SERVER_HOST = "localhost";
    public static final String SERVER_IP = "127.0.0.1";
    public static final String WRONG_HOST = "wrong.example";
    public static final String KEY_ALIAS = "key";
    public static final String CA_ALIAS = "ca";

    // EC keys are generated in milliseconds, so each test class can afford its own PKI.
    private static final String KEY_ALGORITHM = "EC";
    private static final String CURVE = "secp256r1";
    private static final String SIGNATURE_ALGORITHM = "SHA256withECDSA";
    private static final Duration VALIDITY = Duration.ofDays(7);
    // Back-dated so a clock that is slightly behind on the other side of the handshake still accepts it.
    private static final Duration BACKDATE = Duration.ofHours(1);

    private final Path directory;
    private final X509Certificate caCertificate;
    private final KeyPair caKeys;

    private TestCertificates(Path directory, X509Certificate caCertificate, KeyPair caKeys) {
        this.directory = directory;
        this.caCertificate = caCertificate;
        this.caKeys = caKeys;
    }

    /** Generates the whole PKI and writes every key store into {@code directory} (created if missing). */
    public static TestCertificates generate(Path directory) {
        try {
            Files.createDirectories(directory);
            SecureRandom random = new SecureRandom();
            KeyPair caKeys = newKeyPair(random);
            X500Name caName = new X500Name("CN=mqttload test CA");
            X509Certificate ca = caCertificate(caName, caKeys, random);

            KeyPair serverKeys = newKeyPair(random);
            X509Certificate server = leafCertificate(caName, caKeys, ca, serverKeys, SERVER_HOST, random,
                    KeyPurposeId.id_kp_serverAuth,
                    new GeneralName(GeneralName.dNSName, SERVER_HOST),
                    new GeneralName(GeneralName.iPAddress, SERVER_IP));
            KeyPair wrongKeys = newKeyPair(random);
            X509Certificate wrong = leafCertificate(caName, caKeys, ca, wrongKeys, WRONG_HOST, random,
                    KeyPurposeId.id_kp_serverAuth,
                    new GeneralName(GeneralName.dNSName, WRONG_HOST));
            KeyPair clientKeys = newKeyPair(random);
            X509Certificate client = leafCertificate(caName, caKeys, ca, clientKeys, "mqttload-test-client", random,
                    KeyPurposeId.id_kp_clientAuth);

            for (String type : new String[] {"PKCS12", "JKS"}) {
                String extension = "PKCS12".equals(type) ? ".p12" : ".jks";
                writeKeyStore(directory.resolve("server" + extension), type, serverKeys, server, ca);
                writeKeyStore(directory.resolve("server-wrong-host" + extension), type, wrongKeys, wrong, ca);
                writeKeyStore(directory.resolve("client" + extension), type, clientKeys, client, ca);
                writeTrustStore(directory.resolve("truststore" + extension), type, ca);
            }
            return new TestCertificates(directory, ca, caKeys);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write test key stores into " + directory, e);
        } catch (GeneralSecurityException | OperatorCreationException e) {
            throw new IllegalStateException("cannot generate test certificates", e);
        }
    }

    public Path directory() {
        return directory;
    }

    public X509Certificate caCertificate() {
        return caCertificate;
    }

    /** PKCS12: server key and chain for {@code localhost} / {@code 127.0.0.1}. */
    public Path serverKeyStore() {
        return directory.resolve("server.p12");
    }

    /** PKCS12: server key and chain for {@code wrong.example} only. */
    public Path serverWrongHostKeyStore() {
        return directory.resolve("server-wrong-host.p12");
    }

    /** PKCS12: the CA certificate as a trusted entry. */
    public Path trustStore() {
        return directory.resolve("truststore.p12");
    }

    /** PKCS12: client key and chain for mutual TLS. */
    public Path clientKeyStore() {
        return directory.resolve("client.p12");
    }

    /** JKS twin of {@link #serverKeyStore()}, for HiveMQ's TLS listener. */
    public Path serverKeyStoreJks() {
        return directory.resolve("server.jks");
    }

    /** JKS twin of {@link #serverWrongHostKeyStore()}, for HiveMQ's TLS listener. */
    public Path serverWrongHostKeyStoreJks() {
        return directory.resolve("server-wrong-host.jks");
    }

    /** JKS twin of {@link #trustStore()}, for HiveMQ's client-certificate verification. */
    public Path trustStoreJks() {
        return directory.resolve("truststore.jks");
    }

    /** JKS twin of {@link #clientKeyStore()}. */
    public Path clientKeyStoreJks() {
        return directory.resolve("client.jks");
    }

    /**
     * PKCS12 files {@code <prefix>-0.p12} to {@code <prefix>-<count-1>.p12} in {@code into}, each with its own client
     * key and a certificate for {@code CN=<prefix>-<i>} signed by this CA (one device's certificate each).
     */
    public void writeClientKeyStores(Path into, String prefix, int count) {
        for (int i = 0; i < count; i++) {
            writeClientKeyStore(into.resolve(prefix + "-" + i + ".p12"), List.of(prefix + "-" + i), true);
        }
    }

    /**
     * One PKCS12 file with a key entry per alias, each a client key with a certificate for {@code CN=<alias>}, signed by
     * this CA when {@code trusted}, else by a CA of its own that no trust store of the tests holds.
     */
    public Path writeClientKeyStore(Path file, List<String> aliases, boolean trusted) {
        try {
            Files.createDirectories(file.toAbsolutePath().getParent());
            SecureRandom random = new SecureRandom();
            KeyPair signer = caKeys;
            X509Certificate signerCertificate = caCertificate;
            if (!trusted) {
                signer = newKeyPair(random);
                signerCertificate = caCertificate(new X500Name("CN=mqttload untrusted CA"), signer, random);
            }
            X500Name issuer = new X500Name(signerCertificate.getSubjectX500Principal().getName());
            KeyStore store = KeyStore.getInstance("PKCS12");
            store.load(null, null);
            for (String alias : aliases) {
                KeyPair keys = newKeyPair(random);
                X509Certificate leaf = leafCertificate(issuer, signer, signerCertificate, keys, alias, random,
                        KeyPurposeId.id_kp_clientAuth);
                store.setKeyEntry(alias, keys.getPrivate(), PASSWORD.toCharArray(),
                        new Certificate[] {leaf, signerCertificate});
            }
            save(store, file);
            return file;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + file, e);
        } catch (GeneralSecurityException | OperatorCreationException e) {
            throw new IllegalStateException("cannot generate client certificates", e);
        }
    }

    private static KeyPair newKeyPair(SecureRandom random) throws GeneralSecurityException {
        KeyPairGenerator generator = KeyPairGenerator.getInstance(KEY_ALGORITHM);
        generator.initialize(new ECGenParameterSpec(CURVE), random);
        return generator.generateKeyPair();
    }

    private static X509Certificate caCertificate(X500Name name, KeyPair keys, SecureRandom random)
            throws GeneralSecurityException, CertIOException, OperatorCreationException {
        JcaX509ExtensionUtils extensions = new JcaX509ExtensionUtils();
        X509v3CertificateBuilder builder = builder(name, name, keys, random)
                .addExtension(Extension.basicConstraints, true, new BasicConstraints(true))
                .addExtension(Extension.keyUsage, true, new KeyUsage(KeyUsage.keyCertSign | KeyUsage.cRLSign))
                .addExtension(Extension.subjectKeyIdentifier, false,
                        extensions.createSubjectKeyIdentifier(keys.getPublic()));
        return sign(builder, keys);
    }

    private static X509Certificate leafCertificate(X500Name caName, KeyPair caKeys, X509Certificate ca, KeyPair keys,
            String commonName, SecureRandom random, KeyPurposeId purpose, GeneralName... subjectAltNames)
            throws GeneralSecurityException, CertIOException, OperatorCreationException {
        JcaX509ExtensionUtils extensions = new JcaX509ExtensionUtils();
        X509v3CertificateBuilder builder = builder(caName, new X500Name("CN=" + commonName), keys, random)
                .addExtension(Extension.basicConstraints, true, new BasicConstraints(false))
                .addExtension(Extension.keyUsage, true, new KeyUsage(KeyUsage.digitalSignature))
                .addExtension(Extension.extendedKeyUsage, false, new ExtendedKeyUsage(purpose))
                .addExtension(Extension.subjectKeyIdentifier, false,
                        extensions.createSubjectKeyIdentifier(keys.getPublic()))
                .addExtension(Extension.authorityKeyIdentifier, false, extensions.createAuthorityKeyIdentifier(ca));
        if (subjectAltNames.length > 0) {
            builder.addExtension(Extension.subjectAlternativeName, false, new GeneralNames(subjectAltNames));
        }
        return sign(builder, caKeys);
    }

    private static X509v3CertificateBuilder builder(X500Name issuer, X500Name subject, KeyPair keys,
            SecureRandom random) {
        Instant now = Instant.now();
        return new JcaX509v3CertificateBuilder(issuer, new BigInteger(64, random).add(BigInteger.ONE),
                Date.from(now.minus(BACKDATE)), Date.from(now.plus(VALIDITY)), subject, keys.getPublic());
    }

    private static X509Certificate sign(X509v3CertificateBuilder builder, KeyPair signerKeys)
            throws GeneralSecurityException, OperatorCreationException {
        return new JcaX509CertificateConverter()
                .getCertificate(builder.build(new JcaContentSignerBuilder(SIGNATURE_ALGORITHM).build(signerKeys.getPrivate())));
    }

    private static void writeKeyStore(Path file, String type, KeyPair keys, X509Certificate leaf, X509Certificate ca)
            throws GeneralSecurityException, IOException {
        KeyStore store = KeyStore.getInstance(type);
        store.load(null, null);
        store.setKeyEntry(KEY_ALIAS, keys.getPrivate(), PASSWORD.toCharArray(), new Certificate[] {leaf, ca});
        save(store, file);
    }

    private static void writeTrustStore(Path file, String type, X509Certificate ca)
            throws GeneralSecurityException, IOException {
        KeyStore store = KeyStore.getInstance(type);
        store.load(null, null);
        store.setCertificateEntry(CA_ALIAS, ca);
        save(store, file);
    }

    private static void save(KeyStore store, Path file) throws GeneralSecurityException, IOException {
        try (OutputStream out = Files.newOutputStream(file)) {
            store.store(out, PASSWORD.toCharArray());
        }
    }
}
