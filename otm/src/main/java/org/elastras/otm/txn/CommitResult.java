package org.elastras.otm.txn;

/**
 * What a successful commit returns. Immutable.
 *
 * @param cts the commit timestamp; for a read-only transaction (nothing logged) its snapshot
 * @param readOnly whether the transaction wrote nothing
 */
public record CommitResult(long cts, boolean readOnly) {
}
