package org.elastras.client.protocol;

/**
 * What became of one call of a {@link CallBatchRequest}: exactly one of its answer and its error,
 * the same ones a lone {@code call} would have been answered with. Immutable.
 *
 * @param response the call's answer if it succeeded, else null
 * @param error the call's error if it failed, else null; its code says whether it may be retried
 */
public record CallOutcome(CallResponse response, ErrorResponse error) {

    public CallOutcome {
        if ((response == null) == (error == null)) {
            throw Fields.malformed("call outcome", "exactly one of response and error must be given");
        }
    }

    /** A call that succeeded. */
    public static CallOutcome of(CallResponse response) {
        return new CallOutcome(response, null);
    }

    /** A call that failed. */
    public static CallOutcome failed(ElasTrasException error) {
        return new CallOutcome(null, ErrorResponse.of(error));
    }

    /** The call's answer, or its error thrown as it would be for a lone call. */
    public CallResponse responseOrThrow() {
        if (error != null) {
            throw error.toException();
        }
        return response;
    }
}
