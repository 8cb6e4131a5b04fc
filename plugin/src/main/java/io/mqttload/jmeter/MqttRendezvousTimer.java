package io.mqttload.jmeter;

import java.util.Locale;
import java.util.concurrent.TimeUnit;

import org.apache.jmeter.engine.StandardJMeterEngine;
import org.apache.jmeter.testbeans.TestBean;
import org.apache.jmeter.testelement.AbstractTestElement;
import org.apache.jmeter.threads.AbstractThreadGroup;
import org.apache.jmeter.threads.JMeterContext;
import org.apache.jmeter.threads.JMeterContextService;
import org.apache.jmeter.timers.Timer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.mqttload.client.ConnectionSettings;
import io.mqttload.common.InvalidSettingException;
import io.mqttload.common.settings.RendezvousSettings;
import io.mqttload.engine.EngineRuntime;
import io.mqttload.jmeter.remote.ControllerStamp;
import io.mqttload.jmeter.run.JvmRun;
import io.mqttload.jmeter.run.MqttElements;
import io.mqttload.rendezvous.Rendezvous;

/**
 * MQTT Rendezvous Timer: holds each thread until {@code groupSize} threads of every engine of the run
 * have arrived, then releases them together (see {@link Rendezvous}). Like JMeter's Synchronizing
 * Timer it applies before each sampler in its scope; each pass of a thread is the next generation of
 * the barrier, so the same barrier can be passed again (before the drain, say). Every wait is bounded
 * by {@code timeoutInMs}; on a timeout the barrier is named with the count reached and expected, and
 * the configured action happens. Engines of one run that arrive under different run ids can never meet: that is
 * named as soon as it is seen, and the test stops as for a barrier that cannot work.
 */
public class MqttRendezvousTimer extends AbstractTestElement implements Timer, TestBean, MqttTestStateListener {
    private static final long serialVersionUID = 1L;
    private static final Logger log = LoggerFactory.getLogger(MqttRendezvousTimer.class);

    private String groupSize = RendezvousSettings.GROUP_SIZE.defaultText();
    private String timeoutInMs = RendezvousSettings.TIMEOUT_IN_MS.defaultText();
    private String barrierName = RendezvousSettings.BARRIER_NAME.defaultText();
    private String onTimeout = RendezvousSettings.ON_TIMEOUT.defaultText();
    private String brokerHost = RendezvousSettings.BROKER_HOST.defaultText();
    private String brokerPort = RendezvousSettings.BROKER_PORT.defaultText();

    /** This thread's passes through the barrier (the timer is cloned per thread). */
    private transient int generation;

    /** A field, not a property: the controller fills it as it sends the plan, and it never goes into a saved plan. */
    private ControllerStamp controllerStamp = new ControllerStamp();

    @Override
    public ControllerStamp controllerStamp() {
        return controllerStamp;
    }

    @Override
    public void testStarted() {
        MqttElements.startRuntime(controllerStamp.given());
    }

