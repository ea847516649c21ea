package org.elastras.storage.wal;

/**
 * A snapshot of a {@link WalWriter}'s counters since it was opened. Immutable.
 *
 * @param batches batches written (each ended by one sync, or flush under {@link WalDurability#FLUSH})
 * @param records records acknowledged
 * @param bytes frame bytes written (segment headers excluded)
 * @param batchRecordsAverage records per batch, on average (0 before the first batch)
 * @param batchRecordsMax records in the largest batch
 * @param syncLatencyMicrosP50 median duration of the end-of-batch sync (or flush)
 * @param syncLatencyMicrosP99 99th percentile of the same
 * @param syncLatencyMicrosMax longest of the same
 * @param syncLatencyMicrosMean mean of the same (with the batch size, what bounds throughput)
 */
public record WalMetrics(long batches, long records, long bytes, double batchRecordsAverage, long batchRecordsMax,
        long syncLatencyMicrosP50, long syncLatencyMicrosP99, long syncLatencyMicrosMax,
        long syncLatencyMicrosMean) {
}
