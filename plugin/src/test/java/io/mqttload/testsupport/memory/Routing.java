package io.mqttload.testsupport.memory;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import io.mqttload.client.SubscribeOptions;
import io.mqttload.client.SubscribeRefusedException;
import io.mqttload.common.SharedSubscription;
import io.mqttload.common.TopicTrie;
import io.mqttload.testsupport.memory.InMemoryBroker.Count;
import io.mqttload.testsupport.memory.Session.Subscription;

/**
 * The broker's state and what it does with it: sessions, subscriptions (the topic trie, rebuilt when they change),
 * shared groups, retained messages, and each delivery through the faults. Touched on the event loop only.
 */
final class Routing {
    /** A delivery held back by the reorder fault goes on its own after this long, when no other delivery came. */
    private static final long HOLD_BACK_MILLIS = 200;

    /** The members of one {@code $share/group/filter}, each message to one of them in turn. */
    private static final class SharedGroup {
        final String filter;
        final List<Subscription> members = new ArrayList<>();
        int next;

        SharedGroup(String filter) {
            this.filter = filter;
        }

        /** The next online member in turn, else the next one (whose session may queue it), or null when empty. */
        Subscription choose() {
            for (int i = 0; i < members.size(); i++) {
                Subscription s = members.get((next + i) % members.size());
                if (s.session.online()) {
                    next = (next + i + 1) % members.size();
                    return s;
                }
            }
            if (members.isEmpty()) {
                return null;
            }
            Subscription s = members.get(next % members.size());
            next = (next + 1) % members.size();
            return s;
        }
    }

    private final InMemoryBroker broker;
    private final Map<String, Session> sessions = new HashMap<>();
    private final Map<String, SharedGroup> sharedGroups = new LinkedHashMap<>();
    private final Map<String, MemoryMessage> retained = new LinkedHashMap<>();
    /** Every subscription (a {@link Subscription}) and shared group; null when subscriptions changed since built. */
    private TopicTrie<Object> trie;

    Routing(InMemoryBroker broker) {
        this.broker = broker;
    }

    void connect(Link link, CompletableFuture<Boolean> connack) {
        Session session = sessions.get(link.clientId);
        if (session != null && session.link != null && session.link != link) {
            // Session takeover: the first connection is closed, an MQTT 5 client's with DISCONNECT reason 0x8E; a 3.1.1
            // client's just closed, as a broker that goes away would close it.
            close(session.link, new BrokerClosedConnection("session taken over by another connection with client id "
                    + link.clientId, BrokerClosedConnection.SESSION_TAKEN_OVER));
            session = sessions.get(link.clientId);
        }
        if (session != null && session.expired(System.nanoTime())) {
            end(session);
            session = null;
        }
        boolean present = session != null && !link.cleanStart;
        if (!present) {
            if (session != null) {
                end(session);
            }
            session = new Session(link.clientId);
            sessions.put(link.clientId, session);
        }
        session.link = link;
        session.keptWhenOffline = link.keepsSession;
        session.expiresAtNanos = Long.MAX_VALUE;
        boolean reconnect = link.everConnected;
        link.opened(present);
        if (!present && reconnect && link.resubscribesItself) {
            // The HiveMQ client subscribes again by itself when the broker kept no session, unless told not to.
            for (Map.Entry<String, Link.Granted> g : link.subscriptions.entrySet()) {
                add(session, g.getKey(), g.getValue().qos, g.getValue().options);
            }
        }
        connack.complete(present);
        List<Session.Queued> queued = new ArrayList<>(session.queue);
        session.queue.clear();
        for (Session.Queued q : queued) {
            deliver(session, q.message, q.qos);
        }
    }

    /** The link's connection ended (DISCONNECT, or closed by the broker): its session is kept or ends. */
    void offline(Link link) {
        Session session = sessions.get(link.clientId);
        if (session == null || session.link != link) {
            return;
        }
        session.link = null;
        if (!session.keptWhenOffline) {
            end(session);
        } else if (link.sessionExpirySeconds != Long.MAX_VALUE) {
            session.expiresAtNanos = System.nanoTime() + TimeUnit.SECONDS.toNanos(link.sessionExpirySeconds);
        }
    }

