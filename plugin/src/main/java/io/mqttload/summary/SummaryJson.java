package io.mqttload.summary;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.util.DefaultPrettyPrinter;
import com.fasterxml.jackson.core.util.Separators;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectWriter;
import com.fasterxml.jackson.databind.json.JsonMapper;

/**
 * The one JSON mapping of the figures that leave a JVM: an engine's {@link EngineSummary} (to the controller, to
 * files) and the run's {@link ReportFigures} (to files, to the sweep). Written and read by the same classes, with a
 * format version so that an engine and a controller on different plugin versions fail with a clear message
 * instead of merging figures they read differently.
 */
public final class SummaryJson {
    /** Raised whenever a field changes meaning or goes; new fields a reader ignores need no new version. */
    public static final int FORMAT_VERSION = 7;
    /**
     * The format before two figures changed meaning together (both in 7, one landing): the window's counts
     * ({@code receivedInWindow}, {@code acknowledgedInWindow} and the rates from them) ran to the run end's start, so
     * they held what the plan's own MQTT Disconnect samples drained from their subscribers, and {@code receivedInDrain}
     * only what arrived after; and a run report's headline pub-to-sub ({@code latencyMicros.pubToSub}) of a run whose
     * messages crossed engines' clocks was the engines' histograms added up, each latency below 0 recorded as 0, not
     * the pairs' measured latencies ({@link MergedReport#pubToSubHeadline}). Still read, its figures as they were
     * written.
     */
    public static final int FORMAT_WITH_DISCONNECT_DRAIN_IN_WINDOW = 6;
    /**
     * The format before the ledger carried when things happened (send times per stream, subscription windows per
     * receiver): still read; its ledger owes every acknowledged message to every matching receiver, as it did.
     */
    public static final int FORMAT_WITHOUT_TIMES = 5;
    /**
     * The format before the rates counted their window alone: its {@code receiveRate} counted the messages that arrived
     * during the drain as if they had arrived in the window, and its {@code publishRate} the acknowledgements then.
     * Still read; {@link Rates} reads its window counts instead of those two fields.
     */
    public static final int FORMAT_WITH_DRAIN_IN_RATES = 4;
    /**
     * The format before the compact ledger ({@link LedgerJson}): still read, and a summary read in it is written back in
     * it, so rewriting an old summary does not change what an older plugin can read of it.
     */
    public static final int FORMAT_WITH_LEDGER_LISTS = 3;

    private static final ObjectMapper MAPPER = JsonMapper.builder()
            .serializationInclusion(JsonInclude.Include.NON_NULL)
            .addModule(LedgerJson.module())
            .build();
    private static final ObjectMapper MAPPER_WITH_LEDGER_LISTS = JsonMapper.builder()
            .serializationInclusion(JsonInclude.Include.NON_NULL)
            .build();
    /** Indented, {@code "name": value} as people and most tools write JSON. */
    private static final ObjectWriter WRITER = MAPPER.writer(new DefaultPrettyPrinter().withSeparators(
            Separators.createDefaultInstance().withObjectFieldValueSpacing(Separators.Spacing.AFTER)));

    private SummaryJson() {
    }

    /**
     * Without indentation: at format 3 an engine's ledger held a line per publish stream (160,000 of them for 16,000
     * devices publishing on 10 topics each), and indenting them made the 48,000-publisher run's summaries 25 MB each
     * instead of 15; people read the summary's table, tools the JSON.
     */
    public static String write(EngineSummary figures) {
        return write(mapperFor(figures.formatVersion).writer(), figures);
    }

    /** Indented, for people opening {@code report-<run>.json}. */
    public static String write(ReportFigures figures) {
        return write(WRITER, figures);
    }

    private static String write(ObjectWriter writer, Object figures) {
        try {
            return writer.writeValueAsString(figures) + "\n";
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("the figures could not be written as JSON: " + e.getOriginalMessage(), e);
        }
    }

    private static ObjectMapper mapperFor(int formatVersion) {
        return formatVersion == FORMAT_WITH_LEDGER_LISTS ? MAPPER_WITH_LEDGER_LISTS : MAPPER;
    }

    public static EngineSummary readEngineSummary(String json) {
        return read(json, EngineSummary.class, "an MQTT engine summary");
    }

    public static ReportFigures readReport(String json) {
        return read(json, ReportFigures.class, "an MQTT run report");
    }

    private static <T> T read(String json, Class<T> type, String what) {
        JsonNode tree;
        try {
            tree = MAPPER.readTree(json);
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException("not " + what + " (JSON): " + e.getOriginalMessage(), e);
        }
        int version = tree.path("formatVersion").asInt(1);
        if (version != FORMAT_VERSION && version != FORMAT_WITH_DISCONNECT_DRAIN_IN_WINDOW
                && version != FORMAT_WITHOUT_TIMES && version != FORMAT_WITH_DRAIN_IN_RATES
                && version != FORMAT_WITH_LEDGER_LISTS) {
            throw new IllegalArgumentException(what + " of format " + version + " (engine " + tree.path("engineId")
                    .asText("?") + "), and this plugin reads format " + FORMAT_VERSION + " (and the earlier "
                    + FORMAT_WITH_DISCONNECT_DRAIN_IN_WINDOW + ", " + FORMAT_WITHOUT_TIMES + ", "
                    + FORMAT_WITH_DRAIN_IN_RATES + " and " + FORMAT_WITH_LEDGER_LISTS
                    + "): run the same plugin version"
                    + " on every engine and on the controller");
        }
        try {
            return mapperFor(version).treeToValue(tree, type);
        } catch (JsonProcessingException | IllegalArgumentException e) {
            throw new IllegalArgumentException("not " + what + ": " + e.getMessage(), e);
        }
    }
}
