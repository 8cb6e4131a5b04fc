package io.mqttload.sweep;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * JMeter starts with the build's start-up archive only on the JVM build that made it, and a launcher that goes without
 * it says why: the JVM alone would fall back quietly on an archive of another build.
 */
class StartupArchiveTest {
    private static final String JVM = "17.0.15+6-Debian-1deb12u1";

    @Test
    void theArchiveOfThisJvm_isUsed(@TempDir Path bin) throws Exception {
        Path jar = home(bin, System.getProperty("java.vm.version") + "\n");

        assertThat(StartupArchive.problem(jar)).isEmpty();
        assertThat(StartupArchive.jvmArgs(jar))
                .containsExactly("-XX:SharedArchiveFile=" + bin.resolve("mqtt-load.jsa").toAbsolutePath());
    }

    @Test
    void anArchiveOfAnotherJvm_isLeftOut_namingBothBuilds(@TempDir Path bin) throws Exception {
        Path jar = home(bin, "21.0.5+11-LTS\n");

        assertThat(StartupArchive.problem(jar, JVM)).isEqualTo("start-up archive " + bin.resolve("mqtt-load.jsa")
                + " was made by JVM 21.0.5+11-LTS, this is " + JVM + " (build again to make one for it)");
    }

    @Test
    void aHomeWithoutArchive_saysSo_andStartsWithoutIt(@TempDir Path bin) throws Exception {
        Path jar = Files.createFile(bin.resolve("ApacheJMeter.jar"));

        assertThat(StartupArchive.problem(jar, JVM)).startsWith("no start-up archive " + bin.resolve("mqtt-load.jsa"));
        assertThat(StartupArchive.jvmArgs(jar)).isEmpty();
    }

    @Test
    void anArchiveWithoutItsJvmRecord_isLeftOut(@TempDir Path bin) throws Exception {
        Path jar = Files.createFile(bin.resolve("ApacheJMeter.jar"));
        Files.writeString(bin.resolve("mqtt-load.jsa"), "archive");

        assertThat(StartupArchive.problem(jar, JVM)).startsWith("no start-up archive");
    }

    private static Path home(Path bin, String madeBy) throws Exception {
        Files.writeString(bin.resolve("mqtt-load.jsa"), "archive");
        Files.writeString(bin.resolve("mqtt-load.jsa.jdk"), madeBy);
        return Files.createFile(bin.resolve("ApacheJMeter.jar"));
    }
}
