package org.elastras.client.protocol;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * The answer to {@link CallBatchRequest}: one outcome per call, in the order of the request.
 * Immutable (as far as the results are).
 *
 * @param outcomes as many as the request had calls
 */
public record CallBatchResponse(List<CallOutcome> outcomes) {

    public CallBatchResponse {
        if (outcomes == null) {
            throw Fields.malformed("callBatch response", "outcomes is missing");
        }
        for (int i = 0; i < outcomes.size(); i++) {
            if (outcomes.get(i) == null) {
                throw Fields.malformed("callBatch response", "outcomes[" + i + "] is null");
            }
        }
        outcomes = Collections.unmodifiableList(new ArrayList<>(outcomes));
    }
}
