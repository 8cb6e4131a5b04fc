package io.mqttload.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import io.mqttload.client.ControlClient;
import io.mqttload.rendezvous.FleetClaim;
import io.mqttload.testsupport.MosquittoBroker;

/**
 * Engines started alike claim distinct numbers and one run id through a real broker (Mosquitto): all of them at
 * once, one late, too many, too few, and a crashed run's announcement left on the broker.
 */
class FleetClaimIT {
    private static final long TIMEOUT_MILLIS = 20_000;
    private static MosquittoBroker broker;

    @BeforeAll
    static void start() throws Exception {
        MosquittoBroker.requireInstalled();
        broker = MosquittoBroker.builder().start();
    }

    @AfterAll
    static void stop() {
        if (broker != null) {
            broker.close();
        }
    }

    private static CompletableFuture<FleetClaim> claim(String fleet, int engines, long timeoutMillis, String host) {
        return CompletableFuture.supplyAsync(() -> FleetClaim.claim(broker.host(), broker.tcpPort(), fleet, engines,
                timeoutMillis, host));
    }

    @Test
    void threeEnginesStartedAlike_getNumbersOneToThree_andOneRunId() throws Exception {
        List<CompletableFuture<FleetClaim>> started = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            started.add(claim("fleet-three", 3, TIMEOUT_MILLIS, "host-" + i));
        }
        List<FleetClaim> claims = new ArrayList<>();
        for (CompletableFuture<FleetClaim> f : started) {
            claims.add(f.get(30, TimeUnit.SECONDS));
        }
        try {
            assertThat(claims.stream().map(c -> c.claimed().engineNumber).collect(Collectors.toList()))
                    .containsExactlyInAnyOrder(1, 2, 3);
            assertThat(claims.stream().map(c -> c.claimed().runId).distinct()).singleElement()
                    .satisfies(id -> assertThat(id).matches("r[0-9a-z]{6}[0-9a-f]{3}"));
            assertThat(claims.get(0).claimed().engines).hasSize(3).isEqualTo(claims.get(2).claimed().engines);
        } finally {
            claims.forEach(FleetClaim::close);
        }
    }

    @Test
    void anEngineArrivingLate_seesTheOthersAnnouncements_andTheSecondRunOfTheFleetStartsAfresh() throws Exception {
        CompletableFuture<FleetClaim> early = claim("fleet-late", 2, TIMEOUT_MILLIS, "early");
        // The early engine announced itself and waits; the late one subscribes after that and still counts it.
        FleetClaim late = FleetClaim.claim(broker.host(), broker.tcpPort(), "fleet-late", 2, TIMEOUT_MILLIS, "late");
        FleetClaim first = early.get(30, TimeUnit.SECONDS);
        String runId = first.claimed().runId;
        assertThat(late.claimed().runId).isEqualTo(runId);
        assertThat(List.of(first.claimed().engineNumber, late.claimed().engineNumber)).containsExactlyInAnyOrder(1, 2);
        first.close();
        late.close();

        // Both cleared their announcements at the end: the fleet's next run is two new engines, not four.
        List<CompletableFuture<FleetClaim>> again = List.of(claim("fleet-late", 2, TIMEOUT_MILLIS, "a"),
                claim("fleet-late", 2, TIMEOUT_MILLIS, "b"));
        // An engine keeps its announcement for its whole run: both must have claimed before either ends (one that
        // closed as soon as it saw the other cleared its announcement before the other had read it: CI saw that).
        List<FleetClaim> claimed = new ArrayList<>();
        for (CompletableFuture<FleetClaim> f : again) {
            claimed.add(f.get(30, TimeUnit.SECONDS));
        }
        try {
            for (FleetClaim c : claimed) {
                assertThat(c.claimed().engines).hasSize(2);
            }
        } finally {
            claimed.forEach(FleetClaim::close);
        }
    }

    @Test
    void tooFewEngines_failWithinTheTimeout_namingTheFleetAndWhatWasSeen() {
        assertThatThrownBy(() -> FleetClaim.claim(broker.host(), broker.tcpPort(), "fleet-alone", 2, 1_500, "lonely"))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageStartingWith("1 of 2 engines (mqttload.engines) of fleet 'fleet-alone' announced themselves"
                        + " within 1 s: [")
                .hasMessageContaining("lonely");
    }

    @Test
    void moreEnginesThanTheFleetHas_areRefused_andACrashedRunsAnnouncementIsIgnored() throws Exception {
        ControlClient other = ControlClient.connect("fleet-it-other", broker.host(), broker.tcpPort(), 5_000, null, null);
        try {
            // A run that crashed an hour ago left its announcement: older than the timeout, not counted.
            long anHourAgo = System.currentTimeMillis() - 3_600_000;
            other.publish("mqttload/fleet/fleet-busy/0000000000000001", (anHourAgo + " 0000000000000001 crashed")
                    .getBytes(StandardCharsets.UTF_8), 1, true).get(5, TimeUnit.SECONDS);
            FleetClaim one = FleetClaim.claim(broker.host(), broker.tcpPort(), "fleet-busy", 1, TIMEOUT_MILLIS, "one");
            assertThat(one.claimed().engines).singleElement().satisfies(e -> assertThat(e).contains("one"));
            // An engine of the fleet still running: a second engine in a fleet of one is one too many.
            assertThatThrownBy(() -> FleetClaim.claim(broker.host(), broker.tcpPort(), "fleet-busy", 1, TIMEOUT_MILLIS,
                    "two")).isInstanceOf(IllegalStateException.class)
                    .hasMessageStartingWith("2 engines announced themselves in fleet 'fleet-busy', which has 1"
                            + " (mqttload.engines)")
                    .hasMessageContaining("give each run its own mqttload.fleet");
            one.close();
        } finally {
            other.close(5_000);
        }
    }
}
