package io.mqttload.engine;

import io.mqttload.common.NameTemplate;

/**
 * Values of the template placeholders for one JMeter thread: {@code {engine}} and {@code {run}}
 * (text), {@code {engineNumber}} (mqttload.engineNumber, for numeric partitions across engines),
 * {@code {threadGroup}}, {@code {thread}}, and the per-use {@code {client}} and {@code {msg}}.
 */
final class PlaceholderValues implements NameTemplate.Values {
    private final RunConfig config;
    private final int threadGroup;
    private final int thread;
    int client;
    int msg;

    PlaceholderValues(RunConfig config, int threadGroup, int thread) {
        this.config = config;
        this.threadGroup = threadGroup;
        this.thread = thread;
    }

    @Override
    public String text(String name) {
        switch (name) {
            case "engine":
                return config.engineId();
            case "run":
                return config.runId();
            default:
                return null;
        }
    }

    @Override
    public long number(String name) {
        switch (name) {
            case "threadGroup":
                return threadGroup;
            case "thread":
                return thread;
            case "client":
                return client;
            case "engineNumber":
                return config.engineNumber();
            default:
                return msg;
        }
    }
}
