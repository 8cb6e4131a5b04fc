package io.mqttload.rendezvous;

import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.mqttload.client.ControlConnection;
import io.mqttload.client.HiveMqConnector;
import io.mqttload.client.MqttConnector;

/**
 * Engine numbers and one run id for engines started identically (a hosted JMeter service, a Kubernetes Job with N
 * copies): no controller tells them apart, so they agree through the broker. Each engine announces itself with a
 * retained message under the fleet's topic (its start time and a random nonce), waits until it sees as many fresh
 * announcements as the fleet has engines, and takes its rank in (start time, nonce) order as its number; the run id is
 * made from the first announcement, so every engine computes the same one. Retained, so an engine that subscribes late
 * still sees those before it; kept until the run ends (a slower engine may still be counting), then cleared.
 * Announcements older than the claim's timeout are a crashed run's leftovers: ignored and cleared.
 */
public final class FleetClaim implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(FleetClaim.class);
    private static final String ROOT = "mqttload/fleet/";
    private static final SecureRandom RANDOM = new SecureRandom();
    private static final long OPERATION_TIMEOUT_MILLIS = 10_000;

    /** What the fleet agreed: this engine's number (1..engines) and the run id, and who took part. */
    public static final class Claimed {
        public final int engineNumber;
        public final String runId;
        public final List<String> engines;

        Claimed(int engineNumber, String runId, List<String> engines) {
            this.engineNumber = engineNumber;
            this.runId = runId;
            this.engines = engines;
        }
    }

    /** One engine's announcement: when it started and its nonce, and where from (for messages). */
    static final class Announcement {
        final long startedAtMillis;
        final String nonce;
        final String host;

        Announcement(long startedAtMillis, String nonce, String host) {
            this.startedAtMillis = startedAtMillis;
            this.nonce = nonce;
            this.host = host;
        }

        static Announcement parse(byte[] payload) {
            String[] parts = new String(payload, StandardCharsets.UTF_8).split(" ", 3);
            if (parts.length < 2) {
                return null;
            }
            try {
                return new Announcement(Long.parseLong(parts[0]), parts[1], parts.length > 2 ? parts[2] : "");
            } catch (NumberFormatException e) {
                return null;
            }
        }

        byte[] payload() {
            return (startedAtMillis + " " + nonce + " " + host).getBytes(StandardCharsets.UTF_8);
        }

        @Override
        public String toString() {
            return nonce + " (" + host + ", started " + startedAtMillis + ")";
        }
    }

    static final Comparator<Announcement> ORDER = Comparator.comparingLong((Announcement a) -> a.startedAtMillis)
            .thenComparing(a -> a.nonce);

    private final ControlConnection client;
    private final String fleetTopic;
    private final Announcement own;
    private final Map<String, Announcement> heard = new ConcurrentHashMap<>();
    private final Object changed = new Object();
    private Claimed claimed;

    private FleetClaim(MqttConnector connector, String host, int port, String fleet, String engineHost, long timeoutMillis) {
        this.fleetTopic = ROOT + fleet + "/";
        this.own = new Announcement(System.currentTimeMillis(), String.format(Locale.ROOT, "%016x", RANDOM.nextLong()), engineHost);
        this.client = connector.controlConnection("mqttload-fleet-" + own.nonce, host, port,
                Math.min(timeoutMillis, OPERATION_TIMEOUT_MILLIS), null, this::onMessage);
    }

    /**
     * Claims this engine's number among {@code engines} engines of {@code fleet} through the broker at host:port.
     *
     * @param timeoutMillis how long to wait for the other engines, and how old an announcement may be
     * @throws IllegalStateException naming the fleet, the broker and what was seen, when the fleet did not come
     *     together in time or more engines than {@code engines} announced themselves
     */
    public static FleetClaim claim(String host, int port, String fleet, int engines, long timeoutMillis, String engineHost) {
        return claim(HiveMqConnector.INSTANCE, host, port, fleet, engines, timeoutMillis, engineHost);
    }

    /** As {@link #claim(String, int, String, int, long, String)}, through {@code connector}. */
    public static FleetClaim claim(MqttConnector connector, String host, int port, String fleet, int engines,
            long timeoutMillis, String engineHost) {
        FleetClaim claim = new FleetClaim(connector, host, port, fleet, engineHost, timeoutMillis);
        try {
            claim.claimed = claim.await(engines, timeoutMillis);
            return claim;
        } catch (RuntimeException e) {
            claim.close();
            throw e;
        }
    }

    private Claimed await(int engines, long timeoutMillis) {
        client.subscribe(fleetTopic + "+", 1, OPERATION_TIMEOUT_MILLIS);
        String failure = ControlConnection.await(client.publish(fleetTopic + own.nonce, own.payload(), 1, true),
                OPERATION_TIMEOUT_MILLIS);
        if (failure != null) {
            throw new IllegalStateException("could not announce this engine to fleet '" + fleet() + "': " + failure);
        }
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMillis);
        synchronized (changed) {
            // Its own announcement back from the broker comes after every one retained before it: only then is the count whole.
            while (!heard.containsKey(own.nonce) || fresh(timeoutMillis).size() < engines) {
                long left = TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime());
                if (left <= 0) {
                    throw new IllegalStateException(String.format(Locale.ROOT, "%d of %d engines (mqttload.engines) of"
                            + " fleet '%s' announced themselves within %d s: %s", fresh(timeoutMillis).size(), engines,
                            fleet(), timeoutMillis / 1000, fresh(timeoutMillis)));
                }
                try {
                    changed.wait(left);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new IllegalStateException("interrupted while waiting for the engines of fleet '" + fleet() + "'");
                }
            }
        }
        List<Announcement> fleetNow = fresh(timeoutMillis);
        if (fleetNow.size() > engines) {
            throw new IllegalStateException(String.format(Locale.ROOT, "%d engines announced themselves in fleet '%s',"
                    + " which has %d (mqttload.engines): %s; an earlier run of this fleet may still be going: give each"
                    + " run its own mqttload.fleet, or mqttload.engines its true count", fleetNow.size(), fleet(), engines,
                    fleetNow));
        }
        Announcement first = fleetNow.get(0);
        // As made-up run ids are: r, the seconds in base 36, three more characters; 10 fit {run} into 3.1.1's client ids.
        String runId = "r" + Long.toString(first.startedAtMillis / 1000, 36) + first.nonce.substring(0, 3);
        List<String> described = new ArrayList<>();
        int number = 0;
        for (Announcement a : fleetNow) {
            described.add(a.toString());
            if (a.nonce.equals(own.nonce)) {
                number = described.size();
            }
        }
        return new Claimed(number, runId, described);
    }

    /** What the fleet agreed. */
    public Claimed claimed() {
        return claimed;
    }

    /** The announcements no older than the timeout before this engine's, in claim order; older ones are cleared. */
    private List<Announcement> fresh(long timeoutMillis) {
        List<Announcement> fresh = new ArrayList<>();
        for (Announcement a : heard.values()) {
            if (a.startedAtMillis >= own.startedAtMillis - timeoutMillis) {
                fresh.add(a);
            } else if (heard.remove(a.nonce, a)) {
                log.info("MQTT fleet '{}': clearing a stale announcement {}", fleet(), a);
                client.publish(fleetTopic + a.nonce, new byte[0], 1, true);
            }
        }
        fresh.sort(ORDER);
        return fresh;
    }

    private void onMessage(String topic, byte[] payload) {
        String nonce = topic.substring(fleetTopic.length());
        Announcement a = payload.length == 0 ? null : Announcement.parse(payload);
        if (a == null || !a.nonce.equals(nonce)) {
            heard.remove(nonce);
        } else {
            heard.put(nonce, a);
        }
        synchronized (changed) {
            changed.notifyAll();
        }
    }

    private String fleet() {
        return fleetTopic.substring(ROOT.length(), fleetTopic.length() - 1);
    }

    /** Clears this engine's announcement and disconnects, within bounded waits. */
    @Override
    public void close() {
        String failure = ControlConnection.await(client.publish(fleetTopic + own.nonce, new byte[0], 1, true),
                OPERATION_TIMEOUT_MILLIS);
        if (failure != null) {
            log.warn("MQTT fleet '{}': could not clear this engine's announcement: {}", fleet(), failure);
        }
        client.close(OPERATION_TIMEOUT_MILLIS);
    }
}
