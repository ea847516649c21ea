package org.elastras.master.balance;

import java.util.Arrays;
import org.elastras.client.protocol.LatencyHistogram;

/**
 * The load of one partition or one OTM in the last slices of time: for each slice, the requests,
 * commits and aborts counted in it, how many milliseconds of it reports covered, the commit
 * latencies reported in it and (for an OTM) its CPU use. Rates are counts over covered time, so a
 * lost report or a gap makes a slice less certain, never lower. A ring of {@code slices + 1}
 * cells (the window and the slice in progress). Not thread-safe: owned by its {@link LoadWindow}.
 */
final class SliceRing {

    private final long sliceMs;
    /** The absolute slice each cell holds (time / sliceMs), or Long.MIN_VALUE for none. */
    private final long[] sliceOf;
    private final double[] requests;
    private final double[] commits;
    private final double[] aborts;
    private final double[] coveredMs;
    private final double[] cpuTimesMs;
    private final double[] cpuCoveredMs;
    private final LatencyHistogram[] latency;

    SliceRing(int cells, long sliceMs) {
        this.sliceMs = sliceMs;
        this.sliceOf = new long[cells];
        Arrays.fill(sliceOf, Long.MIN_VALUE);
        this.requests = new double[cells];
        this.commits = new double[cells];
        this.aborts = new double[cells];
        this.coveredMs = new double[cells];
        this.cpuTimesMs = new double[cells];
        this.cpuCoveredMs = new double[cells];
        this.latency = new LatencyHistogram[cells];
    }

    /** The cell of absolute slice {@code slice}, emptied if it held an older one; -1 if the ring holds newer slices only. */
    private int cell(long slice) {
        int c = (int) Math.floorMod(slice, (long) sliceOf.length);
        if (sliceOf[c] == slice) {
            return c;
        }
        if (sliceOf[c] > slice) {
            return -1;
        }
        sliceOf[c] = slice;
        requests[c] = 0;
        commits[c] = 0;
        aborts[c] = 0;
        coveredMs[c] = 0;
        cpuTimesMs[c] = 0;
        cpuCoveredMs[c] = 0;
        latency[c] = null;
        return c;
    }

    /**
     * Spreads counts measured over [fromMs, toMs) across the slices it overlaps, in proportion to
     * the overlap. A cpu below 0 means unknown.
     */
    void add(long fromMs, long toMs, double requestCount, double commitCount, double abortCount, double cpu) {
        if (toMs <= fromMs) {
            throw new IllegalStateException("empty interval [" + fromMs + ", " + toMs + ")");
        }
        double length = toMs - fromMs;
        for (long s = Math.floorDiv(fromMs, sliceMs); s <= Math.floorDiv(toMs - 1, sliceMs); s++) {
            long overlap = Math.min(toMs, (s + 1) * sliceMs) - Math.max(fromMs, s * sliceMs);
            int c = cell(s);
            if (c < 0) {
                continue;
            }
            double share = overlap / length;
            requests[c] += requestCount * share;
            commits[c] += commitCount * share;
            aborts[c] += abortCount * share;
            // Two owners reporting the same partition in the same slice (a move) cover it once.
            coveredMs[c] = Math.min(sliceMs, coveredMs[c] + overlap);
            if (cpu >= 0) {
                cpuTimesMs[c] += cpu * overlap;
                cpuCoveredMs[c] += overlap;
            }
        }
    }

    /** Adds the latencies reported at {@code atMs} to that time's slice. */
    void addLatency(long atMs, LatencyHistogram histogram) {
        int c = cell(Math.floorDiv(atMs, sliceMs));
        if (c < 0 || histogram == null) {
            return;
        }
        if (latency[c] == null) {
            latency[c] = histogram;
        } else {
            long[] dense = new long[LatencyHistogram.BUCKETS];
            latency[c].addTo(dense);
            histogram.addTo(dense);
            latency[c] = LatencyHistogram.of(dense, Math.max(latency[c].maxMicros(), histogram.maxMicros()));
        }
    }

    /** Whether any cell holds a slice at or after {@code firstSlice}. */
    boolean holdsAnySince(long firstSlice) {
        for (long s : sliceOf) {
            if (s != Long.MIN_VALUE && s >= firstSlice) {
                return true;
            }
        }
        return false;
    }

    /** What the ring knows about absolute slice {@code slice}, or null if nothing. */
    Slice slice(long slice) {
        int c = (int) Math.floorMod(slice, (long) sliceOf.length);
        if (sliceOf[c] != slice) {
            return null;
        }
        return new Slice(requests[c], commits[c], aborts[c], coveredMs[c], cpuTimesMs[c], cpuCoveredMs[c], latency[c]);
    }

    /** One slice's sums. */
    record Slice(double requests, double commits, double aborts, double coveredMs, double cpuTimesMs,
            double cpuCoveredMs, LatencyHistogram latency) {
    }
}
