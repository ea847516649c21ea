package org.elastras.client.protocol;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * Several independent stored-procedure calls in one request ({@code POST /v1/callBatch}). Immutable.
 *
 * <p>Each call is its own transaction with its own answer, exactly as if it had been sent alone as
 * {@link CallRequest}: its own commit id, result or error and retry flag; one call failing does not
 * fail the others, and the calls may run in any order (they are independent). The OTM runs them so
 * that their log records share group-commit syncs, and answers once every call has its answer.
 * A batch that is malformed anywhere (no calls, too many, one call breaking a rule of
 * {@link CallRequest}) is refused whole and runs nothing.
 *
 * @param calls 1 to {@link ProtocolLimits#CALL_BATCH_CALLS_MAX} calls
 */
public record CallBatchRequest(List<CallRequest> calls) {

    public CallBatchRequest {
        if (calls == null || calls.isEmpty()) {
            throw Fields.malformed("callBatch", "calls is missing or empty; give 1 to "
                    + ProtocolLimits.CALL_BATCH_CALLS_MAX + " calls");
        }
        if (calls.size() > ProtocolLimits.CALL_BATCH_CALLS_MAX) {
            throw new ElasTrasException(ErrorCode.LIMIT_EXCEEDED, "callBatch: calls has " + calls.size()
                    + " calls; the limit is " + ProtocolLimits.CALL_BATCH_CALLS_MAX + "; send several batches");
        }
        for (int i = 0; i < calls.size(); i++) {
            if (calls.get(i) == null) {
                throw Fields.malformed("callBatch", "calls[" + i + "] is null; every entry is a call");
            }
        }
        calls = Collections.unmodifiableList(new ArrayList<>(calls));
    }
}
