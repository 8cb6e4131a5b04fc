package io.mqttload.measure;

import static io.mqttload.measure.Count.Level.ENGINE;
import static io.mqttload.measure.Count.Level.NODE;
import static io.mqttload.measure.Count.Level.SAMPLER;
import static io.mqttload.measure.Count.Merge.FROM_LEDGERS;
import static io.mqttload.measure.Count.Merge.MAX;
import static io.mqttload.measure.Count.Merge.MIN;
import static io.mqttload.measure.Count.Owing.NOT_OWED;
import static io.mqttload.measure.Count.Source.COUNTER;
import static io.mqttload.measure.Count.Source.GAUGE;
import static io.mqttload.measure.Count.Source.METRICS_WRITER;
import static io.mqttload.measure.Count.Source.PEAK;
import static io.mqttload.measure.Count.Source.PROMETHEUS_EXPORT;
import static io.mqttload.measure.Count.Source.RUN_END;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;
import java.util.function.ToLongFunction;

/**
 * Every count of a run, declared once: its name in the summary JSON and in InfluxDB ({@link #key()}), what it
 * means, whether it is an error, the levels that keep it, how engines' values merge and where it comes from. The
 * engine's, samplers' and nodes' counters, the summary, the merge, the verdict's error sum, the reports' full count
 * table and the InfluxDB points all read this declaration, so a count cannot be written under one name and read
 * under another. The order is the summary JSON's.
 */
