package org.elastras.client;

import org.elastras.client.protocol.ElasTrasException;
import org.elastras.client.protocol.ErrorCode;

/**
 * An interactive transaction ended without committing: a conflict, its OTM failed or gave the
 * partition up, or a request of it could not be completed. Nothing it wrote is visible. Immutable.
 *
 * <p>{@link #code()} is the underlying reason. {@link #retryable()} says whether running the whole
 * transaction again (from {@code begin}) may succeed; {@link ElasTrasClient#runInTransaction} does
 * that for you.
 */
public final class TransactionAbortedException extends ElasTrasException {

    private static final long serialVersionUID = 1L;

    private final boolean retryable;

    TransactionAbortedException(ErrorCode code, String message, boolean retryable, Throwable cause) {
        super(code, message, cause);
        this.retryable = retryable;
    }

    /** Whether the whole transaction may succeed if run again. */
    @Override
    public boolean retryable() {
        return retryable;
    }
}
