package io.mqttload.summary;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * What the run was asked to do, as its samplers ran it: the Test Plan's name, each MQTT sampler's settings (MQTT
 * version, broker, QoS, topics, payload, ...) with the number of distinct clients it ran on, and what each broker
 * endpoint says it is. With it two reports of two brokers compare side by side without their plans. Mapped to JSON by
 * {@link SummaryJson}.
 */
public final class RunSetup {
    /** The broker endpoint answered nothing that names it (no {@code $SYS} version topic, or access to it refused). */
    public static final String NOT_ANNOUNCED = "";

    /** The Test Plan element's name; empty when JMeter's tree could not be read. */
    private String testPlan = "";
    /** One per sampler label and distinct settings: the roles in plan order (connect, subscribe, publish, ...). */
    public List<Step> steps = new ArrayList<>();
    /** By broker endpoint ({@code host:port}): what it says it is ({@code $SYS/broker/version}), or {@link #NOT_ANNOUNCED}. */
    public Map<String, String> brokers = new TreeMap<>();

    /** One MQTT sampler as it ran. */
    public static final class Step {
        /** {@code connect}, {@code subscribe}, {@code publish} or {@code disconnect}: the order steps are shown in. */
        public String role;
        public String sampler;
        /** Setting name to value, as the report shows them. */
        public Map<String, String> settings = new LinkedHashMap<>();
        /** Distinct clients the sampler ran on: connected, subscribed, published with, or disconnected. */
        public long clients;
        /**
         * Of a Connect sampler: the clients it tried to connect, {@link #clients} of them connected; null for the other
         * samplers, and in a summary written before format 5.
         */
        public Long tried;

        public Step() {
        }

        public Step(String role, String sampler, Map<String, String> settings, long clients) {
            this.role = role;
            this.sampler = sampler;
            this.settings = new LinkedHashMap<>(settings);
            this.clients = clients;
        }

        /** The clients, as the report says them: "3 of 5 client(s) connected" for a Connect sampler. */
        public String clientsText() {
            return tried == null ? clients + " client(s)"
                    : String.format(Locale.ROOT, "%d of %d client(s) connected", clients, tried);
        }

        /** The clients as a table cell: "3 of 5 connected" for a Connect sampler, "5" for the others. */
        public String clientsCell() {
            return tried == null ? Long.toString(clients) : String.format(Locale.ROOT, "%d of %d connected", clients, tried);
        }

        /** The settings on one line: {@code QoS 1, topic bench/{client}, payload 256 B random}. */
        public String settingsLine() {
            StringBuilder s = new StringBuilder();
            settings.forEach((name, value) -> s.append(s.length() == 0 ? "" : ", ").append(name).append(' ').append(value));
            return s.toString();
        }

        /** What makes two steps one: the same role, sampler and settings (on one engine or over several). */
        public static String key(String role, String sampler, Map<String, String> settings) {
            return role + '\u0000' + sampler + '\u0000' + settings;
        }
    }

    private static final List<String> ROLE_ORDER = List.of("connect", "subscribe", "publish", "disconnect");

    private static int roleRank(String role) {
        int i = ROLE_ORDER.indexOf(role);
        return i < 0 ? ROLE_ORDER.size() : i;
    }

    /** The steps in the order a reader follows a run: connects, subscriptions, publishers, disconnects; then by name. */
    public static final Comparator<Step> ORDER = Comparator.comparingInt((Step s) -> roleRank(s.role))
            .thenComparing(s -> s.sampler).thenComparing(s -> s.settings.toString());

    /**
     * Every engine's setup as the run's: the same sampler with the same settings on several engines is one step with
     * their clients added up (clients belong to one engine each); endpoints' announcements are kept where one engine
     * heard one.
     */
    public static RunSetup merge(List<RunSetup> setups) {
        RunSetup merged = new RunSetup();
        Map<String, Step> byKey = new LinkedHashMap<>();
        for (RunSetup s : setups) {
            if (s == null) {
                continue;
            }
            if (merged.testPlan.isEmpty()) {
                merged.setTestPlan(s.testPlan);
            }
            for (Step step : s.steps) {
                Step m = byKey.computeIfAbsent(Step.key(step.role, step.sampler, step.settings),
                        k -> new Step(step.role, step.sampler, step.settings, 0));
                m.clients += step.clients;
                if (step.tried != null) {
                    m.tried = (m.tried == null ? 0 : m.tried) + step.tried;
                }
            }
            s.brokers.forEach((endpoint, says) -> merged.brokers.merge(endpoint, says,
                    (a, b) -> a.isEmpty() ? b : a));
        }
        merged.steps.addAll(byKey.values());
        merged.steps.sort(ORDER);
        return merged;
    }

