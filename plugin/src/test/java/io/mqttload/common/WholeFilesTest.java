package io.mqttload.common;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class WholeFilesTest {
    @Test
    void write_replacesTheFileWhole_andLeavesNothingBeside(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("summary-r-e.json");
        Files.writeString(file, "{\"format\": 3, \"a much longer earlier content\": true}");

        WholeFiles.write(file, "{\"format\": 4}");

        assertThat(Files.readString(file)).isEqualTo("{\"format\": 4}");
        try (var files = Files.list(dir)) {
            assertThat(files).containsExactly(file);
        }
    }
}
