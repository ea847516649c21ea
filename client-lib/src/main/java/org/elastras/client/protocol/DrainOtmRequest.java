package org.elastras.client.protocol;

/**
 * Admin, to the active master: start or stop draining an OTM ({@code POST /v1/drainOtm}). While it
 * drains, its partitions move to the other OTMs (a bounded number at a time) and nothing new is
 * assigned to it. Idempotent: starting a drain under way, or stopping one that is not, changes
 * nothing. Immutable.
 *
 * @param otmId the OTM; to start a drain it must be live
 * @param drain true to start draining, false to stop; required (no default, so that a forgotten
 *     field never stops a drain)
 */
public record DrainOtmRequest(String otmId, Boolean drain) {

    public DrainOtmRequest {
        Fields.requireName("drainOtm", "otmId", otmId, ProtocolLimits.NAME_LENGTH_MAX);
        if (drain == null) {
            throw Fields.malformed("drainOtm", "drain is missing; give true to start draining " + otmId
                    + " or false to stop");
        }
    }
}
