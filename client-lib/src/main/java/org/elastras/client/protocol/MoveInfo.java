package org.elastras.client.protocol;

/**
 * One partition move under way, as the master reports it ({@code listMoves}). Immutable.
 *
 * @param partitionId the partition
 * @param fromOtm the OTM it leaves
 * @param toOtm the OTM it goes to
 * @param reason who asked: {@code operator}, {@code draining <otm>}, or the balancer's reason
 * @param startedAtMs when it started, the master's wall clock (for display)
 * @param elapsedMs how long it has been under way when the master answered
 */
public record MoveInfo(long partitionId, String fromOtm, String toOtm, String reason, long startedAtMs,
        long elapsedMs) {

    public MoveInfo {
        Fields.requirePartitionId("move", partitionId);
        Fields.requireName("move", "fromOtm", fromOtm, ProtocolLimits.NAME_LENGTH_MAX);
        Fields.requireName("move", "toOtm", toOtm, ProtocolLimits.NAME_LENGTH_MAX);
        reason = reason == null ? "" : reason;
        if (elapsedMs < 0) {
            throw Fields.malformed("move", "elapsedMs is " + elapsedMs + "; a duration is not negative");
        }
    }
}
