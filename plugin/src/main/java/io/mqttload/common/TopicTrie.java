package io.mqttload.common;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Topic filters indexed by level, to find every value subscribed to a topic in time proportional to
 * the topic's depth rather than the number of filters (tens of thousands in the seed scenarios).
 * Follows MQTT's matching rules, including that wildcards at the first level do not match topics
 * starting with '$'.
 */
public final class TopicTrie<V> {
    private final Node<V> root = new Node<>();

    private static final class Node<V> {
        final Map<String, Node<V>> children = new HashMap<>();
        Node<V> plus;
        final List<V> exact = new ArrayList<>();
        final List<V> hash = new ArrayList<>();
    }

    public void add(String filter, V value) {
        Node<V> node = root;
        String[] levels = filter.split("/", -1);
        for (String level : levels) {
            if (level.equals("#")) {
                node.hash.add(value);
                return;
            }
            if (level.equals("+")) {
                if (node.plus == null) {
                    node.plus = new Node<>();
                }
                node = node.plus;
            } else {
                node = node.children.computeIfAbsent(level, k -> new Node<>());
            }
        }
        node.exact.add(value);
    }

    /** Every distinct value with a filter matching {@code topic}. */
    public Set<V> match(String topic) {
        Set<V> out = java.util.Collections.newSetFromMap(new IdentityHashMap<>());
        String[] levels = topic.split("/", -1);
        collect(root, levels, 0, topic.startsWith("$"), out);
        return out;
    }

    private void collect(Node<V> node, String[] levels, int depth, boolean systemTopic, Set<V> out) {
        boolean wildcardsAllowed = !(depth == 0 && systemTopic);
        if (wildcardsAllowed) {
            // "a/#" also matches "a" itself (MQTT 3.1.1 §4.7.1.2).
            out.addAll(node.hash);
        }
        if (depth == levels.length) {
            out.addAll(node.exact);
            return;
        }
        Node<V> child = node.children.get(levels[depth]);
        if (child != null) {
            collect(child, levels, depth + 1, systemTopic, out);
        }
        if (wildcardsAllowed && node.plus != null) {
            collect(node.plus, levels, depth + 1, systemTopic, out);
        }
    }
}
