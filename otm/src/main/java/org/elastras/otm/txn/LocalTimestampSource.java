package org.elastras.otm.txn;

import java.util.concurrent.atomic.AtomicLong;

/**
 * A {@link TimestampSource} that counts up from a floor: the first timestamp is {@code floor + 1}.
 * For an OTM that runs without a master (tests, benchmarks, a single node); in a cluster the
 * master's ranges ({@link RangeTimestampSource}) take its place, since two counting OTMs would hand
 * out the same CTSs. Thread-safe (one atomic increment per commit).
 */
public final class LocalTimestampSource implements TimestampSource {

    private final AtomicLong last;
    private final SnapshotTracker snapshots;

    /**
     * @param floor at or above every CTS ever committed to the partitions this OTM serves; the
     *     tracker's snapshot must start at it
     * @param snapshots the tracker every CTS is reported to
     */
    public LocalTimestampSource(long floor, SnapshotTracker snapshots) {
        if (floor < 0) {
            throw new IllegalArgumentException("timestamp floor must be >= 0, got " + floor);
        }
        if (snapshots.snapshot() != floor) {
            throw new IllegalArgumentException("the snapshot tracker starts at " + snapshots.snapshot()
                    + " but the timestamp floor is " + floor + "; they must agree");
        }
        this.last = new AtomicLong(floor);
        this.snapshots = snapshots;
    }

    @Override
    public long next() {
        long cts = last.incrementAndGet();
        if (cts <= 0) {
            throw new IllegalStateException("commit timestamps overflowed");
        }
        return cts;
    }

    @Override
    public void applied(long cts) {
        snapshots.applied(cts);
    }

    @Override
    public void unused(long cts) {
        snapshots.unused(cts);
    }

    /** A Lamport step: raises the counter to {@code cts} and reports the skipped CTSs unused. */
    @Override
    public boolean liftAbove(long cts, long timeoutMs) {
        while (true) {
            long current = last.get();
            if (current >= cts) {
                return true;
            }
            if (last.compareAndSet(current, cts)) {
                snapshots.unusedRange(current + 1, cts);
                return true;
            }
        }
    }

    /** The last timestamp handed out (the floor if none was). */
    public long last() {
        return last.get();
    }
}
