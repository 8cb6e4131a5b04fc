package io.mqttload.testsupport;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;

import org.apache.jmeter.samplers.SampleResult;

/** Every top-level sample of one {@link JMeterTestEngine} run, in the order the listeners received them. */
public final class RunResult {
    // Enough failures to diagnose a run without flooding an assertion message.
    private static final int DESCRIBED_FAILURES = 10;

    private final List<SampleResult> samples;
    private final Duration elapsed;

    RunResult(List<SampleResult> samples, Duration elapsed) {
        this.samples = List.copyOf(samples);
        this.elapsed = elapsed;
    }

    public List<SampleResult> samples() {
        return samples;
    }

    public int count() {
        return samples.size();
    }

    /** Wall-clock time from starting the engine until it ended. */
    public Duration elapsed() {
        return elapsed;
    }

    public List<SampleResult> byLabel(String label) {
        return samples.stream().filter(s -> label.equals(s.getSampleLabel())).collect(Collectors.toList());
    }

    public List<SampleResult> failures() {
        return samples.stream().filter(s -> !s.isSuccessful()).collect(Collectors.toList());
    }

    public List<SampleResult> successes() {
        return samples.stream().filter(SampleResult::isSuccessful).collect(Collectors.toList());
    }

    /** Sample count per label, labels in order of first appearance. */
    public Map<String, Long> countByLabel() {
        return samples.stream().collect(
                Collectors.groupingBy(SampleResult::getSampleLabel, LinkedHashMap::new, Collectors.counting()));
    }

    /** Counts per label and the first failures, meant for assertion descriptions. */
    public String describe() {
        StringBuilder text = new StringBuilder(256);
        text.append(String.format(Locale.ROOT, "%d samples, %d failed, in %d ms", count(), failures().size(),
                elapsed.toMillis()));
        for (Map.Entry<String, Long> label : countByLabel().entrySet()) {
            long failed = byLabel(label.getKey()).stream().filter(s -> !s.isSuccessful()).count();
            text.append(String.format(Locale.ROOT, "%n  %s: %d (%d failed)", label.getKey(), label.getValue(), failed));
        }
        List<SampleResult> failures = failures();
        for (SampleResult failure : failures.subList(0, Math.min(DESCRIBED_FAILURES, failures.size()))) {
            text.append(String.format(Locale.ROOT, "%n  FAILED %s [%s] %s: %s", failure.getSampleLabel(),
                    failure.getThreadName(), failure.getResponseCode(), failure.getResponseMessage()));
        }
        return text.toString();
    }

    @Override
    public String toString() {
        return describe();
    }
}
