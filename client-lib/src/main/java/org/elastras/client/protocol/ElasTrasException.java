package org.elastras.client.protocol;

import java.util.Objects;

/**
 * A request failed for a reason the protocol names: an {@link ErrorCode}, a message saying what was
 * wrong and what to do, and whether a retry may succeed. Immutable; unchecked.
 *
 * <p>Thrown by the server-side service to answer a request with an error, recreated by the client
 * from the error body, and thrown by the client for connection failures
 * ({@link ErrorCode#UNREACHABLE}, {@link ErrorCode#OUTCOME_UNKNOWN}).
 */
public class ElasTrasException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    private final ErrorCode code;

    public ElasTrasException(ErrorCode code, String message) {
        this(code, message, null);
    }

    public ElasTrasException(ErrorCode code, String message, Throwable cause) {
        super(message, cause);
        this.code = Objects.requireNonNull(code, "code");
    }

    /** What went wrong. */
    public ErrorCode code() {
        return code;
    }

    /** Whether the same request may succeed if sent again (see {@link ErrorCode#retryable()}). */
    public boolean retryable() {
        return code.retryable();
    }

    /** The HTTP status this error is answered with. */
    public int httpStatus() {
        return code.httpStatus();
    }

    @Override
    public String toString() {
        return code + ": " + getMessage();
    }
}
