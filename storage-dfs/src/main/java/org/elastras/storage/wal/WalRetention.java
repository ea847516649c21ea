package org.elastras.storage.wal;

import java.util.HashMap;
import java.util.Map;

/**
 * Which part of one OTM's log is still needed: per partition, the oldest WAL position whose
 * records that partition has not yet flushed to SSTables. Pure bookkeeping, no IO; the owner
 * calls {@code writer.deleteSegmentsBefore(retention.oldestNeeded(writer.endPosition()))}.
 *
 * <p>Thread-safe: every method holds the instance lock.
 */
public final class WalRetention {

    /** Guarded by {@code this}. At most one entry per partition the owner serves. */
    private final Map<Long, WalPosition> oldestByPartition = new HashMap<>();

    /**
     * Records that a partition needs every record at or after {@code position}. Replaces the
     * partition's earlier position, which it may only move forward (a flush never un-flushes).
     *
     * @throws IllegalStateException if {@code position} is before the partition's current one
     */
    public synchronized void retain(long partitionId, WalPosition position) {
        if (position == null) {
            throw new IllegalArgumentException("position is null");
        }
        WalPosition current = oldestByPartition.get(partitionId);
        if (current != null && position.compareTo(current) < 0) {
            throw new IllegalStateException("partition " + partitionId + " retention moved back from " + current
                    + " to " + position + ": records before " + current + " may already be deleted");
        }
        oldestByPartition.put(partitionId, position);
    }

    /** Forgets a partition: it needs nothing from the log (flushed everything, or closed). */
    public synchronized void release(long partitionId) {
        oldestByPartition.remove(partitionId);
    }

    /**
     * The oldest position any partition still needs, never later than {@code endIfNone} (the
     * log's end position, returned as is when no partition needs anything).
     */
    public synchronized WalPosition oldestNeeded(WalPosition endIfNone) {
        if (endIfNone == null) {
            throw new IllegalArgumentException("endIfNone is null");
        }
        WalPosition oldest = endIfNone;
        for (WalPosition p : oldestByPartition.values()) {
            oldest = WalPosition.min(oldest, p);
        }
        return oldest;
    }

    /** Number of partitions that currently retain a position. */
    public synchronized int partitions() {
        return oldestByPartition.size();
    }
}
