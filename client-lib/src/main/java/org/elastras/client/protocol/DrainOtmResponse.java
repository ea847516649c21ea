package org.elastras.client.protocol;

import java.util.List;

/**
 * The answer to {@link DrainOtmRequest}. Immutable.
 *
 * @param draining the OTMs being drained after the request, in id order
 */
public record DrainOtmResponse(List<String> draining) {

    public DrainOtmResponse {
        draining = Fields.names("drainOtm response", "draining", draining);
    }
}
