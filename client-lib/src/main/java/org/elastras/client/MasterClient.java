package org.elastras.client;

import java.net.URI;
import org.elastras.client.protocol.BalancePlanRequest;
import org.elastras.client.protocol.BalancePlanResponse;
import org.elastras.client.protocol.CreateDatabaseRequest;
import org.elastras.client.protocol.CreateDatabaseResponse;
import org.elastras.client.protocol.DrainOtmRequest;
import org.elastras.client.protocol.DrainOtmResponse;
import org.elastras.client.protocol.HeartbeatRequest;
import org.elastras.client.protocol.HeartbeatResponse;
import org.elastras.client.protocol.ListMovesRequest;
import org.elastras.client.protocol.ListMovesResponse;
import org.elastras.client.protocol.ListPartitionsRequest;
import org.elastras.client.protocol.ListPartitionsResponse;
import org.elastras.client.protocol.MovePartitionRequest;
import org.elastras.client.protocol.MovePartitionResponse;
import org.elastras.client.protocol.Operation;

/**
 * A low-level client of one master process: one method per master operation, errors as in
 * {@link ProtocolClient}. Thread-safe. Finding the active master is the caller's business (it
 * announces itself in ZooKeeper, see {@code ZkPaths.activeMaster()}); a standby answers every
 * operation NOT_SERVING.
 */
public final class MasterClient implements AutoCloseable {

    private final ProtocolClient transport;

    public MasterClient(String host, int port, OtmClientConfig config) {
        this.transport = new ProtocolClient(host, port, config);
    }

    /** The master's base address, {@code http://host:port}. */
    public URI address() {
        return transport.address();
    }

    /** An OTM's heartbeat and timestamp exchange. */
    public HeartbeatResponse heartbeat(HeartbeatRequest request) {
        return transport.call(Operation.HEARTBEAT, request, HeartbeatResponse.class);
    }

    /** Admin: creates a database or tenant (active master only). */
    public CreateDatabaseResponse createDatabase(CreateDatabaseRequest request) {
        return transport.call(Operation.CREATE_DATABASE, request, CreateDatabaseResponse.class);
    }

    /** Admin: the partitions, with owners and states (active master only). */
    public ListPartitionsResponse listPartitions(ListPartitionsRequest request) {
        return transport.call(Operation.LIST_PARTITIONS, request, ListPartitionsResponse.class);
    }

    /** Admin: starts moving a partition to another OTM (active master only; not idempotent). */
    public MovePartitionResponse movePartition(MovePartitionRequest request) {
        return transport.call(Operation.MOVE_PARTITION, request, MovePartitionResponse.class);
    }

    /** Admin: starts or stops draining an OTM (active master only; idempotent). */
    public DrainOtmResponse drainOtm(DrainOtmRequest request) {
        return transport.call(Operation.DRAIN_OTM, request, DrainOtmResponse.class);
    }

    /** Admin: moves under way, OTMs draining, moves finished (active master only). */
    public ListMovesResponse listMoves() {
        return transport.call(Operation.LIST_MOVES, new ListMovesRequest(), ListMovesResponse.class);
    }

    /** Admin: what the balancer would do now, changing nothing (active master only). */
    public BalancePlanResponse balancePlan() {
        return transport.call(Operation.BALANCE_PLAN, new BalancePlanRequest(), BalancePlanResponse.class);
    }

    /** Closes the connection; calls in flight fail. Idempotent. */
    @Override
    public void close() {
        transport.close();
    }
}
