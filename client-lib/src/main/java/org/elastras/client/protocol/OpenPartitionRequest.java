package org.elastras.client.protocol;

import java.util.List;

/**
 * Admin: makes the OTM open (recover from the DFS) and serve a partition
 * ({@code POST /v1/openPartition}). Immutable.
 *
 * @param database the database the partition belongs to
 * @param partitionId the partition
 * @param startKey the first root key the partition covers, as root-key values; null for unbounded
 *     below (and for a single-partition database)
 * @param endKey the first root key past the partition, as root-key values; null for unbounded above
 */
public record OpenPartitionRequest(String database, long partitionId, List<Object> startKey, List<Object> endKey) {

    public OpenPartitionRequest {
        Fields.requireName("openPartition", "database", database, ProtocolLimits.NAME_LENGTH_MAX);
        Fields.requirePartitionId("openPartition", partitionId);
        startKey = Fields.values("openPartition", "startKey", startKey, false, ProtocolLimits.KEY_VALUES_MAX);
        endKey = Fields.values("openPartition", "endKey", endKey, false, ProtocolLimits.KEY_VALUES_MAX);
    }
}
