package org.elastras.client.protocol;

/**
 * The answer to {@link CallRequest}. Immutable (as far as {@code result} is).
 *
 * @param result what the procedure returned: null, a scalar, or lists and maps of them
 * @param cts the commit timestamp; 0 if the procedure wrote nothing
 * @param attempts how many times the OTM ran the procedure, 1 if it committed the first time
 */
public record CallResponse(Object result, long cts, int attempts) {

    public CallResponse {
        Fields.requireCts("call response", "cts", cts);
        if (attempts < 1) {
            throw Fields.malformed("call response", "attempts is " + attempts + "; a call runs at least once");
        }
    }
}
