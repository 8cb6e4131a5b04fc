package io.mqttload.convert;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import io.mqttload.common.PluginVersion;

/**
 * What became of each XMeter element and each of its options, written as {@code <output>.conversion.md} and, for the
 * items that could not be converted, one console line each. Nothing of the input is left out of it: a property is
 * mapped, approximated (with what differs), of no effect (with why), or not converted.
 */
final class ConversionReport {
    /** How one XMeter option was carried over. */
    enum Status {
        MAPPED("mapped"),
        APPROXIMATED("approximated"),
        NO_EFFECT("no effect"),
        NOT_CONVERTED("not converted");

        final String text;

        Status(String text) {
            this.text = text;
        }
    }

    /** One property of an XMeter element: its value in the input and what it became. */
    static final class Option {
        final String property;
        final String value;
        final Status status;
        final String mapping;

        Option(String property, String value, Status status, String mapping) {
            this.property = property;
            this.value = value;
            this.status = status;
            this.mapping = mapping;
        }
    }

    /** One XMeter element: where it was, what it became, and its options. */
    static final class ElementRecord {
        final String path;
        final String className;
        final String testname;
        String became = "";
        /** Set when the element as a whole could not be converted: why. */
        String notConverted;
        final List<Option> options = new ArrayList<>();
        final List<String> notes = new ArrayList<>();

        ElementRecord(String path, String className, String testname) {
            this.path = path;
            this.className = className;
            this.testname = testname;
        }

        /** Records an option; a secret's value (by the property's name: a password, ...) is kept masked. */
        void option(String property, String value, Status status, String mapping) {
            options.add(new Option(property, Values.shownValue(property, value), status, mapping));
        }

        void mapped(String property, String value, String mapping) {
            option(property, value, Status.MAPPED, mapping);
        }

        void approximated(String property, String value, String mapping) {
            option(property, value, Status.APPROXIMATED, mapping);
        }

        void noEffect(String property, String value, String why) {
            option(property, value, Status.NO_EFFECT, why);
        }

        void notConverted(String property, String value, String why) {
            option(property, value, Status.NOT_CONVERTED, why);
        }

        String where() {
            return path + " > " + testname + " [" + className + "]";
        }
    }

    final Path input;
    final Path output;
    final Path reportFile;
    final List<ElementRecord> elements = new ArrayList<>();
    /** Elements the converter added that the input did not ask for, and why. */
    final List<String> added = new ArrayList<>();
    /** Files written besides the plan and this report. */
    final List<String> files = new ArrayList<>();

    ConversionReport(Path input, Path output, Path reportFile) {
        this.input = input;
        this.output = output;
        this.reportFile = reportFile;
    }

    ElementRecord element(XmeterElement x) {
        ElementRecord r = new ElementRecord(x.path, x.className, x.testname);
        elements.add(r);
        return r;
    }

    long count(Status status) {
        return elements.stream().flatMap(e -> e.options.stream()).filter(o -> o.status == status).count();
    }

    long elementsNotConverted() {
        return elements.stream().filter(e -> e.notConverted != null).count();
    }

    /** 0 when everything has a mapping (approximations included), 2 when something could not be converted. */
    int exitCode() {
        return notConvertedLines().isEmpty() ? 0 : 2;
    }

    /** One line per element or option that could not be converted. */
    List<String> notConvertedLines() {
        List<String> lines = new ArrayList<>();
        for (ElementRecord e : elements) {
            if (e.notConverted != null) {
                lines.add("not converted: " + e.where() + ": " + e.notConverted);
                continue;
            }
            for (Option o : e.options) {
                if (o.status == Status.NOT_CONVERTED) {
                    lines.add("not converted: " + e.where() + ": " + o.property + " = " + Values.shown(o.value) + ": "
                            + o.mapping);
                }
            }
        }
        return lines;
    }

