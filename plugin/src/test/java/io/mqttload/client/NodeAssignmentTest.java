package io.mqttload.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;

import org.junit.jupiter.api.Test;

import io.mqttload.common.InvalidSettingException;

/** A cluster's node list as a user writes it, and how each policy spreads clients and engines over the nodes. */
class NodeAssignmentTest {
    private static final List<BrokerNode> THREE = BrokerNode.parseList("nodes",
            "root=10.0.0.1:1883, a=tls://10.0.0.2:8883 10.0.0.3", "localhost", 1884, Transport.TCP);

    @Test
    void nodeList_takesNamesSchemesAndPorts_andDefaultsTheRest() {
        assertThat(THREE).extracting(n -> n.name).containsExactly("root", "a", "10.0.0.3:1884");
        assertThat(THREE).extracting(n -> n.port).containsExactly(1883, 8883, 1884);
        assertThat(THREE).extracting(n -> n.transport).containsExactly(Transport.TCP, Transport.TLS, Transport.TCP);
        assertThat(BrokerNode.parseList("nodes", " ", "broker", 1883, Transport.TCP)).singleElement()
                .satisfies(n -> assertThat(n.name).isEqualTo("broker:1883"));
    }

    @Test
    void badNodeLists_nameTheFieldAndTheEntry() {
        assertThatThrownBy(() -> BrokerNode.parseList("nodes", "a=h1:1883, a=h2:1883", "x", 1883, Transport.TCP))
                .isInstanceOf(InvalidSettingException.class).hasMessageContaining("nodes")
                .hasMessageContaining("a=h2:1883").hasMessageContaining("'a' twice");
        assertThatThrownBy(() -> BrokerNode.parseList("nodes", "h1:99999", "x", 1883, Transport.TCP))
                .hasMessageContaining("h1:99999").hasMessageContaining("1 to 65535");
        assertThatThrownBy(() -> BrokerNode.parseList("nodes", "quic://h1", "x", 1883, Transport.TCP))
                .hasMessageContaining("quic://h1").hasMessageContaining("unknown scheme 'quic'");
    }

    @Test
    void roundRobin_spreadsEachEnginesClientsEvenly_andEnginesStartOnDifferentNodes() {
        int[] perNode = new int[3];
        for (int engine = 1; engine <= 3; engine++) {
            int first = NodeAssignment.ROUND_ROBIN.choose(THREE, 0, engine, 0, 1, 1, 0, "", "nodeTemplate");
            assertThat(first).isEqualTo(engine % 3);
            for (long ordinal = 0; ordinal < 100; ordinal++) {
                perNode[NodeAssignment.ROUND_ROBIN.choose(THREE, 0, engine, ordinal, 1, 1, (int) ordinal, "", "t")]++;
            }
        }
        assertThat(perNode).containsExactly(100, 100, 100);
    }

    @Test
    void partition_keepsAThreadsClientsTogether() {
        for (int client = 0; client < 50; client++) {
            assertThat(NodeAssignment.PARTITION.choose(THREE, 0, 7, client, 1, 2, client, "", "t")).isEqualTo((7 + 1) % 3);
        }
    }

    @Test
    void template_takesNamesOrNumbers_andRefusesWhatNamesNoNode() {
        assertThat(NodeAssignment.TEMPLATE.choose(THREE, 0, 1, 0, 1, 1, 0, "a", "nodeTemplate")).isEqualTo(1);
        assertThat(NodeAssignment.TEMPLATE.choose(THREE, 0, 1, 0, 1, 1, 0, "3", "nodeTemplate")).isEqualTo(2);
        assertThatThrownBy(() -> NodeAssignment.TEMPLATE.choose(THREE, 0, 1, 0, 1, 1, 0, "4", "nodeTemplate"))
                .isInstanceOf(InvalidSettingException.class).hasMessageContaining("nodeTemplate")
                .hasMessageContaining("'4'").hasMessageContaining("from 1 to 3");
    }

    @Test
    void random_isStableForASeed_andCoversEveryNode() {
        int[] perNode = new int[3];
        for (int client = 0; client < 3000; client++) {
            int node = NodeAssignment.RANDOM.choose(THREE, 42, 1, client, 1, 1, client, "", "t");
            assertThat(NodeAssignment.RANDOM.choose(THREE, 42, 1, client, 1, 1, client, "", "t")).isEqualTo(node);
            perNode[node]++;
        }
        // 1,000 expected per node; 6 standard deviations (~155) would be a broken hash, not chance.
        assertThat(java.util.Arrays.stream(perNode).boxed()).allSatisfy(n -> assertThat(n).isBetween(845, 1155));
    }
}
