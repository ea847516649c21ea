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

    /** The last timestamp handed out (the floor if none was). */
    public long last() {
        return last.get();
    }
}
