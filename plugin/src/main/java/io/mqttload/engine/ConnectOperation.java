package io.mqttload.engine;

import java.math.BigDecimal;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import io.mqttload.client.ConnectionSettings;
import io.mqttload.client.NodeAssignment;
import io.mqttload.client.ProtocolVersion;
import io.mqttload.client.ReconnectPolicy;
import io.mqttload.client.TlsSettings;
import io.mqttload.common.Checks;
import io.mqttload.common.InvalidSettingException;
import io.mqttload.common.NameTemplate;
import io.mqttload.common.settings.ConnectSettings;
import io.mqttload.common.settings.SettingValues;
import io.mqttload.measure.FailureTally;
import io.mqttload.measure.SamplerMetrics;
import io.mqttload.traffic.LoadClient;

/**
 * Opens {@code count} clients for one JMeter thread: ids from the template, paced by the engine's
 * connection-rate limiter, local addresses assigned round-robin, then waits (bounded) for every
 * CONNACK. Many connects are in flight at once, so thousands of clients take seconds, not minutes.
 */
public final class ConnectOperation {
    public static final Set<String> ID_PLACEHOLDERS = NameTemplate.CLIENT_PLACEHOLDERS;

    private final ConnectionSettings settings;
    private final int count;
    private final NameTemplate idTemplate;
    private final boolean idsWithin23;
    private final double connectRate;
    private final ReconnectPolicy reconnectPolicy;
    private final List<InetAddress> localAddresses;
    /** Names each client's broker node under {@code nodeAssignment = TEMPLATE}; null otherwise. */
    private final NameTemplate nodeTemplate;
    /** The node every client of this sampler uses, whatever the connection's policy; -1: the policy decides. */
    private int fixedNode = -1;
    /** How long each received message takes to process: slow consumers; 0 for none. */
    private final long consumeDelayNanos;
    private final SetupRecorder.StepRef step = new SetupRecorder.StepRef("connect");

    /**
     * @param values the sampler's settings, checked as they were read; the client id template and the local addresses
     *               are checked here, where they are compiled and resolved
     */
    public ConnectOperation(ConnectionSettings settings, SettingValues values, ReconnectPolicy reconnectPolicy) {
        this.settings = settings;
        this.count = values.get(ConnectSettings.CLIENT_COUNT);
        String clientIdTemplate = values.get(ConnectSettings.CLIENT_ID_TEMPLATE);
        this.idTemplate = NameTemplate.compile("clientIdTemplate", Checks.notBlank("clientIdTemplate", clientIdTemplate),
                ID_PLACEHOLDERS);
        if (!idTemplate.uses("client") && count > 1) {
            throw new InvalidSettingException("clientIdTemplate", clientIdTemplate,
                    "must contain {client} when a thread opens more than one client, or the ids collide");
        }
        this.idsWithin23 = values.get(ConnectSettings.CLIENT_IDS_WITHIN_23);
        this.connectRate = values.get(ConnectSettings.CONNECT_RATE);
        this.consumeDelayNanos = (long) (values.get(ConnectSettings.CONSUME_DELAY_MS) * 1_000_000);
        this.reconnectPolicy = reconnectPolicy;
        this.localAddresses = parseAddresses(values.get(ConnectSettings.LOCAL_ADDRESSES));
        this.nodeTemplate = settings.assignment() == NodeAssignment.TEMPLATE
                ? NameTemplate.compile("nodeTemplate", settings.nodeTemplate(), ID_PLACEHOLDERS) : null;
    }

    /**
     * Puts every client of this sampler on one node of the connection's list (a name or a 1-based number): a
     * distributed broker's control centre on the root while the devices spread; empty leaves it to the policy.
     */
    public ConnectOperation onNode(String node) {
        if (node == null || node.trim().isEmpty()) {
            fixedNode = -1;
            return this;
        }
        fixedNode = NodeAssignment.byName(settings.nodes(), node.trim(), "brokerNode");
        return this;
    }

