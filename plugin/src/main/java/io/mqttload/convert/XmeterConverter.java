package io.mqttload.convert;

import java.io.IOException;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.concurrent.Callable;

import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import io.mqttload.common.PluginVersion;

/**
 * The converter's command line: {@code java -cp mqtt-load-jmeter-<version>.jar io.mqttload.convert.XmeterConverter
 * PLAN.jmx [-o OUT.jmx]}. Prints one line per item that could not be converted and a summary; needs only the plugin
 * jar (picocli is shaded into it).
 */
@Command(name = "xmeter-convert.sh", mixinStandardHelpOptions = true, versionProvider = PluginVersion.class,
        sortOptions = false, usageHelpAutoWidth = true,
        description = "Converts a JMeter plan written with XMeter's MQTT samplers (emqx/mqtt-jmeter: Connect, Pub, Sub,"
                + " DisConnect, Efficient*) into one on this suite's elements, and writes next to it a report of what"
                + " became of every element and option (OUT.conversion.md). docs/xmeter-migration.md explains the mapping.",
        footer = {"", "Exit code: 0 converted (the report may list approximations), 1 bad input or arguments (nothing"
                + " written), 2 converted, but something could not be converted (listed, and in the report)."})
public final class XmeterConverter implements Callable<Integer> {
    private static final String NAME = "xmeter-convert";

    @Parameters(index = "0", paramLabel = "PLAN.jmx", description = "the XMeter plan to convert")
    String input;

    @Option(names = {"-o", "--output"}, paramLabel = "OUT.jmx",
            description = "the converted plan (default, or when empty: PLAN.mqttload.jmx next to the input)")
    String output;

    private PrintStream out = System.out;
    private PrintStream err = System.err;

    public static void main(String[] args) {
        System.exit(run(args, System.out, System.err));
    }

    /** Runs the command; returns its exit code. */
    static int run(String[] args, PrintStream out, PrintStream err) {
        XmeterConverter command = new XmeterConverter();
        command.out = out;
        command.err = err;
        CommandLine line = new CommandLine(command);
        line.setOut(new PrintWriter(out, true, StandardCharsets.UTF_8));
        line.setErr(new PrintWriter(err, true, StandardCharsets.UTF_8));
        line.setParameterExceptionHandler((e, a) -> {
            err.println(NAME + ": " + e.getMessage());
            err.println(NAME + ": --help lists the options");
            return 1;
        });
        // Never a stack trace: whatever went wrong is named in one line.
        line.setExecutionExceptionHandler((e, l, p) -> {
            err.println(NAME + ": " + command.input + ": " + e);
            return 1;
        });
        return line.execute(args);
    }

    @Override
    public Integer call() {
        Path in;
        Path to;
        if (input.isBlank()) {
            // The Maven profile passes an empty name when -Dxmeter.plan is missing.
            err.println(NAME + ": no plan given: name the XMeter .jmx to convert (Maven: -Dxmeter.plan=...)");
            return 1;
        }
        try {
            in = Path.of(input);
            to = output == null || output.isBlank() ? PlanConversion.defaultOutput(in) : Path.of(output);
        } catch (InvalidPathException e) {
            err.println(NAME + ": not a file name: " + e.getMessage());
            return 1;
        }
        ConversionReport report;
        try {
            report = PlanConversion.convert(in, to);
        } catch (InvalidPlanException e) {
            err.println(NAME + ": " + e.getMessage());
            return 1;
        } catch (IOException | UncheckedIOException e) {
            err.println(NAME + ": cannot write the converted plan " + to + ": " + e.getMessage());
            return 1;
        }
        for (String line : report.notConvertedLines()) {
            out.println(NAME + ": " + line);
        }
        out.println(NAME + ": " + in + " -> " + report.output + ": " + report.summary());
        out.println(NAME + ": report " + report.reportFile);
        return report.exitCode();
    }
}
