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
 */
public record BeginRequest(String database, long partitionId, Isolation isolation, long afterCts, CommitId commitId) {

    /** A transaction without a commit id. */
    public BeginRequest(String database, long partitionId, Isolation isolation, long afterCts) {
        this(database, partitionId, isolation, afterCts, null);
    }

    public BeginRequest {
        Fields.requireName("begin", "database", database, ProtocolLimits.NAME_LENGTH_MAX);
        Fields.requirePartitionId("begin", partitionId);
        isolation = isolation == null ? Isolation.SERIALIZABLE : isolation;
        Fields.requireCts("begin", "afterCts", afterCts);
    }
}