    /** Closes one client's connection ({@code clientId} null: every one's) as a broker that goes away would. */
    void closeByBroker(String clientId) {
        for (Session s : new ArrayList<>(sessions.values())) {
            if (s.online() && (clientId == null || clientId.equals(s.clientId))) {
                close(s.link, new BrokerClosedConnection("the in-memory broker closed the connection", -1));
            }
        }
    }

    /** A restart without persistence: every connection closed, every session and retained message forgotten. */
    void restart() {
        closeByBroker(null);
        for (Session s : new ArrayList<>(sessions.values())) {
            end(s);
        }
        // What the broker says of itself it says again once it is back.
        retained.keySet().removeIf(topic -> !topic.startsWith("$SYS/"));
    }

    private void close(Link link, Throwable cause) {
        broker.count(Count.CONNECTIONS_CLOSED_BY_BROKER, 1);
        offline(link);
        link.closedBy(cause);
    }

    private void end(Session session) {
        sessions.remove(session.clientId, session);
        for (Subscription s : session.subscriptions.values()) {
            removeFromGroup(s);
        }
        if (!session.subscriptions.isEmpty()) {
            trie = null;
        }
    }

    void subscribe(Link link, List<String> filters, int qos, SubscribeOptions options, CompletableFuture<Void> suback) {
        Session session = sessions.get(link.clientId);
        if (!link.connected || session == null || session.link != link) {
            suback.completeExceptionally(new IllegalStateException("MQTT client is not connected."));
            return;
        }
        List<String> refused = new ArrayList<>();
        String reason = null;
        List<String> granted = new ArrayList<>();
        for (String filter : filters) {
            String refusal = broker.subscribeRefusal(filter);
            if (refusal != null) {
                refused.add(filter + ": " + refusal);
                reason = refusal;
                continue;
            }
            boolean isNew = !session.subscriptions.containsKey(filter);
            add(session, filter, qos, options);
            link.subscriptions.put(filter, new Link.Granted(qos, options));
            if (options.retainHandling() == SubscribeOptions.RetainHandling.SEND
                    || options.retainHandling() == SubscribeOptions.RetainHandling.SEND_IF_NEW && isNew) {
                granted.add(filter);
            }
        }
        if (refused.isEmpty()) {
            suback.complete(null);
        } else {
            broker.count(Count.SUBSCRIPTIONS_REFUSED, refused.size());
            suback.completeExceptionally(new SubscribeRefusedException("SUBACK refused " + String.join(", ", refused),
                    "SUBACK refused: " + reason));
        }
        // After the SUBACK, as a broker sends them; a shared subscription gets none (MQTT 5.0 §4.8.2).
        for (String filter : granted) {
            if (SharedSubscription.isShared(filter) || !broker.sendsRetainedTo(filter)) {
                continue;
            }
            TopicTrie<String> one = new TopicTrie<>();
            one.add(filter, filter);
            for (MemoryMessage m : new ArrayList<>(retained.values())) {
                if (!one.match(m.topic).isEmpty()) {
                    deliver(session, m, Math.min(m.qos, qos));
                }
            }
        }
    }

    private void add(Session session, String filter, int qos, SubscribeOptions options) {
        Subscription old = session.subscriptions.get(filter);
        if (old != null) {
            removeFromGroup(old);
        }
        Subscription s = new Subscription(session, filter, qos, options.noLocal(),
                SharedSubscription.isShared(filter) && broker.servesSharedSubscriptions());
        session.subscriptions.put(filter, s);
        if (s.shared) {
            SharedSubscription shared = SharedSubscription.parse("filter", filter);
            sharedGroups.computeIfAbsent(filter, f -> new SharedGroup(shared.filter())).members.add(s);
        }
        trie = null;
    }