public enum Count {
    CONNECTS_OK("connectsOk", COUNTER, "connects the broker accepted (CONNACK success); automatic reconnects are"
            + " counted apart", ENGINE, SAMPLER, NODE),
    CONNECTS_FAILED("connectsFailed", FailureTally.Kind.CONNECT, "connects failed", "connects that failed: refused"
            + " by the broker, unreachable or unanswered", ENGINE, SAMPLER),
    CONNECTIONS_LOST("connectionsLost", FailureTally.Kind.CONNECTION_LOST, "connections lost", "established"
            + " connections lost, closed by the broker or the network, or by the client after a protocol violation",
            ENGINE, NODE),
    RECONNECTS("reconnects", COUNTER, "automatic reconnections after a lost connection", ENGINE),
    FAILOVERS("failovers", COUNTER, "clients that reconnected to another broker node after losing their connection",
            ENGINE),
    SUBSCRIBE_OK("subscribeOk", COUNTER, "subscriptions the broker granted (SUBACK)", ENGINE, SAMPLER),
    SUBSCRIBE_FAILED("subscribeFailed", FailureTally.Kind.SUBSCRIBE, "subscribes failed", "subscriptions refused,"
            + " unanswered, or tried without a connection", ENGINE, SAMPLER),
    PUBLISHED("published", COUNTER, "messages handed to a connected client (QoS 0: written; QoS 1 and 2: sent,"
            + " acknowledgement pending)", ENGINE, SAMPLER, NODE),
    ACKNOWLEDGED("acknowledged", COUNTER, "QoS 0 messages written, QoS 1 and 2 messages acknowledged by the broker"
            + " (PUBACK, PUBCOMP)", ENGINE, SAMPLER, NODE),
    PUBLISH_FAILED("publishFailed", FailureTally.Kind.PUBLISH, "publishes failed", "publishes that failed: not sent,"
            + " refused, or not acknowledged in time", ENGINE, SAMPLER),
    PUBLISH_FAILED_IN_OUTAGE("publishFailedInOutage", COUNTER, "of publishFailed, publishes of clients a declared"
            + " outage held offline (dropped by the plan, or away with a broker restart expected): the outage's, not"
            + " judged against mqttload.failureTolerancePercent", ENGINE),
    PUBLISH_NOT_SENT("publishNotSent", COUNTER, "publishes that never left the client (no connection, rejected by the"
            + " client): failed, not published", ENGINE),
    PUBLISHED_BYTES("publishedBytes", COUNTER, "payload bytes of the messages published", ENGINE),
    RECEIVED("received", COUNTER, "messages that arrived at subscribers (replies to requests are counted apart)",
            ENGINE, SAMPLER, NODE),
    RECEIVED_BYTES("receivedBytes", COUNTER, "payload bytes of the messages received", ENGINE, SAMPLER),
    RECEIVED_UNMEASURED("receivedUnmeasured", COUNTER, "messages received without a readable measurement header (a"
            + " publisher outside the run, or measurement off)", ENGINE),
    EXPECTED("expected", RUN_END, FROM_LEDGERS, "deliveries owed: each message the broker took, once per matching"
            + " receiver", ENGINE),
    RECEIVED_OF_EXPECTED("receivedOfExpected", RUN_END, FROM_LEDGERS, "deliveries owed that arrived at least once",
            ENGINE),
    LOST("lost", RUN_END, FROM_LEDGERS, "deliveries owed that never arrived: the loss the verdict judges", ENGINE),
    DELIVERED_UNACKNOWLEDGED("deliveredUnacknowledged", RUN_END, FROM_LEDGERS, "messages delivered that the broker"
            + " never acknowledged to their publisher", ENGINE),
    DELIVERED_DESPITE_NO_LOCAL("deliveredDespiteNoLocal", RUN_END, FROM_LEDGERS, "messages the broker sent to their"
            + " own publisher's no-local subscription; fails the verdict", ENGINE),
    RECEIVED_FROM_UNKNOWN_STREAMS("receivedFromUnknownStreams", RUN_END, FROM_LEDGERS, "distinct messages from"
            + " publishers the ledgers do not hold (other engines, other runs)", ENGINE),
    DUPLICATES("duplicates", COUNTER, "messages a receiver got again", ENGINE),
    QOS2_DUPLICATES("qos2Duplicates", COUNTER, "messages a receiver got again at QoS 2, which promises exactly once:"
            + " a broken promise; fails the verdict (also in duplicates)", ENGINE),
    REORDERED("reordered", COUNTER, "messages that arrived after a later message of their stream", ENGINE),
    MISSING_IN_GAPS("missingInGaps", RUN_END, "sequence numbers skipped and still missing at the end of the run",
            ENGINE),
    LATE_SUBSCRIPTIONS("lateSubscriptions", RUN_END, "subscriptions made after messages they match had been"
            + " published: loss may then be uncertain", ENGINE),
    SHARED_SCOPES_ACROSS_ENGINES("sharedScopesAcrossEngines", RUN_END, "shared subscription groups that may have"
            + " members on other engines, judged in the merged report only", ENGINE),
    SUBSCRIBING_CLIENTS("subscribingClients", RUN_END, "clients with a subscription at the end of the run", ENGINE),
    RECEIVED_PER_CLIENT_MIN("receivedPerClientMin", RUN_END, MIN, "fewest messages one subscribing client received",
            ENGINE),
    RECEIVED_PER_CLIENT_MAX("receivedPerClientMax", RUN_END, MAX, "most messages one subscribing client received",
            ENGINE),
    LATENCY_NEGATIVE("latencyNegative", RUN_END, "pub-to-sub latencies recorded as 0 because they were negative"
            + " (clock skew between hosts)", ENGINE),
    LATENCY_CLAMPED("latencyClamped", RUN_END, "pub-to-sub latencies above the trackable maximum, recorded at it",
            ENGINE),
    RENDEZVOUS_TIMEOUTS("rendezvousTimeouts", COUNTER, "rendezvous barriers that timed out (one per barrier passage,"
            + " not per thread)", ENGINE),
    RENDEZVOUS_FAILURES("rendezvousFailures", FailureTally.Kind.RENDEZVOUS, "rendezvous failed", "rendezvous"
            + " barriers that timed out or could not work at all", ENGINE),
    PROTOCOL_VIOLATIONS("protocolViolations", FailureTally.Kind.PROTOCOL_VIOLATION, "broker protocol violations",
            "connections the client closed because the broker broke the MQTT protocol", ENGINE),
    INVALID_SETTINGS("invalidSettings", FailureTally.Kind.INVALID_SETTING, "samples with an invalid setting",
            "samples that could not run because a field's value is wrong: the plan failed, not the broker", ENGINE),
    REQUESTS_PUBLISHED("requestsPublished", COUNTER, "requests (messages with a response topic) the broker took;"
            + " each is owed a reply", ENGINE),
    REPLIES_SENT("repliesSent", COUNTER, "replies of responders that the broker took", ENGINE),
    REPLIES_FAILED("repliesFailed", FailureTally.Kind.REPLY, "replies to requests failed", "replies responders could"
            + " not send", ENGINE),
    REPLIES_RECEIVED("repliesReceived", COUNTER, "first replies to the engine's own requests: answers", ENGINE),
    REPLY_DUPLICATES("replyDuplicates", COUNTER, "further replies to a request already answered", ENGINE),
    REPLIES_FOREIGN("repliesForeign", COUNTER, "replies to requests that are not the receiving client's own",
            ENGINE),
    GENERATOR_SATURATED_SECONDS("generatorSaturatedSeconds", COUNTER, "seconds of the measured window in which the"
            + " engine's process used at least 90 % of every core", ENGINE),
    PUBLISH_BEHIND_SCHEDULE_SECONDS("publishBehindScheduleSeconds", COUNTER, "seconds of the steady phase in which a"
            + " paced Publish sampler stayed under 90 % of its schedule", ENGINE),
    SCHEDULED_PUBLISH_RATE("scheduledPublishRate", PEAK, "the highest publish rate (msg/s) the plan's throughput"
            + " timers scheduled in a steady second; 0: unpaced", ENGINE),
    OPEN_AT_END("openAtEnd", RUN_END, "connections still open after the run end closed every client: held open by"
            + " the broker", ENGINE),
    METRIC_POINTS_WRITTEN("metricPointsWritten", METRICS_WRITER, "points written to InfluxDB", ENGINE),
    METRIC_POINTS_DROPPED("metricPointsDropped", METRICS_WRITER, "points that could not be buffered or written to"
            + " InfluxDB", ENGINE),
    DISCONNECTS("disconnects", COUNTER, "clients closed with a DISCONNECT (the Disconnect sampler, the run end)",
            ENGINE),
    GAPS("gaps", COUNTER, "messages counted missing when a later sequence number arrived first", ENGINE),
    GAPS_FILLED("gapsFilled", COUNTER, "messages counted missing in a gap that arrived late after all (reordering,"
            + " not loss)", ENGINE),
    REPLIES_PENDING("repliesPending", GAUGE, "replies of responders sent and not yet taken by the broker", ENGINE),
    ACTIVE_CONNECTIONS("activeConnections", GAUGE, "connections open now (at the end of the run: openAtEnd)", ENGINE,
            SAMPLER, NODE),
    MOVED_AWAY("movedAway", COUNTER, "clients that left this broker node for another after losing their connection",
            NODE),
    MOVED_IN("movedIn", COUNTER, "clients that came to this broker node from another after losing their connection",
            NODE),
    SAMPLES_FAILED("samplesFailed", FailureTally.Kind.SAMPLE, "samples failed", "MQTT samples that failed for a"
            + " reason no other error count holds: no client in the sampler's client group, a topic that expands to"
            + " no valid name, a full in-flight window, an interrupted wait", ENGINE),
    STOPPED_AT_MILLIS("stoppedAtMillis", PEAK, MAX, "milliseconds from the engine's run start at which JMeter was asked"
            + " to stop the test before the plan's end (Stop or Shutdown, stoptest.sh, a Thread Group's on-error action,"
            + " an invalid setting found at test start); 0: the plan ran to its end", ENGINE),
    SHARED_GROUPS_UNSERVED("sharedGroupsUnserved", RUN_END, FROM_LEDGERS, "shared subscription groups that received"
            + " none of the messages owed to them although the broker granted their filter: it probably does not"
            + " support shared subscriptions at that MQTT version; fails the verdict", ENGINE),
    SUBSCRIBER_SESSIONS_LOST("subscriberSessionsLost", COUNTER, "reconnects of subscribing clients to a broker that"
            + " had kept no session for them (CONNACK session present 0): messages published before they subscribed"
            + " again were owed to nobody (publishedWhileSessionLost); loss is uncertain beside those whose lapse the"
            + " ledger could not record (more than subscriberLapsesRecorded)", ENGINE),
    ACKNOWLEDGED_IN_WINDOW("acknowledgedInWindow", RUN_END, "acknowledged counted over the measured window only: from"
            + " its start (the warm-up's end) to the end of production (where the first drain after the last Publish"
            + " sample began: a subscribers' MQTT Disconnect's, else the run end's), drain excluded; over"
            + " measuredSeconds, the acknowledged rate the step sustained", ENGINE),
    RECEIVED_IN_WINDOW("receivedInWindow", RUN_END, "received counted over the measured window only: from its start"
            + " (the warm-up's end) to the end of production (where the first drain after the last Publish sample"
            + " began: a subscribers' MQTT Disconnect's, else the run end's), drain excluded; below received"
            + " by what the broker delivered only after production (a backlog)", ENGINE),
    IN_FLIGHT_AT_WINDOW_START("inFlightAtWindowStart", RUN_END, "publishes sent and not yet acknowledged at the"
            + " measured window's start (the warm-up's end)", ENGINE),
    IN_FLIGHT_AT_WINDOW_END("inFlightAtWindowEnd", RUN_END, "publishes sent and not yet acknowledged at the end of"
            + " production (where the first drain after the last Publish sample began)", ENGINE),
    SCHEDULED_IN_WINDOW("scheduledInWindow", RUN_END, "messages of paced Publish samples that started in the"
            + " measured window, and of the whole intervals a thread held up in a sample owed and never started: the"
            + " offered load, at the granularity of what was acknowledged and received there; over measuredSeconds, the"
            + " offered rate; 0: unpaced", ENGINE),
    MACHINE_SATURATED_SECONDS("machineSaturatedSeconds", COUNTER, "seconds of the steady phase in which the engine's"
            + " whole machine used at least 90 % of its cores, whoever used them: with the broker on the same host,"
            + " tells a machine-limited step from a broker-limited one", ENGINE),
    PROMETHEUS_SCRAPES("prometheusScrapes", PROMETHEUS_EXPORT, "scrapes of the engine's /metrics endpoint", ENGINE),
    PROMETHEUS_PUSHES_FAILED("prometheusPushesFailed", PROMETHEUS_EXPORT, "pushes to the Pushgateway that failed",
            ENGINE),
    PROMETHEUS_FINAL_MISSED("prometheusFinalMissed", PROMETHEUS_EXPORT, "1 when the run's final figures reached"
            + " Prometheus neither by a scrape nor by a push: its last seconds, end-of-run counts and verdict are"
            + " missing there", ENGINE),
    UNSERVED_SHARED_DELIVERIES("unservedSharedDeliveries", NOT_OWED, "deliveries matching the filters of shared"
            + " groups the broker granted and never served (sharedGroupsUnserved): it took $share/... as an ordinary"
            + " filter, which no topic matches, so they were owed to nobody; not in expected or lost", ENGINE),
    PUBLISHED_BEFORE_SUBSCRIPTION("publishedBeforeSubscription", NOT_OWED, "deliveries that did not arrive of messages"
            + " published before the receiver's subscription could have taken effect (send time against SUBSCRIBE sent,"
            + " across engines with the measured clock offset and its bound): owed to nobody; not in expected or lost"
            + " (one that arrived all the same, as a retained message does, is owed and received)", ENGINE),
    UNDECIDED_AROUND_SUBSCRIPTION("undecidedAroundSubscription", RUN_END, FROM_LEDGERS, "deliveries that did not"
            + " arrive of messages published while the receiver's subscription was being set up (between SUBSCRIBE sent"
            + " and SUBACK, widened by the clock offset's bound; offset not measured: before the first message of the"
            + " stream that arrived): neither owed nor lost, not in expected; makes a run without loss uncertain",
            ENGINE),
    RECEIVED_IN_DRAIN("receivedInDrain", RUN_END, "received after the measured window: from the end of production"
            + " (where the first drain after the last Publish sample began) until the run end closed the clients; what"
            + " the broker still owed or had queued, shown beside the receive rate and never in it", ENGINE),
    DRAIN_MILLIS("drainMillis", RUN_END, MAX, "milliseconds from the end of production (where the first drain after"
            + " the last Publish sample began) until the run end closed the clients: the time receivedInDrain took to arrive", ENGINE),
    RECONNECTS_GIVEN_UP("reconnectsGivenUp", COUNTER, "clients that gave up reconnecting: their connection was lost"
            + " and every attempt of their reconnect policy failed, so it stayed lost", ENGINE),
    RECONNECT_ATTEMPTS_GIVEN_UP("reconnectAttemptsGivenUp", COUNTER, "reconnect attempts the clients that gave up"
            + " spent before giving up", ENGINE),
    RECONNECT_GIVE_UP_FIRST_MILLIS("reconnectGiveUpFirstMillis", RUN_END, Merge.FIRST, "milliseconds from the"
            + " engine's run start at which the first client gave up reconnecting; 0: none did", ENGINE),
    RECONNECT_GIVE_UP_LAST_MILLIS("reconnectGiveUpLastMillis", RUN_END, MAX, "milliseconds from the engine's run"
            + " start at which the last client gave up reconnecting; 0: none did", ENGINE),
    CONNECT_ATTEMPTS("connectAttempts", COUNTER, "CONNECTs the clients tried: first connects, their retries and"
            + " reconnect attempts after a lost connection", ENGINE),
    CONNECT_RETRIES("connectRetries", COUNTER, "retries of first connects that failed, under the reconnect policy"
            + " (retryFirstConnect)", ENGINE),
    RECONNECT_ATTEMPTS_MADE("reconnectAttemptsMade", COUNTER, "reconnect attempts after lost connections, under"
            + " the reconnect policy; those that succeeded are the reconnects", ENGINE),
    CONNECTS_GIVEN_UP("connectsGivenUp", COUNTER, "clients whose first connect failed after every retry its policy"
            + " allowed (counted in connectsFailed too, with the last attempt's reason)", ENGINE),
    CONNACK_SERVER_UNAVAILABLE("connackServerUnavailable", COUNTER, "connect attempts refused with server unavailable"
            + " (MQTT 5 0x88, MQTT 3.1.1 return code 3): 'later', retried under the reconnect policy", ENGINE),
    CONNACK_SERVER_BUSY("connackServerBusy", COUNTER, "connect attempts refused with server busy (0x89): 'later',"
            + " retried under the reconnect policy", ENGINE),
    CONNACK_QUOTA_EXCEEDED("connackQuotaExceeded", COUNTER, "connect attempts refused with quota exceeded (0x97):"
            + " 'later', retried under the reconnect policy", ENGINE),
    CONNACK_CONNECTION_RATE_EXCEEDED("connackConnectionRateExceeded", COUNTER, "connect attempts refused with connection rate"
            + " exceeded (0x9F): 'later', retried under the reconnect policy", ENGINE),
    PUBLISHED_WHILE_SESSION_LOST("publishedWhileSessionLost", NOT_OWED, "deliveries that did not arrive of messages"
            + " published while their subscriber's broker held no session for it: above the highest sequence number it"
            + " had received when its connection was lost, and sent before it subscribed again after a reconnect with"
            + " session present 0 (send time against SUBSCRIBE sent, as for publishedBeforeSubscription): owed to"
            + " nobody; not in expected or lost", ENGINE),
    SUBSCRIBER_LAPSES_RECORDED("subscriberLapsesRecorded", COUNTER, "reconnects of subscribing clients without their"
            + " session (subscriberSessionsLost) after which the suite subscribed again and the ledger recorded the lapse"
            + " (highest received before the loss, the new subscription's window): what was published in between is"
            + " decided per message; fewer than subscriberSessionsLost makes a loss uncertain", ENGINE),
    LOST_FROM_KEPT_SESSIONS("lostFromKeptSessions", RUN_END, FROM_LEDGERS, "of lost, the deliveries owed to"
            + " receivers whose QoS 1 or 2 subscriber reconnected to a broker that had kept its session (CONNACK session"
            + " present 1): acknowledged to the publisher and not delivered to a session the broker kept, loss the"
            + " broker promised against", ENGINE),
    OUTAGES_DECLARED("outagesDeclared", COUNTER, "outages the plan declared (MQTT Outage samples: clients dropped, or a"
            + " broker restart expected): the run is then judged on recovery, and the connections they took are not"
            + " failures", ENGINE),
    OUTAGE_CLIENTS("outageClients", RUN_END, "clients a declared outage took offline: dropped by the plan, or, with a"
            + " broker restart expected, whose connection was lost after the declaration", ENGINE),
    OUTAGE_CLIENTS_BACK("outageClientsBack", RUN_END, "of outageClients, those connected again before the run's end",
            ENGINE),
    OUTAGE_START_MILLIS("outageStartMillis", RUN_END, Merge.FIRST, "milliseconds from the engine's run start at which"
            + " the first client a declared outage took offline lost its connection; 0: none did", ENGINE),
    OUTAGE_END_MILLIS("outageEndMillis", RUN_END, MAX, "milliseconds from the engine's run start at which the last"
            + " client a declared outage took offline was connected again; 0: none was", ENGINE),
    RECOVERY_P50_MILLIS("recoveryP50Millis", RUN_END, MAX, "milliseconds from the outage's start (outageStartMillis)"
            + " until 50 % of outageClients were connected again; 0: not reached (merged: the slowest engine's)", ENGINE),
    RECOVERY_P90_MILLIS("recoveryP90Millis", RUN_END, MAX, "as recoveryP50Millis, until 90 % were connected again",
            ENGINE),
    RECOVERY_P99_MILLIS("recoveryP99Millis", RUN_END, MAX, "as recoveryP50Millis, until 99 % were connected again",
            ENGINE),
    RECOVERY_P100_MILLIS("recoveryP100Millis", RUN_END, MAX, "as recoveryP50Millis, until every one was connected"
            + " again: the recovery time the plan's bound (recoveryBoundMillis) judges", ENGINE),
    RECOVERY_BOUND_MILLIS("recoveryBoundMillis", RUN_END, Merge.FIRST, "the longest recovery the plan's declared"
            + " outages allow (the smallest of their recoveryBoundMs); 0: no outage declared", ENGINE),
    RECOVERY_ATTEMPTS_MEDIAN("recoveryAttemptsMedian", RUN_END, MAX, "reconnect attempts per client a declared outage"
            + " took offline, until it was back: the median (merged: the highest engine's)", ENGINE),
    RECOVERY_ATTEMPTS_MAX("recoveryAttemptsMax", RUN_END, MAX, "reconnect attempts per client a declared outage took"
            + " offline, until it was back: the most one client made", ENGINE),
    OUTAGE_SESSIONS_KEPT("outageSessionsKept", RUN_END, "clients a declared outage took offline that came back to a"
            + " session the broker had kept (CONNACK session present 1)", ENGINE),
    OUTAGE_SESSIONS_LOST("outageSessionsLost", RUN_END, "clients a declared outage took offline that came back"
            + " without their session (CONNACK session present 0)", ENGINE),
    BACKLOG_RECEIVED("backlogReceived", RUN_END, "messages clients a declared outage took offline received after their"
            + " return that had been sent before it: the backlog the broker kept for them and drained", ENGINE),
    BACKLOG_DRAIN_MILLIS("backlogDrainMillis", RUN_END, MAX, "milliseconds from a client's return after a declared"
            + " outage to the last message of its backlog (backlogReceived) it received, the longest of any client; over"
            + " it, backlogReceived is the drain rate", ENGINE),
    SESSIONS_TAKEN_OVER("sessionsTakenOver", COUNTER, "connections the broker closed because another connection with"
            + " the same client id took the session over: not in connectionsLost, the broker did what the protocol asks."
            + " Told by an MQTT 5 DISCONNECT 0x8E, or inferred (takeoversInferred)", ENGINE),
    TAKEOVERS_INFERRED("takeoversInferred", COUNTER, "of sessionsTakenOver, connections closed without a reason (MQTT"
            + " 3.1.1; brokers that send no DISCONNECT, as Mosquitto 2.0.11) while another client of this engine with the"
            + " same id was connected or connecting; a takeover by a client elsewhere is a lost connection", ENGINE),
    CLIENTS_TAKEN_OVER("clientsTakenOver", COUNTER, "clients whose session another connection took over at least once"
            + " (sessionsTakenOver)", ENGINE),
    CLIENTS_TAKEN_OVER_AGAIN("clientsTakenOverAgain", COUNTER, "clients taken over more than once: each came back"
            + " with its id (its reconnect policy), took the session back and lost it again, a ping-pong", ENGINE),
    RESUBSCRIBES_CUT_SHORT("resubscribesCutShort", COUNTER, "SUBSCRIBEs sent again after a reconnect without session"
            + " whose connection was lost before the SUBACK (taken over again, dropped): not failures, the client"
            + " subscribes again when it is back and the lapse runs from its first loss", ENGINE),
    TAKEOVERS_PER_CLIENT_ID_MAX("takeoversPerClientIdMax", PEAK, MAX, "the longest ping-pong: the most takeovers of one"
            + " client id on an engine, whichever of its clients lost the session (1: nobody fought back)", ENGINE),
    PUBLISH_BUFFERED("publishBuffered", COUNTER, "messages a Publish sampler with an offline buffer held while their client"
            + " was disconnected, to send after its return", ENGINE),
    PUBLISHED_FROM_BUFFER("publishedFromBuffer", COUNTER, "of publishBuffered, the messages sent after their client's"
            + " return (with their first intended send time)", ENGINE),
    PUBLISH_BUFFER_DROPPED("publishBufferDropped", COUNTER, "messages not sent because their client was disconnected and"
            + " its offline buffer full (never published, so owed to nobody)", ENGINE);


