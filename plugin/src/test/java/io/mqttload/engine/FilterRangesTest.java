package io.mqttload.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import io.mqttload.common.settings.SettingValues;
import io.mqttload.common.settings.SubscribeSettings;

class FilterRangesTest {
    @Test
    void expand_deviceRange_givesOneFilterPerDeviceAndKeepsPlaceholders() {
        List<String> filters = FilterRanges.expand("topicFilters", "System{thread}/Subsystem{client%10}/Device{0..99}/#");

        assertThat(filters).hasSize(100);
        assertThat(filters.get(0)).isEqualTo("System{thread}/Subsystem{client%10}/Device0/#");
        assertThat(filters.get(99)).isEqualTo("System{thread}/Subsystem{client%10}/Device99/#");
        assertThat(filters).doesNotHaveDuplicates();
    }

    @Test
    void expand_twoRanges_givesEveryCombinationInOrder() {
        assertThat(FilterRanges.expand("topicFilters", "a{1..2}/b{0..1}"))
                .containsExactly("a1/b0", "a1/b1", "a2/b0", "a2/b1");
    }

    @Test
    void expand_withoutRange_isTheFilterItself() {
        assertThat(FilterRanges.expand("topicFilters", "p2p/{client}")).containsExactly("p2p/{client}");
        assertThat(FilterRanges.expand("topicFilters", "d{5..5}")).containsExactly("d5");
    }

    @Test
    void expand_badRanges_nameFieldAndValue() {
        assertThatThrownBy(() -> FilterRanges.expand("topicFilters", "d{9..0}"))
                .hasMessageStartingWith("topicFilters = 'd{9..0}'").hasMessageContaining("first <= last");
        assertThatThrownBy(() -> FilterRanges.expand("topicFilters", "a{0..999}/b{0..999}"))
                .hasMessageStartingWith("topicFilters = 'a{0..999}/b{0..999}'").hasMessageContaining("10000");
    }

    @Test
    void subscribeOperation_unknownPlaceholderInsideExpandedFilter_isStillRefused() {
        assertThatThrownBy(() -> new SubscribeOperation(SettingValues.of(SubscribeSettings.ALL,
                Map.of(SubscribeSettings.TOPIC_FILTERS.name(), "x/{device}/{0..3}"))))
                .hasMessageStartingWith("topicFilters = 'x/{device}/0'").hasMessageContaining("unknown placeholder {device}");
    }
}
