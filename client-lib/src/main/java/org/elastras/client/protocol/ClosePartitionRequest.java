package org.elastras.client.protocol;

/**
 * Admin: makes the OTM stop serving a partition ({@code POST /v1/closePartition}). Without
 * {@code liveTo}, a coordinated close: stop admitting, finish or abort the transactions in
 * flight, flush, close. With it, a live move: the OTM copies the partition to that OTM while still
 * serving it (the destination opens the tables from the DFS and is sent every version committed
 * since), then pauses it briefly to hand it over; the destination serves it once the master opens
 * it there. Immutable.
 *
 * @param partitionId the partition
 * @param liveTo where to copy the partition live; null for a coordinated close
 */
public record ClosePartitionRequest(long partitionId, MoveDestination liveTo) {

    public ClosePartitionRequest {
        Fields.requirePartitionId("closePartition", partitionId);
    }

    /** A coordinated close. */
    public ClosePartitionRequest(long partitionId) {
        this(partitionId, null);
    }
}
