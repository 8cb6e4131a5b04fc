package io.mqttload.compare;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import io.mqttload.engine.RunConfig;

/**
 * The comparison's command line: its own options, checked up front so that an error names the option and the value;
 * every other argument is the sweep runner's (the plan, {@code -J}, {@code -q}, the broker monitor, {@code --search}
 * and its criteria) and goes to every run alike, which is what keeps the sides' runs the same but for their
 * properties.
 */
final class CompareOptions {
    static final String USAGE = String.join("\n",
            "Usage: compare.sh --side NAME:[k=v,k=v] | --results NAME:DIR | --baseline DIR  (two sides or more)",
            "                  --out DIR [--rounds N] [--threshold PERCENT | --threshold FIGURE=PERCENT]...",
            "                  [--compare-id ID] [sweep options: --plan PLAN.jmx, -Jk=v, -q FILE, --broker-pid N, --search ...]",
            "",
            "  --side NAME:k=v,...   a side run here: the plan with these properties (none: 'NAME:'), once a round",
            "  --results NAME:DIR    a side read from results kept in DIR: compare.json, capacity.json, sweep.json,",
            "                        report-*.json (four levels down); compare.json gives its side NAME, else its last",
            "  --baseline DIR        the first side, named baseline, from kept results: the regression gate",
            "  --rounds N            rounds of interleaved runs (A B A B ...), default 5",
            "  --threshold P         the change in % a verdict needs, every figure (default 5); FIGURE=P for one",
            "  --out DIR             the comparison's files and, under runs/, every run's",
            "  --disturbed-runs repeat|accept  a run whose only fault is a saturated generator or machine is run once",
            "                        more and the repeat counts (default repeat; both are kept); accept keeps it, marked",
            "Figures: " + figureKeys(),
            "Exit code: 0 no figure REGRESSED or INCONCLUSIVE, 1 REGRESSED (or a compared side lost messages or failed),",
            "3 INCONCLUSIVE, 2 bad arguments or unreadable results. docs/comparing.md explains the verdicts.");

    /** A side: run here with properties, or read from a directory. */
    static final class SideSpec {
        final String name;
        /** Null for a side read from results. */
        final Map<String, String> properties;
        final Path results;

        SideSpec(String name, Map<String, String> properties, Path results) {
            this.name = name;
            this.properties = properties;
            this.results = results;
        }

        boolean runs() {
            return properties != null;
        }

        String definition() {
            if (!runs()) {
                return "results in " + results;
            }
            List<String> kv = new ArrayList<>();
            properties.forEach((k, v) -> kv.add(k + "=" + v));
            return kv.isEmpty() ? "the plan as given" : "the plan with " + String.join(", ", kv);
        }
    }

