package org.elastras.client.protocol;

/**
 * Commits a transaction ({@code POST /v1/commit}); answered once the commit is durable. Immutable.
 *
 * @param txnId the transaction, from {@link BeginResponse#txnId()}
 * @param participants the branches of the transaction on other partitions (begun with
 *     {@link BeginRequest#branch()} naming this one as coordinator), which this OTM then commits
 *     with it atomically; null or empty for a transaction on one partition
 */
public record CommitRequest(long txnId, java.util.List<BranchRef> participants) {

    /** A transaction on one partition. */
    public CommitRequest(long txnId) {
        this(txnId, null);
    }

    public CommitRequest {
        Fields.requireTxnId("commit", txnId);
        participants = participants == null ? java.util.List.of() : java.util.List.copyOf(participants);
        if (participants.size() > ProtocolLimits.PARTICIPANTS_MAX) {
            throw Fields.malformed("commit", participants.size() + " participants, at most "
                    + ProtocolLimits.PARTICIPANTS_MAX + " may take part in one transaction");
        }
    }
}
