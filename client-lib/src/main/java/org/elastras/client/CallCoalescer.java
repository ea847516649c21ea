package org.elastras.client;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;
import org.elastras.client.protocol.CallBatchRequest;
import org.elastras.client.protocol.CallBatchResponse;
import org.elastras.client.protocol.CallOutcome;
import org.elastras.client.protocol.CallRequest;
import org.elastras.client.protocol.CallResponse;
import org.elastras.client.protocol.ElasTrasException;
import org.elastras.client.protocol.ErrorCode;
import org.elastras.client.protocol.Operation;

/**
 * Coalesces concurrent stored-procedure calls to one OTM into {@code callBatch} requests, the way
 * a log coalesces commits into one sync: while {@code batchesInFlightMax} requests are in flight,
 * new calls wait in a bounded queue; when a request comes back, the oldest waiting call's own
 * thread sends everything queued (up to {@code batchCallsMax} calls and {@code batchBytesMax}
 * bytes) as the next request. With a slot free a call is sent at once, alone, as a plain
 * {@code call}: no timer, no delay at low load. Thread-safe: any number of threads may call.
 *
 * <p>Each call keeps its own answer or error (see {@link CallBatchRequest}). A failure of the
 * whole request is every call's failure: UNREACHABLE if it was never sent, OUTCOME_UNKNOWN if it
 * was (each call's commit id then resolves it, as for a lone call). A call that waited in the
 * queue for its whole timeout fails UNREACHABLE, unsent.
 *
 * <p>No thread of its own: the callers' threads send, and a caller that sent a request hands the
 * next one to the oldest waiting caller before it returns.
 */
final class CallCoalescer {

    /** Where a waiting call stands. Changes only under the call's own monitor. */
    private enum State { QUEUED, LEADS, DONE }

    /** One call from its arrival to its answer. */
    private static final class Pending {
        final CallRequest request;
        /** Guarded by this. */
        State state = State.QUEUED;
        /** Guarded by this: the answer, once DONE without error. */
        CallResponse response;
        /** Guarded by this: the error, once DONE with one. */
        ElasTrasException error;

        Pending(CallRequest request) {
            this.request = request;
        }

        synchronized void lead() {
            state = State.LEADS;
            notifyAll();
        }

        synchronized void complete(CallResponse answer, ElasTrasException failure) {
            if (state == State.DONE) {
                return;
            }
            response = answer;
            error = failure;
            state = State.DONE;
            notifyAll();
        }

        /** Waits until this call leads or is done, at most until {@code deadlineNanos}; returns the state. */
        synchronized State await(long deadlineNanos) throws InterruptedException {
            while (state == State.QUEUED) {
                long leftNanos = deadlineNanos - System.nanoTime();
                if (leftNanos <= 0) {
                    break;
                }
                TimeUnit.NANOSECONDS.timedWait(this, leftNanos);
            }
            return state;
        }

        synchronized CallResponse answer() {
            if (error != null) {
                // A fresh exception per call: the caller's stack, the shared failure as its cause.
                throw new ElasTrasException(error.code(), error.getMessage(), error);
            }
            return response;
        }
    }

    private final ProtocolClient transport;
    private final int batchCallsMax;
    private final int batchBytesMax;
    private final int batchesInFlightMax;
    private final int queuedMax;
    private final long waitMs;

    private final ReentrantLock lock = new ReentrantLock();
    /** Guarded by lock: calls waiting to be sent, oldest first. */
    private final ArrayDeque<Pending> queue = new ArrayDeque<>();
    /** Guarded by lock: requests sent or about to be sent by a leading call, at most batchesInFlightMax. */
    private int inFlight;

    /**
     * @param batchCallsMax most calls in one request, 2 to {@code CALL_BATCH_CALLS_MAX}
     * @param batchBytesMax most encoded bytes of one batch request (a larger batch is split)
     * @param batchesInFlightMax most requests in flight at once
     * @param queuedMax most calls waiting; more fail at once with OVERLOADED
     * @param waitMs longest a call waits in the queue before it fails unsent
     */
    CallCoalescer(ProtocolClient transport, int batchCallsMax, int batchBytesMax, int batchesInFlightMax,
            int queuedMax, long waitMs) {
        if (batchCallsMax < 2 || batchesInFlightMax < 1 || queuedMax < 1 || batchBytesMax < 1 || waitMs < 1) {
            throw new IllegalArgumentException("batchCallsMax must be at least 2, the other bounds at least 1; got "
                    + batchCallsMax + ", " + batchBytesMax + ", " + batchesInFlightMax + ", " + queuedMax + ", " + waitMs);
        }
        this.transport = transport;
        this.batchCallsMax = batchCallsMax;
        this.batchBytesMax = batchBytesMax;
        this.batchesInFlightMax = batchesInFlightMax;
        this.queuedMax = queuedMax;
        this.waitMs = waitMs;
    }

