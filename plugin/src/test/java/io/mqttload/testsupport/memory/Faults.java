package io.mqttload.testsupport.memory;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import io.mqttload.common.TopicTrie;

/**
 * The broker's delivery faults: rules of a kind (drop, duplicate, delay, reorder) on a topic filter, each taking the
 * deliveries its {@link Which} chooses among those the filter matches. Rules may be added and cleared from any thread
 * at any time; they are read on the event loop, one decision per delivery.
 */
final class Faults {
    enum Kind { DROP, DUPLICATE, DELAY, REORDER }

    private static final class Rule {
        final Kind kind;
        final Which which;
        final long delayMillis;
        /** The rule's filter alone, so that matching follows the broker's own rules ($-topics among them). */
        final TopicTrie<Rule> filter = new TopicTrie<>();

        Rule(Kind kind, String topicFilter, Which which, long delayMillis) {
            this.kind = kind;
            this.which = which;
            this.delayMillis = delayMillis;
            filter.add(topicFilter, this);
        }
    }

    /** What happens to one delivery. */
    static final class Decision {
        boolean drop;
        boolean duplicate;
        boolean reorder;
        long delayMillis;
    }

    private final List<Rule> rules = new CopyOnWriteArrayList<>();

    void add(Kind kind, String topicFilter, Which which, long delayMillis) {
        rules.add(new Rule(kind, topicFilter, which, delayMillis));
    }

    void clear() {
        rules.clear();
    }

    /** The decision for a delivery on {@code topic}; every matching rule is asked, so each counts what it saw. */
    Decision decide(String topic) {
        Decision d = new Decision();
        for (Rule r : rules) {
            if (r.filter.match(topic).isEmpty() || !r.which.take()) {
                continue;
            }
            switch (r.kind) {
                case DROP:
                    d.drop = true;
                    break;
                case DUPLICATE:
                    d.duplicate = true;
                    break;
                case REORDER:
                    d.reorder = true;
                    break;
                default:
                    d.delayMillis = Math.max(d.delayMillis, r.delayMillis);
            }
        }
        return d;
    }
}
