package org.elastras.client.protocol;

import java.util.List;

/**
 * One partition in a {@link StatusResponse}. Immutable.
 *
 * @param database the database it belongs to
 * @param partitionId the partition
 * @param startKey the first root key it covers, as root-key values; null for unbounded below
 * @param endKey the first root key past it; null for unbounded above
 * @param state what the OTM is doing with it, e.g. {@code OPENING}, {@code SERVING}, {@code CLOSING}
 * @param openTransactions how many interactive transactions are open on it
 */
public record PartitionStatus(String database, long partitionId, List<Object> startKey, List<Object> endKey,
                              String state, int openTransactions) {

    public PartitionStatus {
        Fields.requireName("partition status", "database", database, ProtocolLimits.NAME_LENGTH_MAX);
        Fields.requirePartitionId("partition status", partitionId);
        startKey = Fields.values("partition status", "startKey", startKey, false, ProtocolLimits.KEY_VALUES_MAX);
        endKey = Fields.values("partition status", "endKey", endKey, false, ProtocolLimits.KEY_VALUES_MAX);
        Fields.requireName("partition status", "state", state, ProtocolLimits.NAME_LENGTH_MAX);
    }
}
