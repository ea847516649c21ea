package org.elastras.client;

import org.elastras.client.protocol.ElasTrasException;
import org.elastras.client.protocol.ErrorCode;

/**
 * A stored procedure call or a commit was sent, and its answer was lost (the OTM died, the
 * connection broke, the call timed out) or the OTM failed unexpectedly: it may or may not have
 * committed. The client never re-sends such a request on its own, because running it twice could
 * apply it twice. Immutable.
 *
 * <p>What to do: read back whether it took effect, or make the procedure idempotent (for example,
 * have it record a request id the application chose and do nothing if the id is already there)
 * and call it with {@link ElasTrasClient#callIdempotent}, which the client re-sends.
 *
 * <p>Code {@link ErrorCode#OUTCOME_UNKNOWN}; not retryable.
 */
public final class OutcomeUnknownException extends ElasTrasException {

    private static final long serialVersionUID = 1L;

    OutcomeUnknownException(String message, Throwable cause) {
        super(ErrorCode.OUTCOME_UNKNOWN, message, cause);
    }
}
