package org.elastras.client.protocol;

/**
 * Admin: makes the OTM stop serving a partition ({@code POST /v1/closePartition}). Without
 * {@code liveTo}, a coordinated close: stop admitting, finish or abort the transactions in
 * flight, flush, close. With it, a live move: the OTM copies the partition to that OTM while still
 * serving it (the destination opens the tables from the DFS and is sent every version committed
 * since), then pauses it briefly to hand it over; the destination serves it once the master opens
 * it there, or at once if {@code handOver} is given and its catalog write succeeds. Immutable.
 *
 * @param partitionId the partition
 * @param liveTo where to copy the partition live; null for a coordinated close
 * @param handOver with {@code liveTo}: the catalog write the origin makes after the hand-over,
 *     and if it succeeds, the origin opens the partition at the destination; null to leave both to
 *     the master
 */
public record ClosePartitionRequest(long partitionId, MoveDestination liveTo, CatalogHandOver handOver) {

    public ClosePartitionRequest {
        Fields.requirePartitionId("closePartition", partitionId);
        if (handOver != null && liveTo == null) {
            throw Fields.malformed("closePartition", "handOver is only for a live move (with liveTo)");
        }
    }

    /** A coordinated close. */
    public ClosePartitionRequest(long partitionId) {
        this(partitionId, null, null);
    }

    /** A live move whose catalog write and open the master makes itself. */
    public ClosePartitionRequest(long partitionId, MoveDestination liveTo) {
        this(partitionId, liveTo, null);
    }
}
