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
    /** See {@link ErrorResponse#movedTo()}. */
    private final transient MoveDestination movedTo;

    public ElasTrasException(ErrorCode code, String message) {
        this(code, message, null);
    }

    public ElasTrasException(ErrorCode code, String message, Throwable cause) {
        this(code, message, cause, null);
    }

    /**
     * @param movedTo with NOT_OWNER only: the OTM the partition was just handed over to, if known
     *     (see {@link ErrorResponse#movedTo()})
     */
    public ElasTrasException(ErrorCode code, String message, Throwable cause, MoveDestination movedTo) {
        super(message, cause);
        this.code = Objects.requireNonNull(code, "code");
        if (movedTo != null && code != ErrorCode.NOT_OWNER) {
            throw new IllegalArgumentException("movedTo goes with NOT_OWNER only, not with " + code);
        }
        this.movedTo = movedTo;
    }

    /** With NOT_OWNER: the OTM the partition was just handed over to in a live move, or null. */
    public MoveDestination movedTo() {
        return movedTo;
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
