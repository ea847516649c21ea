package org.elastras.client.protocol;

/**
 * The answer to {@link BeginRequest}. Immutable.
 *
 * @param txnId the transaction's id, positive, to pass to every later call of the transaction
 * @param snapshotCts the commit timestamp of the snapshot the transaction reads
 */
public record BeginResponse(long txnId, long snapshotCts) {

    public BeginResponse {
        Fields.requireTxnId("begin response", txnId);
        Fields.requireCts("begin response", "snapshotCts", snapshotCts);
    }
}
