package org.elastras.client;

import java.net.URI;
import java.util.Collection;
import java.util.List;
import org.elastras.client.protocol.AbortRequest;
import org.elastras.client.protocol.DropIncomingRequest;
import org.elastras.client.protocol.DropIncomingResponse;
import org.elastras.client.protocol.FinishIncomingRequest;
import org.elastras.client.protocol.FinishIncomingResponse;
import org.elastras.client.protocol.ReceivePartitionRequest;
import org.elastras.client.protocol.ReceivePartitionResponse;
import org.elastras.client.protocol.ShipVersionsRequest;
import org.elastras.client.protocol.ShipVersionsResponse;
import org.elastras.client.protocol.AbortResponse;
import org.elastras.client.protocol.AggregateRequest;
import org.elastras.client.protocol.AggregateResponse;
import org.elastras.client.protocol.DecideBranchRequest;
import org.elastras.client.protocol.DecideBranchResponse;
import org.elastras.client.protocol.PrepareBranchRequest;
import org.elastras.client.protocol.PrepareBranchResponse;
import org.elastras.client.protocol.VoteBranchRequest;
import org.elastras.client.protocol.VoteBranchResponse;
import org.elastras.client.protocol.BeginRequest;
import org.elastras.client.protocol.BeginResponse;
import org.elastras.client.protocol.CallBatchRequest;
import org.elastras.client.protocol.CallBatchResponse;
import org.elastras.client.protocol.CallRequest;
import org.elastras.client.protocol.CallResponse;
import org.elastras.client.protocol.ClosePartitionRequest;
import org.elastras.client.protocol.ClosePartitionResponse;
import org.elastras.client.protocol.CommitRequest;
import org.elastras.client.protocol.CommitResponse;
import org.elastras.client.protocol.AddRequest;
import org.elastras.client.protocol.AddResponse;
import org.elastras.client.protocol.DeleteRequest;
import org.elastras.client.protocol.DeleteResponse;
import org.elastras.client.protocol.FlushPartitionRequest;
import org.elastras.client.protocol.FlushPartitionResponse;
import org.elastras.client.protocol.GetRequest;
import org.elastras.client.protocol.GetResponse;
import org.elastras.client.protocol.LoadGlobalTableRequest;
import org.elastras.client.protocol.LoadGlobalTableResponse;
import org.elastras.client.protocol.OpenPartitionRequest;
import org.elastras.client.protocol.OpenPartitionResponse;
import org.elastras.client.protocol.Operation;
import org.elastras.client.protocol.ProtocolCodec;
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
 * A low-level client of one OTM: one method per protocol operation, with Smile bodies over the
 * transport its config names (the framed transport by default, or HTTP/2 cleartext; see
 * {@link ProtocolClient}). Thread-safe: any number of threads may call it at once, and their calls
 * are multiplexed on one connection.
 *
 * <p>Errors are those of {@link ProtocolClient}: the server's, UNREACHABLE (never sent) or
 * OUTCOME_UNKNOWN (sent, fate unknown).
 * Every call is bounded by {@link OtmClientConfig#requestTimeoutMs()}.
 *
 * <p>Concurrent {@link #call}s are coalesced into {@code callBatch} requests ({@link CallCoalescer}).
 *
 * <p>Routing, location caching and retries belong to the layer above; this class does none.
 */
public final class OtmClient implements AutoCloseable {

    private final ProtocolClient transport;
    /** Null when every call is its own request ({@code callBatchCallsMax} 1). */
    private final CallCoalescer coalescer;

    /**
     * Builds now the readers and writers that clients with {@code config} will use for these
     * operations (clients with the same bounds share them), so that the first such request to a
     * new OTM does not build them: see {@link ProtocolCodec#warmUp}.
     */
    public static void warmUp(OtmClientConfig config, Collection<Operation> operations) {
        warmUp(config, operations, List.of());
    }

    /** As {@link #warmUp(OtmClientConfig, Collection)}, with sample messages: see {@link ProtocolCodec#warmUp(Collection, Collection)}. */
    public static void warmUp(OtmClientConfig config, Collection<Operation> operations, Collection<? extends Record> samples) {
        new ProtocolCodec(config.responseBytesMax(), ProtocolCodec.NESTING_DEPTH_MAX_DEFAULT).warmUp(operations, samples);
    }

    /**
     * Connects (lazily, on the first call) to the OTM at {@code host:port}.
     *
     * @throws IllegalStateException if the HTTP client cannot start, which only a broken environment causes
     */
    public OtmClient(String host, int port, OtmClientConfig config) {
        this.transport = new ProtocolClient(host, port, config);
        this.coalescer = config.callBatchCallsMax() == 1 ? null : new CallCoalescer(transport, config.callBatchCallsMax(),
                config.callBatchBytesMax(), config.callBatchesInFlightMax(), config.requestsQueuedMax(),
                config.requestTimeoutMs());
    }

    /** A client of {@code host:port} with {@link OtmClientConfig#defaults()}. */
    public OtmClient(String host, int port) {
        this(host, port, OtmClientConfig.defaults());
    }

    /** The OTM's base address, {@code http://host:port}. */
    public URI address() {
        return transport.address();
    }

    public BeginResponse begin(BeginRequest request) {
        return transport.call(Operation.BEGIN, request, BeginResponse.class);
    }

    public GetResponse get(GetRequest request) {
        return transport.call(Operation.GET, request, GetResponse.class);
    }

    public PutResponse put(PutRequest request) {
        return transport.call(Operation.PUT, request, PutResponse.class);
    }

    public DeleteResponse delete(DeleteRequest request) {
        return transport.call(Operation.DELETE, request, DeleteResponse.class);
    }

    /** A commutative add to a numeric column of a row: see {@link AddRequest}. */
    public AddResponse add(AddRequest request) {
        return transport.call(Operation.ADD, request, AddResponse.class);
    }

    public ScanResponse scan(ScanRequest request) {
        return transport.call(Operation.SCAN, request, ScanResponse.class);
    }

    public CommitResponse commit(CommitRequest request) {
        return transport.call(Operation.COMMIT, request, CommitResponse.class);
    }

    public AbortResponse abort(AbortRequest request) {
        return transport.call(Operation.ABORT, request, AbortResponse.class);
    }

    /** A read-only aggregate over one partition at a snapshot. */
    public AggregateResponse aggregate(AggregateRequest request) {
        return transport.call(Operation.AGGREGATE, request, AggregateResponse.class);
    }

    /** Coordinator to participant: the first step of a branch's commit. */
    public PrepareBranchResponse prepareBranch(PrepareBranchRequest request) {
        return transport.call(Operation.PREPARE_BRANCH, request, PrepareBranchResponse.class);
    }

    /** Coordinator to participant: the vote at the transaction's commit timestamp. */
    public VoteBranchResponse voteBranch(VoteBranchRequest request) {
        return transport.call(Operation.VOTE_BRANCH, request, VoteBranchResponse.class);
    }

    /** Coordinator to participant: the outcome. */
    public DecideBranchResponse decideBranch(DecideBranchRequest request) {
        return transport.call(Operation.DECIDE_BRANCH, request, DecideBranchResponse.class);
    }

    /**
     * Runs a stored procedure. Concurrent calls are coalesced into {@code callBatch} requests while
     * earlier ones are in flight (see {@link OtmClientConfig#callBatchCallsMax()}); each keeps its
     * own answer or error, as if sent alone.
     */
    public CallResponse call(CallRequest request) {
        return coalescer == null ? callAlone(request) : coalescer.call(request);
    }

    /**
     * Runs a stored procedure as a request of its own, never coalesced with other calls: for a
     * call that must not wait behind a batch in flight, nor run the coalescer's code for the first
     * time where every millisecond counts (a live move's catalog write, made inside its pause).
     */
    public CallResponse callAlone(CallRequest request) {
        return transport.call(Operation.CALL, request, CallResponse.class);
    }

    /** Calls waiting to be sent because earlier requests are in flight (0 without coalescing); for monitoring. */
    public int callsWaiting() {
        return coalescer == null ? 0 : coalescer.queued();
    }

    /**
     * How many coalesced call requests may be in flight to this OTM now: the configured most while
     * the calls rarely re-run on conflicts, fewer while many do (0 without coalescing); for
     * monitoring.
     */
    public int callBatchesInFlightLimit() {
        return coalescer == null ? 0 : coalescer.inFlightLimit();
    }

    /** Runs several independent calls in one request, each with its own outcome, in order. */
    public CallBatchResponse callBatch(CallBatchRequest request) {
        return transport.call(Operation.CALL_BATCH, request, CallBatchResponse.class);
    }

    public RegisterDatabaseResponse registerDatabase(RegisterDatabaseRequest request) {
        return transport.call(Operation.REGISTER_DATABASE, request, RegisterDatabaseResponse.class);
    }

    public OpenPartitionResponse openPartition(OpenPartitionRequest request) {
        return transport.call(Operation.OPEN_PARTITION, request, OpenPartitionResponse.class);
    }

    public LoadGlobalTableResponse loadGlobalTable(LoadGlobalTableRequest request) {
        return transport.call(Operation.LOAD_GLOBAL_TABLE, request, LoadGlobalTableResponse.class);
    }

    public ClosePartitionResponse closePartition(ClosePartitionRequest request) {
        return transport.call(Operation.CLOSE_PARTITION, request, ClosePartitionResponse.class);
    }

    /** Live move, origin to destination: see {@link ReceivePartitionRequest}. */
    public ReceivePartitionResponse receivePartition(ReceivePartitionRequest request) {
        return transport.call(Operation.RECEIVE_PARTITION, request, ReceivePartitionResponse.class);
    }

    /** Live move, origin to destination: see {@link ShipVersionsRequest}. */
    public ShipVersionsResponse shipVersions(ShipVersionsRequest request) {
        return transport.call(Operation.SHIP_VERSIONS, request, ShipVersionsResponse.class);
    }

    /** Live move, origin to destination: see {@link FinishIncomingRequest}. */
    public FinishIncomingResponse finishIncoming(FinishIncomingRequest request) {
        return transport.call(Operation.FINISH_INCOMING, request, FinishIncomingResponse.class);
    }

    /** Live move, origin to destination: see {@link DropIncomingRequest}. */
    public DropIncomingResponse dropIncoming(DropIncomingRequest request) {
        return transport.call(Operation.DROP_INCOMING, request, DropIncomingResponse.class);
    }

    public FlushPartitionResponse flushPartition(FlushPartitionRequest request) {
        return transport.call(Operation.FLUSH_PARTITION, request, FlushPartitionResponse.class);
    }

    public ResolveCommitResponse resolveCommit(ResolveCommitRequest request) {
        return transport.call(Operation.RESOLVE_COMMIT, request, ResolveCommitResponse.class);
    }

    public StatusResponse status() {
        return transport.call(Operation.STATUS, new StatusRequest(), StatusResponse.class);
    }

    /** Closes the connection; calls in flight fail. Idempotent. */
    @Override
    public void close() {
        transport.close();
    }
}
