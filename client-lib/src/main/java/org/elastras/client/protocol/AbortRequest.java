package org.elastras.client.protocol;

/**
 * Aborts a transaction, dropping its writes ({@code POST /v1/abort}). Immutable.
 *
 * @param txnId the transaction, from {@link BeginResponse#txnId()}
 */
public record AbortRequest(long txnId) {

    public AbortRequest {
        Fields.requireTxnId("abort", txnId);
    }
}