    /**
     * The plan's publish rate (the Publish samplers' own rates and throughput timers) and how long the publishers
     * were behind it, or empty when nothing paced them.
     */
    public static String scheduleText(long scheduledRate, long behindSeconds) {
        return scheduledRate <= 0 ? "" : String.format(Locale.ROOT, "publish %d msg/s (the plan's schedule), behind it %d s",
                scheduledRate, behindSeconds);
    }

    public String getTestPlan() {
        return testPlan;
    }

    public void setTestPlan(String name) {
        testPlan = name == null ? "" : name;
    }

    /**
     * The engines on one line: how many, and each with its machine ("engine-1 on host-a, 2 cores"), those that sent no
     * summary last.
     *
     * @param factsByEngine each engine's facts (see {@link MergedReport#engineFacts}), in engine order
     */
    public static String enginesText(Map<String, Map<String, String>> factsByEngine, Collection<String> missing) {
        StringBuilder s = new StringBuilder(Integer.toString(factsByEngine.size() + missing.size()));
        String sep = " (";
        for (Map.Entry<String, Map<String, String>> e : factsByEngine.entrySet()) {
            Map<String, String> facts = e.getValue();
            s.append(sep).append(e.getKey()).append(" on ").append(facts.getOrDefault("host", "?"));
            if (facts.containsKey("cores")) {
                s.append(", ").append(facts.get("cores")).append(" cores");
            }
            sep = "; ";
        }
        for (String m : missing) {
            s.append(sep).append(m).append(": no summary");
            sep = "; ";
        }
        return sep.equals(" (") ? s.toString() : s.append(')').toString();
    }

    /** What the broker at {@code endpoint} says it is, for people: its announcement, or that it said nothing. */
    public String brokerSays(String endpoint) {
        String announced = brokers.get(endpoint);
        return announced == null || announced.isEmpty() ? "(does not say its name or version)" : announced;
    }

    /**
     * The setup as the text report's opening lines.
     *
     * @param scenario the plan file's name (the run's scenario)
     * @param schedule the scheduled publish rate and how far behind it, or empty when no throughput timer paced
     * @param engines  the engines, one line
     */
    public void appendText(StringBuilder t, String scenario, String schedule, String engines) {
        t.append(String.format(Locale.ROOT, "%-12s %s%n", "test plan", testPlan.isEmpty() ? scenario
                : "'" + testPlan + "' (" + scenario + ")"));
        for (Step s : steps) {
            t.append(String.format(Locale.ROOT, "%-12s '%s' on %s: %s%n", s.role, s.sampler, s.clientsText(),
                    s.settingsLine()));
        }
        if (!schedule.isEmpty()) {
            t.append(String.format(Locale.ROOT, "%-12s %s%n", "schedule", schedule));
        }
        for (String endpoint : brokers.keySet()) {
            t.append(String.format(Locale.ROOT, "%-12s %s %s%n", "broker", endpoint, brokerSays(endpoint)));
        }
        t.append(String.format(Locale.ROOT, "%-12s %s%n", "engines", engines));
    }

    /** The setup as Markdown: a line for the plan, a table of the samplers, the brokers. */
    public void appendMarkdown(StringBuilder m, String scenario, String schedule, String engines) {
        m.append("## Setup\n\n");
        m.append("Test plan ").append(testPlan.isEmpty() ? "`" + scenario + "`" : "**" + markdownCell(testPlan) + "** (`"
                + scenario + "`)").append("; engines: ").append(engines).append(".");
        if (!schedule.isEmpty()) {
            m.append(" Schedule: ").append(schedule).append('.');
        }
        m.append("\n\n| role | sampler | clients | settings |\n| --- | --- | ---: | --- |\n");
        for (Step s : steps) {
            m.append(String.format(Locale.ROOT, "| %s | %s | %s | %s |%n", s.role, markdownCell(s.sampler), s.clientsCell(),
                    markdownCell(s.settingsLine())));
        }
        if (!brokers.isEmpty()) {
            m.append("\n| broker | says it is |\n| --- | --- |\n");
            for (String endpoint : brokers.keySet()) {
                m.append("| ").append(markdownCell(endpoint)).append(" | ").append(markdownCell(brokerSays(endpoint)))
                        .append(" |\n");
            }
        }
        m.append('\n');
    }

    private static String markdownCell(String text) {
        return text.replace("|", "\\|").replace("\n", " ");
    }
}
