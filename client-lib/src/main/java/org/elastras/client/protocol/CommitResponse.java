package org.elastras.client.protocol;

/**
 * The answer to {@link CommitRequest}. Immutable.
 *
 * @param cts the commit timestamp; 0 for a read-only transaction, which writes nothing. Pass it as
 *     the next transaction's {@code afterCts} to read your own writes (session consistency).
 */
public record CommitResponse(long cts) {

    public CommitResponse {
        Fields.requireCts("commit response", "cts", cts);
    }
}