    /**
     * Marks deliveries the ledger matched to a receiver that nobody owed (the verdict says why): counted apart, never
     * in {@link #EXPECTED}, {@link #RECEIVED_OF_EXPECTED} or {@link #LOST}, so that {@code lost} stays what the broker
     * owed and did not deliver.
     */
    public enum Owing {
        NOT_OWED
    }

    /** Where a count is kept: the engine's totals, per sampler label, per broker node. */
    public enum Level {
        ENGINE,
        SAMPLER,
        NODE
    }

    /** Where a count's value comes from. */
    public enum Source {
        /** Added to by events as the run goes. */
        COUNTER,
        /** Goes up and down as the run goes: shown live only; its end value, where it matters, is a count of its own. */
        GAUGE,
        /** The highest value set as the run goes. */
        PEAK,
        /** Computed once, at the end of the run (delivery ledger, latency recorders, clients). */
        RUN_END,
        /** The InfluxDB writer's own figures, in the summary only of a run that writes metrics. */
        METRICS_WRITER,
        /** The Prometheus export's own figures, in the summary only of a run that exports to Prometheus. */
        PROMETHEUS_EXPORT
    }

    /** How engines' values of a count make the whole run's. */
    public enum Merge {
        SUM,
        MIN,
        MAX,
        /** The smallest value above 0, 0 standing for "never happened" (a time of an event some engines never had). */
        FIRST,
        /**
         * Recomputed from every engine's delivery ledger merged: a message published on one engine may be owed to a
         * subscriber on another, which neither engine's own figure includes.
         */
        FROM_LEDGERS;

