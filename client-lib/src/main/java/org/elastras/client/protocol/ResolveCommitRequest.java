package org.elastras.client.protocol;

/**
 * Asks the OTM serving a partition whether the transaction or call with {@code commitId} committed
 * there ({@code POST /v1/resolveCommit}), after its commit answer was lost. The answer is final: a
 * transaction still open with that id is aborted first, and the id can never commit afterwards (on
 * this OTM, and on any later owner, which opens the partition only after this one is fenced).
 * Immutable.
 *
 * @param database the database
 * @param partitionId the partition the transaction ran on
 * @param commitId the id given at begin or call
 */
public record ResolveCommitRequest(String database, long partitionId, CommitId commitId) {

    public ResolveCommitRequest {
        Fields.requireName("resolveCommit", "database", database, ProtocolLimits.NAME_LENGTH_MAX);
        Fields.requirePartitionId("resolveCommit", partitionId);
        if (commitId == null) {
            throw Fields.malformed("resolveCommit", "commitId is required");
        }
    }
}
