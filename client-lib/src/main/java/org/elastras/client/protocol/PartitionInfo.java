package org.elastras.client.protocol;

import java.util.List;

/**
 * One partition as the master reports it (admin answers). Immutable.
 *
 * @param database the database it belongs to
 * @param partitionId its id
 * @param startKey first root key covered, null for unbounded below
 * @param endKey first root key past it, null for unbounded above
 * @param owner the OTM it is assigned to, null if never assigned
 * @param epoch how many times it has been assigned
 * @param state the master's view: UNASSIGNED, OPENING, SERVING, RETRY_WAIT, AWAITING_FENCE, PARKED
 */
public record PartitionInfo(String database, long partitionId, List<Object> startKey, List<Object> endKey, String owner,
        long epoch, String state) {

    public PartitionInfo {
        Fields.requireName("partition", "database", database, ProtocolLimits.NAME_LENGTH_MAX);
        Fields.requirePartitionId("partition", partitionId);
        startKey = Fields.values("partition", "startKey", startKey, false, ProtocolLimits.KEY_VALUES_MAX);
        endKey = Fields.values("partition", "endKey", endKey, false, ProtocolLimits.KEY_VALUES_MAX);
        Fields.requireName("partition", "state", state, ProtocolLimits.NAME_LENGTH_MAX);
    }
}
