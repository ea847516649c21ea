package org.elastras.master.balance;

import java.util.Arrays;

/**
 * The load of one partition or one OTM over a window, as {@link LoadWindow} measured it: rates per
 * slice and over the whole window, commit latency percentiles, and (for an OTM) CPU and heap.
 * Immutable.
 *
 * <p>A rate is {@code NaN} where no report covered the time: unknown, which is not zero. The
 * window's rates divide the counts by the covered time only.
 */
public final class WindowLoad {

    private final double[] requestsPerSecondBySlice;
    private final double requestsPerSecond;
    private final double commitsPerSecond;
    private final double abortsPerSecond;
    private final long coveredMs;
    private final long commitLatencyP50Micros;
    private final long commitLatencyP99Micros;
    private final long commitLatencyMaxMicros;
    private final long commitsMeasured;
    private final double cpuLoad;
    private final long heapUsedBytes;
    private final long heapMaxBytes;
    private final long storeBytes;

    WindowLoad(double[] requestsPerSecondBySlice, double requestsPerSecond, double commitsPerSecond,
            double abortsPerSecond, long coveredMs, long commitLatencyP50Micros, long commitLatencyP99Micros,
            long commitLatencyMaxMicros, long commitsMeasured, double cpuLoad, long heapUsedBytes, long heapMaxBytes,
            long storeBytes) {
        this.requestsPerSecondBySlice = requestsPerSecondBySlice.clone();
        this.requestsPerSecond = requestsPerSecond;
        this.commitsPerSecond = commitsPerSecond;
        this.abortsPerSecond = abortsPerSecond;
        this.coveredMs = coveredMs;
        this.commitLatencyP50Micros = commitLatencyP50Micros;
        this.commitLatencyP99Micros = commitLatencyP99Micros;
        this.commitLatencyMaxMicros = commitLatencyMaxMicros;
        this.commitsMeasured = commitsMeasured;
        this.cpuLoad = cpuLoad;
        this.heapUsedBytes = heapUsedBytes;
        this.heapMaxBytes = heapMaxBytes;
        this.storeBytes = storeBytes;
    }

    /** How many slices the window has. */
    public int slices() {
        return requestsPerSecondBySlice.length;
    }

    /** Requests per second in slice {@code slice} (0 is the oldest of the window), NaN if unknown. */
    public double requestsPerSecondInSlice(int slice) {
        return requestsPerSecondBySlice[slice];
    }

    /** Whether every slice of the window has a known rate. */
    public boolean everySliceKnown() {
        for (double r : requestsPerSecondBySlice) {
            if (Double.isNaN(r)) {
                return false;
            }
        }
        return true;
    }

    /** Requests (transactions begun) per second over the covered part of the window, NaN if none was covered. */
    public double requestsPerSecond() {
        return requestsPerSecond;
    }

    /** Commits per second over the covered part of the window, NaN if none was covered. */
    public double commitsPerSecond() {
        return commitsPerSecond;
    }

    /** Aborts per second over the covered part of the window, NaN if none was covered. */
    public double abortsPerSecond() {
        return abortsPerSecond;
    }

    /** Milliseconds of the window that reports covered. */
    public long coveredMs() {
        return coveredMs;
    }

    /** Median begin-to-commit latency over the window, 0 if no latency was reported. */
    public long commitLatencyP50Micros() {
        return commitLatencyP50Micros;
    }

    /** 99th percentile begin-to-commit latency over the window, 0 if no latency was reported. */
    public long commitLatencyP99Micros() {
        return commitLatencyP99Micros;
    }

    /** Largest begin-to-commit latency reported in the window, 0 if none. */
    public long commitLatencyMaxMicros() {
        return commitLatencyMaxMicros;
    }

    /** How many commits the latency figures are drawn from. */
    public long commitsMeasured() {
        return commitsMeasured;
    }

    /** An OTM's average CPU use over the window (0..1 of the machine), -1 if unknown or for a partition. */
    public double cpuLoad() {
        return cpuLoad;
    }

    /** An OTM's heap in use at its last report; 0 for a partition. */
    public long heapUsedBytes() {
        return heapUsedBytes;
    }

    /** An OTM's heap limit at its last report; 0 for a partition. */
    public long heapMaxBytes() {
        return heapMaxBytes;
    }

    /** A partition's store size at its last report, or the sum over an OTM's partitions then. */
    public long storeBytes() {
        return storeBytes;
    }

    @Override
    public String toString() {
        return "WindowLoad[requestsPerSecond=" + requestsPerSecond + ", bySlice=" + Arrays.toString(requestsPerSecondBySlice)
                + ", commitsPerSecond=" + commitsPerSecond + ", abortsPerSecond=" + abortsPerSecond + ", coveredMs="
                + coveredMs + ", p50=" + commitLatencyP50Micros + "us, p99=" + commitLatencyP99Micros + "us, cpu=" + cpuLoad
                + ", storeBytes=" + storeBytes + "]";
    }
}
