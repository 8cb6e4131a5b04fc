package io.mqttload.bench;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

import io.mqttload.broker.ProcessStats;

/**
 * CPU time of this process by kind of thread, from /proc/self/task: Java threads and the JVM's own (GC, JIT)
 * alike, which a Java-level profiler does not weigh against each other. Used to say which threads the suite's
 * extra cost per message runs on.
 */
final class ThreadCpu {
    static final String JIT = "JIT";
    private static final Path TASKS = Path.of("/proc/self/task");

    private final Map<String, Long> ticksByKind;

    private ThreadCpu(Map<String, Long> ticksByKind) {
        this.ticksByKind = ticksByKind;
    }

    static ThreadCpu read() throws IOException {
        Map<String, Long> ticks = new TreeMap<>();
        try (DirectoryStream<Path> tasks = Files.newDirectoryStream(TASKS)) {
            for (Path task : tasks) {
                String stat;
                try {
                    stat = new String(Files.readAllBytes(task.resolve("stat")), StandardCharsets.US_ASCII);
                } catch (IOException endedMeanwhile) {
                    continue;
                }
                String name = stat.substring(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
                ticks.merge(kind(name), ProcessStats.cpuTicks(stat), Long::sum);
            }
        }
        return new ThreadCpu(ticks);
    }

    /** Threads grouped by what they do; /proc keeps the first 15 characters of a thread's name. */
    private static String kind(String name) {
        if (name.startsWith("mqttload-netty") || name.startsWith("com.hivemq.clie")) {
            return "event loop";
        }
        if (name.startsWith("RxComputation")) {
            return "completions";
        }
        if (name.startsWith("raw-publisher") || name.matches("t \\d+-\\d+")) {
            return "publishers";
        }
        if (name.startsWith("GC ") || name.startsWith("G1 ")) {
            return "GC";
        }
        if (name.startsWith("C1 ") || name.startsWith("C2 ")) {
            return JIT;
        }
        return "other";
    }

    /** CPU µs per message of one kind of thread, from {@code before} to this reading. */
    double perMessageSince(ThreadCpu before, double messages, String kind) {
        long ticks = ticksByKind.getOrDefault(kind, 0L) - before.ticksByKind.getOrDefault(kind, 0L);
        return ticks * 10_000.0 / Math.max(1, messages);
    }

    /** CPU µs per message by kind, from {@code before} to this reading. */
    String perMessageSince(ThreadCpu before, double messages) {
        StringBuilder s = new StringBuilder();
        for (Map.Entry<String, Long> e : ticksByKind.entrySet()) {
            long ticks = e.getValue() - before.ticksByKind.getOrDefault(e.getKey(), 0L);
            s.append(String.format(Locale.ROOT, "%s %.1f  ", e.getKey(), ticks * 10_000.0 / Math.max(1, messages)));
        }
        return s.toString().trim();
    }
}
