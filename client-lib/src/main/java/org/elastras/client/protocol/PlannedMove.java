package org.elastras.client.protocol;

/**
 * One move in a balance plan ({@code balancePlan}). Immutable.
 *
 * @param partitionId the partition
 * @param fromOtm the OTM it would leave
 * @param toOtm the OTM it would go to
 * @param reason why: {@code OVERLOAD}, {@code DRAIN}, {@code CONSOLIDATE} or {@code OPERATOR}
 * @param why the figures behind it
 */
public record PlannedMove(long partitionId, String fromOtm, String toOtm, String reason, String why) {

    public PlannedMove {
        Fields.requirePartitionId("planned move", partitionId);
        Fields.requireName("planned move", "fromOtm", fromOtm, ProtocolLimits.NAME_LENGTH_MAX);
        Fields.requireName("planned move", "toOtm", toOtm, ProtocolLimits.NAME_LENGTH_MAX);
        Fields.requireName("planned move", "reason", reason, ProtocolLimits.NAME_LENGTH_MAX);
        why = why == null ? "" : why;
    }
}
