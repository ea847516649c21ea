package org.elastras.storage.store;

import java.util.function.LongSupplier;

/**
 * Keeps a background compaction to a share of one core: after each slice of work it rests long
 * enough that work takes at most {@code dutyCycle} of the wall time. A compaction merges every
 * table of a partition, up to a second of CPU in one burst; on a busy machine such a burst takes
 * a core from the transactions for that second (and a live move makes one due, so it lands in the
 * move's second). Paced, the same work spreads over a few seconds at a fraction of a core.
 *
 * <p>Work is measured on the wall clock, so a compaction that waits for a core counts that wait as
 * work and rests longer: the busier the machine, the slower it goes. Plain logic: the clock and
 * the rest are given, so tests drive it deterministically. Not thread-safe (one per compaction).
 */
final class CompactionPacer {

    /** Rests the calling thread. */
    interface Rest {
        void rest(long nanos) throws InterruptedException;
    }

    /** Work between two looks at the clock, in calls to {@link #worked}. */
    static final int CALLS_PER_LOOK = 64;
    /** Work between two rests. */
    static final long SLICE_NANOS = 5_000_000;

    private final double restPerWork;
    private final LongSupplier nanoClock;
    private final Rest rest;
    private long sliceStarted;
    private int calls;
    private long restedNanos;

    /**
     * @param dutyCycle the share of wall time that may be work, in (0, 1]; 1 never rests
     */
    CompactionPacer(double dutyCycle, LongSupplier nanoClock, Rest rest) {
        if (!(dutyCycle > 0 && dutyCycle <= 1)) {
            throw new IllegalArgumentException("compaction duty cycle must be in (0, 1], got " + dutyCycle);
        }
        this.restPerWork = (1 - dutyCycle) / dutyCycle;
        this.nanoClock = nanoClock;
        this.rest = rest;
        this.sliceStarted = nanoClock.getAsLong();
    }

    /** A pacer that never rests (explicit compactions, and a store whose tables piled up). */
    static CompactionPacer unpaced() {
        return new CompactionPacer(1, () -> 0, nanos -> { });
    }

    /**
     * Counts one unit of work (a version merged); every {@link #CALLS_PER_LOOK} calls, rests if a
     * slice of work has gone by since the last rest.
     */
    void worked() throws InterruptedException {
        if (restPerWork == 0 || ++calls < CALLS_PER_LOOK) {
            return;
        }
        calls = 0;
        long now = nanoClock.getAsLong();
        long work = now - sliceStarted;
        if (work >= SLICE_NANOS) {
            long nanos = (long) (work * restPerWork);
            rest.rest(nanos);
            restedNanos += nanos;
            sliceStarted = nanoClock.getAsLong();
        }
    }

    /** Rest taken so far, in nanoseconds. */
    long restedNanos() {
        return restedNanos;
    }
}
