package org.elastras.client.protocol;

import java.util.List;

/**
 * Live move, origin to destination ({@code POST /v1/receivePartition}): open the partition's
 * tables from the DFS as a copy that does not serve yet, to be filled by {@code shipVersions}.
 * Refused if the partition's latest manifest is not {@code manifestSequence} (the origin flushed
 * and paused its maintenance at it). Immutable.
 *
 * @param database the partition's database (its schema must be registered here)
 * @param partitionId the partition
 * @param startKey its first root key, as in {@link OpenPartitionRequest}
 * @param endKey the first root key past it
 * @param fromOtm the origin
 * @param manifestSequence the manifest the copy must open
 * @param catalogHost where the move's catalog write will go at the hand-over (the OTM serving the
 *     catalog partition, from the master's {@link CatalogHandOver}), so that the destination
 *     connects to it now, while the partition still serves at the origin; null if none
 * @param catalogPort its port; 0 with no {@code catalogHost}
 */
public record ReceivePartitionRequest(String database, long partitionId, List<Object> startKey, List<Object> endKey,
        String fromOtm, long manifestSequence, String catalogHost, int catalogPort) {

    public ReceivePartitionRequest {
        Fields.requireName("receivePartition", "database", database, ProtocolLimits.NAME_LENGTH_MAX);
        Fields.requirePartitionId("receivePartition", partitionId);
        startKey = Fields.values("receivePartition", "startKey", startKey, false, ProtocolLimits.KEY_VALUES_MAX);
        endKey = Fields.values("receivePartition", "endKey", endKey, false, ProtocolLimits.KEY_VALUES_MAX);
        Fields.requireName("receivePartition", "fromOtm", fromOtm, ProtocolLimits.NAME_LENGTH_MAX);
        if (manifestSequence < 0) {
            throw Fields.malformed("receivePartition", "manifestSequence must not be negative");
        }
        if (catalogHost == null ? catalogPort != 0 : catalogPort < 1 || catalogPort > 65_535) {
            throw Fields.malformed("receivePartition", "catalogPort must be in [1, 65535] with a catalogHost and 0 without one,"
                    + " got " + catalogPort);
        }
        if (catalogHost != null) {
            Fields.requireName("receivePartition", "catalogHost", catalogHost, ProtocolLimits.NAME_LENGTH_MAX);
        }
    }

    /** A request naming no catalog holder. */
    public ReceivePartitionRequest(String database, long partitionId, List<Object> startKey, List<Object> endKey,
            String fromOtm, long manifestSequence) {
        this(database, partitionId, startKey, endKey, fromOtm, manifestSequence, null, 0);
    }
}
