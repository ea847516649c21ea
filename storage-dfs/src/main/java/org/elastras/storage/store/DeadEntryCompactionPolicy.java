package org.elastras.storage.store;

/**
 * Decides whether the dead entries that range scans met in a store's SSTables make a compaction
 * due, the way RocksDB compacts on deletions: a queue-like table (rows inserted at one end,
 * consumed and deleted at the other) makes every scan from the consumed end walk the tombstones
 * and the versions under them until a compaction drops them, and the table-count trigger alone
 * may not fire for a long time. Plain logic: the store feeds it counts and the time since its
 * last compaction, and does the scheduling itself.
 *
 * <p>A compaction is due when, since the last compaction, scans skipped at least
 * {@code deadEntriesMin} dead entries, those were at least {@code deadEntriesPercentMin} percent
 * of the table entries the scans read, and at least {@code intervalMsMin} passed. The interval
 * bounds the rate: dead entries that a compaction cannot drop (a long-running snapshot holds the
 * GC horizon below them) would otherwise make every burst of scans compact again.
 *
 * <p>Immutable; thread-safe.
 */
final class DeadEntryCompactionPolicy {

    /** Defaults ({@link StoreOptions#DEFAULT}): 10,000 dead entries, half of what scans read, 30 s apart. */
    static final long DEAD_ENTRIES_MIN_DEFAULT = 10_000;
    static final int DEAD_ENTRIES_PERCENT_DEFAULT = 50;
    static final long INTERVAL_MS_DEFAULT = 30_000;
    static final int PERCENT_MAX = 100;
    /** The longest interval accepted: a day; a larger threshold disables the trigger instead. */
    static final long INTERVAL_MS_MAX = 24L * 60 * 60 * 1000;

    private final long deadEntriesMin;
    private final int deadEntriesPercentMin;
    private final long intervalMsMin;

    DeadEntryCompactionPolicy(long deadEntriesMin, int deadEntriesPercentMin, long intervalMsMin) {
        checkBounds(deadEntriesMin, deadEntriesPercentMin, intervalMsMin);
        this.deadEntriesMin = deadEntriesMin;
        this.deadEntriesPercentMin = deadEntriesPercentMin;
        this.intervalMsMin = intervalMsMin;
    }

    DeadEntryCompactionPolicy(StoreOptions options) {
        this(options.deadEntriesCompactionMin(), options.deadEntriesCompactionPercent(),
                options.deadEntriesCompactionIntervalMs());
    }

    /**
     * Validates the three bounds where they are set ({@link StoreOptions} and here).
     *
     * @throws IllegalArgumentException naming the option that is out of range
     */
    static void checkBounds(long deadEntriesMin, int deadEntriesPercentMin, long intervalMsMin) {
        if (deadEntriesMin < 1) {
            throw new IllegalArgumentException("deadEntriesCompactionMin must be >= 1 (Long.MAX_VALUE disables the trigger), got "
                    + deadEntriesMin);
        }
        if (deadEntriesPercentMin < 1 || deadEntriesPercentMin > PERCENT_MAX) {
            throw new IllegalArgumentException("deadEntriesCompactionPercent must be in [1, 100], got " + deadEntriesPercentMin);
        }
        if (intervalMsMin < 1 || intervalMsMin > INTERVAL_MS_MAX) {
            throw new IllegalArgumentException("deadEntriesCompactionIntervalMs must be in [1, " + INTERVAL_MS_MAX + "], got "
                    + intervalMsMin);
        }
    }

    /**
     * @param deadEntriesSkipped dead entries (tombstones the reader sees, and versions under them)
     *     that scans skipped in SSTables since the last compaction
     * @param tableEntriesRead entries scans read from SSTables since the last compaction, dead or not
     * @param msSinceLastCompaction time since the last compaction (or the store opened)
     * @return whether a compaction is due now
     */
    boolean compactNow(long deadEntriesSkipped, long tableEntriesRead, long msSinceLastCompaction) {
        if (deadEntriesSkipped < 0 || tableEntriesRead < deadEntriesSkipped) {
            throw new IllegalArgumentException("dead entries skipped (" + deadEntriesSkipped
                    + ") must be in [0, table entries read (" + tableEntriesRead + ")]");
        }
        if (msSinceLastCompaction < intervalMsMin || deadEntriesSkipped < deadEntriesMin) {
            return false;
        }
        // dead / read >= percent / 100, in doubles: dead * 100 could overflow a long.
        return deadEntriesSkipped / (double) tableEntriesRead * PERCENT_MAX >= deadEntriesPercentMin;
    }
}
