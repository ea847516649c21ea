package org.elastras.otm.txn;

/**
 * How one stored procedure call ended. Immutable.
 *
 * @param outcome what happened
 * @param value the procedure's return value if COMMITTED, else null
 * @param cts the commit timestamp if COMMITTED (the snapshot for a read-only run), else 0
 * @param attempts how many times the procedure ran (1 without retries)
 * @param message the ProcedureAbort message, or the last conflict if retries ran out; null if committed
 */
public record ProcedureResult(Outcome outcome, Object value, long cts, int attempts, String message) {

    public enum Outcome {
        /** The procedure's transaction committed. */
        COMMITTED,
        /** The procedure threw {@link ProcedureAbort}: nothing was written. */
        ROLLED_BACK,
        /** Every attempt aborted on a conflict or serialization failure: nothing was written. */
        RETRIES_EXHAUSTED
    }
}
