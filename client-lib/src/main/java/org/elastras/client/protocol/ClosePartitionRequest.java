package org.elastras.client.protocol;

/**
 * Admin: makes the OTM stop serving a partition ({@code POST /v1/closePartition}). Without
 * {@code liveTo}, a coordinated close: stop admitting, finish or abort the transactions in
 * flight, flush, close. With it, a live move: the OTM copies the partition to that OTM while still
 * serving it (the destination opens the tables from the DFS and is sent every version committed
 * since), then pauses it briefly to hand it over; the destination serves it once the master opens
 * it there, or at once if {@code handOver} is given and its catalog write succeeds. Either kind
 * may carry {@code handOver}. Immutable.
 *
 * @param partitionId the partition
 * @param liveTo where to copy the partition live; null for a coordinated close
 * @param handOver the catalog write the origin makes once it no longer commits to the partition
 *     (after a live move's hand-over, or the close), and if it succeeds, the origin opens the
 *     partition at the destination; null to leave both to the master
 */
public record ClosePartitionRequest(long partitionId, MoveDestination liveTo, CatalogHandOver handOver) {

    public ClosePartitionRequest {
        Fields.requirePartitionId("closePartition", partitionId);
        if (handOver != null && liveTo != null && !handOver.openAt().equals(liveTo)) {
            throw Fields.malformed("closePartition", "handOver.openAt must be liveTo, the live move's destination");
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
