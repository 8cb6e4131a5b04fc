package io.mqttload.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.security.cert.X509Certificate;
import java.util.List;

import javax.net.ssl.X509KeyManager;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.mqttload.common.InvalidSettingException;
import io.mqttload.testsupport.TestCertificates;

class ClientKeyStoresTest {
    @TempDir
    Path dir;

    private static String subject(javax.net.ssl.KeyManagerFactory keys) {
        X509KeyManager manager = (X509KeyManager) keys.getKeyManagers()[0];
        String alias = manager.chooseClientAlias(new String[] {"EC"}, null, null);
        X509Certificate[] chain = manager.getCertificateChain(alias);
        return chain[0].getSubjectX500Principal().getName();
    }

    @Test
    void keysFor_manyAliasesOfOneFile_readTheFileOnce() throws Exception {
        TestCertificates certs = TestCertificates.generate(dir.resolve("certs"));
        Path shared = certs.writeClientKeyStore(dir.resolve("shared.p12"), List.of("a", "b", "c"), true);
        ClientKeyStores stores = new ClientKeyStores();

        assertThat(subject(stores.keysFor(shared.toString(), TestCertificates.PASSWORD, "a", "c-a"))).isEqualTo("CN=a");
        // Gone from the disk: the next clients' keys still come from the store read for the first.
        Files.delete(shared);
        assertThat(subject(stores.keysFor(shared.toString(), TestCertificates.PASSWORD, "b", "c-b"))).isEqualTo("CN=b");
        assertThat(subject(stores.keysFor(shared.toString(), TestCertificates.PASSWORD, "c", "c-c"))).isEqualTo("CN=c");
        assertThat(stores.filesLoaded()).isEqualTo(1);
    }

    @Test
    void keysFor_aKeyOfAnotherType_isNotOffered() throws Exception {
        TestCertificates certs = TestCertificates.generate(dir.resolve("certs"));
        ClientKeyStores stores = new ClientKeyStores();
        X509KeyManager manager = (X509KeyManager) stores.keysFor(certs.clientKeyStore().toString(),
                TestCertificates.PASSWORD, "", "c").getKeyManagers()[0];
        // The test keys are EC: a handshake that can only take RSA gets no certificate rather than a wrong one.
        assertThat(manager.chooseClientAlias(new String[] {"RSA"}, null, null)).isNull();
        assertThat(manager.chooseClientAlias(new String[] {"RSA", "EC"}, null, null)).isNotNull();
    }

    @Test
    void keysFor_missingFileOrAlias_namesTheFieldTheExpandedValueAndTheClient() {
        TestCertificates certs = TestCertificates.generate(dir.resolve("certs"));
        ClientKeyStores stores = new ClientKeyStores();
        String missing = dir.resolve("device-7.p12").toString();
        assertThatThrownBy(() -> stores.keysFor(missing, TestCertificates.PASSWORD, "", "e-1-7"))
                .isInstanceOf(InvalidSettingException.class)
                .hasMessage("keyStorePath = '" + missing + "': file does not exist or is not readable (client e-1-7)");
        assertThatThrownBy(() -> stores.keysFor(certs.clientKeyStore().toString(), TestCertificates.PASSWORD,
                "device-7", "e-1-7"))
                .isInstanceOf(InvalidSettingException.class)
                .hasMessage("keyStoreAlias = 'device-7': no key entry of that name in " + certs.clientKeyStore()
                        + " (client e-1-7)");
    }
}
