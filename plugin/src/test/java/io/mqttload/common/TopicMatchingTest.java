package io.mqttload.common;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class TopicMatchingTest {
    @Test
    void matcher_followsMqttWildcardRules() {
        assertThat(TopicMatcher.matches("a/+/c", "a/b/c")).isTrue();
        assertThat(TopicMatcher.matches("a/+/c", "a/b/d")).isFalse();
        assertThat(TopicMatcher.matches("a/#", "a")).isTrue();
        assertThat(TopicMatcher.matches("a/#", "a/b/c")).isTrue();
        assertThat(TopicMatcher.matches("#", "$SYS/broker")).isFalse();
        assertThat(TopicMatcher.matches("+/broker", "$SYS/broker")).isFalse();
        assertThat(TopicMatcher.matches("$SYS/#", "$SYS/broker")).isTrue();
        assertThat(TopicMatcher.matches("a/b", "a/b/c")).isFalse();
        assertThat(TopicMatcher.matches("a/+", "a/")).isTrue();
    }

    @Test
    void trie_returnsEachMatchingValueOnce_andAgreesWithTheMatcher() {
        TopicTrie<String> trie = new TopicTrie<>();
        String[] filters = {"System1/#", "System1/Subsystem2/+/Parameter3", "System1/Subsystem2/Device4/Parameter3",
            "+/+/+/+", "#", "System2/#", "$SYS/#"};
        for (String f : filters) {
            trie.add(f, f);
        }
        String[] topics = {"System1/Subsystem2/Device4/Parameter3", "System2/x", "$SYS/load", "System1", "a/b/c/d/e"};
        for (String topic : topics) {
            java.util.Set<String> expected = new java.util.HashSet<>();
            for (String f : filters) {
                if (TopicMatcher.matches(f, topic)) {
                    expected.add(f);
                }
            }
            assertThat(trie.match(topic)).as(topic).containsExactlyInAnyOrderElementsOf(expected);
        }
    }
}
