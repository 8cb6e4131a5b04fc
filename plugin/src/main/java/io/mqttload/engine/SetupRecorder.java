package io.mqttload.engine;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.mqttload.broker.BrokerIdentity;
import io.mqttload.client.BrokerNode;
import io.mqttload.client.ConnectionSettings;
import io.mqttload.client.Errors;
import io.mqttload.client.MqttConnector;
import io.mqttload.measure.SamplerMetrics;
import io.mqttload.summary.RunSetup;
import io.mqttload.traffic.LoadClient;

/**
 * Collects the run's {@link RunSetup} as it goes: each sampler's settings when it first runs, the distinct clients
 * each ran on, and what each broker endpoint says it is (asked once per endpoint, off the samplers' threads).
 */
public final class SetupRecorder {
    private static final Logger log = LoggerFactory.getLogger(SetupRecorder.class);

    private final ConcurrentHashMap<String, Step> steps = new ConcurrentHashMap<>();
    private final ConcurrentHashMap<String, CompletableFuture<String>> brokers = new ConcurrentHashMap<>();
    private final String clientIdPrefix;
    private final AtomicInteger asked = new AtomicInteger();
    private final long askTimeoutMillis;
    private final MqttConnector connector;
    private volatile String testPlan = "";

    /**
     * @param connector        the run's transport, through which brokers are asked
     * @param clientIdPrefix   the start of the asking clients' ids (unique per engine and run)
     * @param askTimeoutMillis how long a broker is given to connect and to answer; 0: brokers are not asked (nor listed)
     */
    SetupRecorder(MqttConnector connector, String clientIdPrefix, long askTimeoutMillis) {
        this.connector = connector;
        this.clientIdPrefix = clientIdPrefix;
        this.askTimeoutMillis = askTimeoutMillis;
    }

    /** One sampler with one set of settings: counts the distinct clients it runs on. */
    public static final class Step {
        final String role;
        final String sampler;
        final Map<String, String> settings;
        private final Set<LoadClient> clients = ConcurrentHashMap.newKeySet();
        /** Clients a Connect sampler tried to connect, or -1 for the other samplers. */
        private final AtomicLong tried;

        Step(String role, String sampler, Map<String, String> settings) {
            this.role = role;
            this.sampler = sampler;
            this.settings = settings;
            this.tried = new AtomicLong("connect".equals(role) ? 0 : -1);
        }

        /** A Connect sampler tried {@code n} clients more: connected or not. */
        public void tried(int n) {
            tried.addAndGet(n);
        }

        /** The sampler ran on {@code client}; a client that runs it again and again is looked up once per streak. */
        public void ranOn(LoadClient client) {
            if (client.tallyChanged(this)) {
                clients.add(client);
            }
        }
    }

    /** An operation's step in the run it last ran in: looked up once per run, not once per sample. */
    static final class StepRef {
        private final String role;
        private SetupRecorder recorder;
        private Step step;

        StepRef(String role) {
            this.role = role;
        }

        Step in(RunContext run, SamplerMetrics sampler, Supplier<Map<String, String>> settings) {
            if (recorder != run.setup()) {
                recorder = run.setup();
                step = recorder.step(role, sampler.label, settings.get());
            }
            return step;
        }
    }

    public void testPlan(String name) {
        testPlan = name == null ? "" : name;
    }

    /** The step of a sampler with these settings, made on first use; the same settings share one. */
    public Step step(String role, String sampler, Map<String, String> settings) {
        return steps.computeIfAbsent(RunSetup.Step.key(role, sampler, settings),
                k -> new Step(role, sampler, Collections.unmodifiableMap(new LinkedHashMap<>(settings))));
    }

    /** Asks each node of the connection, once per endpoint and run, what broker it is. */
    void brokersOf(ConnectionSettings settings) {
        if (askTimeoutMillis == 0) {
            return;
        }
        for (BrokerNode node : settings.nodes()) {
            String endpoint = node.describe();
            if (brokers.containsKey(endpoint)) {
                continue;
            }
            CompletableFuture<String> answer = new CompletableFuture<>();
            if (brokers.putIfAbsent(endpoint, answer) != null) {
                continue;
            }
            String clientId = clientIdPrefix + asked.incrementAndGet();
            Thread asker = new Thread(() -> {
                try {
                    answer.complete(BrokerIdentity.ask(connector, clientId, settings.forNode(node.index), askTimeoutMillis));
                } catch (RuntimeException e) {
                    log.info("MQTT: {}", Errors.describe(e));
                    answer.complete(RunSetup.NOT_ANNOUNCED);
                }
            }, "mqtt-broker-identity");
            asker.setDaemon(true);
            asker.start();
        }
    }

    /** The setup so far; waits at most {@code waitMillis} in all for brokers still being asked. */
    RunSetup snapshot(long waitMillis) {
        RunSetup setup = new RunSetup();
        setup.setTestPlan(testPlan);
        for (Step s : steps.values()) {
            RunSetup.Step step = new RunSetup.Step(s.role, s.sampler, s.settings, s.clients.size());
            long tried = s.tried.get();
            step.tried = tried < 0 ? null : tried;
            setup.steps.add(step);
        }
        setup.steps.sort(RunSetup.ORDER);
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(waitMillis);
        brokers.forEach((endpoint, answer) -> setup.brokers.put(endpoint, answerBy(answer, deadline)));
        return setup;
    }

    private static String answerBy(CompletableFuture<String> answer, long deadline) {
        try {
            return answer.get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
        } catch (TimeoutException | ExecutionException e) {
            return RunSetup.NOT_ANNOUNCED;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return RunSetup.NOT_ANNOUNCED;
        }
    }
}
