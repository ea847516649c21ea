package org.elastras.otm.server;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * Fault injection into this OTM's cross-partition commits, for tests that kill a coordinator at a
 * chosen step: the decision record written but no branch told, or the votes in and no decision
 * written. Off unless a test turns a fault on. Thread-safe.
 */
public final class CommitFaults {

    private volatile boolean loseDecisions;
    private volatile CountDownLatch holdBeforeDecision;
    private final java.util.concurrent.atomic.AtomicInteger held = new java.util.concurrent.atomic.AtomicInteger();

    /** Coordinators stopped before their decision now (their votes are in). */
    public int heldBeforeDecision() {
        return held.get();
    }

    /** From now on, committed outcomes are never sent to the branches (they must ask). */
    public void loseDecisions(boolean on) {
        loseDecisions = on;
    }

    /**
     * From now on, a coordinator stops after collecting its votes, before writing its decision, as
     * if its OTM crashed there: it waits until {@link #releaseBeforeDecision} (at most 60 s, or until
     * interrupted) and then gives up without deciding anything (the caller gets an error).
     */
    public void holdBeforeDecision() {
        holdBeforeDecision = new CountDownLatch(1);
    }

    /** Lets held coordinators go on (after the test killed the OTM, they fail to log). */
    public void releaseBeforeDecision() {
        CountDownLatch latch = holdBeforeDecision;
        holdBeforeDecision = null;
        if (latch != null) {
            latch.countDown();
        }
    }

    /** What a coordinator stopped by {@link #holdBeforeDecision} throws: it decides nothing. */
    public static final class InjectedCrash extends Error {
        private static final long serialVersionUID = 1L;

        InjectedCrash(String message) {
            super(message);
        }
    }

    boolean decisionsLost() {
        return loseDecisions;
    }

    void beforeDecision() {
        CountDownLatch latch = holdBeforeDecision;
        if (latch == null) {
            return;
        }
        held.incrementAndGet();
        try {
            latch.await(60, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            held.decrementAndGet();
        }
        // An Error, so that no cleanup on the way up (a procedure's abort, say) decides anything.
        throw new InjectedCrash("fault injection: the coordinator stopped before its decision, as if it crashed");
    }
}
