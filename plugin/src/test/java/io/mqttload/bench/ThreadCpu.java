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
 * CPU time of a process by kind of thread, from /proc/<pid>/task: Java threads and the JVM's own (GC, JIT)
 * alike, which a Java-level profiler does not weigh against each other. Used to say which threads the suite's
 * extra cost per message runs on.
 */
final class ThreadCpu {
    static final String JIT = "JIT";

    private final Map<String, Long> ticksByKind;
    /** Context switches (voluntary and not) by kind: how often each kind of thread was put to sleep and woken. */
    private final Map<String, Long> switchesByKind;

    private ThreadCpu(Map<String, Long> ticksByKind, Map<String, Long> switchesByKind) {
        this.ticksByKind = ticksByKind;
        this.switchesByKind = switchesByKind;
    }

    /** The threads of process {@code pid}. */
    static ThreadCpu read(long pid) throws IOException {
        Map<String, Long> ticks = new TreeMap<>();
        Map<String, Long> switches = new TreeMap<>();
        try (DirectoryStream<Path> tasks = Files.newDirectoryStream(Path.of("/proc", Long.toString(pid), "task"))) {
            for (Path task : tasks) {
                String stat;
                String status;
                try {
                    stat = new String(Files.readAllBytes(task.resolve("stat")), StandardCharsets.US_ASCII);
                    status = new String(Files.readAllBytes(task.resolve("status")), StandardCharsets.US_ASCII);
                } catch (IOException endedMeanwhile) {
                    continue;
                }
                String kind = kind(stat.substring(stat.indexOf('(') + 1, stat.lastIndexOf(')')));
                ticks.merge(kind, ProcessStats.cpuTicks(stat), Long::sum);
                switches.merge(kind, contextSwitches(status), Long::sum);
            }
        }
        return new ThreadCpu(ticks, switches);
    }

    private static long contextSwitches(String status) {
        long n = 0;
        for (String line : status.split("\n")) {
            if (line.contains("ctxt_switches:")) {
                n += Long.parseLong(line.substring(line.indexOf(':') + 1).trim());
            }
        }
        return n;
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
            long switches = switchesByKind.getOrDefault(e.getKey(), 0L) - before.switchesByKind.getOrDefault(e.getKey(), 0L);
            s.append(String.format(Locale.ROOT, "%s %.1f (%.2f sw)  ", e.getKey(), ticks * 10_000.0 / Math.max(1, messages),
                    switches / Math.max(1, messages)));
        }
        return s.toString().trim();
    }
}
