package org.elastras.master.balance;

/**
 * One partition move the balancer plans: hand {@code partitionId} over from {@code fromOtm} to
 * {@code toOtm}. Immutable.
 *
 * @param why the figures behind it, for the plan's printout and the master's event log
 */
public record Move(long partitionId, String fromOtm, String toOtm, MoveReason reason, String why) {

    public Move {
        if (partitionId < 0) {
            throw new IllegalArgumentException("partitionId must be >= 0, got " + partitionId);
        }
        if (fromOtm == null || toOtm == null || reason == null || why == null) {
            throw new IllegalArgumentException("fromOtm, toOtm, reason and why are required");
        }
        if (fromOtm.equals(toOtm)) {
            throw new IllegalArgumentException("partition " + partitionId + " cannot move from " + fromOtm + " to itself");
        }
    }

    /** One line: {@code partition 3: otm-1 -> otm-2 (OVERLOAD: ...)}. */
    public String describe() {
        return "partition " + partitionId + ": " + fromOtm + " -> " + toOtm + " (" + reason + ": " + why + ")";
    }
}
