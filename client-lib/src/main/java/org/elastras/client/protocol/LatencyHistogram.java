package org.elastras.client.protocol;

import java.util.ArrayList;
import java.util.List;

/**
 * A histogram of latencies in microseconds with fixed log-linear buckets, as a heartbeat carries
 * it (the commit latency of one partition over one load interval) and as the master sums it over
 * a window. Immutable.
 *
 * <p>Bucket layout, the one place it is defined (also in {@code docs/protocol.md}): buckets 0-3
 * hold exactly 0, 1, 2 and 3 µs; above, every power of two [2^e, 2^(e+1)) is cut into
 * {@value #SUB_BUCKETS} equal buckets, so a bucket's upper bound is at most 1.25 times its lower
 * bound. Bucket {@code i >= 4} covers [(4 + i%4) * 2^(i/4 - 1), (5 + i%4) * 2^(i/4 - 1)) µs.
 * Values at or above {@value #MICROS_CLAMP} µs (about 18 minutes) count in the last bucket,
 * {@value #BUCKETS}-1.
 *
 * <p>On the wire only the run from the first to the last non-empty bucket travels: bucket
 * {@code firstBucket + k} holds {@code counts[k]}.
 *
 * @param firstBucket the bucket of {@code counts[0]}, 0 to {@value #BUCKETS}-1
 * @param counts how many values fell in each bucket from {@code firstBucket} on; at least one is
 *     not zero (an empty histogram is sent as null)
 * @param maxMicros the largest value recorded (exact, not rounded to a bucket)
 */
public record LatencyHistogram(int firstBucket, List<Long> counts, long maxMicros) {

    /** Buckets per power of two above 4 µs. */
    public static final int SUB_BUCKETS = 4;
    /** Values from here up count in the last bucket: 2^30 µs. */
    public static final long MICROS_CLAMP = 1L << 30;
    /** How many buckets there are: 0 to 3 µs exactly, then {@value #SUB_BUCKETS} per power of two up to the clamp. */
    public static final int BUCKETS = bucketOf(MICROS_CLAMP - 1) + 1;

    public LatencyHistogram {
        if (firstBucket < 0 || firstBucket >= BUCKETS) {
            throw Fields.malformed("heartbeat", "latency firstBucket must be in [0, " + (BUCKETS - 1) + "], got "
                    + firstBucket);
        }
        if (counts == null || counts.isEmpty()) {
            throw Fields.malformed("heartbeat", "latency counts are missing; send no histogram (null) when nothing"
                    + " was recorded");
        }
        if (counts.size() > BUCKETS - firstBucket) {
            throw Fields.malformed("heartbeat", "latency counts run from bucket " + firstBucket + " over "
                    + counts.size() + " buckets; there are only " + BUCKETS);
        }
        counts = List.copyOf(counts);
        long total = 0;
        for (Long c : counts) {
            if (c == null || c < 0) {
                throw Fields.malformed("heartbeat", "latency counts must be >= 0, got " + c);
            }
            total += c;
            if (total < 0) {
                throw Fields.malformed("heartbeat", "latency counts add up to more than " + Long.MAX_VALUE);
            }
        }
        if (total == 0) {
            throw Fields.malformed("heartbeat", "latency counts are all zero; send no histogram (null) instead");
        }
        if (maxMicros < 0) {
            throw Fields.malformed("heartbeat", "latency maxMicros must be >= 0, got " + maxMicros);
        }
    }

    /** The bucket a value falls in. REQUIRES: micros >= 0. */
    public static int bucketOf(long micros) {
        if (micros < 0) {
            throw new IllegalArgumentException("a latency is not negative, got " + micros);
        }
        long v = Math.min(micros, MICROS_CLAMP - 1);
        if (v < SUB_BUCKETS) {
            return (int) v;
        }
        int exponent = 63 - Long.numberOfLeadingZeros(v);
        int sub = (int) (v >>> (exponent - 2)) & (SUB_BUCKETS - 1);
        return SUB_BUCKETS * (exponent - 1) + sub;
    }

