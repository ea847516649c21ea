package org.elastras.client.protocol;

/**
 * The active master's answer to a {@link HeartbeatRequest}. Immutable.
 *
 * @param masterId the master that answered
 * @param timestamps the timestamp service's reply: a new CTS range (or why none) and the snapshot
 */
public record HeartbeatResponse(String masterId, TimestampReply timestamps) {

    public HeartbeatResponse {
        Fields.requireName("heartbeat response", "masterId", masterId, ProtocolLimits.NAME_LENGTH_MAX);
        if (timestamps == null) {
            throw Fields.malformed("heartbeat response", "timestamps is required");
        }
    }
}
