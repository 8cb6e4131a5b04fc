package io.mqttload.measure;

import java.util.EnumMap;
import java.util.List;
import java.util.Map;

import org.HdrHistogram.Histogram;

/** The latency recorded during one metrics interval; the histograms belong to the receiver. */
public final class Interval {
    public final long endMillis;
    public final Histogram pubToSub;
    public final Histogram publish;
    public final Histogram connect;
    /** Request/response: a request's send to its reply's arrival (empty without requests). */
    public final Histogram roundTrip;
    /** The connects' phases (see {@link ConnectPhaseRecorders}). */
    public final ConnectPhases connectPhases;

    /** The latencies of the paced messages, from their intended send time. */
    public final FromIntended fromIntended;

    /** The same, per sampler label. */
    public final List<OfSampler> bySampler;
    private final Map<Latency, Histogram> byKind;
    /** Whether this interval's latencies went into the run's histograms (not warm-up): the report's figures. */
    public final boolean countedInTotal;

    /**
     * The figures of messages that had an intended send time (a paced publisher's): pub-to-sub and publish (ack)
     * latency from that time, and the schedule lag (actual send minus intended). Empty without pacing.
     */
    public static final class FromIntended {
        public final Histogram pubToSub;
        public final Histogram publish;
        public final Histogram scheduleLag;

        public FromIntended(Histogram pubToSub, Histogram publish, Histogram scheduleLag) {
            this.pubToSub = pubToSub;
            this.publish = publish;
            this.scheduleLag = scheduleLag;
        }

        /** No message had an intended time. */
        public static FromIntended none() {
            return new FromIntended(LatencyRecorder.newHistogram(), LatencyRecorder.newHistogram(),
                    LatencyRecorder.newHistogram());
        }
    }

    /** The connects' latency by phase in one interval: TCP, TLS handshake (empty without TLS) and CONNACK. */
    public static final class ConnectPhases {
        public final Histogram tcp;
        public final Histogram tls;
        public final Histogram connack;

        public ConnectPhases(Histogram[] tcpTlsConnack) {
            this.tcp = tcpTlsConnack[0];
            this.tls = tcpTlsConnack[1];
            this.connack = tcpTlsConnack[2];
        }

        /** No connect in the interval. */
        public static ConnectPhases none() {
            return new ConnectPhases(new Histogram[] {LatencyRecorder.newHistogram(), LatencyRecorder.newHistogram(),
                LatencyRecorder.newHistogram()});
        }
    }

    /** One sampler's latency in the interval, and its (cumulative) counters. */
    public static final class OfSampler {
        public final SamplerMetrics sampler;
        public final Histogram pubToSub;
        public final Histogram publish;
        public final Histogram connect;
        public final ConnectPhases connectPhases;
        public final FromIntended fromIntended;
        private final Map<Latency, Histogram> byKind;

        public OfSampler(SamplerMetrics sampler, Histogram pubToSub, Histogram publish, Histogram connect) {
            this(sampler, pubToSub, publish, connect, FromIntended.none());
        }

        public OfSampler(SamplerMetrics sampler, Histogram pubToSub, Histogram publish, Histogram connect,
                FromIntended fromIntended) {
            this(sampler, pubToSub, publish, connect, ConnectPhases.none(), fromIntended);
        }

        public OfSampler(SamplerMetrics sampler, Histogram pubToSub, Histogram publish, Histogram connect,
                ConnectPhases connectPhases, FromIntended fromIntended) {
            this.connectPhases = connectPhases;
            this.sampler = sampler;
            this.pubToSub = pubToSub;
            this.publish = publish;
            this.connect = connect;
            this.fromIntended = fromIntended;
            this.byKind = byKind(pubToSub, publish, connect, connectPhases, null, fromIntended);
        }

        /** The sampler's histogram of {@code kind}; null for a kind samplers do not keep ({@link Latency#keptAt}). */
        public Histogram of(Latency kind) {
            return byKind.get(kind);
        }
    }

    /** The same, per broker node of the connection's list (the subscribers' node for pub-to-sub). */
    public final List<OfNode> byNode;

    /** One broker node's pub-to-sub latency in the interval, and its (cumulative) counters. */
    public static final class OfNode {
        public final NodeMetrics node;
        public final Histogram pubToSub;

        public OfNode(NodeMetrics node, Histogram pubToSub) {
            this.node = node;
            this.pubToSub = pubToSub;
        }

        /** The node's histogram of {@code kind}; null for a kind nodes do not keep ({@link Latency#keptAt}). */
        public Histogram of(Latency kind) {
            return kind == Latency.PUB_TO_SUB ? pubToSub : null;
        }
    }

    public Interval(long endMillis, Histogram pubToSub, Histogram publish, Histogram connect, Histogram roundTrip,
            List<OfSampler> bySampler, List<OfNode> byNode, boolean countedInTotal) {
        this(endMillis, pubToSub, publish, connect, roundTrip, FromIntended.none(), bySampler, byNode, countedInTotal);
    }

    public Interval(long endMillis, Histogram pubToSub, Histogram publish, Histogram connect, Histogram roundTrip,
            FromIntended fromIntended, List<OfSampler> bySampler, List<OfNode> byNode, boolean countedInTotal) {
        this(endMillis, pubToSub, publish, connect, ConnectPhases.none(), roundTrip, fromIntended, bySampler, byNode,
                countedInTotal);
    }

    public Interval(long endMillis, Histogram pubToSub, Histogram publish, Histogram connect,
            ConnectPhases connectPhases, Histogram roundTrip, FromIntended fromIntended, List<OfSampler> bySampler,
            List<OfNode> byNode, boolean countedInTotal) {
        this.endMillis = endMillis;
        this.connectPhases = connectPhases;
        this.fromIntended = fromIntended;
        this.countedInTotal = countedInTotal;
        this.bySampler = bySampler;
        this.byNode = byNode;
        this.pubToSub = pubToSub;
        this.publish = publish;
        this.connect = connect;
        this.roundTrip = roundTrip;
        this.byKind = byKind(pubToSub, publish, connect, connectPhases, roundTrip, fromIntended);
    }

    /** The interval's histogram of {@code kind}. */
    public Histogram of(Latency kind) {
        return byKind.get(kind);
    }

    /**
     * The histograms by {@link Latency} kind, as the outputs iterate them ({@code roundTrip} null: a sampler's, which
     * keeps none).
     */
    private static Map<Latency, Histogram> byKind(Histogram pubToSub, Histogram publish, Histogram connect,
            ConnectPhases phases, Histogram roundTrip, FromIntended fromIntended) {
        Map<Latency, Histogram> m = new EnumMap<>(Latency.class);
        m.put(Latency.PUB_TO_SUB, pubToSub);
        m.put(Latency.PUB_TO_SUB_INTENDED, fromIntended.pubToSub);
        m.put(Latency.PUBLISH, publish);
        m.put(Latency.PUBLISH_INTENDED, fromIntended.publish);
        m.put(Latency.SCHEDULE_LAG, fromIntended.scheduleLag);
        m.put(Latency.CONNECT, connect);
        m.put(Latency.CONNECT_TCP, phases.tcp);
        m.put(Latency.CONNECT_TLS, phases.tls);
        m.put(Latency.CONNECT_CONNACK, phases.connack);
        if (roundTrip != null) {
            m.put(Latency.ROUND_TRIP, roundTrip);
        }
        return m;
    }

    /** Acknowledged publishes in the interval (each has one publish-latency value). */
    public long publishCount() {
        return publish.getTotalCount();
    }
}
