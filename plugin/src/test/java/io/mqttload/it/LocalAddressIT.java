package io.mqttload.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.mqttload.client.ConnectionSettings;
import io.mqttload.client.ReconnectPolicy;
import io.mqttload.common.settings.ConnectSettings;
import io.mqttload.common.settings.SettingValues;
import io.mqttload.engine.ClientGroup;
import io.mqttload.engine.ConnectOperation;
import io.mqttload.engine.EngineRuntime;
import io.mqttload.engine.OperationResult;
import io.mqttload.engine.RunConfig;
import io.mqttload.engine.RunContext;
import io.mqttload.testsupport.MosquittoBroker;

/**
 * Source addresses: clients spread over 127.0.0.2 and 127.0.0.3 really connect from them (read back
 * from the kernel's socket table), which is how one engine exceeds ~28k ports toward one broker port.
 */
class LocalAddressIT {
    @TempDir
    Path results;

    private EngineRuntime runtime;

    @AfterEach
    void stopRuntime() {
        if (runtime != null) {
            runtime.shutdown();
        }
    }

    @Test
    void clients_connectFromTheConfiguredSourceAddresses_roundRobin() throws IOException {
        MosquittoBroker.requireInstalled();
        try (MosquittoBroker broker = MosquittoBroker.builder().start()) {
            RunContext run = start();
            ClientGroup group = run.group(Thread.currentThread(), "default");
            ConnectionSettings settings = ConnectionSettings.builder().host("127.0.0.1").port(broker.tcpPort()).build();

            OperationResult result = connect(settings, "10", "127.0.0.2, 127.0.0.3").run(run, group, 1, 1,
                    run.samplerMetrics("connect"));

            assertThat(result.ok).as(result.message).isTrue();
            Map<String, Integer> sources = sourcesOfConnectionsTo(broker.tcpPort());
            assertThat(sources).containsEntry("127.0.0.2", 5).containsEntry("127.0.0.3", 5).hasSize(2);
        }
    }

    @Test
    void aSourceAddressNotOnThisHost_failsTheSampleWithTheReason() {
        MosquittoBroker.requireInstalled();
        try (MosquittoBroker broker = MosquittoBroker.builder().start()) {
            RunContext run = start();
            ConnectionSettings settings = ConnectionSettings.builder().host("127.0.0.1").port(broker.tcpPort()).build();

            OperationResult result = connect(settings, "1", "192.0.2.1").run(run, run.group(Thread.currentThread(), "default"), 1, 1,
                    run.samplerMetrics("connect"));

            assertThat(result.ok).isFalse();
            assertThat(result.code).isEqualTo("CONNECT_FAILED");
            assertThat(result.message).contains("connected 0 of 1").containsIgnoringCase("assign");
        }
    }

    private RunContext start() {
        Map<String, String> props = new HashMap<>();
        props.put(RunConfig.RESULTS_DIR, results.toString());
        props.put(RunConfig.PROGRESS_SECONDS, "0");
        runtime = new EngineRuntime(RunConfig.from(props::get, "local-address"), System.out);
        return runtime.context();
    }

    /**
     * Established connections to 127.0.0.1:{@code port}, counted by source address, from the kernel's
     * tables: /proc/net/tcp, and /proc/net/tcp6 where Java's dual-stack sockets put IPv4-mapped addresses.
     */
    private static ConnectOperation connect(ConnectionSettings settings, String clients, String localAddresses) {
        return new ConnectOperation(settings, SettingValues.of(ConnectSettings.ALL, Map.of(
                ConnectSettings.CLIENT_COUNT.name(), clients, ConnectSettings.CLIENT_ID_TEMPLATE.name(), "src-{client}",
                ConnectSettings.LOCAL_ADDRESSES.name(), localAddresses)), ReconnectPolicy.none());
    }

    private static Map<String, Integer> sourcesOfConnectionsTo(int port) throws IOException {
        Map<String, Integer> counts = new HashMap<>();
        String broker = String.format(Locale.ROOT, "0100007F:%04X", port);
        for (String table : new String[] {"/proc/net/tcp", "/proc/net/tcp6"}) {
            List<String> lines = Files.readAllLines(Path.of(table));
            for (String line : lines.subList(1, lines.size())) {
                String[] f = line.trim().split("\\s+");
                if (ipv4(f[2]).equals(broker) && f[3].equals("01")) {
                    counts.merge(address(ipv4(f[1]).split(":")[0]), 1, Integer::sum);
                }
            }
        }
        return counts;
    }

    /** An IPv4-mapped IPv6 entry (::ffff:a.b.c.d) reduced to the IPv4 form of /proc/net/tcp. */
    private static String ipv4(String entry) {
        String[] hostPort = entry.split(":");
        String host = hostPort[0];
        return (host.length() == 32 && host.startsWith("0000000000000000FFFF0000") ? host.substring(24) : host)
                + ":" + hostPort[1];
    }

    /** /proc/net/tcp writes IPv4 addresses as little-endian hex. */
    private static String address(String hex) {
        long v = Long.parseLong(hex, 16);
        return String.format(Locale.ROOT, "%d.%d.%d.%d", v & 0xFF, (v >> 8) & 0xFF, (v >> 16) & 0xFF, (v >> 24) & 0xFF);
    }
}
