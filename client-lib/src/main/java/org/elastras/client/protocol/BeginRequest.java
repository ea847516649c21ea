package org.elastras.client.protocol;

/**
 * Starts an interactive transaction on one partition ({@code POST /v1/begin}). Immutable.
 *
 * @param database the database the partition belongs to
 * @param partitionId the partition the transaction runs on
 * @param isolation the isolation level; {@code null} on the wire means {@link Isolation#SERIALIZABLE}
 * @param afterCts session consistency: the OTM waits (bounded) until its snapshot has reached this
 *     commit timestamp before it starts the transaction; 0 means no wait
 * @param commitId the client's unique id for this transaction, so that after a lost commit answer it
 *     can ask the partition's owner whether it committed ({@link ResolveCommitRequest}); null for none
 * @param branch non-null to begin a participant's branch of a cross-partition transaction whose
 *     coordinator is another partition (then {@code commitId} is required and the same as the
 *     coordinator's); null for an ordinary transaction, which may become a coordinator
 */
public record BeginRequest(String database, long partitionId, Isolation isolation, long afterCts, CommitId commitId,
        BranchOf branch) {

    /** A transaction that is no participant's branch. */
    public BeginRequest(String database, long partitionId, Isolation isolation, long afterCts, CommitId commitId) {
        this(database, partitionId, isolation, afterCts, commitId, null);
    }

    /** A transaction without a commit id. */
    public BeginRequest(String database, long partitionId, Isolation isolation, long afterCts) {
        this(database, partitionId, isolation, afterCts, null, null);
    }

    public BeginRequest {
        Fields.requireName("begin", "database", database, ProtocolLimits.NAME_LENGTH_MAX);
        Fields.requirePartitionId("begin", partitionId);
        isolation = isolation == null ? Isolation.SERIALIZABLE : isolation;
        Fields.requireCts("begin", "afterCts", afterCts);
        if (branch != null && commitId == null) {
            throw Fields.malformed("begin", "a branch (branch set) needs its transaction's commitId");
        }
    }
}
