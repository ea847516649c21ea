package org.elastras.client.protocol;

/**
 * What the owner measured of a coordinated close (see {@link ClosePartitionResponse#closed()}).
 * The partition served new transactions until {@code stoppedAtEpochMs}; a move's unavailability
 * starts there, not when the close was sent. Immutable.
 *
 * @param flushedWhileServingMs the flush of the memtable made before the owner stopped admitting
 *     (0 if the memtable was too small to be worth it)
 * @param stoppedAtEpochMs when the owner stopped admitting new transactions, wall-clock milliseconds
 * @param servedNobodyMs from then to the answer: the drain of transactions in flight, the final
 *     flush and manifest, the log segments no partition needs any more
 */
public record CloseReport(long flushedWhileServingMs, long stoppedAtEpochMs, long servedNobodyMs) {
}
