package org.elastras.storage.store;

import org.elastras.storage.sstable.SsTableOptions;
import org.elastras.storage.util.StorageLimits;

/**
 * How a {@link PartitionStore} sizes its memtables, writes its tables and when it compacts.
 * Immutable; validated at construction.
 *
 * @param memtableBytesMax active memtable size at which a flush is due
 * @param frozenMemtablesMax frozen memtables waiting for flush at which writers should wait
 * @param compactionTablesTrigger number of SSTables at which a compaction is due
 * @param tables how SSTables are written
 * @param limits key and value sizes accepted by {@code apply}
 * @param deadEntriesCompactionMin dead entries (tombstones and the versions under them) that
 *     range scans must have skipped in SSTables since the last compaction before they make one
 *     due; {@code Long.MAX_VALUE} disables this trigger
 * @param deadEntriesCompactionPercent the share, in percent, of the table entries those scans
 *     read that must have been dead
 * @param deadEntriesCompactionIntervalMs time since the last compaction before scans may make
 *     another due (bounds the rate when a compaction cannot drop what they meet)
 * @see DeadEntryCompactionPolicy
 */
public record StoreOptions(long memtableBytesMax, int frozenMemtablesMax, int compactionTablesTrigger,
        SsTableOptions tables, StorageLimits limits,
        long deadEntriesCompactionMin, int deadEntriesCompactionPercent, long deadEntriesCompactionIntervalMs) {

    /**
     * Memtables of up to 128 MiB, two frozen at most, a compaction at six tables; on dead entries,
     * 10,000 of them, half of what scans read, at most one such compaction per 30 s. The process's
     * {@link MemtableBudget} flushes memtables earlier when many partitions share it: 128 MiB is
     * what one busy partition may keep, so that reads of rows written in the last seconds find
     * them in memory. (A memtable that lasts T seconds under uniform writes to N rows at N writes
     * a second misses (1 - e^-T) / T of the reads: of the procedure benchmark's 100,000 rows at
     * 100,000 writes of ~150 bytes a second, about 2 reads in 5 at 32 MiB, 1 in 9 at 128 MiB.)
     * The cost is a longer log replay when its OTM fails (BENCHMARKS.md, session 20).
     */
    public static final StoreOptions DEFAULT = new StoreOptions(128L << 20, 2, 6, SsTableOptions.DEFAULT, StorageLimits.DEFAULT);

    public StoreOptions {
        if (memtableBytesMax < 1024 || memtableBytesMax > 4L << 30) {
            throw new IllegalArgumentException("memtableBytesMax must be in [1 KiB, 4 GiB], got " + memtableBytesMax);
        }
        if (frozenMemtablesMax < 1 || frozenMemtablesMax > 64) {
            throw new IllegalArgumentException("frozenMemtablesMax must be in [1, 64], got " + frozenMemtablesMax);
        }
        if (compactionTablesTrigger < 2 || compactionTablesTrigger > 1000) {
            throw new IllegalArgumentException("compactionTablesTrigger must be in [2, 1000], got " + compactionTablesTrigger);
        }
        if (tables == null || limits == null) {
            throw new IllegalArgumentException("tables and limits options are required");
        }
        DeadEntryCompactionPolicy.checkBounds(deadEntriesCompactionMin, deadEntriesCompactionPercent,
                deadEntriesCompactionIntervalMs);
    }

    /** Options with the default compaction on dead entries met by scans. */
    public StoreOptions(long memtableBytesMax, int frozenMemtablesMax, int compactionTablesTrigger,
            SsTableOptions tables, StorageLimits limits) {
        this(memtableBytesMax, frozenMemtablesMax, compactionTablesTrigger, tables, limits,
                DeadEntryCompactionPolicy.DEAD_ENTRIES_MIN_DEFAULT, DeadEntryCompactionPolicy.DEAD_ENTRIES_PERCENT_DEFAULT,
                DeadEntryCompactionPolicy.INTERVAL_MS_DEFAULT);
    }

    public StoreOptions withMemtableBytesMax(long bytes) {
        return new StoreOptions(bytes, frozenMemtablesMax, compactionTablesTrigger, tables, limits,
                deadEntriesCompactionMin, deadEntriesCompactionPercent, deadEntriesCompactionIntervalMs);
    }

    public StoreOptions withCompactionTablesTrigger(int trigger) {
        return new StoreOptions(memtableBytesMax, frozenMemtablesMax, trigger, tables, limits,
                deadEntriesCompactionMin, deadEntriesCompactionPercent, deadEntriesCompactionIntervalMs);
    }

    /** These options with other bounds for the compaction on dead entries met by scans. */
    public StoreOptions withDeadEntriesCompaction(long deadEntriesMin, int percent, long intervalMs) {
        return new StoreOptions(memtableBytesMax, frozenMemtablesMax, compactionTablesTrigger, tables, limits,
                deadEntriesMin, percent, intervalMs);
    }
}
