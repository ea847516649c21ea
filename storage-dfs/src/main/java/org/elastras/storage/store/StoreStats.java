package org.elastras.storage.store;

/**
 * A snapshot of one partition store's sizes and counters. Immutable.
 *
 * @param memtableBytes bytes in the active and frozen memtables
 * @param frozenMemtables memtables waiting for flush
 * @param tables SSTables in the current manifest
 * @param tableBytes their total size on the DFS
 * @param tableEntries versions in them
 * @param flushes flushes completed since open
 * @param compactions compactions completed since open, for any cause
 * @param versionsDroppedByCompaction versions garbage-collected since open by compactions
 * @param versionsDroppedByFlush versions garbage-collected since open by flushes (a memtable's
 *     versions superseded at or below the horizon are not written)
 * @param tableEntriesReadByScans entries range scans read from SSTables since open (counted as
 *     each scan closes)
 * @param deadEntriesSkippedByScans of those, the tombstones the reader saw and the versions under
 *     them, which scans walked past (not the versions an update shadows)
 * @param compactionsForDeadEntries compactions completed since open that dead entries met by
 *     scans made due ({@link DeadEntryCompactionPolicy})
 * @param lastMaintenanceError the last background flush or compaction failure, or null
 */
public record StoreStats(long memtableBytes, int frozenMemtables, int tables, long tableBytes, long tableEntries,
        long flushes, long compactions, long versionsDroppedByCompaction, long versionsDroppedByFlush,
        long tableEntriesReadByScans,
        long deadEntriesSkippedByScans, long compactionsForDeadEntries, String lastMaintenanceError) {
}
