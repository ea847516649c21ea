package org.elastras.master.cluster;

/**
 * The bounds of the master's cluster logic. Immutable; validated at construction.
 *
 * @param otmsMax most live OTMs tracked
 * @param partitionsMax most partitions tracked
 * @param opensInFlightMax most partition opens sent and not yet answered
 * @param openAttemptsMax open attempts of one assignment before the partition is parked
 * @param retryBackoffMsInitial wait before the first retry of a failed open or fence
 * @param retryBackoffMsMax longest wait between retries (the backoff doubles up to it)
 * @param drainMovesPerOtmMax most moves off one draining OTM under way at once. A partition waiting
 *     for its turn serves as before; moves side by side share the origin's disk and CPU, so each
 *     one, and the time its partition serves nobody, grows with their number (4 at once: 390 ms
 *     each to close in the elasticity experiment, against 60-175 ms alone)
 * @param liveMoves whether moves (an operator's without a mode, drains, the balancer's) are live
 *     moves, the partition copied while it serves and paused only to hand over; false: coordinated
 *     moves (close, then open at the destination)
 */
public record ClusterLimits(int otmsMax, int partitionsMax, int opensInFlightMax, int openAttemptsMax,
        long retryBackoffMsInitial, long retryBackoffMsMax, int drainMovesPerOtmMax, boolean liveMoves) {

    /** Defaults sized for failover within seconds, drains that move one partition at a time, live moves. */
    public static final ClusterLimits DEFAULT = new ClusterLimits(1_000, 1_000_000, 64, 8, 100, 5_000, 1, true);

    /** Limits with live moves. */
    public ClusterLimits(int otmsMax, int partitionsMax, int opensInFlightMax, int openAttemptsMax,
            long retryBackoffMsInitial, long retryBackoffMsMax, int drainMovesPerOtmMax) {
        this(otmsMax, partitionsMax, opensInFlightMax, openAttemptsMax, retryBackoffMsInitial, retryBackoffMsMax,
                drainMovesPerOtmMax, true);
    }

    /** These limits with moves live or coordinated by default. */
    public ClusterLimits withLiveMoves(boolean live) {
        return new ClusterLimits(otmsMax, partitionsMax, opensInFlightMax, openAttemptsMax, retryBackoffMsInitial,
                retryBackoffMsMax, drainMovesPerOtmMax, live);
    }

    public ClusterLimits {
        requireRange("otmsMax", otmsMax, 1, 100_000);
        requireRange("partitionsMax", partitionsMax, 1, 100_000_000);
        requireRange("opensInFlightMax", opensInFlightMax, 1, 10_000);
        requireRange("openAttemptsMax", openAttemptsMax, 1, 1_000);
        requireRange("retryBackoffMsInitial", retryBackoffMsInitial, 1, 600_000);
        requireRange("retryBackoffMsMax", retryBackoffMsMax, retryBackoffMsInitial, 3_600_000);
        requireRange("drainMovesPerOtmMax", drainMovesPerOtmMax, 1, 10_000);
    }

    /** The wait before retry number {@code attempt} (1-based): doubling from the initial, capped. */
    long backoffMs(int attempt) {
        long wait = retryBackoffMsInitial;
        for (int i = 1; i < attempt && wait < retryBackoffMsMax; i++) {
            wait *= 2;
        }
        return Math.min(wait, retryBackoffMsMax);
    }

    private static void requireRange(String name, long value, long min, long max) {
        if (value < min || value > max) {
            throw new IllegalArgumentException(name + " must be in [" + min + ", " + max + "], got " + value);
        }
    }
}
