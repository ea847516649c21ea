package org.elastras.client.protocol;

import java.util.List;

/**
 * Runs a stored procedure as one transaction on one partition ({@code POST /v1/call}). Immutable.
 *
 * <p>The OTM re-runs the procedure itself on a conflict or serialization failure, a bounded number
 * of times, and reports how many attempts it took.
 *
 * @param database the database the procedure is registered with
 * @param partitionId the partition it runs on
 * @param procedure the procedure's registered name
 * @param args the arguments: JSON-able scalars or lists of scalars (one level, e.g. order lines);
 *     null on the wire means none
 * @param isolation the isolation level; {@code null} on the wire means {@link Isolation#SERIALIZABLE}
 * @param afterCts session consistency, as in {@link BeginRequest#afterCts()}
 * @param commitId as in {@link BeginRequest#commitId()}; when the call commits, its result is kept
 *     with the id (if it encodes to at most {@link CommitId#RESULT_BYTES_MAX} bytes) for resolution
 */
public record CallRequest(String database, long partitionId, String procedure, List<Object> args,
                          Isolation isolation, long afterCts, CommitId commitId) {

    /** A call without a commit id. */
    public CallRequest(String database, long partitionId, String procedure, List<Object> args, Isolation isolation,
            long afterCts) {
        this(database, partitionId, procedure, args, isolation, afterCts, null);
    }

    public CallRequest {
        Fields.requireName("call", "database", database, ProtocolLimits.NAME_LENGTH_MAX);
        Fields.requirePartitionId("call", partitionId);
        Fields.requireName("call", "procedure", procedure, ProtocolLimits.NAME_LENGTH_MAX);
        args = Fields.args("call", "args", args);
        isolation = isolation == null ? Isolation.SERIALIZABLE : isolation;
        Fields.requireCts("call", "afterCts", afterCts);
    }
}