    private static List<InetAddress> parseAddresses(String text) {
        List<InetAddress> out = new ArrayList<>();
        if (text == null || text.trim().isEmpty()) {
            return out;
        }
        for (String part : text.split("[,\\s]+")) {
            if (part.isEmpty()) {
                continue;
            }
            if (!part.matches("[0-9.]+|[0-9a-fA-F:]+")) {
                throw new InvalidSettingException("localAddresses", part, "must be an IP address such as 127.0.0.2");
            }
            try {
                out.add(InetAddress.getByName(part));
            } catch (UnknownHostException e) {
                throw new InvalidSettingException("localAddresses", part, "not a valid IP address", e);
            }
        }
        return out;
    }

    /**
     * @param thread      the JMeter thread's number within its thread group (1-based)
     * @param threadGroup the engine-wide number of its thread group
     */
    public OperationResult run(RunContext run, ClientGroup group, int threadGroup, int thread,
            SamplerMetrics sampler) {
        run.rememberConnection(settings);
        RateLimiter limiter = connectRate > 0 ? run.rateLimiter(connectRate) : null;
        List<LoadClient> started = new ArrayList<>(count);
        List<CompletableFuture<Boolean>> acks = new ArrayList<>(count);
        List<String> keyFailures = new ArrayList<>();
        TlsSettings tls = settings.tls();
        boolean keysPerClient = tls != null && tls.keysPerClient();
        Set<String> ids = new HashSet<>();
        int firstIndex = group.size();
        PlaceholderValues values = new PlaceholderValues(run.config(), threadGroup, thread);
        for (int i = 0; i < count; i++) {
            values.client = firstIndex + i;
            String id = idTemplate.expand(values);
            if (idsWithin23 && id.length() > 23) {
                return OperationResult.failed("CLIENT_ID",
                        "clientIdTemplate = '" + idTemplate.source() + "': client id '" + id + "' has " + id.length()
                                + " characters, more than the 23 every MQTT 3.1.1 broker must accept");
            }
            if (!ids.add(id)) {
                return OperationResult.failed("CLIENT_ID", "clientIdTemplate = '" + idTemplate.source()
                        + "': generates the id '" + id + "' twice; use {client} and {thread}");
            }
            if (limiter != null && !limiter.acquire()) {
                return OperationResult.failed("INTERRUPTED", "interrupted while pacing connections; "
                        + started.size() + " of " + count + " connects started");
            }
            InetAddress local = localAddresses.isEmpty() ? null : localAddresses.get(values.client % localAddresses.size());
            int node;
            try {
                node = fixedNode >= 0 ? fixedNode : settings.assignment().choose(settings.nodes(), settings.nodeSeed(),
                        run.config().engineNumber(), run.nextClientOrdinal(), threadGroup, thread, values.client,
                        nodeTemplate == null ? "" : nodeTemplate.expand(values), "nodeTemplate");
            } catch (InvalidSettingException e) {
                return OperationResult.failed("INVALID_SETTING", e.getMessage());
            }
            ConnectionSettings own = settings.forNode(node);
            if (keysPerClient) {
                try {
                    own = own.withClientKeys(tls.clientKeys(run.keyStores(), values, id));
                } catch (InvalidSettingException e) {
                    // This client cannot present its certificate: its connect fails, the others go ahead.
                    run.metrics().failed(FailureTally.Kind.CONNECT, sampler, e.getMessage());
                    keyFailures.add(e.getMessage());
                    continue;
                }
            }
            LoadClient client = new LoadClient(run.connector(), id, values.client, local, own, run.metrics(),
                    sampler, run.ledger(), reconnectPolicy, consumeDelayNanos);
            group.add(client);
            run.register(client);
            started.add(client);
            acks.add(client.connect());
        }
        return awaitConnects(started, acks, keyFailures, step.in(run, sampler, this::setup));
    }

