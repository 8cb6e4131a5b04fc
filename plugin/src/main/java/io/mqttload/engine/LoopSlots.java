package io.mqttload.engine;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import io.mqttload.client.ClientLoop;
import io.mqttload.measure.MicroClock;
import io.mqttload.measure.SamplerMetrics;
import io.mqttload.traffic.LoadClient;

/**
 * One second of a thread's slots sent from its clients' own event loops (an asynchronous scheduled sample): each
 * client's slots are fired by a timer on the loop its connection runs on, so the message is written by that loop's
 * next pass, and the JMeter thread hands the period over once per loop and parks once until the period's end. Sent
 * from the JMeter thread instead, every slot woke that thread from a timed park and then woke the client's loop from
 * another thread: about 3.4 context switches per message on EMQ's p2p shape (docs/performance.md).
 *
 * <p>A client's chain runs only on its loop, one pass at a time, so its slots, streams and sequence numbers keep the
 * order they had; a full in-flight window is never waited for on a loop: the chain looks again a millisecond later,
 * and gives the period up as today's thread does when a window stayed full for the acknowledgement timeout. Slots not
 * sent by then stay owed to the next sample. Each chain books its own counts; the sample reports their sum.
 */
final class LoopSlots {
    /** How soon a chain that found an in-flight window full looks again. */
    private static final long FULL_RETRY_MICROS = 1_000;
    /** How long past the acknowledgement timeout the thread waits for chains to end once told to stop. */
    private static final long STOP_GRACE_MILLIS = 1_000;

    private final PublishOperation operation;
    private final RunContext run;
    private final ClientGroup group;
    private final int threadGroup;
    private final int thread;
    private final SamplerMetrics sampler;
    private final PublishSlots slots;
    private final long untilMicros;
    private final AtomicInteger messageIndex = new AtomicInteger();
    private final List<Chain> chains = new ArrayList<>();
    private CountDownLatch ended;
    private volatile boolean stopped;
    /** The first result that ended a chain early; null while none did. */
    private OperationResult firstStop;

    LoopSlots(PublishOperation operation, RunContext run, ClientGroup group, int threadGroup, int thread,
            SamplerMetrics sampler, PublishSlots slots, long untilMicros) {
        this.operation = operation;
        this.run = run;
        this.group = group;
        this.threadGroup = threadGroup;
        this.thread = thread;
        this.sampler = sampler;
        this.slots = slots;
        this.untilMicros = untilMicros;
    }

    static boolean everyClientHasALoop(List<LoadClient> clients) {
        for (LoadClient c : clients) {
            if (c.eventLoop() == null) {
                return false;
            }
        }
        return !clients.isEmpty();
    }

    private static OperationResult loopGone(LoadClient client) {
        return OperationResult.failed("NOT_CONNECTED", client.clientId() + ": its event loop is shut down");
    }