    String summary() {
        long whole = elementsNotConverted();
        long options = count(Status.NOT_CONVERTED) - elements.stream().filter(e -> e.notConverted != null)
                .mapToLong(e -> e.options.stream().filter(o -> o.status == Status.NOT_CONVERTED).count()).sum();
        return String.format(Locale.ROOT, "%d XMeter element(s): %d converted, %d not converted; %d option(s) "
                + "approximated, %d option(s) not converted", elements.size(), elements.size() - whole, whole,
                count(Status.APPROXIMATED), options);
    }

    String markdown() {
        StringBuilder md = new StringBuilder(4096);
        md.append("# XMeter plan conversion\n\n");
        md.append("| | |\n| --- | --- |\n");
        row(md, "input", code(input.toString()));
        row(md, "output", code(output.toString()));
        row(md, "converter", PluginVersion.text() + ", `io.mqttload.convert.XmeterConverter`");
        row(md, "result", summary());
        md.append("\nThe mapping and its reasons: docs/xmeter-migration.md.\n");

        md.append("\n## Not converted\n\n");
        List<String> lines = notConvertedLines();
        if (lines.isEmpty()) {
            md.append("Nothing: every XMeter element and option has a mapping.\n");
        }
        for (ElementRecord e : elements) {
            if (e.notConverted != null) {
                md.append("- ").append(heading(e)).append(": ").append(cell(e.notConverted)).append('\n');
                continue;
            }
            for (Option o : e.options) {
                if (o.status == Status.NOT_CONVERTED) {
                    md.append("- ").append(heading(e)).append(": ").append(code(o.property)).append(" = ")
                            .append(code(Values.shown(o.value))).append(": ").append(cell(o.mapping)).append('\n');
                }
            }
        }

        md.append("\n## Approximations\n\n");
        if (count(Status.APPROXIMATED) == 0) {
            md.append("None.\n");
        }
        for (ElementRecord e : elements) {
            for (Option o : e.options) {
                if (o.status == Status.APPROXIMATED) {
                    md.append("- ").append(heading(e)).append(": ").append(code(o.property)).append(" = ")
                            .append(code(Values.shown(o.value))).append(": ").append(cell(o.mapping)).append('\n');
                }
            }
        }

        if (!added.isEmpty()) {
            md.append("\n## Added by the converter\n\n");
            added.forEach(a -> md.append("- ").append(a).append('\n'));
        }
        if (!files.isEmpty()) {
            md.append("\n## Files written besides the plan\n\n");
            files.forEach(f -> md.append("- ").append(f).append('\n'));
        }

        md.append("\n## Elements\n");
        int n = 0;
        for (ElementRecord e : elements) {
            n++;
            md.append("\n### ").append(n).append(". ").append(code(e.testname)).append(" (")
                    .append(code(e.className)).append(")\n\n");
            md.append("Where: ").append(cell(e.path)).append("  \n");
            md.append("Became: ").append(e.notConverted != null ? "**not converted**: " + cell(e.notConverted)
                    : cell(e.became)).append('\n');
            for (String note : e.notes) {
                md.append("\n").append(note).append('\n');
            }
            if (!e.options.isEmpty()) {
                md.append("\n| XMeter property | value | | in the converted plan |\n| --- | --- | --- | --- |\n");
                for (Option o : e.options) {
                    md.append("| ").append(code(o.property)).append(" | ").append(code(Values.shown(o.value)))
                            .append(" | ").append(o.status.text).append(" | ").append(cell(o.mapping)).append(" |\n");
                }
            }
        }
        return md.toString();
    }

    private static String heading(ElementRecord e) {
        return code(e.testname) + " (" + code(e.className) + ", " + cell(e.path) + ")";
    }

    private static void row(StringBuilder md, String name, String value) {
        md.append("| ").append(name).append(" | ").append(value).append(" |\n");
    }

    /** Text in a table cell or a list item: one line, no column break. */
    static String cell(String text) {
        return text.replace("\r", "").replace("\n", " ").replace("|", "\\|");
    }

    /** A value as code, even when it holds backticks or a column break. */
    static String code(String text) {
        String t = cell(text);
        if (t.isEmpty()) {
            return "` `";
        }
        return t.indexOf('`') >= 0 ? "`` " + t + " ``" : "`" + t + "`";
    }
}
