package org.elastras.client.protocol;

/**
 * One served partition's counters in a heartbeat ({@link OtmLoad}), counted from when this OTM
 * opened it. Immutable.
 *
 * @param partitionId the partition
 * @param commits transactions committed (including read-only ones)
 * @param aborts transactions aborted, for any reason
 */
public record PartitionLoad(long partitionId, long commits, long aborts) {

    public PartitionLoad {
        Fields.requirePartitionId("heartbeat", partitionId);
        if (commits < 0 || aborts < 0) {
            throw Fields.malformed("heartbeat", "counters must be >= 0, got commits " + commits + ", aborts " + aborts);
        }
    }
}
