package io.mqttload.summary;

import java.util.ArrayList;
import java.util.List;

/** An engine's run second by second, for the report's charts, and the broker samples it took. */
public final class TimelineFigures {
    public List<Point> seconds = new ArrayList<>();
    public List<BrokerPoint> broker = new ArrayList<>();

    /**
     * One interval: messages acknowledged and received, open connections at its end, connects and errors in it,
     * and its pub-to-sub histogram (encoded, empty when nothing arrived), so that engines merge second by second
     * into exact percentiles.
     */
    public static final class Point {
        public long timeMillis;
        public long acknowledged;
        public long received;
        public long connections;
        public long connects;
        public long errors;
        /** Reconnect attempts after lost connections in the interval: a declared outage's chart. 0 in older summaries. */
        public long reconnectAttempts;
        public String pubToSubHdr = "";
        /** The publish acknowledgements' latency in the interval, encoded; empty when none. */
        public String publishAckHdr = "";
        /**
         * The interval this point covers, ending at {@link #timeMillis}: a second, shorter for the run's last (its
         * end comes when it comes). 0 in summaries written before it was kept, read as a second.
         */
        public long intervalMillis;
    }

    /** One broker sample: CPU in % of one core (-1 when the first sample had nothing to compare with), memory. */
    public static final class BrokerPoint {
        public long timeMillis;
        public String broker;
        public double cpuPercentOfCore;
        public long rssBytes;
    }
}
