package org.elastras.otm.txn;

import java.util.concurrent.atomic.AtomicLong;

/**
 * A {@link TimestampSource} that counts up from a floor: the first timestamp is {@code floor + 1}.
 * Stands in for the master's commit sequencer while there is none. Thread-safe (one atomic
 * increment per commit).
 *
 * <p>The floor must be at or above every CTS ever committed to the partitions this OTM serves
 * (for example the highest CTS seen while recovering them), or new commits would be ordered
 * before old ones.
 */
public final class LocalTimestampSource implements TimestampSource {

    private final AtomicLong last;

    public LocalTimestampSource(long floor) {
        if (floor < 0) {
            throw new IllegalArgumentException("timestamp floor must be >= 0, got " + floor);
        }
        this.last = new AtomicLong(floor);
    }

    @Override
    public long next() {
        long cts = last.incrementAndGet();
        if (cts <= 0) {
            throw new IllegalStateException("commit timestamps overflowed");
        }
        return cts;
    }

    /**
     * Raises the floor to {@code floor} if it is higher (a partition with newer commits was opened
     * here, or a client's session saw a commit elsewhere: a Lamport clock step). Returns the first
     * timestamp skipped, or 0 if none was: every timestamp from it to {@code floor} will never be
     * handed out and must be reported unused to the snapshot tracker.
     */
    public long advanceTo(long floor) {
        while (true) {
            long current = last.get();
            if (current >= floor) {
                return 0;
            }
            if (last.compareAndSet(current, floor)) {
                return current + 1;
            }
        }
    }

    /** The last timestamp handed out (the floor if none was). */
    public long last() {
        return last.get();
    }
}
