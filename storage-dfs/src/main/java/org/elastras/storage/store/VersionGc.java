package org.elastras.storage.store;

import java.util.function.Predicate;

/**
 * Decides which versions a compaction keeps. Plain logic: fed versions in {@link Version#ORDER}
 * (each (key, cts) once), it answers keep or drop.
 *
 * <p>Rule, per key: every version newer than the horizon is kept (some snapshot at or after the
 * horizon may see it); of the versions at or below the horizon only the newest is kept (it is
 * what a snapshot at the horizon sees), and that one is dropped too if it is a tombstone that
 * hides nothing ({@link TombstoneOracle}).
 *
 * <p>Not thread-safe: one compaction feeds one instance.
 */
final class VersionGc {

    /** Says whether dropping a tombstone could make an older version of its key visible again. */
    interface TombstoneOracle {
        boolean mayHideOlderVersion(Version tombstone);
    }

    private final long horizonCts;
    private final TombstoneOracle oracle;
    private final Predicate<byte[]> expired;
    private boolean currentExpired;
    private byte[] currentKey;
    private boolean horizonVersionSeen;
    private long dropped;

    VersionGc(long horizonCts, TombstoneOracle oracle) {
        this(horizonCts, oracle, key -> false);
    }

    /** @param expired keys whose every version is dropped (they outlived their time to live) */
    VersionGc(long horizonCts, TombstoneOracle oracle, Predicate<byte[]> expired) {
        this.horizonCts = horizonCts;
        this.oracle = oracle;
        this.expired = expired;
    }

    boolean keep(Version v) {
        if (currentKey == null || Version.compareKeys(currentKey, v.key()) != 0) {
            currentKey = v.key();
            horizonVersionSeen = false;
            currentExpired = expired.test(v.key());
        }
        if (currentExpired) {
            dropped++;
            return false;
        }
        if (v.cts() > horizonCts) {
            return true;
        }
        if (horizonVersionSeen) {
            dropped++;
            return false;
        }
        horizonVersionSeen = true;
        if (v.isTombstone() && !oracle.mayHideOlderVersion(v)) {
            dropped++;
            return false;
        }
        return true;
    }

    long droppedCount() {
        return dropped;
    }
}
