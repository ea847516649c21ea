package org.elastras.client.protocol;

/**
 * The body of every non-2xx answer to an operation. Immutable.
 *
 * @param code what went wrong
 * @param message what was wrong and what to do, for people
 */
public record ErrorResponse(ErrorCode code, String message) {

    public ErrorResponse {
        if (code == null) {
            throw Fields.malformed("error", "code is missing");
        }
        message = message == null ? "" : message;
    }

    /** The body that answers {@code e}. */
    public static ErrorResponse of(ElasTrasException e) {
        return new ErrorResponse(e.code(), e.getMessage());
    }

    /** The exception this body stands for, to throw on the client side. */
    public ElasTrasException toException() {
        return new ElasTrasException(code, message);
    }
}
