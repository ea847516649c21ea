package org.elastras.client.protocol;

/**
 * Admin: makes the OTM stop serving a partition, aborting its open transactions ({@code POST /v1/closePartition}). Immutable.
 *
 * @param partitionId the partition
 */
public record ClosePartitionRequest(long partitionId) {

    public ClosePartitionRequest {
        Fields.requirePartitionId("closePartition", partitionId);
    }
}
