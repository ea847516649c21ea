package org.elastras.client.protocol;

/**
 * Admin: makes the OTM flush a partition's memtable to an SSTable on the DFS ({@code POST /v1/flushPartition}). Immutable.
 *
 * @param partitionId the partition
 */
public record FlushPartitionRequest(long partitionId) {

    public FlushPartitionRequest {
        Fields.requirePartitionId("flushPartition", partitionId);
    }
}
