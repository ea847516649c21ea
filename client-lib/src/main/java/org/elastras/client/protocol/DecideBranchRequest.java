package org.elastras.client.protocol;

/**
 * The coordinator's outcome for a branch ({@code POST /v1/decideBranch}): commit applies its
 * versions at {@code cts}, abort drops it. Sent after the coordinator's decision record is
 * durable; a branch that never hears it asks the coordinator partition ({@code resolveCommit}).
 *
 * @param txnId the branch on this OTM
 * @param commit whether the transaction committed
 * @param cts its commit timestamp (0 when it aborted, or committed having written nothing anywhere)
 */
public record DecideBranchRequest(long txnId, boolean commit, long cts) {

    public DecideBranchRequest {
        Fields.requireTxnId("decideBranch", txnId);
        Fields.requireCts("decideBranch", "cts", cts);
    }
}
