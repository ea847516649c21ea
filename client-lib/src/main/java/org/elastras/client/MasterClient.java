package org.elastras.client;

import java.net.URI;
import org.elastras.client.protocol.CreateDatabaseRequest;
import org.elastras.client.protocol.CreateDatabaseResponse;
import org.elastras.client.protocol.HeartbeatRequest;
import org.elastras.client.protocol.HeartbeatResponse;
import org.elastras.client.protocol.ListPartitionsRequest;
import org.elastras.client.protocol.ListPartitionsResponse;
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

    /** Closes the connection; calls in flight fail. Idempotent. */
    @Override
    public void close() {
        transport.close();
    }
}
