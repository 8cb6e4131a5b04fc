package io.mqttload.jmeter.remote;

import static org.assertj.core.api.Assertions.assertThat;

import java.rmi.NoSuchObjectException;
import java.rmi.registry.LocateRegistry;
import java.rmi.registry.Registry;
import java.rmi.server.UnicastRemoteObject;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.apache.jmeter.util.JMeterUtils;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import io.mqttload.live.LiveFigures;
import io.mqttload.testsupport.FreePorts;
import io.mqttload.testsupport.JMeterTestEngine;

/**
 * The controller's side of the live figures over real RMI, against engine stand-ins in a registry of this JVM: an
 * answer is read, an engine that does not answer costs at most the call timeout and is not asked again until it
 * answers, an engine with nothing bound says so.
 */
class RemoteLiveFiguresIT {
    private final List<Registry> registries = new ArrayList<>();
    private final CountDownLatch release = new CountDownLatch(1);
    private final AtomicInteger stuckCalls = new AtomicInteger();
    private final LiveFiguresSource answering = () -> figures("engine-1").toJson();
    private final LiveFiguresSource stuck = () -> {
        stuckCalls.incrementAndGet();
        try {
            release.await(30, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return figures("engine-2").toJson();
    };

    @BeforeEach
    void jmeter() {
        JMeterTestEngine.initialise();
        JMeterUtils.setProperty("server.rmi.ssl.disable", "true");
    }

    @AfterEach
    void close() throws Exception {
        release.countDown();
        for (LiveFiguresSource s : List.of(answering, stuck)) {
            try {
                UnicastRemoteObject.unexportObject(s, true);
            } catch (NoSuchObjectException notExportedByThisTest) {
                // Each test exports only the stand-ins it uses.
            }
        }
        for (Registry r : registries) {
            UnicastRemoteObject.unexportObject(r, true);
        }
    }

    @Test
    void answeringEngine_figuresRead_stuckEngine_boundedAndAskedOnce() throws Exception {
        String a = engine(answering);
        String b = engine(stuck);
        RemoteLiveFigures remote = new RemoteLiveFigures();

        long start = System.nanoTime();
        Map<String, RemoteLiveFigures.Answer> first = remote.ask(List.of(a, b));
        long firstMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
        Map<String, RemoteLiveFigures.Answer> second = remote.ask(List.of(a, b));

        assertThat(first.get(a).figures.engineId).isEqualTo("engine-1");
        assertThat(first.get(a).figures.published).isEqualTo(42);
        assertThat(first.get(b).figures).isNull();
        assertThat(first.get(b).problem).isEqualTo("no answer within 2000 ms");
        assertThat(firstMillis).isLessThan(RemoteLiveFigures.CALL_TIMEOUT_MILLIS + 1500);
        assertThat(second.get(b).problem).isEqualTo("no answer within 2000 ms");
        assertThat(stuckCalls).hasValue(1);

        release.countDown();
        assertThat(remote.ask(List.of(b)).get(b).figures.engineId).isEqualTo("engine-2");
    }

    @Test
    void engineWithNothingBound_saysSo() throws Exception {
        String empty = engine(null);

        Map<String, RemoteLiveFigures.Answer> answers = new RemoteLiveFigures().ask(List.of(empty));

        assertThat(answers.get(empty).figures).isNull();
        assertThat(answers.get(empty).problem).contains(LiveFiguresSource.NAME);
    }

    /** An engine's registry of its own, with {@code source} bound as an engine binds it (null: nothing bound). */
    private String engine(LiveFiguresSource source) throws Exception {
        int port = FreePorts.tcpPort();
        Registry registry = LocateRegistry.createRegistry(port);
        registries.add(registry);
        if (source != null) {
            registry.rebind(LiveFiguresSource.NAME, UnicastRemoteObject.exportObject(source, 0));
        }
        return "127.0.0.1:" + port;
    }

    private static LiveFigures figures(String engine) {
        LiveFigures f = new LiveFigures();
        f.engineId = engine;
        f.published = 42;
        return f;
    }
}