        /** Two engines' values as one (for {@link #FROM_LEDGERS}, a sum that the merged ledgers' figure replaces). */
        public long combine(long a, long b) {
            switch (this) {
                case MIN:
                    return Math.min(a, b);
                case MAX:
                    return Math.max(a, b);
                case FIRST:
                    return a == 0 ? b : b == 0 ? a : Math.min(a, b);
                default:
                    return a + b;
            }
        }
    }

    private final String key;
    private final Source source;
    private final Merge merge;
    private final String meaning;
    private final Set<Level> levels;
    private final FailureTally.Kind failureKind;
    private final String errorText;
    private final boolean notOwed;

    Count(String key, Source source, String meaning, Level... levels) {
        this(key, source, Merge.SUM, meaning, levels);
    }

    Count(String key, Source source, Merge merge, String meaning, Level... levels) {
        this(key, source, merge, meaning, null, null, levels);
    }

    /** An error: counted with its reason through {@link EngineMetrics#failed}, added up in {@link #errors}. */
    Count(String key, FailureTally.Kind failureKind, String errorText, String meaning, Level... levels) {
        this(key, COUNTER, Merge.SUM, meaning, failureKind, errorText, levels);
    }

    /** Deliveries nobody owed: computed at the end of the run from the ledgers, merged from the merged ledgers. */
    Count(String key, Owing owing, String meaning, Level... levels) {
        this(key, RUN_END, FROM_LEDGERS, meaning, null, null, owing == NOT_OWED, levels);
    }

