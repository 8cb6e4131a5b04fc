package io.mqttload.engine;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

import io.mqttload.measure.Count;
import io.mqttload.measure.EngineMetrics;
import io.mqttload.measure.SamplerMetrics;

/**
 * The engine's judgement of the plan's schedule, ticked as the metrics ticker ticks it, with the published counts set
 * here: no JMeter, no broker, no wait. A published count that does not move is behind any schedule, and one that moves
 * by a billion a tick keeps up with any, whatever the ticks' seconds on this machine. PublishScheduleIT keeps what
 * JMeter's Constant Throughput Timer gives a real run; PublishPacingTest each thread's schedule.
 */
class PublishScheduleTest {
    private static final long FAST = 1_000_000_000L;

    private final PublishSchedule schedule = new PublishSchedule();
    private final EngineMetrics metrics = new EngineMetrics();
    private final SamplerMetrics sampler = new SamplerMetrics("publish");
    private final List<String> events = new ArrayList<>();

    @Test
    void aSamplerThatPublishesNothingOfItsSchedule_isBehindFromTheSixthSteadySecond_saidOnce() {
        schedule.offer(sampler, thread(20, 0));

        ticks(PublishSchedule.MIN_WINDOW_SECONDS, true, 0);
        assertThat(metrics.sum(Count.PUBLISH_BEHIND_SCHEDULE_SECONDS)).as("too few seconds to judge").isZero();
        ticks(3, true, 0);

        assertThat(metrics.sum(Count.PUBLISH_BEHIND_SCHEDULE_SECONDS)).isEqualTo(3);
        assertThat(metrics.sum(Count.SCHEDULED_PUBLISH_RATE)).isEqualTo(20);
        assertThat(events).singleElement().asString().startsWith("'publish' published 0.0 msg/s over the last")
                .endsWith("behind the 20.0 msg/s its schedule asks (its rate or throughput timers): the broker saw less load than the plan"
                        + " asks");
    }

    @Test
    void aSamplerThatKeepsUp_isNeverBehind() {
        schedule.offer(sampler, thread(20, 0));

        ticks(PublishSchedule.WINDOW_SECONDS + 5, true, FAST);

        assertThat(metrics.sum(Count.PUBLISH_BEHIND_SCHEDULE_SECONDS)).isZero();
        assertThat(metrics.sum(Count.SCHEDULED_PUBLISH_RATE)).isEqualTo(20);
        assertThat(events).isEmpty();
    }

    @Test
    void secondsOutsideTheSteadyPhase_judgeNothing_andStartTheWindowAgain() {
        schedule.offer(sampler, thread(20, 0));

        ticks(PublishSchedule.MIN_WINDOW_SECONDS, true, 0);
        ticks(1, false, 0);
        ticks(PublishSchedule.MIN_WINDOW_SECONDS, true, 0);

        assertThat(metrics.sum(Count.PUBLISH_BEHIND_SCHEDULE_SECONDS)).isZero();
        assertThat(metrics.sum(Count.SCHEDULED_PUBLISH_RATE)).as("a peak of the steady phase only").isEqualTo(20);
    }

    @Test
    void aTimerThatAsksNoThroughput_schedulesNothing_soNothingIsBehind() {
        schedule.offer(sampler, thread(0, 0));

        ticks(PublishSchedule.WINDOW_SECONDS, true, 0);

        assertThat(metrics.sum(Count.PUBLISH_BEHIND_SCHEDULE_SECONDS)).isZero();
        assertThat(metrics.sum(Count.SCHEDULED_PUBLISH_RATE)).isZero();
    }

    @Test
    void theScheduledRate_isEverySamplersThreadsAddedUp_andBehindIsCountedOnceASecondForAll() {
        SamplerMetrics other = new SamplerMetrics("other");
        schedule.offer(sampler, thread(20, 0));
        schedule.offer(other, thread(30, 0));

        ticks(PublishSchedule.MIN_WINDOW_SECONDS + 2, true, 0);

        assertThat(metrics.sum(Count.SCHEDULED_PUBLISH_RATE)).isEqualTo(50);
        assertThat(metrics.sum(Count.PUBLISH_BEHIND_SCHEDULE_SECONDS)).as("two samplers behind, one second").isEqualTo(2);
    }

    @Test
    void offeredInTheWindow_isTheSamplesStartedThere_plusWhatHeldUpThreadsOwedAtItsEnd() {
        schedule.offer(sampler, thread(20, 7));
        schedule.offeredInWindow(5);
        schedule.offeredInWindow(5);

        assertThat(schedule.scheduledInWindow(0)).isEqualTo(17);
    }

    /** {@code n} ticks, the sampler's published count moving by {@code published} before each. */
    private void ticks(int n, boolean steady, long published) {
        for (int i = 0; i < n; i++) {
            metrics.count(Count.PUBLISHED, sampler, null, published);
            schedule.tick(metrics, steady, events::add);
        }
    }

    private static PacedThread thread(double messagesPerSecond, long owed) {
        return new PacedThread() {
            @Override
            public double getAsDouble() {
                return messagesPerSecond;
            }

            @Override
            public long owedMessages(long endMicros) {
                return owed;
            }
        };
    }
}
