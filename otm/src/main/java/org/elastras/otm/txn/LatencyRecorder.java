package org.elastras.otm.txn;

import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;
import org.elastras.client.protocol.LatencyHistogram;

/**
 * Counts latencies of one partition in the fixed buckets of {@link LatencyHistogram}, and hands
 * the heartbeat what was recorded since its previous call. Memory is fixed: two arrays of
 * {@link LatencyHistogram#BUCKETS} longs.
 *
 * <p>{@link #record} is called by any thread (one atomic increment, and a compare-and-set only
 * when the maximum grows); {@link #takeInterval} by one reporting thread at a time. A value
 * recorded while an interval is taken counts in that interval or the next, never in none; only the
 * exact maximum of such a value may land in the next interval while its count lands in this one.
 */
public final class LatencyRecorder {

    /** Cumulative counts per bucket, since this recorder was made. */
    private final AtomicLongArray counts = new AtomicLongArray(LatencyHistogram.BUCKETS);
    /** The largest value since the last interval was taken. */
    private final AtomicLong maxMicros = new AtomicLong();
    /** Reporting thread only: the cumulative counts the last interval ended at. */
    private final long[] reported = new long[LatencyHistogram.BUCKETS];

    /** Records one value; a negative one (a clock that stepped back) counts as 0. */
    public void record(long micros) {
        long v = Math.max(0, micros);
        counts.incrementAndGet(LatencyHistogram.bucketOf(v));
        if (v > maxMicros.get()) {
            maxMicros.accumulateAndGet(v, Math::max);
        }
    }

    /**
     * What was recorded since the previous call (since creation for the first), or null if
     * nothing was. REQUIRES: one caller at a time.
     */
    public synchronized LatencyHistogram takeInterval() {
        long max = maxMicros.getAndSet(0);
        long[] delta = new long[LatencyHistogram.BUCKETS];
        for (int i = 0; i < delta.length; i++) {
            long now = counts.get(i);
            delta[i] = now - reported[i];
            reported[i] = now;
        }
        return LatencyHistogram.of(delta, max);
    }
}
