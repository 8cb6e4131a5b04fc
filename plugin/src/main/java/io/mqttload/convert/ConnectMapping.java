package io.mqttload.convert;

import io.mqttload.convert.ConversionReport.ElementRecord;

/**
 * XMeter's ConnectSampler and EfficientConnectSampler: the connection settings go into an MQTT Connection placed as
 * the Connect sampler's own child (the Connect sampler takes the innermost one in scope), the client's identity and
 * reconnection into the MQTT Connect. XMeter's thread has one connection; the suite's thread gets one client in the
 * client group {@code default}, which the converted Publish, Subscribe and Disconnect of the thread use.
 */
final class ConnectMapping {
    /** Unbounded reconnect attempts: XMeter's HiveMQ client reconnects without limit. */
    static final String RECONNECT_ATTEMPTS = "-1";
    /** HiveMQ's default reconnect delays, which XMeter's {@code automaticReconnectWithDefaultConfig()} uses. */
    static final String RECONNECT_DELAY_MS = "1000";
    static final String RECONNECT_MAX_DELAY_MS = "120000";
    /** Client group of the Efficient samplers: XMeter keeps their connections apart from the thread's one. */
    static final String EFFICIENT_GROUP = "efficient";
    /** Longest text of {engineNumber}-{threadGroup}-{thread}: 4095-99-99999. */
    private static final int SUFFIX_LENGTH = 13;
    /** Longest text of {client} for an Efficient Connect's capacity. */
    private static final int CLIENT_DIGITS = 7;

    private final SuiteElements suite;

    ConnectMapping(SuiteElements suite) {
        this.suite = suite;
    }

    /**
     * Converts {@code x}; with {@code onceOnly} the MQTT Connect goes into a Once Only Controller, as XMeter keeps a
     * thread's connection while the suite's Connect adds clients on every pass.
     */
    void convert(XmeterElement x, ElementRecord r, boolean efficient, boolean onceOnly) {
        String client = x.take("mqtt.client_name");
        boolean fuse = client != null && client.trim().equalsIgnoreCase("fusesource");
        SuiteElements.Bean conn = suite.connection("MQTT Connection (" + x.testname + ")", x.enabled);
        SuiteElements.Bean connect = suite.connect(x.testname, x.enabled).comments(x.take(XmeterElement.COMMENTS));
        String group = efficient ? EFFICIENT_GROUP : "default";
        connect.set("clientGroup", group);
        clientName(r, client, fuse);
        boolean v5 = BrokerMapping.broker(x, r, conn, fuse);
        BrokerMapping.transport(x, r, conn);
        session(x, r, conn, v5);
        BrokerMapping.credentials(x, r, conn);
        mqtt5(x, r, conn, v5);
        identity(x, r, connect, efficient);
        reconnect(x, r, connect, fuse);
        legacy(x, r);

        SuiteElements.Bean subscribe = null;
        if (efficient) {
            subscribe = efficientExtras(x, r, connect);
        }
        Jmx.Slot slot;
        String once = x.testname + ": connect once";
        if (onceOnly) {
            slot = x.slot.wrap(suite.onceOnly(once, x.enabled), connect.build());
        } else {
            x.slot.replace(connect.build());
            slot = x.slot;
        }
        slot.prependChild(conn.build());
        r.became = (onceOnly ? "Once Only Controller " + ConversionReport.code(once) + " holding the " : "")
                + "MQTT Connect " + ConversionReport.code(x.testname) + " (client group " + ConversionReport.code(group)
                + ", " + (efficient ? "clientCount " + ConversionReport.code(connect.get("clientCount")) : "one client")
                + ") with the MQTT Connection " + ConversionReport.code("MQTT Connection (" + x.testname + ")")
                + " as its child";
        if (subscribe != null) {
            slot.insertAfter(subscribe.build());
            r.became += ", followed by the MQTT Subscribe " + ConversionReport.code(x.testname + ": subscribe");
        }
        if (onceOnly) {
            r.notes.add("XMeter keeps a thread's connection from pass to pass (a second Connect fails with \"Connection "
                    + "is already established\"), while the suite's MQTT Connect adds new clients, with the same ids, on "
                    + "every pass: the converter put it in the Once Only Controller " + ConversionReport.code(once)
                    + ", so it connects on the first pass of each thread.");
        }
        if (efficient) {
            r.notes.add("XMeter's Pub and Sub samplers do not use an Efficient Connect's connections, and its "
                    + "DisConnect leaves them open: they are in client group `" + EFFICIENT_GROUP + "`, which only the "
                    + "converted Efficient DisConnect uses. The suite reports one sample for all the connections, not "
                    + "one sub-result each.");
        }
    }

