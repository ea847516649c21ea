package org.elastras.master.cluster;

/**
 * A partition move under way, as operators see it. Immutable.
 *
 * @param partitionId the partition
 * @param from the OTM it leaves
 * @param to the OTM it goes to
 * @param reason who asked (an operator, a drain, the balancer)
 * @param startedAtMs wall-clock start, for display
 * @param startedNanos monotonic start, for its duration
 */
public record MoveView(long partitionId, String from, String to, String reason, long startedAtMs, long startedNanos) {
}
