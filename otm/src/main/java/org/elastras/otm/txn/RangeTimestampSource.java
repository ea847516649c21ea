package org.elastras.otm.txn;

import java.util.List;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import org.elastras.client.protocol.CtsRange;
import org.elastras.client.protocol.TimestampReply;
import org.elastras.client.protocol.TimestampReport;

/**
 * The OTM's side of the master's timestamp service (design in {@code docs/timestamps.md}): commit
 * timestamps come from the range the last exchange brought, and what happened to each CTS is
 * gathered into the next exchange's report. Plain logic driven by its inputs — {@link #next},
 * {@link #applied}, {@link #unused} from commits, {@link #nextReport} and {@link #accepted} from the
 * exchange that {@code MasterLink} runs once per period — plus bounded waits for a range.
 *
 * <p>The local snapshot. The OTM's {@link SnapshotTracker} counts every CTS: its own as they are
 * applied or dropped, and, when a new range arrives, everything below it that is not its own (other
 * OTMs' ranges, and the untaken rest of its previous range) as finished here. So the tracker's
 * snapshot is the OTM's own gap-free point: every commit to its partitions at or below it is
 * applied (with single-partition transactions only this OTM commits to them), and it is never
 * below the master's global snapshot, because every CTS the global snapshot covers is finished
 * everywhere. Transactions read at it; the global snapshot is kept for the cross-partition reads
 * to come and for monitoring.
 *
 * <p>Commits take CTSs from the current range until the next one arrives, also while a report is
 * in flight: a commit waits for a range only when the current one is used up (the master sizes
 * ranges at twice the last period's use) or before the first. When the reply brings a new range,
 * the untaken rest of the current one is unused; the next report says so. So a range is finished
 * about two exchanges after it was issued, and the master's global snapshot trails the newest
 * commit by up to two heartbeat periods. Nothing waits for the global snapshot: transactions read
 * at the OTM's own gap-free point, which a new range moves past every CTS below it that is not this
 * OTM's. (An earlier design sealed the range with every report, for a global snapshot one period
 * fresher; every commit that came while the report was in flight then waited a round trip, under
 * the partition's commit lock: about 4 ms for most commit batches of a TPC-C run.)
 *
 * <p>Reports are applied once: a report stays the one in flight, and is sent again unchanged, until
 * the master accepts it ({@link #accepted}); what finishes meanwhile waits for the next one.
 *
 * <p>Thread-safe: one lock for a few map operations; waits are bounded.
 */
public final class RangeTimestampSource implements TimestampSource {

    /** Most ranges in one report's readable or unused list (the master's default limit is larger). */
    public static final int REPORT_RANGES_MAX = 1_000;

    private final SnapshotTracker snapshots;
    private final long ctsWaitMs;
    private final Runnable exchangeNow;
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition rangeArrived = lock.newCondition();

    /** Guarded by lock: the range commits take CTSs from, null before the first one arrives. */
    private CtsRange current;
    /** Guarded by lock: the next CTS of {@link #current} to hand out (past its end when used up). */
    private long nextCts;
    /** Guarded by lock: the last CTS of {@link #current}. */
    private long limitCts;
    /** Guarded by lock: callers waiting for a range. */
    private int waiters;
    /** Guarded by lock: the highest CTS a caller of {@link #liftAbove} needs a range above, 0 if none. */
    private long wantAbove;
    /** Guarded by lock: CTSs received and not yet reported in an accepted report. */
    private final CtsRangeSet owed = new CtsRangeSet();
    /** Guarded by lock: finished since the last report was built. */
    private final CtsRangeSet readable = new CtsRangeSet();
    private final CtsRangeSet unused = new CtsRangeSet();
    /** Guarded by lock: the report sent and not yet accepted, and its sequence number. */
    private TimestampReport inFlight;
    private long inFlightSequence;
    private long lastSequence;
    /** The highest snapshot the master ever announced. */
    private volatile long globalSnapshot;
    /** Guarded by lock: reports the master accepted; commits that found no CTS left and waited; lifts that waited. */
    private long exchanges;
    private long rangeWaits;
    private long liftWaits;

