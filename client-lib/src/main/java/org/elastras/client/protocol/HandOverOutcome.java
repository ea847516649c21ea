package org.elastras.client.protocol;

/**
 * What the destination of a live move did with the master's {@link CatalogHandOver} at the
 * hand-over (see {@link FinishIncomingResponse#handOver()}), as the origin passes it on to the master
 * (see {@link ClosePartitionResponse#handOver()}). Immutable.
 *
 * @param recorded whether the catalog confirmed the destination's record (the row swapped); false
 *     when it did not swap, refused, or its answer was lost: the master then writes the record
 *     itself, and its write finds out whether this one landed
 * @param recordMs how long the catalog write took, -1 if not tried
 * @param serving whether the destination confirmed it serves the partition
 * @param openMs how long the destination took to serve its copy once the row swapped, -1 if not tried
 * @param servingAtEpochMs when the destination's confirmation reached the origin, wall-clock
 *     milliseconds on the origin's clock (the one its pause was timed with); 0 if it did not
 * @param detail why it was not recorded or not opened, for logs; null if it was both
 */
public record HandOverOutcome(boolean recorded, long recordMs, boolean serving, long openMs, long servingAtEpochMs,
        String detail) {
}
