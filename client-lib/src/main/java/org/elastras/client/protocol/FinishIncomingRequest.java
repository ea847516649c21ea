package org.elastras.client.protocol;

import com.fasterxml.jackson.databind.annotation.JsonSerialize;
import java.util.List;

/**
 * Live move, origin to destination ({@code POST /v1/finishIncoming}): the origin stopped
 * committing on the partition; {@code lastCommits} are the versions it committed since its last
 * {@link ShipVersionsRequest} (the batch numbered {@code batches}, if any). The destination logs
 * and applies them and makes its copy complete. Without {@code handOver} it then holds the copy
 * until the partition is opened there. With it, it makes the master's catalog write of the
 * destination itself (while the last versions are logged) and, if the row swapped, serves the
 * partition at once, before it answers. Immutable.
 *
 * @param partitionId the partition
 * @param batches how many batches the origin shipped, the last commits' included (0 if none)
 * @param lastCommits the versions not shipped yet, at most {@link ShipVersionsRequest#COMMITS_MAX};
 *     empty if none (then the batch numbered {@code batches} was shipped before)
 * @param handOver the master's catalog write that ends the move, or null to leave it to the master
 */
public record FinishIncomingRequest(long partitionId, long batches,
        @JsonSerialize(typing = JsonSerialize.Typing.STATIC) List<ShippedCommit> lastCommits,
        CatalogHandOver handOver) {

    public FinishIncomingRequest {
        Fields.requirePartitionId("finishIncoming", partitionId);
        if (batches < 0) {
            throw Fields.malformed("finishIncoming", "batches must not be negative");
        }
        lastCommits = lastCommits == null ? List.of() : List.copyOf(lastCommits);
        if (lastCommits.size() > ShipVersionsRequest.COMMITS_MAX) {
            throw Fields.malformed("finishIncoming", "lastCommits holds " + lastCommits.size() + " commits, at most "
                    + ShipVersionsRequest.COMMITS_MAX);
        }
        if (!lastCommits.isEmpty() && batches < 1) {
            throw Fields.malformed("finishIncoming", "lastCommits are a batch: batches must count it");
        }
    }

    /** A finish with nothing left to ship and no catalog write. */
    public FinishIncomingRequest(long partitionId, long batches) {
        this(partitionId, batches, List.of(), null);
    }
}
