package io.mqttload.engine;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import io.mqttload.client.Errors;
import io.mqttload.client.SubscribeOptions;
import io.mqttload.common.Checks;
import io.mqttload.common.InvalidSettingException;
import io.mqttload.common.NameTemplate;
import io.mqttload.common.SharedSubscription;
import io.mqttload.common.settings.SettingValues;
import io.mqttload.common.settings.SubscribeSettings;
import io.mqttload.measure.EngineMetrics;
import io.mqttload.measure.FailureTally;
import io.mqttload.measure.SamplerMetrics;
import io.mqttload.traffic.LoadClient;

/**
 * Subscribes the selected clients of a thread to topic filters (wildcards and {@code $share/...}
 * allowed, placeholders expanded per client) and waits, bounded, for every SUBACK. Arriving
 * messages are recorded on the clients' Netty threads, never on the JMeter thread.
 */
public final class SubscribeOperation {
    public static final Set<String> FILTER_PLACEHOLDERS = Set.of("engine", "engineNumber", "run", "threadGroup", "thread", "client");

    private final List<NameTemplate> filters = new ArrayList<>();
    private final int qos;
    private final ClientSelection selection;
    private final long timeoutMillis;
    private final SubscribeOptions options;
    /** Whether the subscribing clients answer requests (MQTT 5 messages with a response topic). */
    private final boolean answerRequests;
    private final SetupRecorder.StepRef step = new SetupRecorder.StepRef("subscribe");

    /**
     * @param values the sampler's settings, checked as they were read; the filters and the client selection are checked
     *               here, where they are expanded and parsed
     */
    public SubscribeOperation(SettingValues values) {
        String topicFilters = values.get(SubscribeSettings.TOPIC_FILTERS);
        String all = Checks.notBlank("topicFilters", topicFilters);
        for (String line : all.split("\\s*[\\n,]\\s*")) {
            if (line.isEmpty()) {
                continue;
            }
            for (String f : FilterRanges.expand("topicFilters", line)) {
                Checks.topicFilter("topicFilters", f);
                filters.add(NameTemplate.compile("topicFilters", f, FILTER_PLACEHOLDERS));
            }
        }
        this.qos = values.get(SubscribeSettings.QOS);
        this.selection = ClientSelection.parse("clients", values.get(SubscribeSettings.CLIENTS));
        this.timeoutMillis = values.get(SubscribeSettings.SUBACK_TIMEOUT_MS);
        this.options = new SubscribeOptions(values.get(SubscribeSettings.NO_LOCAL),
                values.get(SubscribeSettings.RETAIN_AS_PUBLISHED),
                SubscribeOptions.RetainHandling.valueOf(values.get(SubscribeSettings.RETAIN_HANDLING)));
        this.answerRequests = values.get(SubscribeSettings.ANSWER_REQUESTS);
        if (options.noLocal()) {
            for (NameTemplate f : filters) {
                if (SharedSubscription.isShared(f.source())) {
                    throw new InvalidSettingException("noLocal", "true", "MQTT 5 forbids no local on a shared subscription"
                            + " ('" + f.source() + "')");
                }
            }
        }
    }

    /** The settings a report's setup shows. */
    Map<String, String> setup() {
        Map<String, String> s = new LinkedHashMap<>();
        List<String> sources = new ArrayList<>();
        for (NameTemplate f : filters) {
            sources.add(f.source());
        }
        s.put(sources.size() == 1 ? "filter" : "filters", String.join(" ", sources));
        s.put("QoS", Integer.toString(qos));
        if (!"all".equals(selection.toString())) {
            s.put("clients", selection.toString());
        }
        if (answerRequests) {
            s.put("answers requests", "yes");
        }
        return s;
    }

    public OperationResult run(RunContext run, ClientGroup group, int threadGroup, int thread,
            SamplerMetrics sampler) {
        if (group == null || group.size() == 0) {
            return OperationResult.failed("NOT_CONNECTED", "no MQTT client in the sampler's client group");
        }
        String field = answerRequests ? "answerRequests" : options.firstFieldSet();
        if (field != null) {
            group.requireMqtt5("option", field, field.equals("retainHandling") ? options.retainHandling() : "true");
        }
        PlaceholderValues values = new PlaceholderValues(run.config(), threadGroup, thread);
        List<LoadClient> selected = new ArrayList<>();
        List<CompletableFuture<Void>> acks = new ArrayList<>();
        List<List<String>> requested = new ArrayList<>();
        for (LoadClient client : group.clients()) {
            if (!selection.includes(client.index())) {
                continue;
            }
            values.client = client.index();
            if (!client.isConnected()) {
                run.metrics().failed(FailureTally.Kind.SUBSCRIBE, sampler, PublishOperation.NOT_CONNECTED);
                return OperationResult.failedCounted("NOT_CONNECTED", "client " + client.clientId()
                        + " is not connected (its MQTT Connect failed or the connection was lost); nothing subscribed", 0);
            }
            List<String> expanded = new ArrayList<>();
            for (NameTemplate f : filters) {
                expanded.add(f.expand(values));
            }
            selected.add(client);
            requested.add(expanded);
            acks.add(client.subscribe(expanded, qos, options, sampler, answerRequests));
        }
        if (selected.isEmpty()) {
            return OperationResult.failed("NO_CLIENT", "clients = '" + selection + "' selects none of this thread's "
                    + group.size() + " client(s) (indexes 0-" + (group.size() - 1) + ")");
        }
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMillis);
        SetupRecorder.Step setupStep = step.in(run, sampler, this::setup);
        int ok = 0;
        String firstError = null;
        EngineMetrics metrics = run.metrics();
        for (int i = 0; i < acks.size(); i++) {
            try {
                acks.get(i).get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
                ok++;
                metrics.subscribed(sampler);
                setupStep.ranOn(selected.get(i));
            } catch (ExecutionException e) {
                metrics.failed(FailureTally.Kind.SUBSCRIBE, sampler, Errors.reason(e));
                if (firstError == null) {
                    firstError = selected.get(i).clientId() + " " + requested.get(i) + ": " + Errors.describe(e);
                }
            } catch (TimeoutException e) {
                metrics.failed(FailureTally.Kind.SUBSCRIBE, sampler, "no SUBACK within " + timeoutMillis + " ms");
                if (firstError == null) {
                    firstError = selected.get(i).clientId() + ": no SUBACK within " + timeoutMillis + " ms";
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return OperationResult.failed("INTERRUPTED", "interrupted while waiting for SUBACKs");
            }
        }
        if (ok == acks.size()) {
            return OperationResult.ok("subscribed " + ok + " client(s) to " + requested.get(0)
                    + (ok > 1 ? " (first client's filters)" : "") + " at QoS " + qos, 0);
        }
        return OperationResult.failedCounted("SUBSCRIBE_FAILED", (acks.size() - ok) + " of " + acks.size()
                + " subscriptions failed; first: " + firstError, 0);
    }
}