    /** Runs one call, alone or in a batch with others; answers or throws as a lone {@code call} would. */
    CallResponse call(CallRequest request) {
        if (request == null) {
            throw new IllegalArgumentException("call request is null");
        }
        Pending me = new Pending(request);
        List<Pending> batch = null;
        lock.lock();
        try {
            if (inFlight < batchesInFlightMax) {
                inFlight++;
                batch = takeBatch(me);
            } else {
                if (queue.size() >= queuedMax) {
                    throw new ElasTrasException(ErrorCode.OVERLOADED, queue.size() + " calls to " + transport.address()
                            + " are waiting to be sent (the limit, requestsQueuedMax, is " + queuedMax
                            + "); back off and retry; this call was not sent");
                }
                queue.addLast(me);
            }
        } finally {
            lock.unlock();
        }
        if (batch == null) {
            State state = awaitTurn(me);
            if (state == State.DONE) {
                return me.answer();
            }
            lock.lock();
            try {
                batch = takeBatch(me); // leading: the slot was reserved for us
            } finally {
                lock.unlock();
            }
        }
        try {
            send(batch);
        } finally {
            Pending next = null;
            lock.lock();
            try {
                next = queue.pollFirst();
                if (next == null) {
                    inFlight--;
                }
            } finally {
                lock.unlock();
            }
            if (next != null) {
                next.lead(); // hands our slot on
            }
        }
        return me.answer();
    }

    /** Waits in the queue until this call leads a batch or another batch answered it. */
    private State awaitTurn(Pending me) {
        long deadlineNanos = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(waitMs);
        State state;
        try {
            state = me.await(deadlineNanos);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            if (leaveQueue(me)) {
                throw new ElasTrasException(ErrorCode.UNREACHABLE, "call to " + transport.address()
                        + " was interrupted while waiting to be sent; it was not sent", e);
            }
            state = awaitUninterruptibly(me);
        }
        if (state == State.QUEUED) {
            if (leaveQueue(me)) {
                throw new ElasTrasException(ErrorCode.UNREACHABLE, "call to " + transport.address() + " waited "
                        + waitMs + " ms to be sent behind " + batchesInFlightMax + " requests in flight; it was not sent");
            }
            // Taken by a batch (or made leader) just now: its request is bounded by its own timeout.
            state = awaitUninterruptibly(me);
        }
        return state;
    }

    private static State awaitUninterruptibly(Pending me) {
        boolean interrupted = false;
        try {
            while (true) {
                try {
                    return me.await(Long.MAX_VALUE);
                } catch (InterruptedException e) {
                    interrupted = true;
                }
            }
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    private boolean leaveQueue(Pending me) {
        lock.lock();
        try {
            return queue.remove(me);
        } finally {
            lock.unlock();
        }
    }

    /** The leader's batch: itself, then the oldest queued calls. Requires lock. */
    private List<Pending> takeBatch(Pending leader) {
        List<Pending> batch = new ArrayList<>(Math.min(batchCallsMax, queue.size() + 1));
        batch.add(leader);
        while (batch.size() < batchCallsMax && !queue.isEmpty()) {
            batch.add(queue.pollFirst());
        }
        return batch;
    }

    /** Sends a batch and completes every call of it, whatever happens. */
    private void send(List<Pending> batch) {
        try {
            if (batch.size() == 1) {
                Pending only = batch.get(0);
                only.complete(transport.call(Operation.CALL, only.request, CallResponse.class), null);
                return;
            }
            List<CallRequest> calls = new ArrayList<>(batch.size());
            for (Pending p : batch) {
                calls.add(p.request);
            }
            byte[] body = transport.encode(Operation.CALL_BATCH, new CallBatchRequest(calls));
            if (body.length > batchBytesMax) {
                int half = batch.size() / 2;
                send(batch.subList(0, half));
                send(batch.subList(half, batch.size()));
                return;
            }
            CallBatchResponse response = transport.send(Operation.CALL_BATCH, body, CallBatchResponse.class);
            if (response.outcomes().size() != batch.size()) {
                throw new ElasTrasException(ErrorCode.OUTCOME_UNKNOWN, "callBatch to " + transport.address()
                        + " of " + batch.size() + " calls was answered with " + response.outcomes().size()
                        + " outcomes; each call may or may not have taken effect");
            }
            for (int i = 0; i < batch.size(); i++) {
                CallOutcome outcome = response.outcomes().get(i);
                batch.get(i).complete(outcome.response(), outcome.error() == null ? null : outcome.error().toException());
            }
        } catch (ElasTrasException e) {
            for (Pending p : batch) {
                p.complete(null, e);
            }
        } catch (RuntimeException | Error e) {
            ElasTrasException failure = new ElasTrasException(ErrorCode.OUTCOME_UNKNOWN, "call to " + transport.address()
                    + " failed in the client (" + e + "); it may or may not have taken effect", e);
            for (Pending p : batch) {
                p.complete(null, failure);
            }
            throw e;
        }
    }
}