    private void removeFromGroup(Subscription s) {
        SharedGroup g = sharedGroups.get(s.filter);
        if (g != null) {
            g.members.remove(s);
            if (g.members.isEmpty()) {
                sharedGroups.remove(s.filter);
            }
        }
    }

    private TopicTrie<Object> trie() {
        if (trie == null) {
            TopicTrie<Object> t = new TopicTrie<>();
            for (Session session : sessions.values()) {
                for (Subscription s : session.subscriptions.values()) {
                    if (!s.shared) {
                        t.add(s.filter, s);
                    }
                }
            }
            for (SharedGroup g : sharedGroups.values()) {
                t.add(g.filter, g);
            }
            trie = t;
        }
        return trie;
    }

    void retain(MemoryMessage message) {
        if (message.payload.length == 0) {
            retained.remove(message.topic);
        } else {
            retained.put(message.topic, message);
        }
    }

    MemoryMessage retained(String topic) {
        return retained.get(topic);
    }

    /** One published message to every session with a matching subscription, once each, at its highest QoS. */
    void route(Link from, MemoryMessage message) {
        if (message.retain) {
            retain(message);
        }
        Map<Session, Integer> targets = new LinkedHashMap<>();
        for (Object match : trie().match(message.topic)) {
            Subscription s = match instanceof SharedGroup ? ((SharedGroup) match).choose() : (Subscription) match;
            if (s == null || s.noLocal && s.session.link == from) {
                continue;
            }
            targets.merge(s.session, s.qos, Math::max);
        }
        for (Map.Entry<Session, Integer> t : targets.entrySet()) {
            deliver(t.getKey(), message, Math.min(message.qos, t.getValue()));
        }
    }

    /** One delivery to a session, through the faults; an offline session queues QoS 1 and 2 if it is kept. */
    private void deliver(Session session, MemoryMessage message, int qos) {
        if (!session.online()) {
            queue(session, message, qos);
            return;
        }
        Faults.Decision d = broker.faults().decide(message.topic);
        if (d.drop) {
            broker.count(Count.DROPPED, 1);
            return;
        }
        int copies = d.duplicate ? 2 : 1;
        if (d.duplicate) {
            broker.count(Count.DUPLICATED, 1);
        }
        Link link = session.link;
        for (int i = 0; i < copies; i++) {
            Runnable handOver = () -> handOver(session, link, message, qos);
            if (d.delayMillis > 0) {
                broker.count(Count.DELAYED, 1);
                broker.schedule(handOver, d.delayMillis);
            } else if (d.reorder && link.heldBack == null) {
                link.heldBack = handOver;
                broker.schedule(() -> {
                    if (link.heldBack == handOver) {
                        link.flushHeldBack();
                    }
                }, HOLD_BACK_MILLIS);
            } else {
                handOver.run();
            }
        }
    }

    private void handOver(Session session, Link link, MemoryMessage message, int qos) {
        if (session.link != link || !link.connected) {
            // The connection went while the delivery waited (a delay fault): the session keeps it, or it is lost.
            queue(session, message, qos);
            return;
        }
        broker.count(Count.DELIVERIES, 1);
        link.deliver(message, qos);
    }

    private void queue(Session session, MemoryMessage message, int qos) {
        if (qos > 0 && session.keptWhenOffline && sessions.get(session.clientId) == session) {
            broker.count(Count.QUEUED_OFFLINE, 1);
            session.queue.add(new Session.Queued(message, qos));
        }
    }

    /** Why the broker closed a connection, as the client's lost-connection cause. */
    static final class BrokerClosedConnection extends RuntimeException {
        /** The MQTT 5 DISCONNECT reason code of a session takeover. */
        static final int SESSION_TAKEN_OVER = 0x8E;
        private static final long serialVersionUID = 1L;
        /** The MQTT 5 DISCONNECT reason code the broker sent, or -1 when it sent none and just closed. */
        final int reasonCode;

        BrokerClosedConnection(String message, int reasonCode) {
            super(message);
            this.reasonCode = reasonCode;
        }
    }
}