    private static void clientName(ElementRecord r, String client, boolean fuse) {
        if (client == null || client.trim().equalsIgnoreCase("hivemq")) {
            r.mapped("mqtt.client_name", client, "the suite's clients are HiveMQ's MQTT client too");
        } else if (fuse) {
            r.approximated("mqtt.client_name", client, "the suite's clients are HiveMQ's MQTT client: MQTT 3.1.1 "
                    + "(fusesource could speak 3.1), no retry of a failed first connect");
        } else {
            r.notConverted("mqtt.client_name", client, "unknown client implementation (XMeter knows hivemq and "
                    + "fusesource); the suite's clients are HiveMQ's");
        }
    }

    private static void session(XmeterElement x, ElementRecord r, SuiteElements.Bean conn, boolean v5) {
        String timeout = x.take("mqtt.conn_timeout");
        if (timeout == null || Values.isInteger(timeout)) {
            long seconds = timeout == null ? 10 : Long.parseLong(timeout.trim());
            conn.set("connectTimeoutMs", Long.toString(seconds * 1000));
            r.mapped("mqtt.conn_timeout", timeout, "connectTimeoutMs = " + ConversionReport.code(conn.get("connectTimeoutMs"))
                    + " (seconds in XMeter)");
        } else if (Values.isExpression(timeout)) {
            conn.set("connectTimeoutMs", Values.times(timeout.trim(), 1000));
            r.mapped("mqtt.conn_timeout", timeout, "connectTimeoutMs = " + ConversionReport.code(conn.get("connectTimeoutMs")));
        } else {
            r.notConverted("mqtt.conn_timeout", timeout, "not a whole number (XMeter fails every connect): "
                    + "connectTimeoutMs left at 10000");
        }
        String keepAlive = x.take("mqtt.conn_keep_alive");
        conn.set("keepAliveSeconds", keepAlive == null ? "300" : keepAlive.trim());
        r.mapped("mqtt.conn_keep_alive", keepAlive, "keepAliveSeconds = " + ConversionReport.code(conn.get("keepAliveSeconds")));
        if (v5 && x.has("mqtt.conn_clean_start")) {
            r.noEffect("mqtt.conn_clean_session", x.take("mqtt.conn_clean_session"), "with MQTT 5 the forks use "
                    + "mqtt.conn_clean_start instead");
            return;
        }
        String clean = x.take("mqtt.conn_clean_session");
        String type = x.prop("mqtt.conn_clean_session") == null ? "" : " (" + x.prop("mqtt.conn_clean_session").type + ")";
        if (Values.isExpression(clean)) {
            conn.set("cleanStart", clean.trim());
            r.mapped("mqtt.conn_clean_session", clean, "cleanStart = " + ConversionReport.code(clean.trim())
                    + ": it must give true or false (XMeter takes anything else as false)");
        } else {
            boolean on = clean == null || XmeterElement.isTrue(clean);
            conn.set("cleanStart", Boolean.toString(on));
            boolean plain = clean == null || clean.trim().equalsIgnoreCase("true") || clean.trim().equalsIgnoreCase("false");
            r.mapped("mqtt.conn_clean_session", clean, "cleanStart = `" + on + "`" + type
                    + (plain ? "" : ": XMeter reads anything but true as false"));
        }
    }

