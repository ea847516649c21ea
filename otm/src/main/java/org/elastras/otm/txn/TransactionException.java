package org.elastras.otm.txn;

/**
 * A transaction operation failed for a reason a caller can act on: the {@link Reason} says what
 * (the HTTP layer maps it to an error code), the message says what was wrong and what to do, and
 * {@link #transactionAborted()} says whether the transaction is gone (it was aborted and every
 * intent it held is released) or is still open and unchanged by the failed operation.
 *
 * <p>Immutable.
 */
public final class TransactionException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    /** Why an operation failed. */
    public enum Reason {
        /** Write-write conflict: another transaction wrote the key first (first updater wins). */
        CONFLICT,
        /** A SERIALIZABLE transaction's reads were overwritten before it could commit. */
        SERIALIZATION_FAILURE,
        /** No such transaction: it never existed here, or it already ended. */
        UNKNOWN_TRANSACTION,
        /** The transaction was idle longer than the idle timeout and was aborted. */
        TIMEOUT,
        /** A size or count limit was exceeded; the operation changed nothing. */
        LIMIT_EXCEEDED,
        /** This transaction manager does not serve the partition (or no longer does). */
        NOT_OWNER,
        /** The database has no table of that name. */
        UNKNOWN_TABLE,
        /** A value does not fit its column, or a key has the wrong number of values. */
        TYPE_MISMATCH,
        /** The row's root key is outside the key range of the transaction's partition. */
        KEY_OUTSIDE_PARTITION,
        /** A write to a table that transactions may only read (a global table). */
        READ_ONLY_TABLE,
        /** No database of that name is known here. */
        UNKNOWN_DATABASE,
        /** The database has no stored procedure of that name. */
        UNKNOWN_PROCEDURE,
        /** A stored procedure failed with an unexpected exception; its transaction was aborted. */
        PROCEDURE_FAILED,
        /** No capacity now (log queue full, store flushing too slowly, no timestamps); retry later. */
        OVERLOADED,
        /**
         * The write-ahead log failed while the commit was being logged: the commit may or may not be
         * durable, and this OTM can log nothing more.
         */
        LOG_FAILED,
        /** Reading the partition store failed (an IO error or corruption). */
        STORAGE_FAILED
    }

    private final Reason reason;
    private final boolean transactionAborted;
    private final long blockingTransactionId;
    private final long conflictCts;

    public TransactionException(Reason reason, boolean transactionAborted, String message) {
        this(reason, transactionAborted, 0, 0, message, null);
    }

    public TransactionException(Reason reason, boolean transactionAborted, String message, Throwable cause) {
        this(reason, transactionAborted, 0, 0, message, cause);
    }

    /**
     * @param blockingTransactionId the transaction whose write caused a CONFLICT or
     *     SERIALIZATION_FAILURE, if known (0 otherwise): a retry may wait for it to end
     * @param conflictCts the CTS of the committed version that caused it, if known (0 otherwise):
     *     a retry should begin at a snapshot at or above it
     */
    public TransactionException(Reason reason, boolean transactionAborted, long blockingTransactionId, long conflictCts,
            String message, Throwable cause) {
        super(message, cause);
        if (reason == null) {
            throw new IllegalArgumentException("a transaction error needs a reason");
        }
        this.reason = reason;
        this.transactionAborted = transactionAborted;
        this.blockingTransactionId = blockingTransactionId;
        this.conflictCts = conflictCts;
    }

    public Reason reason() {
        return reason;
    }

    /** Whether the transaction was aborted (true) or is still open, unchanged by the failed call. */
    public boolean transactionAborted() {
        return transactionAborted;
    }

    /** The transaction whose write this one ran into, or 0 if none or unknown. */
    public long blockingTransactionId() {
        return blockingTransactionId;
    }

    /** The CTS of the committed version this transaction ran into, or 0 if none or unknown. */
    public long conflictCts() {
        return conflictCts;
    }

    /** Whether running the whole transaction again, on a newer snapshot, may succeed. */
    public boolean retryable() {
        return reason == Reason.CONFLICT || reason == Reason.SERIALIZATION_FAILURE;
    }
}
