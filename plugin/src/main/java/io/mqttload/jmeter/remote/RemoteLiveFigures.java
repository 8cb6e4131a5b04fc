package io.mqttload.jmeter.remote;

import java.net.InetSocketAddress;
import java.rmi.registry.LocateRegistry;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import org.apache.jmeter.rmi.RmiUtils;

import io.mqttload.client.Errors;
import io.mqttload.live.LiveFigures;

/**
 * On a controller: each running engine's {@link LiveFiguresSource}, looked up in its registry and asked once per
 * refresh. A call waits at most {@link #CALL_TIMEOUT_MILLIS} (RMI's own read timeout is unbounded); an engine whose
 * call is still out is not asked again until it answers, so a stuck engine holds one thread, not one per second.
 */
public final class RemoteLiveFigures {
    static final long CALL_TIMEOUT_MILLIS = 2000;

    private final ExecutorService calls = Executors.newCachedThreadPool(r -> {
        Thread t = new Thread(r, "mqttload-live-rmi");
        t.setDaemon(true);
        return t;
    });
    private final Map<String, LiveFiguresSource> sources = new ConcurrentHashMap<>();
    private final Map<String, Future<String>> outstanding = new ConcurrentHashMap<>();

    /** One engine's answer: its figures, or why there are none. */
    public static final class Answer {
        public final LiveFigures figures;
        public final String problem;

        Answer(LiveFigures figures, String problem) {
            this.figures = figures;
            this.problem = problem;
        }
    }

    /** Asks every engine in {@code hosts} (as {@code -R} names them), in that order. */
    public Map<String, Answer> ask(List<String> hosts) {
        // Engines no longer running are forgotten: the next run's engines, even under the same names, are new objects.
        sources.keySet().retainAll(hosts);
        outstanding.keySet().retainAll(hosts);
        Map<String, Future<String>> asked = new LinkedHashMap<>();
        for (String host : hosts) {
            asked.put(host, outstanding.computeIfAbsent(host, h -> calls.submit(() -> source(h).liveFiguresJson())));
        }
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(CALL_TIMEOUT_MILLIS);
        Map<String, Answer> answers = new LinkedHashMap<>();
        for (Map.Entry<String, Future<String>> e : asked.entrySet()) {
            answers.put(e.getKey(), answer(e.getKey(), e.getValue(), deadline));
        }
        return answers;
    }

    private Answer answer(String host, Future<String> call, long deadline) {
        try {
            String json = call.get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
            outstanding.remove(host, call);
            return json == null ? new Answer(null, "no figures yet") : new Answer(LiveFigures.fromJson(json), null);
        } catch (TimeoutException e) {
            return new Answer(null, "no answer within " + CALL_TIMEOUT_MILLIS + " ms");
        } catch (ExecutionException e) {
            outstanding.remove(host, call);
            // The engine may have restarted or not bound yet: look it up afresh next time.
            sources.remove(host);
            return new Answer(null, Errors.describe(e.getCause()));
        } catch (IllegalArgumentException e) {
            outstanding.remove(host, call);
            return new Answer(null, e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return new Answer(null, "interrupted");
        }
    }

    private LiveFiguresSource source(String host) throws Exception {
        LiveFiguresSource source = sources.get(host);
        if (source == null) {
            InetSocketAddress registry = EngineWatch.registryAddress(host);
            source = (LiveFiguresSource) LocateRegistry.getRegistry(registry.getHostString(),
                    registry.getPort(), RmiUtils.createClientSocketFactory()).lookup(LiveFiguresSource.NAME);
            sources.put(host, source);
        }
        return source;
    }

    /** The hosts' figures that arrived, for the chart. */
    public static List<LiveFigures> figures(Map<String, Answer> answers) {
        List<LiveFigures> all = new ArrayList<>();
        answers.values().forEach(a -> {
            if (a.figures != null) {
                all.add(a.figures);
            }
        });
        return all;
    }
}
