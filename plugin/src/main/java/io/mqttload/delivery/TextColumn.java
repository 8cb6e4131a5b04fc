package io.mqttload.delivery;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Texts of one kind (topics, client ids, scope keys, filters) as templates with numbers in them, each number written
 * as its difference to the same number in the last text of that template. Topics and client ids come from the plan's
 * name templates ({@code plant/{thread}/temp/{topic}}), so a stream's topic usually costs a byte for the template and
 * a byte per number, whatever its length. An encoder and its decoder each keep a column's state; every text survives
 * the trip exactly, leading zeros, long digit runs and nulls included.
 */
final class TextColumn {
    /** Longer digit runs stay text: they might not fit a long. */
    private static final int MAX_NUMBER_DIGITS = 18;
    private static final int NULL = 0;
    private static final int NEW_TEMPLATE = 1;
    private static final int FIRST_TEMPLATE = 2;

    private final List<Template> templates = new ArrayList<>();
    /** Encoder only: templates by their literal parts, as several may differ only in their numbers' widths. */
    private final Map<List<String>, List<Template>> byLiterals = new HashMap<>();
    private Template last;

    /** Literal parts around the numbers, each number's least width (zero-padded), and the numbers last written. */
    private static final class Template {
        final int id;
        final String[] literals;
        final int[] widths;
        final long[] lastValues;

        Template(int id, String[] literals, int[] widths) {
            this.id = id;
            this.literals = literals;
            this.widths = widths;
            this.lastValues = new long[widths.length];
        }

        boolean fits(Parsed text) {
            if (!Arrays.equals(literals, text.literals)) {
                return false;
            }
            for (int i = 0; i < widths.length; i++) {
                if (text.digits[i] != Math.max(widths[i], text.significantDigits[i])) {
                    return false;
                }
            }
            return true;
        }
    }

    /** A text cut into literal parts and the numbers between them. */
    private static final class Parsed {
        final String[] literals;
        final long[] values;
        final int[] digits;
        final int[] significantDigits;

        Parsed(List<String> literals, List<long[]> numbers) {
            this.literals = literals.toArray(new String[0]);
            this.values = new long[numbers.size()];
            this.digits = new int[numbers.size()];
            this.significantDigits = new int[numbers.size()];
            for (int i = 0; i < values.length; i++) {
                long[] n = numbers.get(i);
                values[i] = n[0];
                digits[i] = (int) n[1];
                significantDigits[i] = (int) n[2];
            }
        }

        static Parsed of(String text) {
            List<String> literals = new ArrayList<>();
            List<long[]> numbers = new ArrayList<>();
            StringBuilder literal = new StringBuilder();
            int i = 0;
            while (i < text.length()) {
                int end = i;
                while (end < text.length() && text.charAt(end) >= '0' && text.charAt(end) <= '9') {
                    end++;
                }
                if (end == i || end - i > MAX_NUMBER_DIGITS) {
                    literal.append(text, i, Math.max(end, i + 1));
                    i = Math.max(end, i + 1);
                    continue;
                }
                int firstSignificant = i;
                while (firstSignificant < end - 1 && text.charAt(firstSignificant) == '0') {
                    firstSignificant++;
                }
                literals.add(literal.toString());
                literal.setLength(0);
                numbers.add(new long[] {Long.parseLong(text, i, end, 10), end - i, end - firstSignificant});
                i = end;
            }
            literals.add(literal.toString());
            return new Parsed(literals, numbers);
        }

        /** The widths a new template takes: a zero-padded number keeps its width, any other needs none. */
        int[] ownWidths() {
            int[] widths = new int[digits.length];
            for (int i = 0; i < widths.length; i++) {
                widths[i] = digits[i] > significantDigits[i] ? digits[i] : 0;
            }
            return widths;
        }
    }

    void write(String text, Varints.Out out) {
        if (text == null) {
            out.unsigned(NULL);
            return;
        }
        Parsed parsed = Parsed.of(text);
        Template template = last != null && last.fits(parsed) ? last : known(parsed);
        if (template == null) {
            template = add(parsed.literals, parsed.ownWidths());
            byLiterals.computeIfAbsent(List.of(template.literals), k -> new ArrayList<>()).add(template);
            out.unsigned(NEW_TEMPLATE);
            out.unsigned(template.literals.length);
            for (String literal : template.literals) {
                out.text(literal);
            }
            for (int width : template.widths) {
                out.unsigned(width);
            }
        } else {
            out.unsigned(FIRST_TEMPLATE + (long) template.id);
        }
        for (int i = 0; i < parsed.values.length; i++) {
            out.signed(parsed.values[i] - template.lastValues[i]);
            template.lastValues[i] = parsed.values[i];
        }
        last = template;
    }

    String read(Varints.In in) {
        long ref = in.unsigned();
        if (ref == NULL) {
            return null;
        }
        Template template;
        if (ref == NEW_TEMPLATE) {
            String[] literals = new String[in.count()];
            if (literals.length == 0) {
                throw new IllegalArgumentException("the ledger's data holds a text template without parts");
            }
            for (int i = 0; i < literals.length; i++) {
                literals[i] = in.text();
            }
            int[] widths = new int[literals.length - 1];
            for (int i = 0; i < widths.length; i++) {
                widths[i] = (int) in.unsigned();
            }
            template = add(literals, widths);
        } else if (ref - FIRST_TEMPLATE < templates.size()) {
            template = templates.get((int) (ref - FIRST_TEMPLATE));
        } else {
            throw new IllegalArgumentException("the ledger's data names text template " + (ref - FIRST_TEMPLATE) + " of "
                    + templates.size());
        }
        StringBuilder text = new StringBuilder(template.literals[0]);
        for (int i = 0; i < template.widths.length; i++) {
            long value = template.lastValues[i] + in.signed();
            template.lastValues[i] = value;
            String digits = Long.toString(value);
            for (int pad = digits.length(); pad < template.widths[i]; pad++) {
                text.append('0');
            }
            text.append(digits).append(template.literals[i + 1]);
        }
        return text.toString();
    }

    private Template known(Parsed parsed) {
        for (Template t : byLiterals.getOrDefault(Arrays.asList(parsed.literals), List.of())) {
            if (t.fits(parsed)) {
                return t;
            }
        }
        return null;
    }

    private Template add(String[] literals, int[] widths) {
        Template template = new Template(templates.size(), literals, widths);
        templates.add(template);
        return template;
    }
}
