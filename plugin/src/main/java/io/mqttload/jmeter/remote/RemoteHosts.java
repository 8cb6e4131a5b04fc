package io.mqttload.jmeter.remote;

import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Function;

/**
 * How many engines a controller starts. A headless controller keeps its {@code -R} list in no property (JMeter's
 * {@code startNonGui} passes it on as a local variable), so it is read from the JVM's command line; {@code -r} starts
 * the engines of {@code remote_hosts}, as the GUI's Remote Start All does.
 */
public final class RemoteHosts {
    /** JMeter's own name and default for the engines of {@code -r} and of the GUI's Remote Start All. */
    public static final String PROPERTY = "remote_hosts";
    private static final String DEFAULT = "127.0.0.1";

    private RemoteHosts() {
    }

    /**
     * The engines the command line {@code args} starts ({@code -R list}, {@code -Rlist}, {@code --remotestart list} or
     * {@code --remotestart=list}; else {@code -r} or {@code --runremote}, with {@code remote_hosts}); 0 when it starts
     * none, or does not say.
     */
    public static int count(List<String> args, Function<String, String> property) {
        boolean remote = false;
        for (int i = 0; i < args.size(); i++) {
            String a = args.get(i);
            if ((a.equals("-R") || a.equals("--remotestart")) && i + 1 < args.size()) {
                return count(args.get(i + 1));
            }
            if (a.startsWith("--remotestart=")) {
                return count(a.substring("--remotestart=".length()));
            }
            if (a.startsWith("-R") && !a.startsWith("-R=")) {
                return count(a.substring(2));
            }
            remote |= a.equals("-r") || a.equals("--runremote");
        }
        if (!remote) {
            return 0;
        }
        String hosts = property.apply(PROPERTY);
        return count(hosts == null ? DEFAULT : hosts);
    }

    /** Distinct engines of a comma-separated list, as JMeter keeps them (by address, so one listed twice is one). */
    public static int count(String hosts) {
        Set<String> distinct = new LinkedHashSet<>();
        for (String h : hosts.split(",")) {
            if (!h.trim().isEmpty()) {
                distinct.add(h.trim());
            }
        }
        return distinct.size();
    }

    /**
     * This JVM's arguments: the launcher's {@code sun.java.command} (main class or jar, then the application's
     * arguments, space-separated), else the process's whole command line; empty when neither is known.
     */
    public static List<String> commandLine() {
        String command = System.getProperty("sun.java.command");
        if (command != null && !command.trim().isEmpty()) {
            return Arrays.asList(command.trim().split("\\s+"));
        }
        return ProcessHandle.current().info().arguments().map(Arrays::asList).orElse(List.of());
    }
}