    Count(String key, Source source, Merge merge, String meaning, FailureTally.Kind failureKind, String errorText,
            Level... levels) {
        this(key, source, merge, meaning, failureKind, errorText, false, levels);
    }

    Count(String key, Source source, Merge merge, String meaning, FailureTally.Kind failureKind, String errorText,
            boolean notOwed, Level... levels) {
        this.key = key;
        this.notOwed = notOwed;
        this.source = source;
        this.merge = merge;
        this.meaning = meaning;
        this.levels = Collections.unmodifiableSet(EnumSet.copyOf(Arrays.asList(levels)));
        this.failureKind = failureKind;
        this.errorText = errorText;
    }

    /** The name in the summary JSON, the reports' full count table and the InfluxDB points. */
    public String key() {
        return key;
    }

    /** What it counts, for people: one line. */
    public String meaning() {
        return meaning;
    }

    public Source source() {
        return source;
    }

    public Merge merge() {
        return merge;
    }

    public Set<Level> levels() {
        return levels;
    }

    public boolean at(Level level) {
        return levels.contains(level);
    }

    /** Kept by a live counter (an adder or a peak) at each of its levels, written to the live InfluxDB points. */
    public boolean counted() {
        return source == COUNTER || source == GAUGE || source == PEAK;
    }

