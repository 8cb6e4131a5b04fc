package io.mqttload.common;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;

/**
 * Result files written whole: beside the file first, then renamed into place, so that a reader watching the folder
 * (merge.sh, a CI script, a controller waiting for its engines' summaries) sees no file or all of it, never one half
 * written (seen under load: a summary read as "format 1", its format field not yet written).
 */
public final class WholeFiles {
    private WholeFiles() {
    }

    /** Writes {@code content} as UTF-8 to {@code file}, replacing it, in one rename. */
    public static void write(Path file, String content) throws IOException {
        Path partial = file.resolveSibling(file.getFileName() + ".partial");
        Files.write(partial, content.getBytes(StandardCharsets.UTF_8));
        Files.move(partial, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    }
}
