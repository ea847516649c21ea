package org.elastras.client.protocol;

/**
 * Admin, to the active master: move one serving partition to another live OTM
 * ({@code POST /v1/movePartition}). Live (the default): the destination copies it while the origin
 * serves it, the origin pauses it briefly to hand it over, the catalog records the destination
 * under the next epoch and the destination serves its copy. Coordinated: the origin closes it,
 * the catalog records the destination, the destination opens it from the DFS. The answer comes once the move has
 * started, not once it serves again. Not idempotent: sent twice, the second is refused while the
 * first is under way, or moves the partition again after it. Immutable.
 *
 * @param partitionId the partition to move (positive; ids are in {@code listPartitions})
 * @param toOtm the id of the live OTM to move it to
 * @param live true for a live move, false for a coordinated one, null for the master's default
 */
public record MovePartitionRequest(long partitionId, String toOtm, Boolean live) {

    /** A move of the master's default kind. */
    public MovePartitionRequest(long partitionId, String toOtm) {
        this(partitionId, toOtm, null);
    }

    public MovePartitionRequest {
        if (partitionId <= 0) {
            throw Fields.malformed("movePartition", "partitionId is " + partitionId
                    + " (missing?); give the positive id of the partition to move, as listPartitions shows it");
        }
        Fields.requireName("movePartition", "toOtm", toOtm, ProtocolLimits.NAME_LENGTH_MAX);
    }
}