    final List<SideSpec> sides = new ArrayList<>();
    final Map<Figure, Double> thresholds = Comparison.defaultThresholds();
    int rounds = 5;
    Path out;
    String compareId = "compare-" + java.time.LocalDateTime.now().format(
            java.time.format.DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss", Locale.ROOT));
    /** The sweep runner's arguments, for every run. */
    final List<String> sweepArgs = new ArrayList<>();
    final List<String> arguments = new ArrayList<>();
    boolean help;
    long brokerPid;
    long settleSeconds = 120;
    /** Whether a run disturbed by a saturated generator or machine, and clean otherwise, is run once more. */
    boolean repeatDisturbed = true;

    static CompareOptions parse(String[] args) {
        CompareOptions o = new CompareOptions();
        for (String a : args) {
            o.arguments.add(a.matches("-[JG][^=]*(?i:password|token|secret)[^=]*=.*")
                    ? a.substring(0, a.indexOf('=') + 1) + "****" : a);
        }
        for (int i = 0; i < args.length; i++) {
            String a = args[i];
            switch (a) {
                case "-h":
                case "--help":
                    o.help = true;
                    return o;
                case "--side":
                    o.side(value(args, ++i, a));
                    break;
                case "--results":
                    o.results(value(args, ++i, a));
                    break;
                case "--baseline":
                    o.sides.add(0, new SideSpec("baseline", null, Path.of(value(args, ++i, a))));
                    break;
                case "--rounds":
                    o.rounds = (int) number(a, value(args, ++i, a), 2, 1000);
                    break;
                case "--threshold":
                    o.threshold(value(args, ++i, a));
                    break;
                case "--out":
                    o.out = Path.of(value(args, ++i, a));
                    break;
                case "--compare-id":
                    o.compareId = value(args, ++i, a);
                    break;
                case "--disturbed-runs":
                    String d = value(args, ++i, a);
                    if (!d.equals("repeat") && !d.equals("accept")) {
                        throw new IllegalArgumentException("--disturbed-runs '" + d + "': expected repeat or accept");
                    }
                    o.repeatDisturbed = d.equals("repeat");
                    break;
                case "--steps":
                case "--step-file":
                case "--sweep-id":
                    throw new IllegalArgumentException(a + ": a comparison makes each run's step itself; give a side's"
                            + " properties with --side NAME:k=v,...");
                default:
                    o.sweepArgs.add(a);
                    if (a.equals("--broker-pid") || a.equals("--settle-seconds")) {
                        String v = value(args, ++i, a);
                        o.sweepArgs.add(v);
                        long n = number(a, v, 0, Long.MAX_VALUE);
                        if (a.equals("--broker-pid")) {
                            o.brokerPid = n;
                        } else {
                            o.settleSeconds = n;
                        }
                    }
            }
        }
        o.check();
        return o;
    }

    private void check() {
        if (out == null) {
            throw new IllegalArgumentException("--out: missing");
        }
        if (sides.size() < 2) {
            throw new IllegalArgumentException("two sides or more are compared: " + sides.size() + " given (--side,"
                    + " --results, --baseline)");
        }
        List<String> names = new ArrayList<>();
        for (SideSpec s : sides) {
            if (names.contains(s.name)) {
                throw new IllegalArgumentException("side '" + s.name + "': given twice");
            }
            names.add(s.name);
        }
        if (sides.stream().anyMatch(SideSpec::runs) && !sweepArgs.contains("--plan")) {
            throw new IllegalArgumentException("--plan: missing (a --side runs the plan)");
        }
    }

    private void side(String v) {
        int colon = v.indexOf(':');
        if (colon <= 0) {
            throw new IllegalArgumentException("--side '" + v + "': NAME:k=v,k=v expected (NAME: for the plan as given)");
        }
        String name = name("--side", v, v.substring(0, colon));
        Map<String, String> p = new LinkedHashMap<>();
        String rest = v.substring(colon + 1).trim();
        if (!rest.isEmpty()) {
            for (String kv : rest.split(",")) {
                int eq = kv.indexOf('=');
                if (eq <= 0) {
                    throw new IllegalArgumentException("--side '" + v + "': '" + kv + "' is not k=v");
                }
                String key = kv.substring(0, eq).trim();
                if (key.equals(RunConfig.WARMUP_SECONDS) || key.equals("mqttload.runId")
                        || key.equals("mqttload.resultsDir")) {
                    throw new IllegalArgumentException("--side '" + v + "': " + key + " is the comparison's: every side"
                            + " runs with the same warm-up and its own run ids");
                }
                p.put(key, kv.substring(eq + 1).trim());
            }
        }
        sides.add(new SideSpec(name, p, null));
    }

    private void results(String v) {
        int colon = v.indexOf(':');
        if (colon <= 0 || colon == v.length() - 1) {
            throw new IllegalArgumentException("--results '" + v + "': NAME:DIR expected");
        }
        sides.add(new SideSpec(name("--results", v, v.substring(0, colon)), null, Path.of(v.substring(colon + 1))));
    }

    private static String name(String option, String v, String name) {
        if (!name.matches("[A-Za-z0-9._-]+")) {
            throw new IllegalArgumentException(option + " '" + v + "': the side's name '" + name
                    + "' may have letters, digits, '.', '_' and '-' only");
        }
        return name;
    }

    private void threshold(String v) {
        int eq = v.indexOf('=');
        if (eq < 0) {
            double p = percent(v, v);
            thresholds.replaceAll((f, old) -> p);
            return;
        }
        Figure f;
        try {
            f = Figure.ofKey(v.substring(0, eq));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("--threshold '" + v + "': " + e.getMessage(), e);
        }
        thresholds.put(f, percent(v, v.substring(eq + 1)));
    }

    private static double percent(String whole, String v) {
        try {
            double p = Double.parseDouble(v.trim());
            if (p > 0 && p < 100) {
                return p;
            }
        } catch (NumberFormatException e) {
            // Reported below with the option and the value.
        }
        throw new IllegalArgumentException("--threshold '" + whole + "': a percentage above 0 and below 100 expected");
    }

    private static String value(String[] args, int i, String option) {
        if (i >= args.length) {
            throw new IllegalArgumentException(option + ": a value is missing");
        }
        return args[i];
    }

    private static long number(String option, String v, long min, long max) {
        try {
            long n = Long.parseLong(v.trim());
            if (n >= min && n <= max) {
                return n;
            }
        } catch (NumberFormatException e) {
            // Reported below with the option and the value.
        }
        throw new IllegalArgumentException(option + " '" + v + "': a whole number from " + min + " to " + max
                + " expected");
    }

    static String figureKeys() {
        List<String> keys = new ArrayList<>();
        for (Figure f : Figure.values()) {
            keys.add(f.key());
        }
        return String.join(", ", keys);
    }

    /** Thresholds as given, for tests. */
    Map<Figure, Double> thresholds() {
        return new EnumMap<>(thresholds);
    }
}
