package io.mqttload.client;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import io.mqttload.common.Checks;
import io.mqttload.common.InvalidSettingException;

/** One node of a broker cluster as clients see it: a name for the reports, an address and a transport. */
public final class BrokerNode {
    /** {@code [name=][scheme://]host[:port]}; a bracketed IPv6 host keeps its colons. */
    private static final Pattern ENTRY = Pattern.compile(
            "(?:([A-Za-z0-9_.-]+)=)?(?:([A-Za-z]+)://)?(\\[[0-9A-Fa-f:.]+\\]|[^\\s:/\\[\\]=]+)(?::([^\\s/]*))?");

    public final int index;
    public final String name;
    public final String host;
    public final int port;
    public final Transport transport;

    BrokerNode(int index, String name, String host, int port, Transport transport) {
        this.index = index;
        this.name = name;
        this.host = host;
        this.port = port;
        this.transport = transport;
    }

    /**
     * The nodes of {@code field}: entries separated by commas or white space, each
     * {@code [name=][tcp|tls|ws|wss://]host[:port]}; the port and transport default to the connection's own. An empty
     * list is one node, the connection's host. Names default to {@code host:port} and must differ.
     */
    public static List<BrokerNode> parseList(String field, String text, String defaultHost, int defaultPort,
            Transport defaultTransport) {
        List<BrokerNode> nodes = new ArrayList<>();
        if (text == null || text.trim().isEmpty()) {
            String host = Checks.notBlank("host", defaultHost);
            nodes.add(new BrokerNode(0, host + ":" + defaultPort, host, defaultPort, defaultTransport));
            return nodes;
        }
        Set<String> names = new HashSet<>();
        for (String entry : text.trim().split("[,\\s]+")) {
            Matcher m = ENTRY.matcher(entry);
            if (!m.matches()) {
                throw new InvalidSettingException(field, entry, "expected [name=][tcp|tls|ws|wss://]host[:port]");
            }
            Transport transport = m.group(2) == null ? defaultTransport : scheme(field, entry, m.group(2));
            int port = defaultPort;
            if (m.group(4) != null) {
                try {
                    port = Integer.parseInt(m.group(4));
                } catch (NumberFormatException e) {
                    port = -1;
                }
                if (port < 1 || port > 65_535) {
                    throw new InvalidSettingException(field, entry, "the port must be a number from 1 to 65535");
                }
            }
            String host = m.group(3);
            String name = m.group(1) != null ? m.group(1) : host + ":" + port;
            if (!names.add(name)) {
                throw new InvalidSettingException(field, entry, "names the node '" + name + "' twice; every node once");
            }
            nodes.add(new BrokerNode(nodes.size(), name, host, port, transport));
        }
        if (nodes.size() > NodeAssignment.MAX_NODES) {
            throw new InvalidSettingException(field, text, "lists " + nodes.size() + " nodes; at most "
                    + NodeAssignment.MAX_NODES);
        }
        return nodes;
    }

    private static Transport scheme(String field, String entry, String scheme) {
        switch (scheme.toLowerCase(Locale.ROOT)) {
            case "tcp":
            case "mqtt":
                return Transport.TCP;
            case "tls":
            case "ssl":
            case "mqtts":
                return Transport.TLS;
            case "ws":
                return Transport.WEBSOCKET;
            case "wss":
                return Transport.SECURE_WEBSOCKET;
            default:
                throw new InvalidSettingException(field, entry, "unknown scheme '" + scheme + "'; use tcp, tls, ws or wss");
        }
    }

    /** For a report: {@code tcp://127.0.0.1:1883}, after its name when the node has one of its own ({@code n1=...}). */
    public String describe() {
        String address = host + ":" + port;
        return (name.equals(address) ? "" : name + "=") + transport.scheme() + "://" + address;
    }

    @Override
    public String toString() {
        return name;
    }
}
