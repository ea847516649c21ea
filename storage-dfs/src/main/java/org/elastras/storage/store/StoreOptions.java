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
 */
public record StoreOptions(long memtableBytesMax, int frozenMemtablesMax, int compactionTablesTrigger,
        SsTableOptions tables, StorageLimits limits) {

    public static final StoreOptions DEFAULT = new StoreOptions(32L << 20, 2, 6, SsTableOptions.DEFAULT, StorageLimits.DEFAULT);

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
    }

    public StoreOptions withMemtableBytesMax(long bytes) {
        return new StoreOptions(bytes, frozenMemtablesMax, compactionTablesTrigger, tables, limits);
    }

    public StoreOptions withCompactionTablesTrigger(int trigger) {
        return new StoreOptions(memtableBytesMax, frozenMemtablesMax, trigger, tables, limits);
    }
}
