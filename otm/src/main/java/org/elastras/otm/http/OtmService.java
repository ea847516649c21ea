package org.elastras.otm.http;

import org.elastras.client.protocol.AbortRequest;
import org.elastras.client.protocol.AbortResponse;
import org.elastras.client.protocol.AddRequest;
import org.elastras.client.protocol.AddResponse;
import org.elastras.client.protocol.BeginRequest;
import org.elastras.client.protocol.BeginResponse;
import org.elastras.client.protocol.CallBatchRequest;
import org.elastras.client.protocol.CallBatchResponse;
import org.elastras.client.protocol.CallRequest;
import org.elastras.client.protocol.CallResponse;
import org.elastras.client.protocol.ClosePartitionRequest;
import org.elastras.client.protocol.DropIncomingRequest;
import org.elastras.client.protocol.DropIncomingResponse;
import org.elastras.client.protocol.FinishIncomingRequest;
import org.elastras.client.protocol.FinishIncomingResponse;
import org.elastras.client.protocol.ReceivePartitionRequest;
import org.elastras.client.protocol.ReceivePartitionResponse;
import org.elastras.client.protocol.ShipVersionsRequest;
import org.elastras.client.protocol.ShipVersionsResponse;
import org.elastras.client.protocol.ClosePartitionResponse;
import org.elastras.client.protocol.CommitRequest;
import org.elastras.client.protocol.AggregateRequest;
import org.elastras.client.protocol.AggregateResponse;
import org.elastras.client.protocol.CommitResponse;
import org.elastras.client.protocol.DecideBranchRequest;
import org.elastras.client.protocol.DecideBranchResponse;
import org.elastras.client.protocol.PrepareBranchRequest;
import org.elastras.client.protocol.PrepareBranchResponse;
import org.elastras.client.protocol.VoteBranchRequest;
import org.elastras.client.protocol.VoteBranchResponse;
import org.elastras.client.protocol.DeleteRequest;
import org.elastras.client.protocol.DeleteResponse;
import org.elastras.client.protocol.ElasTrasException;
import org.elastras.client.protocol.FlushPartitionRequest;
import org.elastras.client.protocol.FlushPartitionResponse;
import org.elastras.client.protocol.GetRequest;
import org.elastras.client.protocol.GetResponse;
import org.elastras.client.protocol.LoadGlobalTableRequest;
import org.elastras.client.protocol.LoadGlobalTableResponse;
import org.elastras.client.protocol.OpenPartitionRequest;
import org.elastras.client.protocol.OpenPartitionResponse;
import org.elastras.client.protocol.PutRequest;
import org.elastras.client.protocol.PutResponse;
import org.elastras.client.protocol.RegisterDatabaseRequest;
import org.elastras.client.protocol.RegisterDatabaseResponse;
import org.elastras.client.protocol.ResolveCommitRequest;
import org.elastras.client.protocol.ResolveCommitResponse;
import org.elastras.client.protocol.ScanRequest;
import org.elastras.client.protocol.ScanResponse;
import org.elastras.client.protocol.StatusRequest;
import org.elastras.client.protocol.StatusResponse;

/**
 * What an OTM does for each protocol operation: the transaction side implements it, and
 * {@link ProtocolServer} puts it on the network. Implementations must be thread-safe: every method is
 * called concurrently from the server's bounded pool of worker threads, and may block (bounded) — a
 * commit until its WAL sync, a begin until the snapshot reaches {@code afterCts}.
 *
 * <p>Requests arrive well-formed (the records check their own fields) but not checked against any
 * schema: names may be unknown, values may not fit their columns (convert them with
 * {@link org.elastras.client.protocol.WireValues}). Every error a client can cause is thrown as an
 * {@link ElasTrasException} with its {@link org.elastras.client.protocol.ErrorCode}, and must leave
 * nothing changed; any other exception is answered INTERNAL and logged.
 *
 * <p>While {@link #serving()} is false every operation should throw
 * {@link org.elastras.client.protocol.ErrorCode#NOT_SERVING}; the server does not check it for you,
 * because only the service knows the exact moment its lease ended.
 */
public interface OtmService {

    /** The OTM's counters for {@code GET /metrics}, in the Prometheus text format. Must not block. */
    default String metrics() {
        return "";
    }

    /** Whether this OTM holds its lease and serves requests; answers {@code GET /ready}. Must not block. */
    boolean serving();

