package org.elastras.client.protocol;

/**
 * The first step of a branch's commit, sent by its coordinator ({@code POST /v1/prepareBranch}):
 * the branch takes no more calls and the OTM holds its snapshot, answering the bound the commit
 * timestamp must be above.
 *
 * @param txnId the branch on this OTM
 */
public record PrepareBranchRequest(long txnId) {

    public PrepareBranchRequest {
        Fields.requireTxnId("prepareBranch", txnId);
    }
}