    /** Carried by an engine's summary, hence by its JSON, the merged report and the reports' full count table. */
    public boolean inSummary() {
        return at(ENGINE) && source != GAUGE;
    }

    /** An error: it has a failure kind and reasons, counts in {@link #errors} and fails the verdict beyond tolerance. */
    public boolean isError() {
        return failureKind != null;
    }

    /** Deliveries nobody owed (see {@link Owing}): kept out of expected and lost, shown beside them. */
    public boolean notOwed() {
        return notOwed;
    }

    /** The failure kind whose reasons explain this error count, or null for a count that is not an error. */
    public FailureTally.Kind failureKind() {
        return failureKind;
    }

    /** How the live error events say it ("3 connects failed"), or null for a count that is not an error. */
    public String errorText() {
        return errorText;
    }

    private static final Map<String, Count> BY_KEY = byKey();
    private static final Map<FailureTally.Kind, Count> BY_FAILURE_KIND = byFailureKind();

    /** The error counts in declaration order: the progress line, the timeline, the reports and the sweep add up these. */
    public static final List<Count> ERRORS = select(Count::isError);
    /** What an engine's summary carries, in the JSON's order. */
    public static final List<Count> SUMMARY = select(Count::inSummary);
    /** The deliveries nobody owed, in declaration order: the verdict line and the reports say each beside lost. */
    public static final List<Count> NOT_OWED_DELIVERIES = select(Count::notOwed);
    private static final Map<Level, List<Count>> COUNTED = countedByLevel();

