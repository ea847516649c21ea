package org.elastras.client;

import org.elastras.client.protocol.ElasTrasException;

/**
 * A request kept failing with errors that retrying could fix (its partition had no reachable
 * owner, the OTM was overloaded, conflicts) until the retry deadline or the attempt bound was
 * reached. Nothing was executed: failures that might have executed are reported as
 * {@link OutcomeUnknownException} instead. Immutable.
 *
 * <p>{@link #code()} is the last error's code; the message says what was tried and the last error.
 */
public final class RetriesExhaustedException extends ElasTrasException {

    private static final long serialVersionUID = 1L;

    private final int attempts;

    RetriesExhaustedException(ElasTrasException last, int attempts, String message) {
        super(last.code(), message, last);
        this.attempts = attempts;
    }

    /** How many attempts were made. */
    public int attempts() {
        return attempts;
    }
}
