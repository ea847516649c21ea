package org.elastras.experiments.tpcc;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.atomic.LongAdder;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.Recorder;

/**
 * What the terminals did second by second, warm-up included: the live progress line and the
 * throughput and latency plot come from it. Terminals {@link #record} from their threads
 * (wait-free: a {@link LongAdder} and an HdrHistogram {@link Recorder} per type); the driver's
 * thread takes a {@link Sample} once a second ({@link #sample}). The per-run figures come from
 * the terminals' own histograms, not from here.
 */
final class TpccTimeline {

    private static final int TYPES = TransactionType.values().length;

    /**
     * One interval. Immutable.
     *
     * @param endSeconds seconds from the start of the warm-up to the end of the interval
     * @param measured whether the interval lies in the measured period
     * @param completed transactions completed per type (ordinal order) in the interval
     * @param failed transactions that failed in the interval
     * @param latencyMicrosP50 median latency of all types in the interval (0 if none completed)
     * @param latencyMicrosP99 99th percentile of all types in the interval
     * @param newOrderLatencyMicrosP99 99th percentile of New-Order in the interval
     */
    record Sample(double endSeconds, double intervalSeconds, boolean measured, long[] completed, long failed,
            long latencyMicrosP50, long latencyMicrosP99, long newOrderLatencyMicrosP99) {

        long completedAll() {
            long n = 0;
            for (long c : completed) {
                n += c;
            }
            return n;
        }

        double perSecond(long count) {
            return intervalSeconds <= 0 ? 0 : count / intervalSeconds;
        }

        /** E.g. {@code "  elastras  measure  12 s  1,234 txn/s (NO 556 P 530 OS 49 D 50 SL 49)  p50 3.1 ms  p99 12.0 ms  NO p99 14.2 ms  failed 0"}. */
        String progressLine(String target) {
            return String.format(Locale.ROOT, "  %-18s %-7s %4.0f s %,8.0f txn/s (NO %,.0f P %,.0f OS %,.0f D %,.0f SL %,.0f)  p50 %.1f ms"
                            + "  p99 %.1f ms  NO p99 %.1f ms  failed %d", target, measured ? "measure" : "warm-up", endSeconds,
                    perSecond(completedAll()), perSecond(completed[0]), perSecond(completed[1]), perSecond(completed[2]),
                    perSecond(completed[3]), perSecond(completed[4]), latencyMicrosP50 / 1e3, latencyMicrosP99 / 1e3,
                    newOrderLatencyMicrosP99 / 1e3, failed);
        }
    }

    private final long latencyMicrosMax;
    private final LongAdder[] completed = new LongAdder[TYPES];
    private final LongAdder failed = new LongAdder();
    private final LongAdder newOrdersCommitted = new LongAdder();
    private final Recorder[] latency = new Recorder[TYPES];
    /** Driver thread only. */
    private final long[] completedBefore = new long[TYPES];
    private long failedBefore;
    private Histogram[] recycled = new Histogram[TYPES];
    private final List<Sample> samples = new ArrayList<>();

    TpccTimeline(long latencyMicrosMax) {
        this.latencyMicrosMax = latencyMicrosMax;
        for (int i = 0; i < TYPES; i++) {
            completed[i] = new LongAdder();
            latency[i] = new Recorder(latencyMicrosMax, 2);
        }
    }

    /**
     * A transaction of {@code type} completed in {@code latencyMicros}; any thread.
     *
     * @param committedNewOrder a New-Order that committed (not one rolled back on purpose)
     */
    void record(TransactionType type, long latencyMicros, boolean committedNewOrder) {
        completed[type.ordinal()].increment();
        if (committedNewOrder) {
            newOrdersCommitted.increment();
        }
        latency[type.ordinal()].recordValue(Math.min(latencyMicros, latencyMicrosMax));
    }

    /** New-Orders committed so far, all phases; any thread. */
    long newOrdersCommitted() {
        return newOrdersCommitted.sum();
    }

    /** A transaction failed; any thread. */
    void recordFailure() {
        failed.increment();
    }

    /** Closes the interval that ends now; the driver's thread only. */
    Sample sample(double endSeconds, double intervalSeconds, boolean measured) {
        long[] counts = new long[TYPES];
        Histogram all = new Histogram(latencyMicrosMax, 2);
        long newOrderP99 = 0;
        for (int i = 0; i < TYPES; i++) {
            long total = completed[i].sum();
            counts[i] = total - completedBefore[i];
            completedBefore[i] = total;
            Histogram h = latency[i].getIntervalHistogram(recycled[i]);
            recycled[i] = h;
            all.add(h);
            if (i == TransactionType.NEW_ORDER.ordinal()) {
                newOrderP99 = h.getTotalCount() == 0 ? 0 : h.getValueAtPercentile(99);
            }
        }
        long failedTotal = failed.sum();
        long failedNow = failedTotal - failedBefore;
        failedBefore = failedTotal;
        boolean any = all.getTotalCount() > 0;
        Sample s = new Sample(endSeconds, intervalSeconds, measured, counts, failedNow, any ? all.getValueAtPercentile(50) : 0,
                any ? all.getValueAtPercentile(99) : 0, newOrderP99);
        samples.add(s);
        return s;
    }

    /** Every sample so far, oldest first; the driver's thread only. */
    List<Sample> samples() {
        return List.copyOf(samples);
    }
}
