package io.mqttload.convert;

/** Checks and rewrites of property values that may hold JMeter expressions ({@code ${...}}). */
final class Values {
    private Values() {
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
