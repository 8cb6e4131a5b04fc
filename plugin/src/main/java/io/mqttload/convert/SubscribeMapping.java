package io.mqttload.convert;

import java.util.ArrayList;
import java.util.List;

import io.mqttload.convert.ConversionReport.ElementRecord;

/**
 * XMeter's SubSampler subscribes once per connection and then, on every pass, collects what arrived: for a time, or
 * until a count. The suite counts every message as it arrives, in the delivery ledger, and checks the total at the
 * end; so the subscription becomes an MQTT Subscribe in a Once Only Controller, and the collection a pause that keeps
 * the loop's pace.
 */
final class SubscribeMapping {
    static final String TIME_MODE = "specified elapsed time (ms)";
    static final String COUNT_MODE = "number of received messages";
    /** The pause that stands for a count-mode collection: XMeter's default collection time. */
    static final String COUNT_MODE_PAUSE_MS = "1000";

    private final SuiteElements suite;

    SubscribeMapping(SuiteElements suite) {
        this.suite = suite;
    }

    void convert(XmeterElement x, ElementRecord r) {
        SuiteElements.Bean sub = suite.subscribe(x.testname, x.enabled).comments(x.take(XmeterElement.COMMENTS));
        filters(x.take("mqtt.topic_name"), r, sub);
        qos(x.take("mqtt.qos_level"), r, sub);

        String stamp = x.take("mqtt.add_timestamp");
        if (XmeterElement.isTrue(stamp)) {
            r.mapped("mqtt.add_timestamp", stamp, "nothing to set: the suite measures pub-to-sub latency of every message "
                    + "that carries the publishers' header (MQTT Publish measureLatency, from XMeter's add_timestamp), "
                    + "on every subscriber");
        } else {
            r.noEffect("mqtt.add_timestamp", stamp, "the suite measures every message that carries the publishers' "
                    + "header, whatever the subscriber says");
        }
        String debug = x.take("mqtt.debug_response");
        if (XmeterElement.isTrue(debug)) {
            r.notConverted("mqtt.debug_response", debug, "the suite does not put received payloads in sample results; "
                    + "they are counted and measured on the clients' network threads");
        } else {
            r.noEffect("mqtt.debug_response", debug, "off");
        }

        String pause = collection(x, r);
        Jmx.Slot inner = x.slot.wrap(suite.onceOnly(x.testname + ": subscribe once", x.enabled), sub.build());
        x.slot.insertAfter(suite.pause(x.testname + ": collect", x.enabled, pause));
        r.became = "Once Only Controller " + ConversionReport.code(x.testname + ": subscribe once") + " holding the MQTT "
                + "Subscribe " + ConversionReport.code(x.testname) + ", followed by the Flow Control Action "
                + ConversionReport.code(x.testname + ": collect")
                + " (pause " + pause + " ms)";
        r.notes.add("Every message is counted as it arrives, checked against what was published (expected, received, "
                + "lost, duplicates) and measured, on the engine and in the run report; there is no per-pass sample "
                + "with the count. The Subscribe runs once per thread (on the first pass of each run of the loop around "
                + "it), as XMeter subscribes once per connection. Subscribers are owed every message published on "
                + "their topics until the end of the run: keep them connected until the publishers are done (an MQTT "
                + "Rendezvous Timer before their Disconnect does it).");
        if (!Jmx.children(inner.tree()).isEmpty()) {
            r.notes.add("Its child elements (timers, assertions, ...) are now the MQTT Subscribe's, which runs once per "
                    + "thread.");
        }
    }

    /** The pause of one collection pass, from XMeter's sampling condition. */
    private static String collection(XmeterElement x, ElementRecord r) {
        String condition = x.take("mqtt.sample_condition");
        String value = x.take("mqtt.sample_condition_value");
        String mode = condition == null ? TIME_MODE : condition.trim();
        if (mode.equals(TIME_MODE)) {
            String ms = value == null ? "1000" : value.trim();
            r.mapped("mqtt.sample_condition", condition, "a Flow Control Action pausing the thread on every pass, so the "
                    + "loop keeps its pace");
            if (Values.isExpression(ms) || Values.isInteger(ms) && Long.parseLong(ms) > 0) {
                r.mapped("mqtt.sample_condition_value", value, "pause duration = " + ConversionReport.code(ms) + " ms");
                return ms;
            }
            r.notConverted("mqtt.sample_condition_value", value, "not a time above 0 ms (XMeter fails every sample): "
                    + "pause 0 ms");
            return "0";
        }
        if (mode.equals(COUNT_MODE)) {
            r.approximated("mqtt.sample_condition", condition, "no per-pass equivalent (the suite counts every message "
                    + "in its ledger and checks the total at the end): a pause of " + COUNT_MODE_PAUSE_MS + " ms per "
                    + "pass instead of waiting for the count, so a pass never blocks; adjust it to your publishers' pace");
            r.approximated("mqtt.sample_condition_value", value, "not a wait: every message is counted and the expected "
                    + "number checked at the end of the run");
            return COUNT_MODE_PAUSE_MS;
        }
        r.notConverted("mqtt.sample_condition", condition, "unknown sampling condition (XMeter knows '" + TIME_MODE
                + "' and '" + COUNT_MODE + "'): pause " + COUNT_MODE_PAUSE_MS + " ms per pass");
        r.noEffect("mqtt.sample_condition_value", value, "its condition is not known");
        return COUNT_MODE_PAUSE_MS;
    }

    /** XMeter's comma-separated filters, one per line; a brace the suite would read as a placeholder is reported. */
    static void filters(String topics, ElementRecord r, SuiteElements.Bean sub) {
        String t = topics == null ? "test_topic" : topics;
        List<String> filters = new ArrayList<>();
        boolean trimmed = false;
        for (String f : t.split(",", -1)) {
            filters.add(f.trim());
            trimmed |= !f.equals(f.trim());
        }
        sub.set("topicFilters", String.join("\n", filters));
        String shown = ConversionReport.code(String.join(", ", filters));
        if (Values.hasLiteralBrace(t)) {
            r.notConverted("mqtt.topic_name", topics, "a brace in a filter would be read as one of the suite's "
                    + "placeholders ({thread}, {client}, ranges {a..b}), which have no escape: the filters need editing");
        } else if (filters.stream().anyMatch(String::isEmpty)) {
            r.notConverted("mqtt.topic_name", topics, "an empty filter between commas: the suite refuses it");
        } else if (trimmed) {
            r.approximated("mqtt.topic_name", topics, "topicFilters, one per line: " + shown + "; XMeter does not trim "
                    + "around the commas and so subscribed to filters with leading or trailing spaces, the suite trims "
                    + "them");
        } else {
            r.mapped("mqtt.topic_name", topics, "topicFilters, one per line: " + shown);
        }
    }

    static void qos(String qos, ElementRecord r, SuiteElements.Bean sub) {
        if (qos == null || Values.isExpression(qos) || qos.trim().matches("[012]")) {
            sub.set("qos", qos == null ? "0" : qos.trim());
            r.mapped("mqtt.qos_level", qos, "qos = " + ConversionReport.code(sub.get("qos")));
        } else {
            sub.set("qos", "0");
            r.approximated("mqtt.qos_level", qos, "not a QoS: qos = `0`, as XMeter falls back to");
        }
    }
}
