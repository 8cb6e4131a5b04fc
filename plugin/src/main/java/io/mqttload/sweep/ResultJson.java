package io.mqttload.sweep;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.util.DefaultPrettyPrinter;
import com.fasterxml.jackson.core.util.Separators;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectWriter;
import com.fasterxml.jackson.databind.json.JsonMapper;

/**
 * The one JSON mapping of what a sweep and a capacity search leave: {@code sweep.json} ({@link SweepFile}) and
 * {@code capacity.json} ({@link CapacityFile}), written and read by the same classes, as {@code SummaryJson} does for
 * the run's figures, with a format version a reader checks so that saved results compared or searched again later are
 * never read with another meaning.
 */
final class ResultJson {
    /**
     * {@code sweep.json}'s: raised whenever a field changes meaning or goes; new fields a reader ignores need no new
     * version. {@code capacity.json} has its own, {@link CapacityFile#FORMAT_VERSION}.
     */
    static final int FORMAT_VERSION = 1;

    /**
     * Absent figures are left out rather than written as null, as the files always did; unknown fields are ignored so
     * that a later plugin may add some without a new version.
     */
    private static final ObjectMapper MAPPER = JsonMapper.builder()
            .serializationInclusion(JsonInclude.Include.NON_NULL)
            .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
            .build();
    /** Indented, {@code "name": value}, as the run report is. */
    private static final ObjectWriter WRITER = MAPPER.writer(new DefaultPrettyPrinter().withSeparators(
            Separators.createDefaultInstance().withObjectFieldValueSpacing(Separators.Spacing.AFTER)));

    private ResultJson() {
    }

    static String write(Object file) {
        try {
            return WRITER.writeValueAsString(file) + "\n";
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("the results could not be written as JSON: " + e.getOriginalMessage(), e);
        }
    }

    static SweepFile readSweep(Path file) throws IOException {
        return read(file, SweepFile.class, "a sweep's results", FORMAT_VERSION, FORMAT_VERSION);
    }

    static CapacityFile readCapacity(Path file) throws IOException {
        return read(file, CapacityFile.class, "a capacity search's results", CapacityFile.OLDEST_FORMAT_VERSION,
                CapacityFile.FORMAT_VERSION);
    }

    /**
     * Reads {@code file} of a format from {@code oldest} to {@code newest}; anything else fails naming the file and why.
     * The older formats read are those whose fields mean what they did, a few absent.
     */
    static <T> T read(Path file, Class<T> type, String what, int oldest, int newest) throws IOException {
        String json = Files.readString(file, StandardCharsets.UTF_8);
        JsonNode tree;
        try {
            tree = MAPPER.readTree(json);
        } catch (JsonProcessingException e) {
            throw new IOException(file + ": not " + what + " (JSON): " + e.getOriginalMessage(), e);
        }
        if (tree == null || !tree.isObject()) {
            throw new IOException(file + ": not " + what + ": a JSON object was expected");
        }
        // Files written before the version was declared have the fields of format 1 exactly.
        JsonNode version = tree.path("formatVersion");
        if (!version.isMissingNode() && (!version.canConvertToExactIntegral() || version.asInt() < oldest
                || version.asInt() > newest)) {
            throw new IOException(file + ": " + what + " of formatVersion " + version + ", and this plugin reads"
                    + " formatVersion " + (oldest == newest ? Integer.toString(newest) : oldest + " to " + newest)
                    + ": read it with the plugin version that wrote it");
        }
        try {
            return MAPPER.treeToValue(tree, type);
        } catch (JsonProcessingException | IllegalArgumentException e) {
            throw new IOException(file + ": not " + what + ": " + e.getMessage(), e);
        }
    }

    /** The wait for the broker to be quiet before a step ({@link BrokerSettle.Result}), as its {@code brokerSettle}. */
    static final class Settle {
        public boolean settled;
        /** Rounded to tenths, as people read them. */
        public double seconds;
        public double lastCpuPercent;

        static Settle of(BrokerSettle.Result r) {
            if (r == null) {
                return null;
            }
            Settle s = new Settle();
            s.settled = r.settled;
            s.seconds = Math.round(r.seconds * 10) / 10.0;
            s.lastCpuPercent = Math.round(r.lastPercent * 10) / 10.0;
            return s;
        }
    }

    /** The monitored brokers over a step, their nodes added up; a search's file leaves the memory out. */
    static final class Broker {
        public double cpuAvg;
        public double cpuMax;
        public Long rssAvg;
        public Long rssMax;

        static Broker of(StepResult.BrokerUse use, boolean withMemory) {
            if (use == null) {
                return null;
            }
            Broker b = new Broker();
            b.cpuAvg = use.cpuAvg;
            b.cpuMax = use.cpuMax;
            if (withMemory) {
                b.rssAvg = use.rssAvg;
                b.rssMax = use.rssMax;
            }
            return b;
        }
    }
}