    /**
     * The MQTT 5 connection properties of XMeter's unmerged pull request #151 (and its forks), each only when the
     * plan has it: with another version than 5.0 they have no effect there.
     */
    private static void mqtt5(XmeterElement x, ElementRecord r, SuiteElements.Bean conn, boolean v5) {
        String[] names = {"mqtt.auth_method", "mqtt.auth_data", "mqtt.conn_user_property",
            "mqtt.conn_session_expiry_interval", "mqtt.conn_clean_start"};
        if (!v5) {
            for (String name : names) {
                if (x.has(name)) {
                    r.noEffect(name, x.take(name), "MQTT 5 only (XMeter's pull request #151), and mqtt.version is not 5.0");
                }
            }
            return;
        }
        if (x.has("mqtt.auth_method")) {
            String method = x.take("mqtt.auth_method");
            conn.set("authMethod", method.trim());
            r.mapped("mqtt.auth_method", method, Values.isBlank(method) ? "no authentication method"
                    : "authMethod = " + ConversionReport.code(method.trim()));
        }
        if (x.has("mqtt.auth_data")) {
            String data = x.take("mqtt.auth_data");
            if (Values.isBlank(data)) {
                r.mapped("mqtt.auth_data", data, "no authentication data");
            } else {
                conn.set("authData", data);
                conn.set("authDataEncoding", "TEXT");
                r.approximated("mqtt.auth_data", data, "authData with authDataEncoding = `TEXT` (the text's UTF-8 "
                        + "bytes); if the data is base64, set authDataEncoding = BASE64 by hand");
            }
        }
        if (x.has("mqtt.conn_user_property")) {
            userProperties(x.take("mqtt.conn_user_property"), "mqtt.conn_user_property", "MQTT Connection", r, conn);
        }
        if (x.has("mqtt.conn_session_expiry_interval")) {
            String expiry = x.take("mqtt.conn_session_expiry_interval");
            String e = expiry.trim();
            if (Values.isExpression(e) || Values.isInteger(e) && Long.parseLong(e) >= 0 && Long.parseLong(e) <= 4294967295L) {
                conn.set("sessionExpirySeconds", e);
                r.mapped("mqtt.conn_session_expiry_interval", expiry, "sessionExpirySeconds = " + ConversionReport.code(e));
            } else if (e.isEmpty()) {
                r.mapped("mqtt.conn_session_expiry_interval", expiry, "sessionExpirySeconds = `0`");
            } else {
                r.notConverted("mqtt.conn_session_expiry_interval", expiry, "not a number of seconds: set "
                        + "sessionExpirySeconds on the MQTT Connection by hand");
            }
        }
        if (x.has("mqtt.conn_clean_start")) {
            String clean = x.take("mqtt.conn_clean_start");
            String c = Values.isExpression(clean) ? clean.trim() : Boolean.toString(Values.isBlank(clean)
                    || XmeterElement.isTrue(clean));
            conn.set("cleanStart", c);
            r.mapped("mqtt.conn_clean_start", clean, "cleanStart = " + ConversionReport.code(c));
        }
    }

    /**
     * User properties as pull request #151 writes them, a JSON object ({"name": "value", ...}), into the suite's
     * {@code userProperties} of {@code bean}: one name=value per line.
     */
    static void userProperties(String json, String property, String element, ElementRecord r, SuiteElements.Bean bean) {
        String trimmed = json == null ? "" : json.trim();
        if (trimmed.isEmpty() || trimmed.matches("\\{\\s*}")) {
            r.mapped(property, json, "no user properties");
            return;
        }
        String lines = Values.jsonObjectLines(trimmed);
        if (lines == null) {
            r.notConverted(property, json, "not a JSON object of names and plain values: set userProperties on the "
                    + element + " by hand, one name=value per line");
            return;
        }
        bean.set("userProperties", lines);
        r.mapped(property, json, "userProperties = " + ConversionReport.code(lines.replace("\n", "; "))
                + " (one name=value per line)");
    }

