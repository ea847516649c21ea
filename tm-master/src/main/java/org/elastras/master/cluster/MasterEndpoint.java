package org.elastras.master.cluster;

import java.util.EnumSet;
import java.util.Set;
import org.elastras.client.protocol.ElasTrasException;
import java.util.List;
import org.elastras.catalog.schema.DatabaseSchema;
import org.elastras.catalog.schema.Names;
import org.elastras.catalog.schema.PartitioningKind;
import org.elastras.client.protocol.CreateDatabaseRequest;
import org.elastras.client.protocol.CreateDatabaseResponse;
import org.elastras.client.protocol.ErrorCode;
import org.elastras.client.protocol.HeartbeatRequest;
import org.elastras.client.protocol.ListPartitionsRequest;
import org.elastras.client.protocol.ListPartitionsResponse;
import org.elastras.client.protocol.PartitionInfo;
import org.elastras.client.protocol.Operation;
import org.elastras.otm.http.ProtocolEndpoint;

/** The master's operations on the network: OTM heartbeats and the admin calls. Immutable. */
final class MasterEndpoint implements ProtocolEndpoint {

    private static final Set<Operation> OPERATIONS = EnumSet.of(Operation.HEARTBEAT, Operation.CREATE_DATABASE,
            Operation.LIST_PARTITIONS);

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
        return new CreateDatabaseResponse(admin(() -> schema.partitioning() == PartitioningKind.SINGLE_PARTITION
                && request.rootKeyBoundaries().isEmpty()
                ? List.of(master.createTenant(schema))
                : master.createDatabase(schema, request.rootKeyBoundaries())).stream().map(MasterEndpoint::info).toList());
    }

    private ListPartitionsResponse listPartitions(ListPartitionsRequest request) {
        List<PartitionView> all = admin(master::partitions);
        return new ListPartitionsResponse(all.stream()
                .filter(v -> request.database() == null || Names.same(v.record().database(), request.database()))
                .map(MasterEndpoint::info).toList());
    }

    private interface AdminCall {
        List<PartitionView> run() throws Exception;
    }

    /** Runs an admin call with the master's errors turned into protocol errors. */
    private List<PartitionView> admin(AdminCall call) {
        if (!master.active()) {
            throw new ElasTrasException(ErrorCode.NOT_SERVING, "master " + master.masterId()
                    + " is not the active master; send admin requests to the one announced in ZooKeeper");
        }
        try {
            return call.run();
        } catch (IllegalArgumentException e) {
            throw new ElasTrasException(ErrorCode.MALFORMED_REQUEST, e.getMessage());
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
