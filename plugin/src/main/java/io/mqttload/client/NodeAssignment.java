package io.mqttload.client;

import java.util.List;

import io.mqttload.common.InvalidSettingException;

/**
 * Which node of the list a client connects to. Every policy puts the engine's number into the choice, so that N
 * engines running the same plan spread over the nodes rather than all starting at the first.
 */
public enum NodeAssignment {
    /** One client to each node in turn, over the engine's clients (counted in connect order). */
    ROUND_ROBIN,
    /** All clients of a JMeter thread (a partition of the scenarios) on one node, threads in turn. */
    PARTITION,
    /** The node the connection's node template names for the client (a node name or a 1-based node number). */
    TEMPLATE,
    /** A node drawn for each client from a seeded hash: the same seed gives the same assignment. */
    RANDOM;

    /** Nodes a payload header can name (6 bits, 0 meaning "no node"). */
    public static final int MAX_NODES = 63;

    /**
     * The node index for one client.
     *
     * @param engineNumber the engine's number (the rotation's offset)
     * @param engineOrdinal the client's place among this engine's clients, in connect order (0-based)
     * @param thread the JMeter thread's number in its group (1-based)
     * @param client the client's index within its thread (0-based)
     * @param templateValue the node template expanded for this client (TEMPLATE only)
     */
    public int choose(List<BrokerNode> nodes, long seed, int engineNumber, long engineOrdinal, int threadGroup,
            int thread, int client, String templateValue, String templateField) {
        int n = nodes.size();
        if (n == 1) {
            return 0;
        }
        switch (this) {
            case PARTITION:
                return Math.floorMod(engineNumber + (long) threadGroup + thread - 2, n);
            case TEMPLATE:
                return byName(nodes, templateValue, templateField);
            case RANDOM:
                return Math.floorMod(mix(seed, engineNumber, threadGroup, thread, client), n);
            case ROUND_ROBIN:
            default:
                return Math.floorMod(engineNumber + engineOrdinal, n);
        }
    }

    /** The node {@code value} names (a node name or a 1-based number); an error naming the field otherwise. */
    public static int byName(List<BrokerNode> nodes, String value, String field) {
        for (BrokerNode node : nodes) {
            if (node.name.equals(value)) {
                return node.index;
            }
        }
        try {
            int number = Integer.parseInt(value.trim());
            if (number >= 1 && number <= nodes.size()) {
                return number - 1;
            }
        } catch (NumberFormatException e) {
            // Neither a name nor a number: the message below says what is accepted.
        }
        throw new InvalidSettingException(field, value, "names no node: expected a node name " + nodes
                + " or a number from 1 to " + nodes.size());
    }

    /** SplitMix64's finaliser over the client's coordinates: uniform, and stable across JVMs and runs. */
    private static long mix(long seed, int engineNumber, int threadGroup, int thread, int client) {
        long z = seed;
        for (long v : new long[] {engineNumber, threadGroup, thread, client}) {
            z += 0x9E3779B97F4A7C15L + v;
            z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
            z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
            z ^= z >>> 31;
        }
        return z;
    }
}