    private static void identity(XmeterElement x, ElementRecord r, SuiteElements.Bean connect, boolean efficient) {
        String prefix = x.take("mqtt.client_id_prefix");
        String suffixText = x.take("mqtt.client_id_suffix");
        boolean suffix = suffixText == null || XmeterElement.isTrue(suffixText);
        String p = prefix == null ? "conn_" : prefix;
        String template;
        if (suffix) {
            template = p + "{engineNumber}-{threadGroup}-{thread}" + (efficient ? "-{client}" : "");
        } else {
            template = efficient ? p + "-xmeter-suffix-{client}" : p;
        }
        connect.set("clientIdTemplate", template);
        // The longest id the template gives: the placeholders' text stands in for their widest values.
        int longest = template.length() - (suffix ? "{engineNumber}-{threadGroup}-{thread}".length() - SUFFIX_LENGTH : 0)
                + (efficient ? CLIENT_DIGITS - "{client}".length() : 0);
        boolean fits = Values.isExpression(p) || longest <= 23;
        connect.set("clientIdsWithin23", Boolean.toString(fits));
        if (Values.hasLiteralBrace(p)) {
            r.notConverted("mqtt.client_id_prefix", prefix, "a brace in the prefix would be read as one of the suite's "
                    + "client id placeholders ({engine}, {thread}, ...), which have no escape: clientIdTemplate = "
                    + ConversionReport.code(template) + " needs editing");
        } else if (suffix) {
            r.approximated("mqtt.client_id_prefix", prefix, "clientIdTemplate = " + ConversionReport.code(template)
                    + ": unique across threads and engines instead of XMeter's random suffix"
                    + (fits ? "" : "; clientIdsWithin23 = false, as the prefix leaves too little room for 23 characters"
                    + " (brokers must accept 23; most accept more)"));
        } else {
            r.mapped("mqtt.client_id_prefix", prefix, "clientIdTemplate = " + ConversionReport.code(template)
                    + ": the prefix verbatim, as XMeter without a suffix (so every thread has the same id unless it "
                    + "holds a per-thread expression)" + (fits ? "" : "; clientIdsWithin23 = false, as XMeter checks no "
                    + "length without a suffix"));
        }
        r.mapped("mqtt.client_id_suffix", suffixText, suffix ? "suffix {engineNumber}-{threadGroup}-{thread}"
                + (efficient ? "-{client}" : "") : "no suffix");
    }

    private static void reconnect(XmeterElement x, ElementRecord r, SuiteElements.Bean connect, boolean fuse) {
        String attemptName = x.nameOf("mqtt.conn_attampt_max", "mqtt.conn_attempt_max");
        String attempts = x.takeEither("mqtt.conn_attampt_max", "mqtt.conn_attempt_max");
        if (fuse && attempts != null && !attempts.trim().equals("0")) {
            r.approximated(attemptName, attempts, "the suite does not retry a first connect here (retryFirstConnect ="
                    + " false): its retries of a first connect share reconnectAttempts with reconnects, with no count of"
                    + " their own");
        } else {
            r.noEffect(attemptName, attempts, "XMeter's HiveMQ client ignores it; the converted plan does not retry a"
                    + " first connect that fails either (retryFirstConnect = false)");
        }

        String reconnName = x.nameOf("mqtt.reconn_attampt_max", "mqtt.reconn_attempt_max");
        String reconn = x.takeEither("mqtt.reconn_attampt_max", "mqtt.reconn_attempt_max");
        // Releases up to 2.0.2 (spelt "attampt") enabled HiveMQ's reconnect for > 0 only; master also for -1.
        boolean released = reconnName.equals("mqtt.reconn_attampt_max");
        if (reconn == null || Values.isInteger(reconn)) {
            long n = reconn == null ? 0 : Long.parseLong(reconn.trim());
            boolean on = n > 0 || (n == -1 && (!released || fuse));
            if (!on) {
                connect.set("reconnectAttempts", "0");
                r.mapped(reconnName, reconn, "reconnectAttempts = `0`: no reconnection"
                        + (n == -1 ? " (XMeter 2.0.2's HiveMQ client does not reconnect for -1)" : ""));
            } else if (fuse && n > 0 && n <= 1000) {
                connect.set("reconnectAttempts", Long.toString(n));
                connect.set("reconnectDelayMs", RECONNECT_DELAY_MS);
                connect.set("reconnectMaxDelayMs", RECONNECT_MAX_DELAY_MS);
                r.mapped(reconnName, reconn, "reconnectAttempts = " + ConversionReport.code(Long.toString(n)));
            } else {
                connect.set("reconnectAttempts", RECONNECT_ATTEMPTS);
                connect.set("reconnectDelayMs", RECONNECT_DELAY_MS);
                connect.set("reconnectMaxDelayMs", RECONNECT_MAX_DELAY_MS);
                r.approximated(reconnName, reconn, "reconnectAttempts = " + RECONNECT_ATTEMPTS + " (unbounded), delay "
                        + RECONNECT_DELAY_MS + " ms doubling up to " + RECONNECT_MAX_DELAY_MS + " ms: XMeter's HiveMQ "
                        + "client reconnects without limit (whatever the number) with these delays, each give or take"
                        + " 25 %, which the suite's exponential policy does not add");
            }
        } else if (Values.isExpression(reconn)) {
            String v = reconn.trim();
            String onCondition = released && !fuse ? v + " > 0" : v + " > 0 || " + v + " == -1";
            connect.set("reconnectAttempts", "${__jexl3(" + onCondition + " ? " + RECONNECT_ATTEMPTS + " : 0)}");
            connect.set("reconnectDelayMs", RECONNECT_DELAY_MS);
            connect.set("reconnectMaxDelayMs", RECONNECT_MAX_DELAY_MS);
            r.approximated(reconnName, reconn, "reconnectAttempts = " + ConversionReport.code(connect.get("reconnectAttempts"))
                    + ", delay " + RECONNECT_DELAY_MS + " ms doubling up to " + RECONNECT_MAX_DELAY_MS
                    + " ms: XMeter reconnects without limit (" + RECONNECT_ATTEMPTS + ": unbounded)");
        } else {
            connect.set("reconnectAttempts", "0");
            r.notConverted(reconnName, reconn, "not a whole number (XMeter fails every connect): reconnectAttempts = 0");
        }
    }