    /** The count with this key; a key no count declares is refused with its name, never read as 0. */
    public static Count of(String key) {
        Count c = BY_KEY.get(key);
        if (c == null) {
            throw new IllegalArgumentException("'" + key + "' is not a declared count (io.mqttload.measure.Count)");
        }
        return c;
    }

    /** The error count a failure of this kind adds to. */
    public static Count of(FailureTally.Kind kind) {
        return BY_FAILURE_KIND.get(kind);
    }

    /** The counts kept by live counters at {@code level}, in declaration order. */
    public static List<Count> counted(Level level) {
        return COUNTED.get(level);
    }

    /** The run's errors: the sum of {@link #ERRORS}. */
    public static long errors(ToLongFunction<Count> count) {
        long n = 0;
        for (Count c : ERRORS) {
            n += count.applyAsLong(c);
        }
        return n;
    }

    private static Map<String, Count> byKey() {
        Map<String, Count> byKey = new HashMap<>();
        for (Count c : values()) {
            if (byKey.put(c.key, c) != null) {
                throw new IllegalStateException("two counts are named '" + c.key + "'");
            }
        }
        return byKey;
    }

    private static Map<FailureTally.Kind, Count> byFailureKind() {
        Map<FailureTally.Kind, Count> byKind = new EnumMap<>(FailureTally.Kind.class);
        for (Count c : values()) {
            if (c.failureKind != null && byKind.put(c.failureKind, c) != null) {
                throw new IllegalStateException("two counts count failures of kind " + c.failureKind);
            }
        }
        return byKind;
    }

    private static List<Count> select(Predicate<Count> which) {
        List<Count> selected = new ArrayList<>();
        for (Count c : values()) {
            if (which.test(c)) {
                selected.add(c);
            }
        }
        return Collections.unmodifiableList(selected);
    }

    private static Map<Level, List<Count>> countedByLevel() {
        Map<Level, List<Count>> byLevel = new EnumMap<>(Level.class);
        for (Level level : Level.values()) {
            byLevel.put(level, select(c -> c.counted() && c.at(level)));
        }
        return byLevel;
    }
}
