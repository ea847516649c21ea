package org.elastras.client.protocol;

/**
 * The OTM a live move copies a partition to (see {@link ClosePartitionRequest#liveTo()}), and the
 * hint a NOT_OWNER answer gives after the hand-over ({@link ErrorResponse#movedTo()}). Immutable.
 *
 * @param otmId the destination's id
 * @param host where it listens
 * @param port its protocol port
 */
public record MoveDestination(String otmId, String host, int port) {

    public MoveDestination {
        Fields.requireName("closePartition", "liveTo.otmId", otmId, ProtocolLimits.NAME_LENGTH_MAX);
        Fields.requireName("closePartition", "liveTo.host", host, ProtocolLimits.NAME_LENGTH_MAX);
        if (port <= 0 || port > 65_535) {
            throw Fields.malformed("closePartition", "liveTo.port must be in [1, 65535], got " + port);
        }
    }
}
