package org.elastras.client.protocol;

/**
 * Commits a transaction ({@code POST /v1/commit}); answered once the commit is durable. Immutable.
 *
 * @param txnId the transaction, from {@link BeginResponse#txnId()}
 */
public record CommitRequest(long txnId) {

    public CommitRequest {
        Fields.requireTxnId("commit", txnId);
    }
}
