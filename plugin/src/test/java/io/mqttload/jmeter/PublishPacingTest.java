package io.mqttload.jmeter;

import static org.assertj.core.api.Assertions.assertThat;

import org.apache.jmeter.control.LoopController;
import org.apache.jmeter.threads.ThreadGroup;
import org.apache.jmeter.timers.ConstantThroughputTimer;
import org.apache.jorphan.collections.ListedHashTree;
import org.junit.jupiter.api.Test;

/** A throughput timer sets the Publish sampler's schedule only when its scope holds no other sampler. */
class PublishPacingTest {
    private final ThreadGroup group = new ThreadGroup();
    private final MqttConnectSampler connect = new MqttConnectSampler();
    private final LoopController loop = new LoopController();
    private final MqttPublishSampler publish = new MqttPublishSampler();
    private final ConstantThroughputTimer pace = new ConstantThroughputTimer();

    @Test
    void timerBesideThePublishSamplerInItsOwnLoop_pacesItAlone() {
        ListedHashTree tree = new ListedHashTree(group);
        tree.add(group, connect);
        tree.add(group, loop);
        tree.getTree(group).add(loop, publish);
        tree.getTree(group).add(loop, pace);

        assertThat(PublishPacing.pacesAlone(tree, pace, publish)).isTrue();
    }

    @Test
    void timerAsAChildOfThePublishSampler_pacesItAlone() {
        ListedHashTree tree = new ListedHashTree(group);
        tree.add(group, connect);
        tree.add(group, publish);
        tree.getTree(group).add(publish, pace);

        assertThat(PublishPacing.pacesAlone(tree, pace, publish)).isTrue();
    }

    @Test
    void timerOverTheThreadGroupWithAnotherSampler_setsNoSchedule() {
        ListedHashTree tree = new ListedHashTree(group);
        tree.add(group, connect);
        tree.add(group, publish);
        tree.add(group, pace);

        assertThat(PublishPacing.pacesAlone(tree, pace, publish)).isFalse();
    }
}
