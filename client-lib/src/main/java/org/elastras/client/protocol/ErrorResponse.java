package org.elastras.client.protocol;

/**
 * The body of every non-2xx answer to an operation. Immutable.
 *
 * @param code what went wrong
 * @param message what was wrong and what to do, for people
 * @param movedTo with {@code NOT_OWNER} only, and only if known: the OTM this OTM just handed the
 *     partition over to in a live move. A hint, not the catalog's word: the client may send its
 *     request there at once instead of reading the catalog after a backoff (the next owner holds
 *     requests for a partition it is about to serve, briefly); null otherwise
 */
public record ErrorResponse(ErrorCode code, String message, MoveDestination movedTo) {

    public ErrorResponse {
        if (code == null) {
            throw Fields.malformed("error", "code is missing");
        }
        message = message == null ? "" : message;
        if (movedTo != null && code != ErrorCode.NOT_OWNER) {
            throw Fields.malformed("error", "movedTo goes with NOT_OWNER only, not with " + code);
        }
    }

    /** An error without a hint. */
    public ErrorResponse(ErrorCode code, String message) {
        this(code, message, null);
    }

    /** The body that answers {@code e}. */
    public static ErrorResponse of(ElasTrasException e) {
        return new ErrorResponse(e.code(), e.getMessage(), e.movedTo());
    }

    /** The exception this body stands for, to throw on the client side. */
    public ElasTrasException toException() {
        return new ElasTrasException(code, message, null, movedTo);
    }
}
