package org.elastras.client.protocol;

/**
 * The answer to {@link ResolveCommitRequest}. Immutable.
 *
 * @param committed whether the transaction committed (and is durable)
 * @param cts its commit timestamp if it committed, else 0
 * @param result a committed call's result, if it was kept (null otherwise, and for transactions)
 * @param resultKept whether {@code result} is the call's result (false when it was too large to keep)
 */
public record ResolveCommitResponse(boolean committed, long cts, Object result, boolean resultKept) {

    public ResolveCommitResponse {
        if (committed != (cts > 0)) {
            throw Fields.malformed("resolveCommit response", "cts must be > 0 exactly when committed, got " + cts);
        }
    }
}
