package org.elastras.otm.txn;

/**
 * Thrown by a {@link Procedure} to roll its transaction back on purpose (for example TPC-C's
 * NewOrder with an unknown item): nothing it wrote is kept, and the caller is told it rolled back,
 * with this message. Immutable.
 */
public final class ProcedureAbort extends RuntimeException {

    private static final long serialVersionUID = 1L;

    public ProcedureAbort(String message) {
        super(message, null, false, false);
    }
}
