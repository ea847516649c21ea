package org.elastras.experiments.tpcc;

import java.util.SplittableRandom;

/**
 * The constants C of NURand(A, x, y) (clause 2.1.6): one for C_LAST (A = 255), one for C_ID
 * (A = 1023) and one for OL_I_ID (A = 8191). The loader uses a "load" set and the run a "run" set;
 * clause 2.1.6.1 requires the C_LAST constants to differ by a delta in [65, 119] other than 96 and
 * 112, and allows the C_ID and OL_I_ID constants to be the same or not (here the run keeps them).
 * Immutable.
 */
public record NuRandConstants(int cLast, int cId, int olIId) {

    public NuRandConstants {
        if (cLast < 0 || cLast > 255 || cId < 0 || cId > 1023 || olIId < 0 || olIId > 8191) {
            throw new IllegalArgumentException("NURand constants out of range: C_LAST 0..255, C_ID 0..1023, OL_I_ID 0..8191,"
                    + " got " + cLast + ", " + cId + ", " + olIId);
        }
    }

    /** Random load-time constants from a seed. */
    public static NuRandConstants forLoad(long seed) {
        SplittableRandom r = new SplittableRandom(seed ^ 0x4C4F4144L);
        return new NuRandConstants(r.nextInt(256), r.nextInt(1024), r.nextInt(8192));
    }

    /** The run-time constants that go with these load-time ones: a C_LAST delta allowed by clause 2.1.6.1. */
    public NuRandConstants forRun(long seed) {
        SplittableRandom r = new SplittableRandom(seed ^ 0x52554EL);
        for (int tries = 0; tries < 1_000; tries++) {
            int candidate = r.nextInt(256);
            if (validRunDelta(cLast, candidate)) {
                return new NuRandConstants(candidate, cId, olIId);
            }
        }
        throw new IllegalStateException("no valid C_LAST run constant for load constant " + cLast);
    }

    /** Clause 2.1.6.1: |C_RUN - C_LOAD| in [65, 119], and neither 96 nor 112. */
    public static boolean validRunDelta(int cLoad, int cRun) {
        int delta = Math.abs(cRun - cLoad);
        return delta >= 65 && delta <= 119 && delta != 96 && delta != 112;
    }
}
