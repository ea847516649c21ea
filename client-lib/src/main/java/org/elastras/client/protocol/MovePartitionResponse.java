package org.elastras.client.protocol;

/**
 * The answer to {@link MovePartitionRequest}: the move has started. Immutable.
 *
 * @param partition the partition as the master holds it now: state {@code CLOSING}, its owner and
 *     epoch still the origin's; once the origin has closed it, the owner becomes {@code toOtm} at
 *     epoch + 1 and the state goes OPENING, then SERVING (see {@code listPartitions})
 * @param toOtm the OTM it moves to
 */
public record MovePartitionResponse(PartitionInfo partition, String toOtm) {

    public MovePartitionResponse {
        if (partition == null) {
            throw Fields.malformed("movePartition response", "partition is missing");
        }
        Fields.requireName("movePartition response", "toOtm", toOtm, ProtocolLimits.NAME_LENGTH_MAX);
    }
}
