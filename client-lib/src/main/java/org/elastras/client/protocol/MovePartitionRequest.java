package org.elastras.client.protocol;

/**
 * Admin, to the active master: move one serving partition to another live OTM
 * ({@code POST /v1/movePartition}). The origin closes it, the catalog records the destination
 * under the next epoch, the destination opens it from the DFS. The answer comes once the move has
 * started, not once it serves again. Not idempotent: sent twice, the second is refused while the
 * first is under way, or moves the partition again after it. Immutable.
 *
 * @param partitionId the partition to move (positive; ids are in {@code listPartitions})
 * @param toOtm the id of the live OTM to move it to
 */
public record MovePartitionRequest(long partitionId, String toOtm) {

    public MovePartitionRequest {
        if (partitionId <= 0) {
            throw Fields.malformed("movePartition", "partitionId is " + partitionId
                    + " (missing?); give the positive id of the partition to move, as listPartitions shows it");
        }
        Fields.requireName("movePartition", "toOtm", toOtm, ProtocolLimits.NAME_LENGTH_MAX);
    }
}
