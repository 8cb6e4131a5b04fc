package io.mqttload.convert;

import java.util.Locale;

import io.mqttload.convert.ConversionReport.ElementRecord;

/**
 * Where and how an XMeter Connect reaches its broker, for the MQTT Connection it becomes: host, port and MQTT
 * version, transport and TLS material, user name and password. Secrets are masked in the report.
 */
final class BrokerMapping {
    private BrokerMapping() {
    }

    /** Host, port and MQTT version; true when the version is MQTT 5. */
    static boolean broker(XmeterElement x, ElementRecord r, SuiteElements.Bean conn, boolean fuse) {
        String server = x.take("mqtt.server");
        conn.set("host", server == null ? "127.0.0.1" : server.trim());
        r.mapped("mqtt.server", server, "MQTT Connection host = " + ConversionReport.code(conn.get("host")));
        String port = x.take("mqtt.port");
        conn.set("port", port == null ? "1883" : port.trim());
        r.mapped("mqtt.port", port, "MQTT Connection port = " + ConversionReport.code(conn.get("port")));
        String version = x.take("mqtt.version");
        if (version != null && (version.trim().equals("5") || version.trim().equals("5.0"))) {
            conn.set("mqttVersion", "MQTT_5");
            r.mapped("mqtt.version", version, "mqttVersion = `MQTT_5` (MQTT 5 is in XMeter's unmerged pull requests "
                    + "#140 and #151 and their forks only)");
            return true;
        }
        conn.set("mqttVersion", "MQTT_3_1_1");
        if (fuse && (version == null || version.trim().equals("3.1"))) {
            r.approximated("mqtt.version", version, "mqttVersion = `MQTT_3_1_1`: MQTT 3.1 is not available in the suite");
        } else {
            r.mapped("mqtt.version", version, "mqttVersion = `MQTT_3_1_1`: XMeter's default (HiveMQ) client speaks "
                    + "3.1.1 whatever this says; MQTT 3.1 is not available in the suite");
        }
        return false;
    }

    static void transport(XmeterElement x, ElementRecord r, SuiteElements.Bean conn) {
        String protocol = x.take("mqtt.protocol");
        String p = protocol == null ? "TCP" : protocol.trim().toUpperCase(Locale.ROOT);
        boolean secure;
        boolean webSocket;
        if (Values.isExpression(protocol)) {
            // The suite's transport field also accepts XMeter's names SSL, WS and WSS.
            conn.set("transport", protocol.trim());
            secure = true;
            webSocket = true;
            r.mapped("mqtt.protocol", protocol, "transport = " + ConversionReport.code(protocol.trim())
                    + ": the suite's transport accepts XMeter's names TCP, SSL, WS and WSS as they are");
        } else {
            String t;
            switch (p) {
                case "TCP":
                    t = "TCP";
                    break;
                case "SSL":
                    t = "TLS";
                    break;
                case "WS":
                    t = "WEBSOCKET";
                    break;
                case "WSS":
                    t = "SECURE_WEBSOCKET";
                    break;
                default:
                    t = null;
                    break;
            }
            if (t == null) {
                conn.set("transport", "TCP");
                r.notConverted("mqtt.protocol", protocol, "unknown protocol (XMeter knows TCP, SSL, WS and WSS): "
                        + "transport left at `TCP`");
                t = "TCP";
            } else if (t.equals("TLS") || t.equals("SECURE_WEBSOCKET")) {
                conn.set("transport", t);
                r.approximated("mqtt.protocol", protocol, "transport = " + ConversionReport.code(t) + " with "
                        + "verifyHostname = false: XMeter trusts every certificate, the suite only those of its trust "
                        + "store (see the note)");
            } else {
                conn.set("transport", t);
                r.mapped("mqtt.protocol", protocol, "transport = " + ConversionReport.code(t));
            }
            secure = t.equals("TLS") || t.equals("SECURE_WEBSOCKET");
            webSocket = t.equals("WEBSOCKET") || t.equals("SECURE_WEBSOCKET");
        }

        String path = x.take("mqtt.ws_path");
        String wsPath = path == null ? "" : path.trim();
        conn.set("webSocketPath", wsPath);
        if (webSocket) {
            r.mapped("mqtt.ws_path", path, "webSocketPath = " + ConversionReport.code(wsPath)
                    + (wsPath.isEmpty() ? ": the root path, as XMeter's client uses (the suite's default is /mqtt)" : ""));
        } else {
            r.noEffect("mqtt.ws_path", path, "used with WS and WSS only");
        }

        boolean dual = XmeterElement.isTrue(x.take("mqtt.dual_ssl_authentication"));
        String dualText = x.prop("mqtt.dual_ssl_authentication") == null ? null : x.prop("mqtt.dual_ssl_authentication").value;
        String cert = x.take("mqtt.clientcert_file_path");
        String certPassword = x.take("mqtt.clientcert_password");
        if (secure) {
            conn.set("verifyHostname", "false");
            r.notes.add((Values.isExpression(protocol) ? "TLS, if the protocol is SSL or WSS: " : "TLS: ")
                    + "XMeter trusts every broker certificate (no CA or host name check, TLS 1.2 only). The suite "
                    + "has no trust-all: host name verification is off (verifyHostname = false) and the certificate must "
                    + "chain to the JVM's default CAs; for a self-signed broker set trustStorePath and trustStorePassword "
                    + "on the MQTT Connection.");
        }
        if (secure && dual) {
            conn.set("keyStorePath", cert == null ? "" : cert.trim());
            conn.set("keyStorePassword", certPassword);
            r.mapped("mqtt.dual_ssl_authentication", dualText, "mutual TLS: the client certificate below");
            String where = cert != null && !cert.trim().isEmpty() && !cert.trim().startsWith("/") && !Values.isExpression(cert)
                    ? ": a relative path is read from JMeter's working directory in the suite (XMeter: JMeter's base "
                    + "directory)" : "";
            r.mapped("mqtt.clientcert_file_path", cert, "keyStorePath (PKCS#12, as in XMeter)" + where);
            r.mapped("mqtt.clientcert_password", Values.secret(certPassword), "keyStorePassword (store and key, as in XMeter)");
        } else {
            String why = secure ? "mutual TLS is off" : "used with SSL and WSS only";
            r.noEffect("mqtt.dual_ssl_authentication", dualText, secure ? "off" : why);
            r.noEffect("mqtt.clientcert_file_path", cert, why);
            r.noEffect("mqtt.clientcert_password", Values.secret(certPassword), why);
        }
    }

    static void credentials(XmeterElement x, ElementRecord r, SuiteElements.Bean conn) {
        String user = x.take("mqtt.user_name");
        String password = x.take("mqtt.password");
        boolean hasUser = !Values.isBlank(user);
        conn.set("username", hasUser ? user : "");
        r.mapped("mqtt.user_name", user, hasUser ? "username" : "no user name (XMeter sends none when it is blank)");
        if (Values.isBlank(password)) {
            r.mapped("mqtt.password", password, "no password");
        } else if (hasUser) {
            conn.set("password", password);
            r.mapped("mqtt.password", Values.secret(password), "password");
        } else {
            r.mapped("mqtt.password", Values.secret(password), "left out: XMeter's HiveMQ client sends no password without a "
                    + "user name (and MQTT 3.1.1 allows none)");
        }
    }
}
