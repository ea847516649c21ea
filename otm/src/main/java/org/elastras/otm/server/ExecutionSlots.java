package org.elastras.otm.server;

import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Bounds how many call batches execute at once on an OTM, separately from how many are in flight.
 *
 * <p>A batch executes (runs its calls up to their prepared commits) and then waits for the log's
 * sync of its last commits. A client that keeps more batches in flight than the OTM has cores
 * keeps the cores busy across those waits (while one batch waits for its sync, the next executes),
 * but without a bound the extra batches would also execute at the same time, time-sliced on the
 * cores, each holding its transactions' intents for longer and colliding more with the others. A
 * batch takes a slot before its first call and gives it back before it waits for the sync (and
 * while it waits for one inside, see {@link TransactionService#callBatch}), so at most {@code
 * slots} batches execute at any moment and every other in-flight batch is either waiting for a
 * sync or queued here, first come first served.
 *
 * <p>A batch waits at most {@code waitMsMax} for a slot and then executes without one: a batch
 * whose call blocks long (a remote read, a branch's coordinator) must not stall every batch behind
 * it. Those are counted. Thread-safe.
 */
final class ExecutionSlots {

    private final Semaphore slots;
    private final int slotCount;
    private final long waitMsMax;
    private final AtomicLong entered = new AtomicLong();
    private final AtomicLong waitedOut = new AtomicLong();

    /**
     * @param slots how many batches may execute at once, at least 1 (the OTM's cores)
     * @param waitMsMax longest wait for a slot before a batch executes without one, at least 1
     */
    ExecutionSlots(int slots, long waitMsMax) {
        if (slots < 1 || waitMsMax < 1) {
            throw new IllegalArgumentException("slots and waitMsMax must be at least 1, got " + slots + " and " + waitMsMax);
        }
        this.slots = new Semaphore(slots, true);
        this.slotCount = slots;
        this.waitMsMax = waitMsMax;
    }

    /**
     * Takes a slot, waiting up to the bound.
     *
     * @return true if a slot was taken (give it back with {@link #leave}), false if the wait ran
     *     out and the caller executes without one
     * @throws InterruptedException if interrupted while waiting (no slot taken)
     */
    boolean enter() throws InterruptedException {
        if (slots.tryAcquire(waitMsMax, TimeUnit.MILLISECONDS)) {
            entered.incrementAndGet();
            return true;
        }
        waitedOut.incrementAndGet();
        return false;
    }

    /** Gives back a slot {@link #enter} took. */
    void leave() {
        slots.release();
    }

    int slotCount() {
        return slotCount;
    }

    /** Slots taken since the start. */
    long entered() {
        return entered.get();
    }

    /** Batches that waited the bound out and executed without a slot, since the start. */
    long waitedOut() {
        return waitedOut.get();
    }

    /** Batches waiting for a slot now (an estimate, for tests and metrics). */
    int queued() {
        return slots.getQueueLength();
    }

    /** Slots free now (for tests and metrics). */
    int free() {
        return slots.availablePermits();
    }
}
