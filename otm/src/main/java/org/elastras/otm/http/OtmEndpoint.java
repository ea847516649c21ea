package org.elastras.otm.http;

import java.util.EnumSet;
import java.util.Objects;
import java.util.Set;
import org.elastras.client.protocol.AbortRequest;
import org.elastras.client.protocol.AddRequest;
import org.elastras.client.protocol.BeginRequest;
import org.elastras.client.protocol.CallBatchRequest;
import org.elastras.client.protocol.CallRequest;
import org.elastras.client.protocol.ClosePartitionRequest;
import org.elastras.client.protocol.DropIncomingRequest;
import org.elastras.client.protocol.FinishIncomingRequest;
import org.elastras.client.protocol.ReceivePartitionRequest;
import org.elastras.client.protocol.ShipVersionsRequest;
import org.elastras.client.protocol.AggregateRequest;
import org.elastras.client.protocol.CommitRequest;
import org.elastras.client.protocol.DecideBranchRequest;
import org.elastras.client.protocol.PrepareBranchRequest;
import org.elastras.client.protocol.VoteBranchRequest;
import org.elastras.client.protocol.DeleteRequest;
import org.elastras.client.protocol.ElasTrasException;
import org.elastras.client.protocol.FlushPartitionRequest;
import org.elastras.client.protocol.GetRequest;
import org.elastras.client.protocol.LoadGlobalTableRequest;
import org.elastras.client.protocol.OpenPartitionRequest;
import org.elastras.client.protocol.Operation;
import org.elastras.client.protocol.PutRequest;
import org.elastras.client.protocol.RegisterDatabaseRequest;
import org.elastras.client.protocol.ResolveCommitRequest;
import org.elastras.client.protocol.ScanRequest;
import org.elastras.client.protocol.StatusRequest;

/** Puts an {@link OtmService} behind a {@link ProtocolServer}: the OTM's operations. Immutable. */
public final class OtmEndpoint implements ProtocolEndpoint {

    private static final Set<Operation> OPERATIONS = EnumSet.of(Operation.BEGIN, Operation.GET, Operation.PUT,
            Operation.DELETE, Operation.ADD, Operation.SCAN, Operation.COMMIT, Operation.ABORT, Operation.CALL,
            Operation.CALL_BATCH,
            Operation.REGISTER_DATABASE, Operation.OPEN_PARTITION, Operation.CLOSE_PARTITION,
            Operation.FLUSH_PARTITION, Operation.LOAD_GLOBAL_TABLE, Operation.STATUS, Operation.RESOLVE_COMMIT,
            Operation.PREPARE_BRANCH, Operation.VOTE_BRANCH, Operation.DECIDE_BRANCH, Operation.AGGREGATE,
            Operation.RECEIVE_PARTITION, Operation.SHIP_VERSIONS, Operation.FINISH_INCOMING, Operation.DROP_INCOMING);

    private final OtmService service;

    public OtmEndpoint(OtmService service) {
        this.service = Objects.requireNonNull(service, "service");
    }

    @Override
    public String role() {
        return "OTM";
    }

    @Override
    public Set<Operation> operations() {
        return OPERATIONS;
    }

    @Override
    public String metrics() {
        return service.metrics();
    }

    @Override
    public boolean ready() {
        return service.serving();
    }

    @Override
    public Object invoke(Operation op, Record request, String client) throws ElasTrasException {
        return switch (op) {
            case BEGIN -> service.begin((BeginRequest) request, client);
            case GET -> service.get((GetRequest) request);
            case PUT -> service.put((PutRequest) request);
            case DELETE -> service.delete((DeleteRequest) request);
            case ADD -> service.add((AddRequest) request);
            case SCAN -> service.scan((ScanRequest) request);
            case COMMIT -> service.commit((CommitRequest) request);
            case ABORT -> service.abort((AbortRequest) request);
            case CALL -> service.call((CallRequest) request, client);
            case CALL_BATCH -> service.callBatch((CallBatchRequest) request, client);
            case REGISTER_DATABASE -> service.registerDatabase((RegisterDatabaseRequest) request);
            case OPEN_PARTITION -> service.openPartition((OpenPartitionRequest) request);
            case CLOSE_PARTITION -> service.closePartition((ClosePartitionRequest) request);
            case FLUSH_PARTITION -> service.flushPartition((FlushPartitionRequest) request);
            case LOAD_GLOBAL_TABLE -> service.loadGlobalTable((LoadGlobalTableRequest) request);
            case STATUS -> service.status((StatusRequest) request);
            case RESOLVE_COMMIT -> service.resolveCommit((ResolveCommitRequest) request);
            case AGGREGATE -> service.aggregate((AggregateRequest) request, client);
            case PREPARE_BRANCH -> service.prepareBranch((PrepareBranchRequest) request);
            case VOTE_BRANCH -> service.voteBranch((VoteBranchRequest) request);
            case DECIDE_BRANCH -> service.decideBranch((DecideBranchRequest) request);
            case RECEIVE_PARTITION -> service.receivePartition((ReceivePartitionRequest) request);
            case SHIP_VERSIONS -> service.shipVersions((ShipVersionsRequest) request);
            case FINISH_INCOMING -> service.finishIncoming((FinishIncomingRequest) request);
            case DROP_INCOMING -> service.dropIncoming((DropIncomingRequest) request);
            default -> throw new IllegalArgumentException(op.wireName() + " is not an OTM operation");
        };
    }
}
