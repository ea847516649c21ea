package org.elastras.client.protocol;

import java.util.Collections;
import java.util.EnumSet;
import java.util.Optional;
import java.util.Set;

/**
 * The operations of the protocol: each is a POST to {@code /v1/<wireName>} whose body is the
 * request record and whose 200 answer is the response record. Immutable.
 */
public enum Operation {
    BEGIN("begin", BeginRequest.class, BeginResponse.class),
    GET("get", GetRequest.class, GetResponse.class),
    PUT("put", PutRequest.class, PutResponse.class),
    DELETE("delete", DeleteRequest.class, DeleteResponse.class),
    /** A commutative add to a numeric column of a row, summed at commit on the newest row. */
    ADD("add", AddRequest.class, AddResponse.class),
    SCAN("scan", ScanRequest.class, ScanResponse.class),
    COMMIT("commit", CommitRequest.class, CommitResponse.class),
    ABORT("abort", AbortRequest.class, AbortResponse.class),
    CALL("call", CallRequest.class, CallResponse.class),
    /** Several independent calls in one request, each its own transaction with its own outcome. */
    CALL_BATCH("callBatch", CallBatchRequest.class, CallBatchResponse.class),
    REGISTER_DATABASE("registerDatabase", RegisterDatabaseRequest.class, RegisterDatabaseResponse.class),
    OPEN_PARTITION("openPartition", OpenPartitionRequest.class, OpenPartitionResponse.class),
    CLOSE_PARTITION("closePartition", ClosePartitionRequest.class, ClosePartitionResponse.class),
    FLUSH_PARTITION("flushPartition", FlushPartitionRequest.class, FlushPartitionResponse.class),
    LOAD_GLOBAL_TABLE("loadGlobalTable", LoadGlobalTableRequest.class, LoadGlobalTableResponse.class),
    STATUS("status", StatusRequest.class, StatusResponse.class),
    /** Whether a transaction whose commit answer was lost committed. */
    RESOLVE_COMMIT("resolveCommit", ResolveCommitRequest.class, ResolveCommitResponse.class),
    /** A read-only aggregate over one partition's rows at a snapshot (scan, filter, reduce at the OTM). */
    AGGREGATE("aggregate", AggregateRequest.class, AggregateResponse.class),
    /** Cross-partition commit, coordinator to participant: hold the snapshot, answer the CTS bound. */
    PREPARE_BRANCH("prepareBranch", PrepareBranchRequest.class, PrepareBranchResponse.class),
    /** Cross-partition commit: validate at the CTS and log the prepare record (a durable "yes"). */
    VOTE_BRANCH("voteBranch", VoteBranchRequest.class, VoteBranchResponse.class),
    /** Cross-partition commit: the coordinator's outcome for a branch. */
    DECIDE_BRANCH("decideBranch", DecideBranchRequest.class, DecideBranchResponse.class),
    /** Live move, origin to destination: open the partition's tables as a copy that does not serve yet. */
    RECEIVE_PARTITION("receivePartition", ReceivePartitionRequest.class, ReceivePartitionResponse.class),
    /** Live move: versions committed at the origin since, logged and applied at the destination. */
    SHIP_VERSIONS("shipVersions", ShipVersionsRequest.class, ShipVersionsResponse.class),
    /** Live move: the origin stopped and shipped everything; the copy becomes complete. */
    FINISH_INCOMING("finishIncoming", FinishIncomingRequest.class, FinishIncomingResponse.class),
    /** Live move: forget a copy being filled. */
    DROP_INCOMING("dropIncoming", DropIncomingRequest.class, DropIncomingResponse.class),
    /** Master: an OTM's heartbeat and timestamp exchange. */
    HEARTBEAT("heartbeat", HeartbeatRequest.class, HeartbeatResponse.class),
    /** Master admin: create a database or tenant. */
    CREATE_DATABASE("createDatabase", CreateDatabaseRequest.class, CreateDatabaseResponse.class),
    /** Master admin: list partitions with owners and states. */
    LIST_PARTITIONS("listPartitions", ListPartitionsRequest.class, ListPartitionsResponse.class),
    /** Master admin: start moving a partition to another OTM. */
    MOVE_PARTITION("movePartition", MovePartitionRequest.class, MovePartitionResponse.class),
    /** Master admin: start or stop draining an OTM. */
    DRAIN_OTM("drainOtm", DrainOtmRequest.class, DrainOtmResponse.class),
    /** Master admin: moves under way, OTMs draining, moves finished. */
    LIST_MOVES("listMoves", ListMovesRequest.class, ListMovesResponse.class),
    /** Master admin: what the balancer would do now (a dry run). */
    BALANCE_PLAN("balancePlan", BalancePlanRequest.class, BalancePlanResponse.class);

    /** The path prefix of every operation. */
    public static final String PATH_PREFIX = "/v1/";

    private final String wireName;
    /** The operations a partition move sends between the master and the OTMs. */
    public static final Set<Operation> MOVES = Collections.unmodifiableSet(EnumSet.of(OPEN_PARTITION, CLOSE_PARTITION,
            FLUSH_PARTITION, RECEIVE_PARTITION, SHIP_VERSIONS, FINISH_INCOMING, DROP_INCOMING));

    private final Class<? extends Record> requestType;
    private final Class<? extends Record> responseType;

    Operation(String wireName, Class<? extends Record> requestType, Class<? extends Record> responseType) {
        this.wireName = wireName;
        this.requestType = requestType;
        this.responseType = responseType;
    }

    /** The operation's name in its path. */
    public String wireName() {
        return wireName;
    }

    /** The path the operation is posted to. */
    public String path() {
        return PATH_PREFIX + wireName;
    }

    /** The record the request body decodes to. */
    public Class<? extends Record> requestType() {
        return requestType;
    }

    /** The record a successful answer decodes to. */
    public Class<? extends Record> responseType() {
        return responseType;
    }

    /** The operation named {@code wireName} (exact case), if any. */
    public static Optional<Operation> byWireName(String wireName) {
        for (Operation op : values()) {
            if (op.wireName.equals(wireName)) {
                return Optional.of(op);
            }
        }
        return Optional.empty();
    }
}
