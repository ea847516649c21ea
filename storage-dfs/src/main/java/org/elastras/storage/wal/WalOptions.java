package org.elastras.storage.wal;

import org.elastras.storage.util.StorageLimits;

/**
 * Settings of a {@link WalWriter}, validated when constructed. Immutable.
 *
 * @param segmentBytesMax a segment rolls before a record would take it past this size (a single
 *     record larger than this gets a segment of its own)
 * @param queueRecordsMax most records waiting for the writer thread; {@code append} blocks beyond it
 * @param queueBytesMax most encoded bytes waiting for the writer thread; {@code append} blocks
 *     beyond it (a record is always admitted into an empty queue, whatever its size)
 * @param appendWaitMillisMax longest time {@code append} blocks for queue space before it fails
 * @param durability what the writer does before acknowledging a batch
 * @param limits key, value, mutation and record size limits checked before anything is queued
 * @param fenceCheck how the writer makes sure it acknowledges nothing after its log was fenced
 */
public record WalOptions(long segmentBytesMax, int queueRecordsMax, long queueBytesMax, long appendWaitMillisMax,
        WalDurability durability, StorageLimits limits, WalFenceCheck fenceCheck) {

    /**
     * 64 MiB segments, 64 Ki records or 64 MiB queued, 10 s wait, sync per batch, fence check per
     * batch (right on every DFS; on HDFS {@link WalFenceCheck#ROLL_ONLY} saves a namenode call).
     */
    public static final WalOptions DEFAULT = new WalOptions(64L << 20, 65_536, 64L << 20, 10_000,
            WalDurability.SYNC, StorageLimits.DEFAULT, WalFenceCheck.EVERY_BATCH);

    /** Smallest segment size accepted: a header plus room for a few small records. */
    public static final long SEGMENT_BYTES_MIN = 1024;

    public WalOptions {
        if (segmentBytesMax < SEGMENT_BYTES_MIN || segmentBytesMax > (1L << 40)) {
            throw new IllegalArgumentException("segmentBytesMax must be in [" + SEGMENT_BYTES_MIN + ", 2^40], got "
                    + segmentBytesMax);
        }
        if (queueRecordsMax < 1 || queueRecordsMax > 10_000_000) {
            throw new IllegalArgumentException("queueRecordsMax must be in [1, 10^7], got " + queueRecordsMax);
        }
        if (queueBytesMax < 1 || queueBytesMax > (16L << 30)) {
            throw new IllegalArgumentException("queueBytesMax must be in [1, 16 GiB], got " + queueBytesMax);
        }
        if (appendWaitMillisMax < 0 || appendWaitMillisMax > 3_600_000) {
            throw new IllegalArgumentException("appendWaitMillisMax must be in [0, 3600000], got " + appendWaitMillisMax);
        }
        if (durability == null) {
            throw new IllegalArgumentException("durability is null: choose WalDurability.SYNC (or FLUSH for benchmarks)");
        }
        if (limits == null) {
            throw new IllegalArgumentException("limits is null: use StorageLimits.DEFAULT");
        }
        if (fenceCheck == null) {
            throw new IllegalArgumentException("fenceCheck is null: use WalFenceCheck.EVERY_BATCH (ROLL_ONLY on HDFS only)");
        }
    }

    public WalOptions withSegmentBytesMax(long value) {
        return new WalOptions(value, queueRecordsMax, queueBytesMax, appendWaitMillisMax, durability, limits, fenceCheck);
    }

    public WalOptions withQueue(int recordsMax, long bytesMax, long waitMillisMax) {
        return new WalOptions(segmentBytesMax, recordsMax, bytesMax, waitMillisMax, durability, limits, fenceCheck);
    }

    public WalOptions withDurability(WalDurability value) {
        return new WalOptions(segmentBytesMax, queueRecordsMax, queueBytesMax, appendWaitMillisMax, value, limits, fenceCheck);
    }

    public WalOptions withLimits(StorageLimits value) {
        return new WalOptions(segmentBytesMax, queueRecordsMax, queueBytesMax, appendWaitMillisMax, durability, value, fenceCheck);
    }

    public WalOptions withFenceCheck(WalFenceCheck value) {
        return new WalOptions(segmentBytesMax, queueRecordsMax, queueBytesMax, appendWaitMillisMax, durability, limits, value);
    }
}