    /** Properties XMeter 2.x writes or reads no more; they change nothing. */
    private static void legacy(XmeterElement x, ElementRecord r) {
        if (x.has("mqtt.conn_share")) {
            r.noEffect("mqtt.conn_share", x.take("mqtt.conn_share"), "ignored since XMeter 1.0.1 (one connection per "
                    + "thread)");
        }
        if (x.has("mqtt.keystore_file_path") || x.has("mqtt.keystore_password")) {
            String store = x.take("mqtt.keystore_file_path");
            String password = x.take("mqtt.keystore_password");
            String hint = Values.isBlank(store) ? "" : "; if it holds the broker's CA, set it as the MQTT Connection's "
                    + "trustStorePath";
            r.noEffect("mqtt.keystore_file_path", store, "ignored by XMeter 2.x (it trusts every certificate)" + hint);
            r.noEffect("mqtt.keystore_password", Values.secret(password), "ignored by XMeter 2.x");
        }
    }

    private SuiteElements.Bean efficientExtras(XmeterElement x, ElementRecord r, SuiteElements.Bean connect) {
        String capacity = x.take("mqtt.conn_capacity");
        connect.set("clientCount", capacity == null ? "1" : capacity.trim());
        r.mapped("mqtt.conn_capacity", capacity, "clientCount = " + ConversionReport.code(connect.get("clientCount")));
        String subText = x.take("mqtt.sub_when_connected");
        String topics = x.take("mqtt.topic_name");
        String qos = x.take("mqtt.qos_level");
        if (!XmeterElement.isTrue(subText)) {
            r.noEffect("mqtt.sub_when_connected", subText, "off");
            r.noEffect("mqtt.topic_name", topics, "used only with mqtt.sub_when_connected");
            r.noEffect("mqtt.qos_level", qos, "used only with mqtt.sub_when_connected");
            return null;
        }
        SuiteElements.Bean sub = suite.subscribe(x.testname + ": subscribe", x.enabled);
        sub.set("clientGroup", EFFICIENT_GROUP);
        r.mapped("mqtt.sub_when_connected", subText, "an MQTT Subscribe of all the connections right after the connect");
        SubscribeMapping.filters(topics, r, sub);
        SubscribeMapping.qos(qos, r, sub);
        return sub;
    }
}
