package io.mqttload.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TreeSet;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;

/**
 * The plugin jar, as it is published, carries the project's LICENSE and NOTICE, and the NOTICE names every library the
 * jar bundles with the version bundled: a library added to the shaded jar fails this test until NOTICE says so.
 */
class ShadedJarLicenseIT {
    private static final String SHADED = "io/mqttload/shaded/";
    /** The package root each bundled library is relocated to, and its name in NOTICE. */
    private static final Map<String, String> LIBRARIES = Map.of(
            "com/hivemq/client", "HiveMQ MQTT Client",
            "io/netty", "Netty",
            "io/reactivex", "RxJava",
            "org/reactivestreams", "Reactive Streams",
            "org/jctools", "JCTools",
            "dagger", "Dagger",
            "javax/inject", "javax.inject",
            "org/HdrHistogram", "HdrHistogram",
            "picocli", "picocli",
            "io/prometheus", "Prometheus Java client");

    private static Path basedir() {
        return Path.of(System.getProperty("project.basedir", "."));
    }

    private static JarFile jar() throws IOException {
        return new JarFile(System.getProperty("plugin.jar"));
    }

    @Test
    void theJarCarriesTheProjectsLicenseAndNotice() throws IOException {
        try (JarFile jar = jar()) {
            assertThat(read(jar, "META-INF/LICENSE")).isEqualTo(Files.readString(basedir().resolve("../LICENSE")));
            assertThat(read(jar, "META-INF/NOTICE")).isEqualTo(Files.readString(basedir().resolve("../NOTICE")));
            assertThat(jar.stream().map(JarEntry::getName).filter(n -> n.matches("(META-INF/)?(LICENSE|NOTICE).*")))
                    .as("no bundled library's own LICENSE or NOTICE beside ours").containsExactlyInAnyOrder(
                            "META-INF/LICENSE", "META-INF/NOTICE");
        }
    }

    @Test
    void noticeNamesEveryBundledLibrary_withTheVersionBundled() throws IOException {
        String notice = Files.readString(basedir().resolve("../NOTICE"), StandardCharsets.UTF_8);
        Set<String> roots = new TreeSet<>();
        try (JarFile jar = jar()) {
            jar.stream().map(JarEntry::getName).filter(n -> n.startsWith(SHADED) && n.endsWith(".class"))
                    .forEach(n -> roots.add(LIBRARIES.keySet().stream().filter(r -> n.startsWith(SHADED + r + "/"))
                            .findFirst().orElse(n.substring(SHADED.length(), n.lastIndexOf('/')))));
            assertThat(roots).as("the libraries the jar bundles (a new one needs its line in NOTICE)")
                    .containsExactlyInAnyOrderElementsOf(LIBRARIES.keySet());
            for (String name : LIBRARIES.values()) {
                assertThat(notice).as(name).containsPattern("(?m)^  " + Pattern.quote(name) + " ");
            }
            Properties netty = new Properties();
            try (InputStream in = jar.getInputStream(jar.getEntry("META-INF/io.netty.versions.properties"))) {
                netty.load(in);
            }
            // Each Netty module ships this file; the jar keeps one of them, and every module has the one version.
            String nettyVersion = netty.stringPropertyNames().stream().filter(k -> k.matches("netty-[\\w-]+\\.version"))
                    .map(netty::getProperty).findFirst().orElseThrow();
            assertThat(notice).contains("Netty " + nettyVersion + " ");
            assertThat(notice).contains("Dagger " + read(jar, "META-INF/com.google.dagger_dagger.version").trim() + " ");
        }
        String pom = Files.readString(basedir().resolve("../pom.xml"), StandardCharsets.UTF_8);
        assertThat(notice).contains("HiveMQ MQTT Client " + property(pom, "hivemq-client.version") + " ")
                .contains("HdrHistogram " + property(pom, "hdrhistogram.version") + " ")
                .contains("picocli " + property(pom, "picocli.version") + " ")
                .contains("Prometheus Java client " + property(pom, "prometheus-client.version") + " ");
    }

    private static String property(String pom, String name) {
        Matcher m = Pattern.compile("<" + Pattern.quote(name) + ">([^<]+)</").matcher(pom);
        assertThat(m.find()).as(name + " in pom.xml").isTrue();
        return m.group(1);
    }

    private static String read(JarFile jar, String entry) throws IOException {
        JarEntry e = jar.getJarEntry(entry);
        assertThat(e).as(entry + " in the jar").isNotNull();
        try (InputStream in = jar.getInputStream(e)) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }
}
