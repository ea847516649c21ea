package org.elastras.otm.txn;

import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The snapshot counter (LeanXcale's snapshot server, Algorithm 6, kept locally): the largest CTS
 * such that every CTS at or below it is either applied (durable and readable) or reported unused
 * (taken for a commit that failed before it was logged, or never handed to this OTM). Commits
 * finish out of order; CTSs that finish above a gap wait, coalesced into ranges, until the gap
 * closes, so the snapshot never passes a CTS whose versions are not readable.
 *
 * <p>Plain logic driven by its inputs ({@link #applied}, {@link #unused}, {@link #unusedRange});
 * no threads, no clock. Thread-safe: every method holds one lock for a few map operations;
 * {@link #snapshot()} is a volatile read. Reporting a CTS twice, or one at or below the snapshot, is
 * a bug of the caller and throws {@link IllegalStateException}.
 */
public final class SnapshotTracker {

    private final ReentrantLock lock = new ReentrantLock();
    private final Condition advanced = lock.newCondition();
    private final int pendingRangesMax;

    /** Written under {@link #lock}, read by anyone: what transactions begin at (the gap-free point). */
    private volatile long snapshot;
    /** Guarded by {@link #lock}: the gap-free point of finished CTSs (LeanXcale's snapshot counter). */
    private long finishedThrough;
    /**
     * Guarded by {@link #lock}: finished CTSs above {@code snapshot + 1}, as disjoint, non-adjacent
     * ranges: first CTS -> last CTS (inclusive).
     */
    private final TreeMap<Long, Long> finished = new TreeMap<>();

    /**
     * @param initialSnapshot every CTS at or below it is readable (the timestamp floor at start)
     * @param pendingRangesMax most finished ranges that may wait behind a gap; more means a CTS was
     *     taken and never reported (a bug), and the report throws rather than grow without bound
     */
    public SnapshotTracker(long initialSnapshot, int pendingRangesMax) {
        if (initialSnapshot < 0) {
            throw new IllegalArgumentException("initial snapshot must be >= 0, got " + initialSnapshot);
        }
        if (pendingRangesMax < 1 || pendingRangesMax > 10_000_000) {
            throw new IllegalArgumentException("pendingRangesMax must be in [1, 10^7], got " + pendingRangesMax);
        }
        this.snapshot = initialSnapshot;
        this.finishedThrough = initialSnapshot;
        this.pendingRangesMax = pendingRangesMax;
    }

    /** The current snapshot: transactions that begin now read at it. */
    public long snapshot() {
        return snapshot;
    }

    /** The gap-free point: every CTS at or below it finished (the same as {@link #snapshot()}). */
    public long finishedThrough() {
        lock.lock();
        try {
            return finishedThrough;
        } finally {
            lock.unlock();
        }
    }

    /** Publishes the gap-free point as the snapshot. REQUIRES: lock. */
    private void publish() {
        if (finishedThrough > snapshot) {
            snapshot = finishedThrough;
            advanced.signalAll();
        }
    }

    /** Reports that the versions of the commit at {@code cts} are applied (readable). */
    public void applied(long cts) {
        finish(cts, cts);
    }

    /** Reports that {@code cts} was taken but will never be applied (the commit failed before logging). */
    public void unused(long cts) {
        finish(cts, cts);
    }

    /** Reports that every CTS in [{@code fromCts}, {@code toCtsInclusive}] will never be applied here. */
    public void unusedRange(long fromCts, long toCtsInclusive) {
        if (toCtsInclusive < fromCts) {
            throw new IllegalArgumentException("empty CTS range [" + fromCts + ", " + toCtsInclusive + "]");
        }
        finish(fromCts, toCtsInclusive);
    }

    private void finish(long from, long to) {
        lock.lock();
        try {
            if (from <= finishedThrough) {
                throw new IllegalStateException("CTS " + from + " reported finished but the snapshot is already "
                        + finishedThrough + ": reported twice, or never handed out");
            }
            Map.Entry<Long, Long> below = finished.floorEntry(to);
            if (below != null && below.getValue() >= from) {
                throw new IllegalStateException("CTS range [" + from + ", " + to + "] overlaps [" + below.getKey() + ", "
                        + below.getValue() + "] reported before: a CTS was reported twice");
            }
            long start = from;
            long end = to;
            Map.Entry<Long, Long> before = finished.lowerEntry(from);
            if (before != null && before.getValue() == from - 1) {
                start = before.getKey();
                finished.remove(start);
            }
            Long after = finished.get(to + 1);
            if (after != null) {
                end = after;
                finished.remove(to + 1);
            }
            if (start == finishedThrough + 1) {
                finishedThrough = end;
                publish();
                advanced.signalAll();
            } else {
                if (finished.size() >= pendingRangesMax) {
                    throw new IllegalStateException(pendingRangesMax + " finished CTS ranges wait behind CTS "
                            + (finishedThrough + 1) + ": a commit took a CTS and never reported it");
                }
                finished.put(start, end);
            }
        } finally {
            lock.unlock();
        }
    }

    /** Finished ranges waiting behind a gap (for metrics and tests). */
    public int pendingRanges() {
        lock.lock();
        try {
            return finished.size();
        } finally {
            lock.unlock();
        }
    }

    /**
     * Session consistency: waits until the snapshot reaches {@code cts} (a client's own last
     * commit), so the client's next transaction sees it.
     *
     * @return false if {@code timeoutMs} passed first
     */
    public boolean awaitSnapshot(long cts, long timeoutMs) throws InterruptedException {
        return snapshot >= cts || await(() -> snapshot >= cts, timeoutMs);
    }

    /**
     * Waits until every CTS at or below {@code cts} finished: a partition opened here with versions
     * up to {@code cts} may serve then.
     *
     * @return false if {@code timeoutMs} passed first
     */
    public boolean awaitFinished(long cts, long timeoutMs) throws InterruptedException {
        return await(() -> finishedThrough >= cts, timeoutMs);
    }

    /** Waits, holding the lock between checks, until {@code reached} holds or the time is up. */
    private boolean await(java.util.function.BooleanSupplier reached, long timeoutMs) throws InterruptedException {
        long remainingNanos = TimeUnit.MILLISECONDS.toNanos(timeoutMs);
        lock.lock();
        try {
            while (!reached.getAsBoolean()) {
                if (remainingNanos <= 0) {
                    return false;
                }
                remainingNanos = advanced.awaitNanos(remainingNanos);
            }
            return true;
        } finally {
            lock.unlock();
        }
    }
}
