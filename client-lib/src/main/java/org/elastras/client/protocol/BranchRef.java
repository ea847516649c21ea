package org.elastras.client.protocol;

/**
 * A participant's branch as the coordinator reaches it at commit (see
 * {@link CommitRequest#participants()}): the OTM the client began it on, and its id there.
 * Immutable.
 *
 * @param host the OTM's host
 * @param port the OTM's port
 * @param partitionId the participant partition
 * @param txnId the branch's transaction id on that OTM
 */
public record BranchRef(String host, int port, long partitionId, long txnId) {

    public BranchRef {
        Fields.requireName("commit", "participants.host", host, ProtocolLimits.NAME_LENGTH_MAX);
        if (port < 1 || port > 65_535) {
            throw Fields.malformed("commit", "participants.port must be in [1, 65535], got " + port);
        }
        Fields.requirePartitionId("commit", partitionId);
        Fields.requireTxnId("commit", txnId);
    }
}
