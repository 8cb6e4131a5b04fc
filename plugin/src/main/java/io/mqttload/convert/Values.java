package io.mqttload.convert;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** Checks and rewrites of property values that may hold JMeter expressions ({@code ${...}}). */
final class Values {
    /** Parts of a property name that make its value a secret, never shown in the report, a comment or the console. */
    private static final List<String> SECRET_NAMES = List.of("password", "auth_data", "secret", "token", "passphrase",
            "credential");
    static final String MASK = "******";

    private Values() {
    }

    /** Whether the property {@code name} holds a secret: a password, authentication data, a token, ... */
    static boolean isSecretName(String name) {
        String n = name == null ? "" : name.toLowerCase(Locale.ROOT);
        return SECRET_NAMES.stream().anyMatch(n::contains);
    }

    /** A secret value as it may be shown: masked, unless empty, absent or an expression (which names no secret). */
    static String secret(String value) {
        return value == null || value.isEmpty() || isExpression(value) ? value : MASK;
    }

    /** The value of the property {@code name} as it may be shown: masked when the name says it is a secret. */
    static String shownValue(String name, String value) {
        return isSecretName(name) ? secret(value) : value;
    }

    /**
     * A flat JSON object of names and scalar values ({@code {"a":"b","n":1}}, as the MQTT 5 forks of XMeter write user
     * properties) as the suite's user properties, one {@code name=value} per line; null when it is not such an object
     * or a pair cannot be written so (an empty name, a name with {@code =}, a line break).
     */
    static String jsonObjectLines(String json) {
        JsonReader in = new JsonReader(json.trim());
        List<String> lines = new ArrayList<>();
        if (!in.eat('{')) {
            return null;
        }
        if (!in.eat('}')) {
            do {
                String name = in.string();
                if (name == null || !in.eat(':')) {
                    return null;
                }
                String value = in.scalar();
                if (value == null || name.trim().isEmpty() || name.indexOf('=') >= 0 || (name + value).indexOf('\n') >= 0
                        || (name + value).indexOf('\r') >= 0) {
                    return null;
                }
                lines.add(name.trim() + "=" + value.trim());
            } while (in.eat(','));
            if (!in.eat('}')) {
                return null;
            }
        }
        return in.atEnd() ? String.join("\n", lines) : null;
    }

    /** Just enough of a JSON reader for {@link #jsonObjectLines}. */
    private static final class JsonReader {
        private final String text;
        private int at;

        JsonReader(String text) {
            this.text = text;
        }

        private void skipSpace() {
            while (at < text.length() && Character.isWhitespace(text.charAt(at))) {
                at++;
            }
        }

        boolean eat(char c) {
            skipSpace();
            if (at < text.length() && text.charAt(at) == c) {
                at++;
                return true;
            }
            return false;
        }

        boolean atEnd() {
            skipSpace();
            return at == text.length();
        }

        /** A JSON string's value, or null. */
        String string() {
            if (!eat('"')) {
                return null;
            }
            StringBuilder s = new StringBuilder();
            while (at < text.length()) {
                char c = text.charAt(at++);
                if (c == '"') {
                    return s.toString();
                }
                if (c != '\\') {
                    s.append(c);
                    continue;
                }
                if (at >= text.length()) {
                    return null;
                }
                char e = text.charAt(at++);
                switch (e) {
                    case '"':
                    case '\\':
                    case '/':
                        s.append(e);
                        break;
                    case 'n':
                        s.append('\n');
                        break;
                    case 'r':
                        s.append('\r');
                        break;
                    case 't':
                        s.append('\t');
                        break;
                    case 'u':
                        if (at + 4 > text.length() || !text.substring(at, at + 4).matches("[0-9a-fA-F]{4}")) {
                            return null;
                        }
                        s.append((char) Integer.parseInt(text.substring(at, at + 4), 16));
                        at += 4;
                        break;
                    default:
                        return null;
                }
            }
            return null;
        }

        /** A string, number, true, false or null as text (null as the empty text), or null when none is next. */
        String scalar() {
            skipSpace();
            if (at < text.length() && text.charAt(at) == '"') {
                return string();
            }
            int start = at;
            while (at < text.length() && "+-.0123456789eEtruefalsn".indexOf(text.charAt(at)) >= 0) {
                at++;
            }
            String word = text.substring(start, at);
            if (word.equals("null")) {
                return "";
            }
            return word.equals("true") || word.equals("false") || word.matches("-?\\d+(\\.\\d+)?([eE][+-]?\\d+)?")
                    ? word : null;
        }
    }

    static boolean isExpression(String value) {
        return value != null && value.contains("${");
    }

    static boolean isInteger(String value) {
        return value != null && value.trim().matches("-?\\d{1,18}");
    }

    static boolean isBlank(String value) {
        return value == null || value.trim().isEmpty();
    }

    /** The value with each {@code ${...}} (nested ones included) left out: what JMeter does not evaluate. */
    static String outsideExpressions(String value) {
        StringBuilder out = new StringBuilder();
        int depth = 0;
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            if (c == '$' && i + 1 < value.length() && value.charAt(i + 1) == '{') {
                depth++;
                i++;
            } else if (depth > 0 && c == '{') {
                // A brace inside an expression (a JEXL map, say) pairs with one of its own.
                depth++;
            } else if (depth > 0 && c == '}') {
                depth--;
            } else if (depth == 0) {
                out.append(c);
            }
        }
        return out.toString();
    }

    /**
     * Whether the suite would read part of {@code value} as its own placeholder: a brace that is not in a JMeter
     * expression. The suite's name templates have no escape for a literal brace.
     */
    static boolean hasLiteralBrace(String value) {
        if (value == null) {
            return false;
        }
        String rest = outsideExpressions(value);
        return rest.indexOf('{') >= 0 || rest.indexOf('}') >= 0;
    }

    /** A JMeter expression that multiplies {@code expression} by {@code factor} when the plan runs. */
    static String times(String expression, long factor) {
        return "${__jexl3((" + expression + ") * " + factor + ")}";
    }

    /** A JMeter expression that adds {@code addend} to {@code expression} when the plan runs. */
    static String plus(String expression, long addend) {
        return "${__jexl3((" + expression + ") + " + addend + ")}";
    }

    /** For the report: the value, {@code (absent)} when the plan leaves the property out, {@code (empty)} when empty. */
    static String shown(String value) {
        if (value == null) {
            return "(absent)";
        }
        if (value.isEmpty()) {
            return "(empty)";
        }
        return value;
    }
}
