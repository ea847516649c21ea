package org.elastras.master.cluster;

import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.elastras.catalog.schema.DatabaseSchema;
import org.elastras.catalog.schema.Names;
import org.elastras.client.protocol.BalancePlanResponse;
import org.elastras.client.protocol.CreateDatabaseRequest;
import org.elastras.client.protocol.CreateDatabaseResponse;
import org.elastras.client.protocol.DrainOtmRequest;
import org.elastras.client.protocol.DrainOtmResponse;
import org.elastras.client.protocol.ElasTrasException;
import org.elastras.client.protocol.ErrorCode;
import org.elastras.client.protocol.HeartbeatRequest;
import org.elastras.client.protocol.ListMovesResponse;
import org.elastras.client.protocol.ListPartitionsRequest;
import org.elastras.client.protocol.ListPartitionsResponse;
import org.elastras.client.protocol.MoveInfo;
import org.elastras.client.protocol.MovePartitionRequest;
import org.elastras.client.protocol.MovePartitionResponse;
import org.elastras.client.protocol.Operation;
import org.elastras.client.protocol.PartitionInfo;
import org.elastras.client.protocol.PlannedMove;
import org.elastras.master.balance.BalancePlan;
import org.elastras.otm.http.ProtocolEndpoint;

/**
 * The master's operations on the network: OTM heartbeats and the admin calls. Immutable; called
 * from the protocol server's worker threads.
 */
final class MasterEndpoint implements ProtocolEndpoint {

    private static final Set<Operation> OPERATIONS = EnumSet.of(Operation.HEARTBEAT, Operation.CREATE_DATABASE,
            Operation.LIST_PARTITIONS, Operation.MOVE_PARTITION, Operation.DRAIN_OTM, Operation.LIST_MOVES,
            Operation.BALANCE_PLAN);

    private final Master master;

    MasterEndpoint(Master master) {
        this.master = master;
    }

    @Override
    public String role() {
        return "master";
    }

    @Override
    public Set<Operation> operations() {
        return OPERATIONS;
    }

    /** Ready = the active master (a standby is healthy but not ready). */
    @Override
    public boolean ready() {
        return master.active();
    }

    @Override
    public Object invoke(Operation op, Record request, String client) throws ElasTrasException {
        return switch (op) {
            case HEARTBEAT -> master.heartbeat((HeartbeatRequest) request);
            case CREATE_DATABASE -> createDatabase((CreateDatabaseRequest) request);
            case LIST_PARTITIONS -> listPartitions((ListPartitionsRequest) request);
            case MOVE_PARTITION -> movePartition((MovePartitionRequest) request);
            case DRAIN_OTM -> drainOtm((DrainOtmRequest) request);
            case LIST_MOVES -> listMoves();
            case BALANCE_PLAN -> balancePlan();
            default -> throw new IllegalArgumentException(op.wireName() + " is not a master operation");
        };
    }

    private CreateDatabaseResponse createDatabase(CreateDatabaseRequest request) {
        DatabaseSchema schema;
        try {
            schema = request.schema().toSchema();
        } catch (IllegalArgumentException e) {
            throw new ElasTrasException(ErrorCode.MALFORMED_REQUEST, "createDatabase: " + e.getMessage());
        }
        Master.CreatedDatabase created = admin(ErrorCode.MALFORMED_REQUEST, () -> master.create(schema,
                request.rootKeyBoundaries()));
        // The catalog CTS lets the client read its new database at once (its catalog reads begin there).
        return new CreateDatabaseResponse(created.partitions().stream().map(MasterEndpoint::info).toList(),
                created.catalogCts());
    }

    private ListPartitionsResponse listPartitions(ListPartitionsRequest request) {
        List<PartitionView> all = admin(ErrorCode.MALFORMED_REQUEST, master::partitions);
        return new ListPartitionsResponse(all.stream()
                .filter(v -> request.database() == null || Names.same(v.record().database(), request.database()))
                .map(MasterEndpoint::info).toList());
    }

    private MovePartitionResponse movePartition(MovePartitionRequest request) {
        PartitionView started = admin(ErrorCode.REFUSED, () -> master.movePartition(request.partitionId(), request.toOtm(),
                request.live()));
        return new MovePartitionResponse(info(started), request.toOtm());
    }

    private DrainOtmResponse drainOtm(DrainOtmRequest request) {
        return new DrainOtmResponse(admin(ErrorCode.REFUSED, () -> {
            master.drainOtm(request.otmId(), request.drain());
            return master.drainingOtms();
        }));
    }

    private ListMovesResponse listMoves() {
        return admin(ErrorCode.REFUSED, () -> {
            long nowNanos = System.nanoTime();
            List<MoveInfo> moves = master.moves().stream().map(m -> new MoveInfo(m.partitionId(), m.from(), m.to(),
                    m.reason(), m.startedAtMs(), Math.max(0, TimeUnit.NANOSECONDS.toMillis(nowNanos - m.startedNanos()))))
                    .toList();
            return new ListMovesResponse(moves, master.drainingOtms(), master.movesFinished());
        });
    }

    private BalancePlanResponse balancePlan() {
        BalancePlan plan = admin(ErrorCode.REFUSED, master::balancePlan);
        List<PlannedMove> moves = plan.moves().stream().map(m -> new PlannedMove(m.partitionId(), m.fromOtm(), m.toOtm(),
                m.reason().name(), m.why())).toList();
        return new BalancePlanResponse(plan.atMs(), moves, plan.otmsToAdd(), plan.otmsToRemove(), plan.notes(),
                plan.describe());
    }

    private interface AdminCall<T> {
        T run() throws Exception;
    }

    /**
     * Runs an admin call with the master's errors turned into protocol errors: not the active master
     * -> NOT_SERVING; the master's IllegalArgumentException (what it refused, and why) ->
     * {@code refusedCode} with its message.
     */
    private <T> T admin(ErrorCode refusedCode, AdminCall<T> call) {
        if (!master.active()) {
            throw new ElasTrasException(ErrorCode.NOT_SERVING, "master " + master.masterId()
                    + " is not the active master; send admin requests to the one announced in ZooKeeper");
        }
        try {
            return call.run();
        } catch (IllegalArgumentException e) {
            throw new ElasTrasException(refusedCode, e.getMessage());
        } catch (IllegalStateException e) {
            throw new ElasTrasException(ErrorCode.NOT_SERVING, e.getMessage());
        } catch (ElasTrasException e) {
            throw e;
        } catch (Exception e) {
            throw new ElasTrasException(ErrorCode.INTERNAL, "the master failed: " + e);
        }
    }

    private static PartitionInfo info(PartitionView v) {
        PartitionRecord r = v.record();
        return new PartitionInfo(r.database(), r.partitionId(), r.startKey(), r.endKey(), r.owner(), r.epoch(),
                v.state().name());
    }
}
