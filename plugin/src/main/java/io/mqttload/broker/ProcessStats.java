package io.mqttload.broker;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * One reading of a local process from Linux's /proc: CPU time (user + system), resident memory, threads,
 * open file descriptors and how many of them are sockets. Everything is read as text; a process that
 * ended or an entry that cannot be read raises an {@link IOException} naming the file.
 */
public final class ProcessStats {
    /** Clock ticks per second of {@code /proc/<pid>/stat}'s CPU times; USER_HZ is 100 on every Linux architecture in use. */
    static final long TICKS_PER_SECOND = 100;
    private static final Path PROC = Path.of("/proc");

    public final long pid;
    public final long cpuTicks;
    public final long rssBytes;
    public final int threads;
    public final int openFds;
    public final int sockets;

    private ProcessStats(long pid, long cpuTicks, long rssBytes, int threads, int openFds, int sockets) {
        this.pid = pid;
        this.cpuTicks = cpuTicks;
        this.rssBytes = rssBytes;
        this.threads = threads;
        this.openFds = openFds;
        this.sockets = sockets;
    }

    /** CPU used between two readings of {@link #cpuTicks} taken {@code seconds} apart, in % of one core. */
    public static double cpuPercentOfCore(long ticksBefore, long ticksAfter, double seconds) {
        return 100.0 * (ticksAfter - ticksBefore) / TICKS_PER_SECOND / seconds;
    }

    /** The process's CPU time so far (user and system), in ticks of {@link #TICKS_PER_SECOND}: its stat file only. */
    public static long cpuTicksOf(long pid) throws IOException {
        return cpuTicks(read(PROC.resolve(Long.toString(pid)).resolve("stat")));
    }

    public static ProcessStats read(long pid) throws IOException {
        Path dir = PROC.resolve(Long.toString(pid));
        long ticks = cpuTicks(read(dir.resolve("stat")));
        long rss = 0;
        int threads = 0;
        for (String line : read(dir.resolve("status")).split("\n")) {
            if (line.startsWith("VmRSS:")) {
                rss = Long.parseLong(line.replaceAll("[^0-9]", "")) * 1024;
            } else if (line.startsWith("Threads:")) {
                threads = Integer.parseInt(line.replaceAll("[^0-9]", ""));
            }
        }
        int fds = 0;
        int sockets = 0;
        try (DirectoryStream<Path> entries = Files.newDirectoryStream(dir.resolve("fd"))) {
            for (Path fd : entries) {
                fds++;
                try {
                    if (Files.readSymbolicLink(fd).toString().startsWith("socket:")) {
                        sockets++;
                    }
                } catch (IOException closedMeanwhile) {
                    // The descriptor was closed between listing and reading: counted as open, not as a socket.
                }
            }
        }
        return new ProcessStats(pid, ticks, rss, threads, fds, sockets);
    }

    /** User plus system CPU time, in clock ticks, of a process's or a thread's {@code stat} line. */
    public static long cpuTicks(String stat) {
        // The command name in parentheses may hold spaces and ')': the fields start after the last ')'.
        String[] f = stat.substring(stat.lastIndexOf(')') + 2).trim().split(" ");
        // After the name: state(0) ppid(1) ... utime(11) stime(12), per proc(5).
        return Long.parseLong(f[11]) + Long.parseLong(f[12]);
    }

    private static String read(Path file) throws IOException {
        try {
            return new String(Files.readAllBytes(file), StandardCharsets.US_ASCII);
        } catch (NoSuchFileException e) {
            throw new IOException(file + " does not exist: the process has ended", e);
        } catch (IOException e) {
            throw new IOException(file + " cannot be read: " + e.getMessage(), e);
        }
    }

    /**
     * Processes whose name (/proc/pid/comm, as {@code ps -e} shows it) equals {@code name}, or whose
     * command line's program file is named {@code name}; in PID order.
     */
    public static List<Long> findByName(String name) throws IOException {
        List<Long> pids = new ArrayList<>();
        try (DirectoryStream<Path> entries = Files.newDirectoryStream(PROC, p -> p.getFileName().toString().matches("\\d+"))) {
            for (Path p : entries) {
                try {
                    String comm = new String(Files.readAllBytes(p.resolve("comm")), StandardCharsets.UTF_8).trim();
                    String cmdline = new String(Files.readAllBytes(p.resolve("cmdline")), StandardCharsets.UTF_8);
                    String program = cmdline.contains("\0") ? cmdline.substring(0, cmdline.indexOf('\0')) : cmdline;
                    if (comm.equals(name) || Path.of(program.isEmpty() ? "/" : program).endsWith(name)) {
                        pids.add(Long.parseLong(String.valueOf(p.getFileName())));
                    }
                } catch (IOException | RuntimeException gone) {
                    // A process that ended while listing, or a kernel thread without a command line.
                }
            }
        }
        pids.sort(null);
        return pids;
    }
}
