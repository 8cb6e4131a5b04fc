package io.mqttload.common;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Set;

import org.junit.jupiter.api.Test;

class NameTemplateTest {
    private static final Set<String> NAMES = Set.of("engine", "thread", "client", "msg");

    private static NameTemplate.Values values(String engine, long thread, long client, long msg) {
        return new NameTemplate.Values() {
            @Override
            public String text(String name) {
                return name.equals("engine") ? engine : null;
            }

            @Override
            public long number(String name) {
                switch (name) {
                    case "thread":
                        return thread;
                    case "client":
                        return client;
                    default:
                        return msg;
                }
            }
        };
    }

    @Test
    void expand_scalAgentHierarchy_derivesEachLevelFromIndexes() {
        NameTemplate t = NameTemplate.compile("topic",
                "System{thread}/Subsystem{client/100}/Device{client%100}/Parameter{msg%10}", NAMES);

        assertThat(t.expand(values("e1", 7, 342, 15))).isEqualTo("System7/Subsystem3/Device42/Parameter5");
        assertThat(t.isConstant()).isFalse();
        assertThat(t.uses("msg")).isTrue();
    }

    @Test
    void expand_textAndChainedArithmetic_appliesLeftToRight() {
        NameTemplate t = NameTemplate.compile("clientIdTemplate", "{engine}-{client*2+1}", NAMES);

        assertThat(t.expand(values("eng", 0, 20, 0))).isEqualTo("eng-41");
    }

    @Test
    void compile_withoutPlaceholders_isConstant() {
        NameTemplate t = NameTemplate.compile("topic", "a/b/c", NAMES);

        assertThat(t.isConstant()).isTrue();
        assertThat(t.expand(values("e", 1, 2, 3))).isEqualTo("a/b/c");
    }

    @Test
    void compile_unknownPlaceholder_namesFieldAndTemplate() {
        assertThatThrownBy(() -> NameTemplate.compile("topic", "a/{device}", NAMES))
                .isInstanceOf(InvalidSettingException.class)
                .hasMessageContaining("topic = 'a/{device}'")
                .hasMessageContaining("unknown placeholder {device}");
    }

    @Test
    void compile_unclosedBraceOrBadOperator_isRejected() {
        assertThatThrownBy(() -> NameTemplate.compile("topic", "a/{client", NAMES))
                .hasMessageContaining("unclosed '{'");
        assertThatThrownBy(() -> NameTemplate.compile("topic", "a/{client^2}", NAMES))
                .hasMessageContaining("+N, -N, *N, /N or %N");
        assertThatThrownBy(() -> NameTemplate.compile("topic", "a/{client%0}", NAMES))
                .hasMessageContaining("division by zero");
    }
}
