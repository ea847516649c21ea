package org.elastras.client.protocol;

/**
 * Makes a begin a participant's branch of a cross-partition transaction (see
 * {@link BeginRequest#branch()}): it reads at the coordinator's snapshot and its outcome is
 * decided by the coordinator partition. Immutable.
 *
 * @param snapshotCts the snapshot the whole transaction reads at (its first partition's)
 * @param coordinatorPartitionId the partition the transaction began on, which decides its outcome
 * @param coordinatorRootKey an encoded root key inside that partition, to find its owner in the
 *     catalog (as the client routed to it)
 */
public record BranchOf(long snapshotCts, long coordinatorPartitionId, byte[] coordinatorRootKey) {

    public BranchOf {
        Fields.requireCts("begin", "branch.snapshotCts", snapshotCts);
        Fields.requirePartitionId("begin", coordinatorPartitionId);
        if (coordinatorRootKey == null || coordinatorRootKey.length > ProtocolLimits.ROOT_KEY_BYTES_MAX) {
            throw Fields.malformed("begin", "branch.coordinatorRootKey is required, at most "
                    + ProtocolLimits.ROOT_KEY_BYTES_MAX + " bytes");
        }
    }
}