    /** Runs the period: hands each loop its clients' chains, parks until the period's end, waits for the chains. */
    OperationResult run() {
        String earlierFailures = group.takeAsyncFailures();
        List<LoadClient> clients = group.clients();
        Map<ClientLoop, List<Chain>> byLoop = new LinkedHashMap<>();
        for (int c = 0; c < slots.clients(); c++) {
            LoadClient client = clients.get(c % clients.size());
            Chain chain = new Chain(c, client, operation.batch(run, group, threadGroup, thread, sampler));
            chains.add(chain);
            byLoop.computeIfAbsent(client.eventLoop(), l -> new ArrayList<>()).add(chain);
        }
        ended = new CountDownLatch(chains.size());
        for (Map.Entry<ClientLoop, List<Chain>> e : byLoop.entrySet()) {
            List<Chain> onLoop = e.getValue();
            try {
                e.getKey().execute(() -> onLoop.forEach(Chain::run));
            } catch (RejectedExecutionException gone) {
                onLoop.forEach(chain -> chain.end(loopGone(chain.client)));
            }
        }
        boolean interrupted = !PublishOperation.waitUntil(untilMicros);
        // An interrupted thread (JMeter's stop) still waits, briefly, for its loops to drop the chains' timers; its
        // interrupt is set again before it returns.
        interrupted |= Thread.interrupted();
        boolean allEnded = false;
        try {
            allEnded = !interrupted
                    && ended.await(operation.ackTimeoutMillis() + STOP_GRACE_MILLIS, TimeUnit.MILLISECONDS);
            if (!allEnded) {
                stop(byLoop);
                allEnded = ended.await(STOP_GRACE_MILLIS, TimeUnit.MILLISECONDS);
            }
        } catch (InterruptedException e) {
            stop(byLoop);
            interrupted = true;
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
        return outcome(interrupted, allEnded, earlierFailures);
    }

    /** Ends every chain on its loop: its pending timer cancelled, nothing more sent; a loop shut down has none. */
    private void stop(Map<ClientLoop, List<Chain>> byLoop) {
        stopped = true;
        for (Map.Entry<ClientLoop, List<Chain>> e : byLoop.entrySet()) {
            List<Chain> onLoop = e.getValue();
            try {
                e.getKey().execute(() -> onLoop.forEach(Chain::cancel));
            } catch (RejectedExecutionException gone) {
                // Its tasks and timers went with it.
            }
        }
    }

    private synchronized OperationResult outcome(boolean interrupted, boolean allEnded, String earlierFailures) {
        int failed = 0;
        String firstError = null;
        long sent = 0;
        long bytes = 0;
        long messages = 0;
        for (Chain c : chains) {
            synchronized (c) {
                failed += c.batch.failed;
                if (firstError == null) {
                    firstError = c.batch.firstError;
                }
                sent += c.sent;
                bytes += c.bytes;
                messages += c.messages;
            }
        }
        if (interrupted) {
            return OperationResult.failed("INTERRUPTED", "interrupted after " + sent + " messages", bytes);
        }
        if (firstStop != null) {
            return firstStop;
        }
        if (!allEnded) {
            return OperationResult.failedCounted("LOOP_BEHIND", ended.getCount() + " of " + chains.size()
                    + " clients' event loops had not sent their slots of the second " + (operation.ackTimeoutMillis()
                    + STOP_GRACE_MILLIS) + " ms after its end; sent " + sent, bytes);
        }
        return operation.outcome(failed, firstError, sent, bytes, earlierFailures, messages);
    }

    private synchronized void stoppedBy(OperationResult result) {
        if (firstStop == null) {
            firstStop = result;
        }
    }

    /** One client's slots of the period, sent on its loop: each pass sends what is due and sets a timer for the next. */
    private final class Chain implements Runnable {
        private final int slot;
        private final LoadClient client;
        private final PublishBatch batch;
        private final ClientLoop loop;
        private long fullSinceMicros = -1;
        /**
         * The sample's message index ({msg}) of the slot a full window held back, kept for its next try: taking a new
         * one moved every later message of the thread to another {msg}, and a topic made from it to another topic.
         */
        private int heldIndex = -1;
        /** The timer set for the chain's next pass; null when none is pending. Used on the loop alone. */
        private Future<?> pending;
        private boolean done;
        long sent;
        long bytes;
        long messages;

        Chain(int slot, LoadClient client, PublishBatch batch) {
            this.slot = slot;
            this.client = client;
            this.batch = batch;
            this.loop = client.eventLoop();
            batch.onLoop = true;
        }

        @Override
        public void run() {
            pending = null;
            if (stopped) {
                end(null);
                return;
            }
            long now = MicroClock.nowMicros();
            while (true) {
                long at = slots.nextSlotMicros(slot);
                if (at >= untilMicros) {
                    end(null);
                    return;
                }
                if (at > now) {
                    later(at - now);
                    return;
                }
                int index = heldIndex >= 0 ? heldIndex : messageIndex.getAndIncrement();
                OperationResult stop = operation.publishOne(batch, client, index, at, messagesSoFar() + 1);
                if (stop == PublishOperation.WINDOW_FULL) {
                    heldIndex = index;
                    if (fullSinceMicros < 0) {
                        fullSinceMicros = now;
                    } else if (now - fullSinceMicros >= TimeUnit.MILLISECONDS.toMicros(operation.ackTimeoutMillis())) {
                        end(OperationResult.failed("IN_FLIGHT_FULL", "published " + batch.counts.sent + " of the second's slots of "
                                + client.clientId() + ": its in-flight windows stayed full for "
                                + operation.ackTimeoutMillis() + " ms"));
                        return;
                    }
                    later(FULL_RETRY_MICROS);
                    return;
                }
                fullSinceMicros = -1;
                heldIndex = -1;
                slots.take(slot);
                synchronized (this) {
                    messages++;
                    sent = batch.counts.sent;
                    bytes = batch.counts.bytes;
                }
                if (stop != null) {
                    end(stop);
                    return;
                }
                now = MicroClock.nowMicros();
            }
        }

        private void later(long micros) {
            try {
                pending = loop.schedule(this, micros, TimeUnit.MICROSECONDS);
            } catch (RejectedExecutionException gone) {
                end(loopGone(client));
            }
        }

        private synchronized long messagesSoFar() {
            return messages;
        }

        /** Run on the loop once the thread stopped: the pending timer cancelled, the chain over. */
        void cancel() {
            if (pending != null) {
                pending.cancel(false);
                pending = null;
            }
            end(null);
        }

        /** The chain is over: its counts booked, the result that ended it early (if any) kept for the sample. */
        void end(OperationResult stop) {
            synchronized (this) {
                if (done) {
                    return;
                }
                done = true;
                batch.counts.book();
                sent = batch.counts.sent;
                bytes = batch.counts.bytes;
            }
            if (stop != null) {
                stoppedBy(stop);
            }
            ended.countDown();
        }
    }
}
