package org.elastras.client.protocol;

/**
 * Live move, origin to destination ({@code POST /v1/finishIncoming}): the origin stopped
 * committing on the partition and shipped {@code batches} batches; the destination makes its copy
 * complete (writes the partition's manifest naming its own log) and holds it until the master
 * opens the partition here. Immutable.
 *
 * @param partitionId the partition
 * @param batches how many batches the origin shipped (0 if none)
 */
public record FinishIncomingRequest(long partitionId, long batches) {

    public FinishIncomingRequest {
        Fields.requirePartitionId("finishIncoming", partitionId);
        if (batches < 0) {
            throw Fields.malformed("finishIncoming", "batches must not be negative");
        }
    }
}
