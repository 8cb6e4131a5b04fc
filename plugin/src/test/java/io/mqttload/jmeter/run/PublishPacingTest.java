package io.mqttload.jmeter.run;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;

import org.apache.jmeter.control.LoopController;
import org.apache.jmeter.threads.ThreadGroup;
import org.apache.jmeter.timers.ConstantThroughputTimer;
import org.apache.jorphan.collections.ListedHashTree;
import org.junit.jupiter.api.Test;

import io.mqttload.jmeter.MqttConnectSampler;
import io.mqttload.jmeter.MqttPublishSampler;
import io.mqttload.measure.MicroClock;

/**
 * A throughput timer sets the Publish sampler's schedule only when its scope holds no other sampler; the schedule gives
 * each sample its intended send time.
 */
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

    @Test
    void intendedTime_advancesByTheTimersDelay_andKeepsWhatALateSampleLost() {
        pace.setThroughput(6_000);
        PublishPacing.ThreadPace thread = new PublishPacing.ThreadPace(List.of(pace), null);
        long t0 = MicroClock.nowMicros();

        assertThat(thread.intendedMicros(t0)).as("the first sample starts the schedule").isEqualTo(t0);
        thread.sampleEnded(1, t0 + 100);
        assertThat(thread.intendedMicros(t0 + 10_300)).as("0.3 ms late: the next slot").isEqualTo(t0 + 10_000);
        // The broker holds this sample for 2 s; the timer then starts again from the late start, the schedule does not.
        thread.sampleEnded(1, t0 + 2_010_000);
        assertThat(thread.intendedMicros(t0 + 2_010_200)).isEqualTo(t0 + 20_000);
        thread.sampleEnded(1, t0 + 2_010_300);
        assertThat(thread.intendedMicros(t0 + 2_020_200)).as("still 2 s behind").isEqualTo(t0 + 30_000);
    }

    @Test
    void intendedTime_startsAgain_whenASampleComesEarlyOrTheThreadWasAwayLongerThanItsPace() {
        pace.setThroughput(6_000);
        PublishPacing.ThreadPace thread = new PublishPacing.ThreadPace(List.of(pace), null);
        long t0 = MicroClock.nowMicros();
        thread.intendedMicros(t0);
        thread.sampleEnded(1, t0 + 100);

        assertThat(thread.intendedMicros(t0 + 9_000)).as("before its slot (the timer's rounding): on time")
                .isEqualTo(t0 + 9_000);
        thread.sampleEnded(1, t0 + 9_100);
        // Out of samples for 3 s (a barrier): owed nothing for that time.
        assertThat(thread.intendedMicros(t0 + 3_009_100)).isEqualTo(t0 + 3_009_100);
    }

    @Test
    void intendedTime_followsTheSlowestTimer_inWholeMillisecondsAsTheTimerWaits() {
        pace.setThroughput(180);
        ConstantThroughputTimer faster = new ConstantThroughputTimer();
        faster.setThroughput(6_000);
        PublishPacing.ThreadPace thread = new PublishPacing.ThreadPace(List.of(faster, pace), null);
        long t0 = MicroClock.nowMicros();
        thread.intendedMicros(t0);
        thread.sampleEnded(1, t0 + 100);

        // 180 a minute: the timer waits 333 ms (Math.round of 333.3), so the schedule does not drift ahead of it.
        assertThat(thread.intendedMicros(t0 + 400_000)).isEqualTo(t0 + 333_000);
        thread.sampleEnded(1);
        assertThat(thread.getAsDouble()).as("the rate of the 333 ms kept, not 3 a second").isEqualTo(1e6 / 333_000);
    }

    @Test
    void offeredRate_isTheWholeMillisecondScheduleKept_notTheTimersNominalRate() {
        // 25,000 a minute is a sample every 2.4 ms, which the timer waits as 2 ms: 500 samples a second, not 416.7.
        pace.setThroughput(25_000);
        PublishPacing.ThreadPace thread = new PublishPacing.ThreadPace(List.of(pace), null);
        thread.sampleEnded(3);
        assertThat(thread.getAsDouble()).isEqualTo(1_500.0);

        // 24,000 a minute is 2.5 ms, waited as 3 ms: 333.3 a second, where the nominal 400 says a fifth more.
        pace.setThroughput(24_000);
        thread.sampleEnded(1);
        assertThat(thread.getAsDouble()).isEqualTo(1e6 / 3_000);

        // 6,000,000 a minute is 0.01 ms, waited as nothing: the timer keeps no schedule, the rate asked for stands.
        pace.setThroughput(6_000_000);
        thread.sampleEnded(1);
        assertThat(thread.getAsDouble()).isEqualTo(100_000.0);

        pace.setThroughput(0);
        thread.sampleEnded(1);
        assertThat(thread.getAsDouble()).as("no throughput: no schedule").isZero();
    }

    @Test
    void intendedTime_startsAgainAtTheMeasuredWindow_soWarmUpLatenessStaysOutOfTheFigures() {
        pace.setThroughput(6_000);
        PublishPacing.ThreadPace thread = new PublishPacing.ThreadPace(List.of(pace), null);
        long t0 = MicroClock.nowMicros();

        assertThat(thread.intendedMicros(t0, false)).isEqualTo(t0);
        // Held up 150 ms in the warm-up: behind until the window begins.
        thread.sampleEnded(1, t0 + 160_000);
        assertThat(thread.intendedMicros(t0 + 160_100, false)).isEqualTo(t0 + 10_000);
        thread.sampleEnded(1, t0 + 160_200);
        assertThat(thread.intendedMicros(t0 + 170_100, true)).as("the window's first sample starts the schedule")
                .isEqualTo(t0 + 170_100);
        thread.sampleEnded(1, t0 + 170_200);
        assertThat(thread.intendedMicros(t0 + 180_300, true)).as("and it keeps lateness from then on")
                .isEqualTo(t0 + 180_100);
    }

    @Test
    void owedMessages_areTheWholeIntervalsPassedWithoutASample() {
        pace.setThroughput(6_000);
        PublishPacing.ThreadPace thread = new PublishPacing.ThreadPace(List.of(pace), null);
        long t0 = MicroClock.nowMicros();
        thread.intendedMicros(t0, true);
        thread.sampleEnded(5, t0 + 100);

        assertThat(thread.owedMessages(t0 + 9_000)).as("before the next slot").isZero();
        assertThat(thread.owedMessages(t0 + 19_999)).as("done with its samples: nothing owed").isZero();
        // Held up in its next sample for 50 ms: five whole intervals of five messages were never started.
        thread.intendedMicros(t0 + 10_000, true);
        thread.sampleStarted();
        assertThat(thread.owedMessages(t0 + 70_000)).isEqualTo(25);
        // Its last sample ended there: what comes after is not owed, the thread is done.
        thread.sampleEnded(5, t0 + 70_000);
        assertThat(thread.owedMessages(t0 + 500_000)).isEqualTo(25);
    }
}
