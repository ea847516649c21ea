package org.elastras.client.protocol;

import com.fasterxml.jackson.databind.annotation.JsonSerialize;
import java.util.List;

/**
 * Live move, origin to destination ({@code POST /v1/shipVersions}): versions the origin committed
 * on the partition since the copy's manifest. The destination logs them in its own log and
 * applies them to the copy before answering; applying a version twice changes nothing. Batches
 * are numbered from 1 without gaps, so the hand-over can tell that none is missing. Immutable.
 *
 * @param partitionId the partition
 * @param batch this request's number
 * @param commits the commits, at most {@link #COMMITS_MAX}
 */
public record ShipVersionsRequest(long partitionId, long batch,
        @JsonSerialize(typing = JsonSerialize.Typing.STATIC) List<ShippedCommit> commits) {

    /** Most commits in one request (the body limit bounds the bytes). */
    public static final int COMMITS_MAX = 10_000;

    public ShipVersionsRequest {
        Fields.requirePartitionId("shipVersions", partitionId);
        if (batch < 1) {
            throw Fields.malformed("shipVersions", "batch numbers start at 1, got " + batch);
        }
        if (commits == null || commits.isEmpty() || commits.size() > COMMITS_MAX) {
            throw Fields.malformed("shipVersions", "commits must hold 1 to " + COMMITS_MAX + " commits");
        }
        commits = List.copyOf(commits);
    }
}