    /**
     * @param snapshots the OTM's tracker, starting at 0 (nothing is readable before the first range)
     * @param ctsWaitMs how long {@link #next} waits for a range when it has none left
     * @param exchangeNow asks for an exchange before the period ends (the range ran out, or a
     *     caller needs a range above some CTS); must not block
     */
    public RangeTimestampSource(SnapshotTracker snapshots, long ctsWaitMs, Runnable exchangeNow) {
        if (snapshots.snapshot() != 0) {
            throw new IllegalArgumentException("the snapshot tracker must start at 0, got " + snapshots.snapshot());
        }
        if (ctsWaitMs < 0) {
            throw new IllegalArgumentException("ctsWaitMs must be >= 0, got " + ctsWaitMs);
        }
        this.snapshots = snapshots;
        this.ctsWaitMs = ctsWaitMs;
        this.exchangeNow = Objects.requireNonNull(exchangeNow, "exchangeNow");
    }

    @Override
    public long next() {
        lock.lock();
        try {
            if (!hasCts()) {
                rangeWaits++;
                awaitRange(() -> hasCts());
            }
            return nextCts++;
        } finally {
            lock.unlock();
        }
    }

    private boolean hasCts() {
        return current != null && nextCts <= limitCts;
    }

    private interface LockedCondition {
        boolean holds();
    }