    /** The settings a report's setup shows. */
    Map<String, String> setup() {
        Map<String, String> s = new LinkedHashMap<>();
        s.put("MQTT", settings.protocolVersion() == ProtocolVersion.MQTT_5 ? "5" : "3.1.1");
        s.put("broker", settings.describeNodes());
        s.put("clients per thread", Integer.toString(count));
        s.put("keep-alive", settings.keepAliveSeconds() + " s");
        TlsSettings tls = settings.tls();
        if (tls != null && settings.nodes().stream().anyMatch(n -> n.transport.isSecure())) {
            s.put("TLS", tls.keysPerClient() ? "a certificate per client"
                    : tls.keyManagers() != null ? "one client certificate" : "no client certificate");
        }
        s.put(settings.protocolVersion() == ProtocolVersion.MQTT_5 ? "clean start" : "clean session",
                settings.cleanStart() ? "yes" : "no");
        if (settings.protocolVersion() == ProtocolVersion.MQTT_5) {
            s.put("session expiry", settings.sessionExpirySeconds() + " s");
        }
        s.put("reconnect", reconnectPolicy.describe());
        if (connectRate > 0) {
            s.put("connect rate", BigDecimal.valueOf(connectRate).stripTrailingZeros().toPlainString() + "/s on this engine");
        }
        if (fixedNode >= 0) {
            s.put("node", settings.nodes().get(fixedNode).name);
        }
        return s;
    }

    /**
     * How long the sample waits for its clients' first connects: a connect timeout and a margin, after the longest
     * initial wait, and every retry a bounded policy allows a first connect. An unbounded policy's clients retry until
     * the run ends; the sample reports those still retrying after one connect's wait.
     */
    private long waitMillis() {
        long wait = settings.connectTimeoutMs() + 5_000L + reconnectPolicy.initialWaitMaxMillis();
        if (reconnectPolicy.retriesFirstConnect() && !reconnectPolicy.isUnbounded()) {
            wait += reconnectPolicy.worstCaseMillis(settings.connectTimeoutMs());
        }
        return wait;
    }

    private boolean retriesUnbounded() {
        return reconnectPolicy.retriesFirstConnect() && reconnectPolicy.isUnbounded();
    }

    /** @param keyFailures why clients that could not load their key material did not connect (already counted) */
    private OperationResult awaitConnects(List<LoadClient> clients, List<CompletableFuture<Boolean>> acks,
            List<String> keyFailures, SetupRecorder.Step setupStep) {
        setupStep.tried(acks.size() + keyFailures.size());
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(waitMillis());
        int ok = 0;
        int failed = keyFailures.size();
        int timedOut = 0;
        String firstError = keyFailures.isEmpty() ? null : keyFailures.get(0);
        for (int i = 0; i < acks.size(); i++) {
            try {
                long left = Math.max(0, deadline - System.nanoTime());
                acks.get(i).get(left, TimeUnit.NANOSECONDS);
                ok++;
                setupStep.ranOn(clients.get(i));
            } catch (TimeoutException e) {
                timedOut++;
                if (firstError == null) {
                    firstError = clients.get(i).clientId() + (retriesUnbounded()
                            ? ": not connected yet, still retrying (reconnectAttempts = -1)"
                            : ": no CONNACK within " + settings.connectTimeoutMs() + " ms");
                }
            } catch (ExecutionException e) {
                failed++;
                if (firstError == null) {
                    firstError = clients.get(i).clientId() + ": " + clients.get(i).connectFailure(e);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return OperationResult.failed("INTERRUPTED", "interrupted while waiting for CONNACKs; " + ok
                        + " of " + acks.size() + " connected");
            }
        }
        String target = settings.describe();
        if (failed == 0 && timedOut == 0) {
            return OperationResult.ok("connected " + ok + " client(s) to " + target, 0);
        }
        // Each client's failure was counted as a failed connect where it happened (LoadClient; run() for a missing key).
        return OperationResult.failedCounted(timedOut > 0 && failed == 0 ? "CONNECT_TIMEOUT" : "CONNECT_FAILED",
                "connected " + ok + " of " + (acks.size() + keyFailures.size()) + " to " + target + "; " + failed
                        + " failed, " + timedOut
                        + " timed out; first: " + firstError, 0);
    }
}