    @Override
    public long delay() {
        generation++;
        JMeterContext context = JMeterContextService.getContext();
        EngineRuntime runtime = JvmRun.running().orElse(null);
        if (runtime != null && runtime.isStopRequested()) {
            // A barrier's timeout is stopping the test: this thread ends after its current sample, without
            // waiting again, rather than whenever JMeter's stop reaches it.
            if (context.getThread() != null) {
                context.getThread().stop();
            }
            return 0;
        }
        String name = barrierName == null || barrierName.trim().isEmpty() ? getName() : barrierName.trim();
        if (runtime == null) {
            fail(context, null, name, "the MQTT runtime is not running: " + MqttElements.startupError());
            return 0;
        }
        Rendezvous.Passage passage;
        try {
            int size = groupSize(context, runtime);
            long timeout = RendezvousSettings.TIMEOUT_IN_MS.parse(timeoutInMs);
            Action action = Action.valueOf(RendezvousSettings.ON_TIMEOUT.parse(onTimeout));
            long arrived = System.nanoTime();
            // A broker busy with the load's connects may answer the control client late: that time is the barrier's.
            Rendezvous rendezvous = runtime.rendezvous(broker(runtime), timeout);
            long left = Math.max(1, timeout - TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - arrived));
            passage = rendezvous.await(name, generation, size, left, size > threadsHere(context));
            if (!passage.released) {
                Rendezvous.Barrier b = passage.barrier;
                if (passage.brokeIt && b.mismatch() != null) {
                    fail(context, runtime, name, "pass #" + b.generation + ": " + b.mismatch());
                } else if (passage.brokeIt) {
                    String others = b.otherRuns().isEmpty() ? "" : "; arrived under other run ids: " + b.otherRuns();
                    String reason = String.format(Locale.ROOT, "%s timed out after %d ms: %d of %d threads arrived"
                            + " (engines seen: %s%s)", b.describe(), timeout, b.arrived(), b.groupSize, b.enginesSeen(),
                            others);
                    runtime.context().metrics().rendezvousTimedOut(getName(), reason);
                    String text = "MQTT rendezvous " + reason + "; " + action.describe();
                    report(runtime, text);
                    action.apply(context, runtime);
                }
                return 0;
            }
            if (passage.barrier.claimReleaseReport()) {
                runtime.productionStarted("rendezvous " + passage.barrier.describe() + " released");
                runtime.event("rendezvous", String.format(Locale.ROOT, "%s released: %d of %d arrived after %.0f ms",
                        passage.barrier.describe(), passage.barrier.arrivedAtRelease(), passage.barrier.groupSize,
                        Rendezvous.waitedMillis(passage.barrier)));
            }
        } catch (InvalidSettingException e) {
            fail(context, runtime, name, "invalid setting: " + e.getMessage());
        } catch (IllegalStateException e) {
            fail(context, runtime, name, e.getMessage());
        } catch (InterruptedException e) {
            // The test is being stopped: let the thread see it.
            Thread.currentThread().interrupt();
        }
        return 0;
    }

    /** A barrier that cannot work (no broker, bad setting) must not be passed silently: the test stops. */
    private void fail(JMeterContext context, EngineRuntime runtime, String name, String why) {
        String text = "MQTT rendezvous '" + name + "' cannot work: " + why + "; stopping the test";
        if (runtime != null) {
            if (runtime.firstTime(text)) {
                runtime.context().metrics().rendezvousFailed(getName(), "cannot work: " + why);
                report(runtime, text);
            }
        } else {
            log.error(text);
            System.out.println(text);
        }
        Action.STOP_TEST.apply(context, runtime);
    }

    private static void report(EngineRuntime runtime, String text) {
        log.error(text);
        System.out.println(text);
        runtime.event("errors", text);
    }

    /** With groupSize 0: this thread group's threads on every engine of the run (the property, or the controller's count). */
    private int groupSize(JMeterContext context, EngineRuntime runtime) {
        int size = RendezvousSettings.GROUP_SIZE.parse(groupSize);
        if (size > 0) {
            return size;
        }
        return threadsHere(context) * runtime.config().engines();
    }

    /** This thread group's threads on this engine: a barrier for more needs other engines. */
    private static int threadsHere(JMeterContext context) {
        AbstractThreadGroup group = context.getThreadGroup();
        return group == null ? 1 : group.getNumThreads();
    }

    private ConnectionSettings broker(EngineRuntime runtime) {
        String host = brokerHost == null ? "" : brokerHost.trim();
        if (!host.isEmpty()) {
            return ConnectionSettings.builder().host(host).port(RendezvousSettings.BROKER_PORT.parse(brokerPort))
                    .build();
        }
        ConnectionSettings first = runtime.context().firstConnection();
        if (first == null) {
            throw new IllegalStateException("no broker for the barrier: run an MQTT Connect on this engine before"
                    + " the timer, or set brokerHost and brokerPort");
        }
        return first;
    }

    enum Action {
        CONTINUE("the threads go on unsynchronised"),
        STOP_TEST("stopping the test (threads finish their current sample)"),
        STOP_TEST_NOW("stopping the test now");

        private final String description;

        Action(String description) {
            this.description = description;
        }

        String describe() {
            return description;
        }

        /** @param runtime the run this thread is in, or null when none is running */
        void apply(JMeterContext context, EngineRuntime runtime) {
            StandardJMeterEngine engine = context.getEngine();
            if (this == CONTINUE || engine == null) {
                return;
            }
            if (runtime != null) {
                runtime.requestStop();
            }
            if (context.getThread() != null) {
                context.getThread().stop();
            }
            if (this == STOP_TEST) {
                engine.askThreadsToStop();
            } else {
                // From a JMeter thread: stopping now must not wait for this very thread.
                new Thread(() -> engine.stopTest(true), "mqttload-rendezvous-stop").start();
            }
        }
    }

    public String getGroupSize() {
        return groupSize;
    }

    public void setGroupSize(String groupSize) {
        this.groupSize = groupSize;
    }

    public String getTimeoutInMs() {
        return timeoutInMs;
    }

    public void setTimeoutInMs(String timeoutInMs) {
        this.timeoutInMs = timeoutInMs;
    }

    public String getBarrierName() {
        return barrierName;
    }

    public void setBarrierName(String barrierName) {
        this.barrierName = barrierName;
    }

    public String getOnTimeout() {
        return onTimeout;
    }

    public void setOnTimeout(String onTimeout) {
        this.onTimeout = onTimeout;
    }

    public String getBrokerHost() {
        return brokerHost;
    }

    public void setBrokerHost(String brokerHost) {
        this.brokerHost = brokerHost;
    }

    public String getBrokerPort() {
        return brokerPort;
    }

    public void setBrokerPort(String brokerPort) {
        this.brokerPort = brokerPort;
    }
}
