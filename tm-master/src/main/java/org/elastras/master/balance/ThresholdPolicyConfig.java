package org.elastras.master.balance;

/**
 * The thresholds and bounds of {@link ThresholdPolicy}. Immutable.
 *
 * @param upperRequestsPerSecond an OTM above this in every slice of the window is overloaded: its
 *     hottest partitions move off until it is at or below it; what cannot move calls for more OTMs
 * @param lowerRequestsPerSecond when every OTM stayed below this in every slice of the window, one
 *     OTM is drained and removed (if the rest can take its load)
 * @param cooldownMs a partition that moved is not moved for load again for this long (drains
 *     ignore it)
 * @param movesInFlightMax most moves under way at once, the planned ones included
 * @param otmsMin consolidation never goes below this many OTMs
 * @param otmsMax scale-out never asks for more than this many OTMs in all
 */
public record ThresholdPolicyConfig(double upperRequestsPerSecond, double lowerRequestsPerSecond, long cooldownMs,
        int movesInFlightMax, int otmsMin, int otmsMax) {

    /** Largest bound on moves in flight. */
    public static final int MOVES_IN_FLIGHT_LIMIT = 1_000;

    public ThresholdPolicyConfig {
        if (!(upperRequestsPerSecond > 0) || Double.isInfinite(upperRequestsPerSecond)) {
            throw new IllegalArgumentException("upperRequestsPerSecond must be a positive number, got "
                    + upperRequestsPerSecond);
        }
        if (!(lowerRequestsPerSecond >= 0 && lowerRequestsPerSecond < upperRequestsPerSecond)) {
            throw new IllegalArgumentException("lowerRequestsPerSecond must be in [0, upperRequestsPerSecond "
                    + upperRequestsPerSecond + "), got " + lowerRequestsPerSecond);
        }
        if (cooldownMs < 0) {
            throw new IllegalArgumentException("cooldownMs must be >= 0, got " + cooldownMs);
        }
        if (movesInFlightMax < 1 || movesInFlightMax > MOVES_IN_FLIGHT_LIMIT) {
            throw new IllegalArgumentException("movesInFlightMax must be in [1, " + MOVES_IN_FLIGHT_LIMIT + "], got "
                    + movesInFlightMax);
        }
        if (otmsMin < 1 || otmsMax < otmsMin) {
            throw new IllegalArgumentException("need 1 <= otmsMin <= otmsMax, got otmsMin " + otmsMin + ", otmsMax "
                    + otmsMax);
        }
    }

    /** The per-OTM load consolidation may reach: halfway between the thresholds. */
    public double consolidationTargetRequestsPerSecond() {
        return (lowerRequestsPerSecond + upperRequestsPerSecond) / 2;
    }
}