    /** The smallest value of bucket {@code bucket}, in µs. */
    public static long bucketLowerMicros(int bucket) {
        checkBucket(bucket);
        if (bucket < SUB_BUCKETS) {
            return bucket;
        }
        int exponent = bucket / SUB_BUCKETS + 1;
        return (long) (SUB_BUCKETS + bucket % SUB_BUCKETS) << (exponent - 2);
    }

    /** The bound of bucket {@code bucket} from above (the next bucket's smallest value), in µs. */
    public static long bucketUpperMicros(int bucket) {
        checkBucket(bucket);
        return bucket == BUCKETS - 1 ? MICROS_CLAMP : bucketLowerMicros(bucket + 1);
    }

    private static void checkBucket(int bucket) {
        if (bucket < 0 || bucket >= BUCKETS) {
            throw new IllegalArgumentException("bucket must be in [0, " + (BUCKETS - 1) + "], got " + bucket);
        }
    }

    /**
     * The histogram of {@code buckets} (one count per bucket, {@value #BUCKETS} of them), or null
     * if they are all zero.
     */
    public static LatencyHistogram of(long[] buckets, long maxMicros) {
        if (buckets.length != BUCKETS) {
            throw new IllegalArgumentException("expected " + BUCKETS + " buckets, got " + buckets.length);
        }
        int first = 0;
        while (first < BUCKETS && buckets[first] == 0) {
            first++;
        }
        if (first == BUCKETS) {
            return null;
        }
        int last = BUCKETS - 1;
        while (buckets[last] == 0) {
            last--;
        }
        List<Long> run = new ArrayList<>(last - first + 1);
        for (int i = first; i <= last; i++) {
            run.add(buckets[i]);
        }
        return new LatencyHistogram(first, run, maxMicros);
    }

    /** Adds this histogram's counts into {@code buckets} (one per bucket, {@value #BUCKETS} of them). */
    public void addTo(long[] buckets) {
        if (buckets.length != BUCKETS) {
            throw new IllegalArgumentException("expected " + BUCKETS + " buckets, got " + buckets.length);
        }
        for (int k = 0; k < counts.size(); k++) {
            buckets[firstBucket + k] += counts.get(k);
        }
    }

    /** How many values were recorded. */
    public long count() {
        long total = 0;
        for (long c : counts) {
            total += c;
        }
        return total;
    }

    /** See {@link #percentileMicros(long[], double, long)}, over this histogram. */
    public long percentileMicros(double quantile) {
        long[] dense = new long[BUCKETS];
        addTo(dense);
        return percentileMicros(dense, quantile, maxMicros);
    }

    /**
     * The value below which a {@code quantile} share of the counted values lie, rounded up to the
     * largest value of its bucket (so at most 25% above the truth) and never above {@code maxMicros};
     * 0 if nothing was counted.
     *
     * @param buckets one count per bucket, {@value #BUCKETS} of them
     * @param quantile in (0, 1]: 0.5 for the median, 0.99, 1 for the largest bucket
     */
    public static long percentileMicros(long[] buckets, double quantile, long maxMicros) {
        if (!(quantile > 0 && quantile <= 1)) {
            throw new IllegalArgumentException("quantile must be in (0, 1], got " + quantile);
        }
        if (buckets.length != BUCKETS) {
            throw new IllegalArgumentException("expected " + BUCKETS + " buckets, got " + buckets.length);
        }
        long total = 0;
        for (long c : buckets) {
            total += c;
        }
        if (total == 0) {
            return 0;
        }
        long rank = (long) Math.ceil(quantile * total);
        long seen = 0;
        for (int i = 0; i < BUCKETS; i++) {
            seen += buckets[i];
            if (seen >= rank) {
                // Bucket i's values are below its upper bound; the exact 0-3 µs buckets hold only i.
                long bound = i < SUB_BUCKETS ? i : bucketUpperMicros(i) - 1;
                return Math.min(bound, maxMicros);
            }
        }
        throw new IllegalStateException("rank " + rank + " beyond the total " + total);
    }
}
