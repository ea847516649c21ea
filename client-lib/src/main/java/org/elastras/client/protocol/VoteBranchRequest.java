package org.elastras.client.protocol;

/**
 * The second step ({@code POST /v1/voteBranch}): the branch validates its reads at {@code cts} and
 * logs its writes as a prepare record; a 200 answer is a "yes" vote, durable.
 *
 * @param txnId the branch on this OTM
 * @param cts the transaction's commit timestamp, above the bound every prepare answered
 */
public record VoteBranchRequest(long txnId, long cts) {

    public VoteBranchRequest {
        Fields.requireTxnId("voteBranch", txnId);
        if (cts <= 0) {
            throw Fields.malformed("voteBranch", "cts must be > 0, got " + cts);
        }
    }
}
