package io.mqttload.common;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * A topic or client-id template with placeholders in braces, compiled once and expanded per client
 * or per message without parsing. A placeholder is a name followed by optional integer operations
 * applied left to right: {@code {client}}, {@code {client/100}}, {@code {msg%10}}, {@code {thread+1}}.
 * Braces are used rather than {@code ${...}} so JMeter does not treat them as its own variables.
 * Example: {@code System{thread}/Subsystem{client/100}/Device{client%100}/Parameter{msg%10}}.
 */
public final class NameTemplate {
    /**
     * The placeholders of a template expanded once per client (client ids, a node's name, a client's key store and
     * alias): the engine, its number, the run, the thread group, the thread and the client's number in its group.
     */
    public static final Set<String> CLIENT_PLACEHOLDERS = Set.of("engine", "engineNumber", "run", "threadGroup", "thread",
            "client");

    /** The placeholders whose values are text (see {@link Values#text}): arithmetic on them is refused when compiled. */
    private static final Set<String> TEXT_PLACEHOLDERS = Set.of("engine", "run");

    private final String source;
    private final Segment[] segments;
    private final boolean constant;

    private NameTemplate(String source, Segment[] segments) {
        this.source = source;
        this.segments = segments;
        boolean onlyText = true;
        for (Segment s : segments) {
            onlyText &= s.variable == null;
        }
        this.constant = onlyText;
    }

    /**
     * @param field   the user-facing field name, for error messages
     * @param allowed placeholder names this template may use
     */
    public static NameTemplate compile(String field, String template, Set<String> allowed) {
        if (template == null) {
            template = "";
        }
        List<Segment> parts = new ArrayList<>();
        StringBuilder text = new StringBuilder();
        int i = 0;
        while (i < template.length()) {
            char c = template.charAt(i);
            if (c != '{') {
                if (c == '}') {
                    throw new InvalidSettingException(field, template, "unmatched '}' at position " + i);
                }
                text.append(c);
                i++;
                continue;
            }
            int close = template.indexOf('}', i);
            if (close < 0) {
                throw new InvalidSettingException(field, template, "unclosed '{' at position " + i);
            }
            if (text.length() > 0) {
                parts.add(Segment.text(text.toString()));
                text.setLength(0);
            }
            parts.add(parsePlaceholder(field, template, template.substring(i + 1, close), allowed));
            i = close + 1;
        }
        if (text.length() > 0) {
            parts.add(Segment.text(text.toString()));
        }
        return new NameTemplate(template, parts.toArray(new Segment[0]));
    }

    private static Segment parsePlaceholder(String field, String template, String body, Set<String> allowed) {
        int end = 0;
        while (end < body.length() && Character.isLetter(body.charAt(end))) {
            end++;
        }
        String name = body.substring(0, end);
        if (!allowed.contains(name)) {
            throw new InvalidSettingException(field, template,
                    "unknown placeholder {" + body + "}; known: " + String.join(", ", allowed));
        }
        List<long[]> ops = new ArrayList<>();
        int i = end;
        while (i < body.length()) {
            char op = body.charAt(i++);
            int start = i;
            while (i < body.length() && Character.isDigit(body.charAt(i))) {
                i++;
            }
            if ("+-*/%".indexOf(op) < 0 || start == i) {
                throw new InvalidSettingException(field, template,
                        "placeholder {" + body + "} must be a name followed by +N, -N, *N, /N or %N");
            }
            long operand = Long.parseLong(body.substring(start, i));
            if ((op == '/' || op == '%') && operand == 0) {
                throw new InvalidSettingException(field, template, "division by zero in {" + body + "}");
            }
            ops.add(new long[] {op, operand});
        }
        if (!ops.isEmpty() && TEXT_PLACEHOLDERS.contains(name)) {
            throw new InvalidSettingException(field, template, "{" + name + "} is text and takes no arithmetic: {"
                    + body + "}");
        }
        return Segment.variable(name, ops.toArray(new long[0][]));
    }

    public boolean isConstant() {
        return constant;
    }

    public boolean uses(String name) {
        for (Segment s : segments) {
            if (name.equals(s.variable)) {
                return true;
            }
        }
        return false;
    }

    public String source() {
        return source;
    }

    /** Supplies placeholder values; text placeholders (engine, run) are inserted as they are. */
    public interface Values {
        /** @return the text value, or null when the placeholder is numeric */
        String text(String name);

        long number(String name);
    }

    public String expand(Values values) {
        if (constant) {
            return source;
        }
        StringBuilder out = new StringBuilder(source.length() + 16);
        for (Segment s : segments) {
            if (s.variable == null) {
                out.append(s.text);
                continue;
            }
            String text = values.text(s.variable);
            if (text != null && s.ops.length == 0) {
                out.append(text);
            } else if (text != null) {
                throw new IllegalStateException("{" + s.variable + "} is text and takes no arithmetic in " + source);
            } else {
                out.append(s.apply(values.number(s.variable)));
            }
        }
        return out.toString();
    }

    private static final class Segment {
        final String text;
        final String variable;
        final long[][] ops;

        private Segment(String text, String variable, long[][] ops) {
            this.text = text;
            this.variable = variable;
            this.ops = ops;
        }

        static Segment text(String text) {
            return new Segment(text, null, null);
        }

        static Segment variable(String name, long[][] ops) {
            return new Segment(null, name, ops);
        }

        long apply(long value) {
            long v = value;
            for (long[] op : ops) {
                switch ((char) op[0]) {
                    case '+':
                        v += op[1];
                        break;
                    case '-':
                        v -= op[1];
                        break;
                    case '*':
                        v *= op[1];
                        break;
                    case '/':
                        v /= op[1];
                        break;
                    default:
                        v %= op[1];
                        break;
                }
            }
            return v;
        }
    }
}
