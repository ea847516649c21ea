package org.elastras.client;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
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
 * new calls wait in a bounded queue; the moment a request's answer arrives, the thread that
 * received it hands out the answers and sends everything queued (up to {@code batchCallsMax} calls
 * and {@code batchBytesMax} bytes) as the next request. With a slot free a call is sent at once,
 * alone, as a plain {@code call}: no timer, no delay at low load. Thread-safe: any number of
 * threads may call.
 *
 * <p>Each call keeps its own answer or error (see {@link CallBatchRequest}). A failure of the
 * whole request is every call's failure: UNREACHABLE if it was never sent, OUTCOME_UNKNOWN if it
 * was (each call's commit id then resolves it, as for a lone call). A call that got no answer
 * within its timeout fails UNREACHABLE if it was still queued (never sent), else OUTCOME_UNKNOWN.
 *
 * <p>Sending is asynchronous: the next batch goes out from the transport's thread that
 * received the previous answer, so no caller thread has to be woken up and scheduled before it
 * can be sent (on a busy machine that wake-up, not the work, was the gap between batches).
 *
 * <p>{@code batchesInFlightMax} is an upper bound: while many calls re-run on conflicts, at most
 * {@link #CONTENDED_IN_FLIGHT} requests are in flight ({@link InFlightLimit}).
 */
final class CallCoalescer {

    /** Grace past the request timeout before a caller stops waiting for its answer, in milliseconds. */
    private static final long WAIT_SLACK_MS = 1_000;
    /** Requests in flight while calls contend (see {@link InFlightLimit}), at most the configured most. */
    static final int CONTENDED_IN_FLIGHT = 2;
    /** Answered calls per decision of the in-flight limit. */
    static final int LIMIT_WINDOW_CALLS = 200;
    /** Shares of re-run calls that lower the limit (at or above) and raise it again (below). */
    static final double LOWER_AT_RERUN_SHARE = 0.05;
    static final double RAISE_BELOW_RERUN_SHARE = 0.02;

    /** One call from its arrival to its answer. */
    private static final class Pending {
        final CallRequest request;
        /** Completes with the answer, or exceptionally with the call's {@link ElasTrasException}. */
        final CompletableFuture<CallResponse> answer = new CompletableFuture<>();

        Pending(CallRequest request) {
            this.request = request;
        }
    }

    private final ProtocolClient transport;
    private final int batchCallsMax;
    private final int batchBytesMax;
    private final int batchesInFlightMax;
    private final int queuedMax;
    private final long timeoutMs;

    private final ReentrantLock lock = new ReentrantLock();
    /** Guarded by lock: calls waiting to be sent, oldest first. Not empty only while every slot is taken. */
    private final ArrayDeque<Pending> queue = new ArrayDeque<>();
    /** Guarded by lock: requests being sent or in flight, at most batchesInFlightMax. */
    private int inFlight;
    /** Guarded by lock: how many requests may be in flight now, from how often calls re-run. */
    private final InFlightLimit limit;

    /**
     * @param batchCallsMax most calls in one request, 2 to {@code CALL_BATCH_CALLS_MAX}
     * @param batchBytesMax most encoded bytes of one batch request (a larger batch is split)
     * @param batchesInFlightMax most requests in flight at once
     * @param queuedMax most calls waiting; more fail at once with OVERLOADED
     * @param timeoutMs longest a call waits for its answer, queueing included
     */
    CallCoalescer(ProtocolClient transport, int batchCallsMax, int batchBytesMax, int batchesInFlightMax,
            int queuedMax, long timeoutMs) {
        if (batchCallsMax < 2 || batchesInFlightMax < 1 || queuedMax < 1 || batchBytesMax < 1 || timeoutMs < 1) {
            throw new IllegalArgumentException("batchCallsMax must be at least 2, the other bounds at least 1; got "
                    + batchCallsMax + ", " + batchBytesMax + ", " + batchesInFlightMax + ", " + queuedMax + ", " + timeoutMs);
        }
        this.transport = transport;
        this.batchCallsMax = batchCallsMax;
        this.batchBytesMax = batchBytesMax;
        this.batchesInFlightMax = batchesInFlightMax;
        this.queuedMax = queuedMax;
        this.timeoutMs = timeoutMs;
        this.limit = new InFlightLimit(batchesInFlightMax, Math.min(CONTENDED_IN_FLIGHT, batchesInFlightMax),
                LIMIT_WINDOW_CALLS, RAISE_BELOW_RERUN_SHARE, LOWER_AT_RERUN_SHARE);
    }

    /** Runs one call, alone or in a batch with others; answers or throws as a lone {@code call} would. */
    CallResponse call(CallRequest request) {
        if (request == null) {
            throw new IllegalArgumentException("call request is null");
        }
        if (transport.isClosed()) {
            throw new IllegalStateException("this client of " + transport.address() + " is closed");
        }
        Pending me = new Pending(request);
        List<Pending> batch = null;
        lock.lock();
        try {
            if (inFlight < limit.limit()) {
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
        if (batch != null) {
            dispatch(batch);
        }
        return await(me);
    }

    private CallResponse await(Pending me) {
        try {
            return me.answer.get(timeoutMs + WAIT_SLACK_MS, TimeUnit.MILLISECONDS);
        } catch (ExecutionException e) {
            Throwable cause = e.getCause();
            if (cause instanceof ElasTrasException failure) {
                // A fresh exception per call: the caller's stack, the shared failure as its cause.
                throw new ElasTrasException(failure.code(), failure.getMessage(), failure, failure.movedTo());
            }
            throw new ElasTrasException(ErrorCode.OUTCOME_UNKNOWN, "call to " + transport.address()
                    + " failed in the client (" + cause + "); it may or may not have taken effect", cause);
        } catch (TimeoutException e) {
            if (leaveQueue(me)) {
                throw new ElasTrasException(ErrorCode.UNREACHABLE, "call to " + transport.address() + " waited "
                        + timeoutMs + " ms behind " + batchesInFlightMax + " requests in flight; it was not sent", e);
            }
            throw new ElasTrasException(ErrorCode.OUTCOME_UNKNOWN, "call to " + transport.address()
                    + " got no answer within " + timeoutMs + " ms; it may or may not have taken effect", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            if (leaveQueue(me)) {
                throw new ElasTrasException(ErrorCode.UNREACHABLE, "call to " + transport.address()
                        + " was interrupted while waiting to be sent; it was not sent", e);
            }
            throw new ElasTrasException(ErrorCode.OUTCOME_UNKNOWN, "call to " + transport.address()
                    + " was interrupted while waiting for its answer; it may or may not have taken effect", e);
        }
    }

    /** Calls waiting to be sent now. */
    int queued() {
        lock.lock();
        try {
            return queue.size();
        } finally {
            lock.unlock();
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

    /** A batch: {@code first}, then the oldest queued calls. Requires lock. */
    private List<Pending> takeBatch(Pending first) {
        List<Pending> batch = new ArrayList<>(Math.min(batchCallsMax, queue.size() + 1));
        batch.add(first);
        while (batch.size() < batchCallsMax && !queue.isEmpty()) {
            batch.add(queue.pollFirst());
        }
        return batch;
    }

    /**
     * The next batch for the slot just freed, or null (and the slot released) if nothing waits or
     * the limit was lowered below the requests in flight (the others take what waits).
     */
    private List<Pending> nextBatchOrRelease() {
        lock.lock();
        try {
            Pending head = inFlight > limit.limit() ? null : queue.pollFirst();
            if (head == null) {
                inFlight--;
                return null;
            }
            return takeBatch(head);
        } finally {
            lock.unlock();
        }
    }

    /**
     * Sends {@code batch} on a slot this thread holds, and keeps the slot busy: when its answer
     * arrives, whatever queued meanwhile goes next, until nothing waits.
     */
    private void dispatch(List<Pending> batch) {
        while (batch != null) {
            CompletableFuture<Void> answered = start(batch);
            if (!answered.isDone()) {
                answered.whenComplete((ignored, failure) -> dispatch(nextBatchOrRelease()));
                return;
            }
            batch = nextBatchOrRelease(); // answered (or failed) at once: no recursion
        }
    }

    /** Sends one batch; the future completes once every call of it has its outcome. Never throws. */
    private CompletableFuture<Void> start(List<Pending> batch) {
        try {
            if (batch.size() == 1) {
                Pending only = batch.get(0);
                byte[] body = transport.encode(Operation.CALL, only.request);
                return transport.sendAsync(Operation.CALL, body, CallResponse.class)
                        .handle((response, failure) -> {
                            if (failure == null) {
                                only.answer.complete(response);
                                noteOutcomes(1, response.attempts() > 1 ? 1 : 0);
                            } else {
                                failAll(batch, failure);
                            }
                            return null;
                        });
            }
            List<CallRequest> calls = new ArrayList<>(batch.size());
            for (Pending p : batch) {
                calls.add(p.request);
            }
            byte[] body;
            try {
                body = transport.encode(Operation.CALL_BATCH, new CallBatchRequest(calls));
            } catch (ElasTrasException e) {
                if (e.code() != ErrorCode.LIMIT_EXCEEDED) {
                    throw e;
                }
                body = null; // larger than any request may be: split it like one over batchBytesMax
            }
            if (body == null || body.length > batchBytesMax) {
                List<Pending> first = batch.subList(0, batch.size() / 2);
                List<Pending> second = batch.subList(batch.size() / 2, batch.size());
                return start(first).thenCompose(ignored -> start(second));
            }
            return transport.sendAsync(Operation.CALL_BATCH, body, CallBatchResponse.class)
                    .handle((response, failure) -> {
                        if (failure == null) {
                            noteOutcomes(batch.size(), answerAll(batch, response));
                        } else {
                            failAll(batch, failure);
                        }
                        return null;
                    });
        } catch (ElasTrasException e) {
            failAll(batch, e);
            return CompletableFuture.completedFuture(null);
        } catch (RuntimeException | Error e) {
            // Nothing was sent (encoding failed, or the client is closed).
            failAll(batch, new ElasTrasException(ErrorCode.UNREACHABLE, "call to " + transport.address()
                    + " could not be sent (" + e + "); it was not sent", e));
            return CompletableFuture.completedFuture(null);
        }
    }

    /** Hands each call its outcome; returns how many of them re-ran (or gave up on a conflict). */
    private int answerAll(List<Pending> batch, CallBatchResponse response) {
        int reRun = 0;
        try {
            if (response.outcomes().size() != batch.size()) {
                throw new ElasTrasException(ErrorCode.OUTCOME_UNKNOWN, "callBatch to " + transport.address()
                        + " of " + batch.size() + " calls was answered with " + response.outcomes().size()
                        + " outcomes; each call may or may not have taken effect");
            }
            for (int i = 0; i < batch.size(); i++) {
                CallOutcome outcome = response.outcomes().get(i);
                if (outcome.error() == null) {
                    batch.get(i).answer.complete(outcome.response());
                    if (outcome.response().attempts() > 1) {
                        reRun++;
                    }
                } else {
                    batch.get(i).answer.completeExceptionally(outcome.error().toException());
                    if (outcome.error().code() == ErrorCode.CONFLICT) {
                        reRun++;
                    }
                }
            }
        } catch (RuntimeException e) {
            failAll(batch, e);
        }
        return reRun;
    }

    private void noteOutcomes(int answered, int reRun) {
        lock.lock();
        try {
            limit.note(answered, reRun);
        } finally {
            lock.unlock();
        }
    }

    /** How many requests may be in flight now (for tests). */
    int inFlightLimit() {
        lock.lock();
        try {
            return limit.limit();
        } finally {
            lock.unlock();
        }
    }

    /** Completes every call of the batch not answered yet with the request's failure. */
    private void failAll(List<Pending> batch, Throwable failure) {
        Throwable cause = failure instanceof CompletionException && failure.getCause() != null ? failure.getCause() : failure;
        ElasTrasException error = cause instanceof ElasTrasException e ? e
                : new ElasTrasException(ErrorCode.OUTCOME_UNKNOWN, "call to " + transport.address()
                        + " failed in the client (" + cause + "); it may or may not have taken effect", cause);
        for (Pending p : batch) {
            p.answer.completeExceptionally(error);
        }
    }
}