    /** Lock held: waits up to {@link #ctsWaitMs} for {@code condition}, asking for an exchange. */
    private void awaitRange(LockedCondition condition) {
        long remaining = TimeUnit.MILLISECONDS.toNanos(ctsWaitMs);
        long began = System.nanoTime();
        waiters++;
        try {
            while (!condition.holds()) {
                exchangeNow.run();
                if (remaining <= 0) {
                    throw new TransactionException(TransactionException.Reason.OVERLOADED, false,
                            "no commit timestamp within " + ctsWaitMs + " ms: the master's next range has not arrived"
                                    + " (is the master reachable?); retry");
                }
                remaining = rangeArrived.awaitNanos(remaining);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new TransactionException(TransactionException.Reason.OVERLOADED, false,
                    "interrupted while waiting for a commit timestamp");
        } finally {
            waiters--;
            CallWaits.since(CallWaits.Cause.COMMIT_TIMESTAMP, began);
        }
    }

    @Override
    public void applied(long cts) {
        snapshots.applied(cts);
        lock.lock();
        try {
            readable.add(cts, cts);
        } finally {
            lock.unlock();
        }
    }

    @Override
    public void unused(long cts) {
        snapshots.unused(cts);
        lock.lock();
        try {
            unused.add(cts, cts);
        } finally {
            lock.unlock();
        }
    }

    @Override
    public boolean liftAbove(long cts, long timeoutMs) throws InterruptedException {
        lock.lock();
        try {
            // Every CTS still to come is above cts: the rest of the current range (nothing at or
            // below cts is left untaken in it), and every later range (ranges only grow).
            if (current != null && (current.firstCts() > cts || nextCts > cts)) {
                return true;
            }
            wantAbove = Math.max(wantAbove, cts);
            liftWaits++;
            long remaining = TimeUnit.MILLISECONDS.toNanos(timeoutMs);
            long began = System.nanoTime();
            waiters++;
            try {
                while (current == null || current.firstCts() <= cts) {
                    exchangeNow.run();
                    if (remaining <= 0) {
                        return false;
                    }
                    remaining = rangeArrived.awaitNanos(remaining);
                }
            } finally {
                waiters--;
                CallWaits.since(CallWaits.Cause.COMMIT_TIMESTAMP, began);
            }
            return true;
        } finally {
            lock.unlock();
        }
    }

    /** Whether an exchange should happen before the period ends (a caller waits for a range). */
    public boolean exchangeWanted() {
        lock.lock();
        try {
            return (waiters > 0 && !hasCts()) || (wantAbove > 0 && (current == null || current.firstCts() <= wantAbove));
        } finally {
            lock.unlock();
        }
    }

    /**
     * How the exchanges went since start: reports the master accepted, commits that found their
     * range used up and waited for the next, and {@link #liftAbove} calls that waited for a range.
     * Each wait asks for an exchange before the period ends.
     */
    public record ExchangeCounts(long exchanges, long rangeWaits, long liftWaits) {
    }

    /** The counts so far. */
    public ExchangeCounts exchangeCounts() {
        lock.lock();
        try {
            return new ExchangeCounts(exchanges, rangeWaits, liftWaits);
        } finally {
            lock.unlock();
        }
    }

    /** The highest snapshot the master announced. */
    public long globalSnapshot() {
        return globalSnapshot;
    }

    /** The range CTSs are taken from now, null before the first. */
    public CtsRange currentRange() {
        lock.lock();
        try {
            return current;
        } finally {
            lock.unlock();
        }
    }

    /** A report with its sequence number, to send as is (again, if its exchange fails). */
    public record NumberedReport(long sequence, TimestampReport report) {
    }

    /**
     * The report to send now: the one in flight if the master has not accepted it, else a new one
     * with everything finished since the last.
     */
    public NumberedReport nextReport() {
        lock.lock();
        try {
            if (inFlight == null) {
                long taken = current == null ? 0 : nextCts - current.firstCts();
                List<CtsRange> readableNow = readable.take(REPORT_RANGES_MAX);
                List<CtsRange> unusedNow = unused.take(REPORT_RANGES_MAX);
                inFlight = new TimestampReport(current, taken, readableNow, unusedNow, owed.list());
                inFlightSequence = ++lastSequence;
            }
            return new NumberedReport(inFlightSequence, inFlight);
        } finally {
            lock.unlock();
        }
    }

    /**
     * The master accepted report {@code sequence} and answered {@code reply}: what it reported is
     * no longer owed; a new range replaces the current one at once (the untaken rest is reported
     * unused next time, and everything below the new range that is not this OTM's is finished in
     * the local snapshot).
     *
     * @throws IllegalStateException if {@code sequence} is not the report in flight, or the range is
     *     not above the current one (a master bug, or a reply from a master that is not the active one)
     */
    public void accepted(long sequence, TimestampReply reply) {
        lock.lock();
        try {
            if (inFlight == null || sequence != inFlightSequence) {
                throw new IllegalStateException("a reply to report " + sequence + " arrived, but the report in flight is "
                        + (inFlight == null ? "none" : inFlightSequence));
            }
            CtsRange range = reply.newRange();
            if (range != null && !range.equals(current) && current != null && range.firstCts() <= current.lastCts()) {
                throw new IllegalStateException("the master sent range " + range + ", which is not above the current range "
                        + current + "; refusing it");
            }
            for (CtsRange r : inFlight.readableRanges()) {
                owed.remove(r.firstCts(), r.lastCts());
            }
            for (CtsRange r : inFlight.unusedRanges()) {
                owed.remove(r.firstCts(), r.lastCts());
            }
            inFlight = null;
            exchanges++;
            globalSnapshot = Math.max(globalSnapshot, reply.snapshotCts());
            if (range != null && !range.equals(current)) {
                switchTo(range);
            }
        } finally {
            lock.unlock();
        }
    }

    private void switchTo(CtsRange range) {
        if (current != null && nextCts <= limitCts) {
            // The untaken rest of the range commits took from until now: the next report says so.
            unused.add(nextCts, limitCts);
        }
        long localFrom = current == null ? snapshots.finishedThrough() + 1 : nextCts;
        owed.add(range);
        current = range;
        nextCts = range.firstCts();
        limitCts = range.lastCts();
        if (wantAbove > 0 && range.firstCts() > wantAbove) {
            wantAbove = 0;
        }
        if (localFrom <= range.firstCts() - 1) {
            snapshots.unusedRange(localFrom, range.firstCts() - 1);
        }
        rangeArrived.signalAll();
    }
}
