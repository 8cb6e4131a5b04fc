package io.mqttload.summary;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import com.fasterxml.jackson.annotation.JsonPropertyOrder;

/**
 * The achieved connect rate: the Connect samplers' accepted connects ({@code connectsOk}) over the time from the first
 * CONNECT sent to the last CONNACK read. An engine's is on its own clock. A run's spans its engines on the reference
 * engine's clock (each engine's instants less its measured offset), so engines that connected side by side add up and
 * engines that connected one after the other do not, whatever their clocks said.
 */
@JsonPropertyOrder({"connects", "firstConnectMicros", "lastConnackMicros", "seconds", "rate", "notCorrected"})
public final class ConnectPhase {
    public long connects;
    /** {@code io.mqttload.measure.MicroClock} µs: the engine's own clock, or the reference engine's in a run's. */
    public long firstConnectMicros;
    public long lastConnackMicros;
    public double seconds;
    /** Connects per second over {@link #seconds}; null when they took no measurable time. */
    public Double rate;
    /** Why some engine's instants are on its own clock (its offset was not measured), or null. */
    public String notCorrected;

    /** An engine's phase; null when no connect succeeded. */
    public static ConnectPhase of(long connects, long[] span) {
        if (span == null || connects == 0) {
            return null;
        }
        ConnectPhase p = new ConnectPhase();
        p.connects = connects;
        p.firstConnectMicros = span[0];
        p.lastConnackMicros = span[1];
        p.settle();
        return p;
    }

    /** The run's phase over the engines' ({@code clocks} put them on one clock); null when no engine connected. */
    static ConnectPhase merge(List<EngineSummary> summaries, ClockReport clocks) {
        Map<String, ClockReport.Row> offsets = new HashMap<>();
        clocks.engines.forEach(row -> offsets.put(row.engineId, row));
        List<EngineSummary> connected = new ArrayList<>();
        summaries.stream().filter(s -> s.connectPhase != null).forEach(connected::add);
        if (connected.isEmpty()) {
            return null;
        }
        ConnectPhase run = new ConnectPhase();
        run.firstConnectMicros = Long.MAX_VALUE;
        run.lastConnackMicros = Long.MIN_VALUE;
        for (EngineSummary s : connected) {
            ClockReport.Row clock = offsets.get(s.engineId);
            long offset = 0;
            if (clock != null && clock.measured()) {
                offset = clock.offsetMicros;
            } else if (connected.size() > 1 && run.notCorrected == null) {
                // One engine's span needs no clock but its own; several on unmeasured clocks are said to be so.
                run.notCorrected = s.engineId + "'s clock offset was not measured"
                        + (clock == null || clock.notMeasured == null ? "" : " (" + clock.notMeasured + ")");
            }
            run.firstConnectMicros = Math.min(run.firstConnectMicros, s.connectPhase.firstConnectMicros - offset);
            run.lastConnackMicros = Math.max(run.lastConnackMicros, s.connectPhase.lastConnackMicros - offset);
            run.connects += s.connectPhase.connects;
        }
        run.settle();
        return run;
    }

    private void settle() {
        seconds = Math.max(0, lastConnackMicros - firstConnectMicros) / 1e6;
        rate = seconds > 0 ? connects / seconds : null;
    }

    /** "812.3/s (2000 connects in 2.462 s, first CONNECT to last CONNACK)", as the reports give it. */
    public String describe() {
        String r = rate == null ? "-" : String.format(Locale.ROOT, "%.1f/s", rate);
        return String.format(Locale.ROOT, "%s (%d connects in %.3f s, first CONNECT to last CONNACK%s)", r, connects,
                seconds, notCorrected == null ? "" : "; not on one clock: " + notCorrected);
    }
}