    /**
     * Starts an interactive transaction.
     *
     * @param client who asks (the server passes the connection's remote address and port), for
     *     per-client limits on open transactions
     */
    BeginResponse begin(BeginRequest request, String client) throws ElasTrasException;

    /** Reads one row, or some of its columns ({@link GetRequest#columns()}), inside a transaction. */
    GetResponse get(GetRequest request) throws ElasTrasException;

    /** Buffers a row write inside a transaction (first updater wins: CONFLICT now if another got there first). */
    PutResponse put(PutRequest request) throws ElasTrasException;

    /** Buffers a row delete inside a transaction. */
    DeleteResponse delete(DeleteRequest request) throws ElasTrasException;

    /**
     * Buffers a commutative add to a numeric column of an existing row inside a transaction (see
     * {@link AddRequest}): adders of one row do not conflict with one another.
     */
    AddResponse add(AddRequest request) throws ElasTrasException;

    /** Reads a range of rows inside a transaction. */
    ScanResponse scan(ScanRequest request) throws ElasTrasException;

    /** Commits a transaction; returns once the commit is durable. */
    CommitResponse commit(CommitRequest request) throws ElasTrasException;

    /** A read-only aggregate over one partition at a snapshot: see {@link AggregateRequest}. */
    AggregateResponse aggregate(AggregateRequest request, String client) throws ElasTrasException;

    /** Cross-partition commit, at a participant: see {@link PrepareBranchRequest}. */
    PrepareBranchResponse prepareBranch(PrepareBranchRequest request) throws ElasTrasException;

    /** Cross-partition commit, at a participant: see {@link VoteBranchRequest}. */
    VoteBranchResponse voteBranch(VoteBranchRequest request) throws ElasTrasException;

    /** Cross-partition commit, at a participant: see {@link DecideBranchRequest}. */
    DecideBranchResponse decideBranch(DecideBranchRequest request) throws ElasTrasException;

    /** Aborts a transaction. */
    AbortResponse abort(AbortRequest request) throws ElasTrasException;

    /**
     * Runs a stored procedure as one transaction, retrying it on conflicts a bounded number of times.
     *
     * @param client who asks, as for {@link #begin}
     */
    CallResponse call(CallRequest request, String client) throws ElasTrasException;

    /**
     * Runs several independent stored-procedure calls, each as {@link #call} would, and answers each
     * with its own outcome; their commits share group-commit syncs. Throws only for what fails the
     * whole batch (NOT_SERVING).
     *
     * @param client who asks, as for {@link #begin}
     */
    CallBatchResponse callBatch(CallBatchRequest request, String client) throws ElasTrasException;

    /** Admin: registers a database's schema. */
    RegisterDatabaseResponse registerDatabase(RegisterDatabaseRequest request) throws ElasTrasException;

    /** Admin: opens (recovers) and serves a partition. */
    OpenPartitionResponse openPartition(OpenPartitionRequest request) throws ElasTrasException;

    /** Live move, at the destination: see {@link ReceivePartitionRequest}. */
    ReceivePartitionResponse receivePartition(ReceivePartitionRequest request) throws ElasTrasException;

    /** Live move, at the destination: see {@link ShipVersionsRequest}. */
    ShipVersionsResponse shipVersions(ShipVersionsRequest request) throws ElasTrasException;

    /** Live move, at the destination: see {@link FinishIncomingRequest}. */
    FinishIncomingResponse finishIncoming(FinishIncomingRequest request) throws ElasTrasException;

    /** Live move, at the destination: see {@link DropIncomingRequest}. */
    DropIncomingResponse dropIncoming(DropIncomingRequest request) throws ElasTrasException;

    /** Admin: stops serving a partition. */
    ClosePartitionResponse closePartition(ClosePartitionRequest request) throws ElasTrasException;

    /** Admin: loads (replaces) this OTM's copy of a global table of a database. */
    LoadGlobalTableResponse loadGlobalTable(LoadGlobalTableRequest request) throws ElasTrasException;

    /** Admin: flushes a partition's memtable to the DFS. */
    FlushPartitionResponse flushPartition(FlushPartitionRequest request) throws ElasTrasException;

    /** Admin: what this OTM is and serves. Should answer even while not serving. */
    StatusResponse status(StatusRequest request) throws ElasTrasException;

    /**
     * Whether a transaction or call with the client's commit id committed (after its answer was
     * lost); final: an open one is aborted first, and the id can never commit afterwards.
     */
    ResolveCommitResponse resolveCommit(ResolveCommitRequest request) throws ElasTrasException;
}
