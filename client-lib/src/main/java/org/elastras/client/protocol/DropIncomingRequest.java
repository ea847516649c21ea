package org.elastras.client.protocol;

/**
 * Live move, origin to destination ({@code POST /v1/dropIncoming}): the move was given up before
 * its hand-over; forget the copy. Immutable.
 *
 * @param partitionId the partition
 */
public record DropIncomingRequest(long partitionId) {

    public DropIncomingRequest {
        Fields.requirePartitionId("dropIncoming", partitionId);
    }
}
