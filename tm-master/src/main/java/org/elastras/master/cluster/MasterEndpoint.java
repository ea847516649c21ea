package org.elastras.master.cluster;

import java.util.EnumSet;
import java.util.Set;
import org.elastras.client.protocol.ElasTrasException;
import org.elastras.client.protocol.HeartbeatRequest;
import org.elastras.client.protocol.Operation;
import org.elastras.otm.http.ProtocolEndpoint;

/** The master's operations on the network: OTM heartbeats. Immutable. */
final class MasterEndpoint implements ProtocolEndpoint {

    private static final Set<Operation> OPERATIONS = EnumSet.of(Operation.HEARTBEAT);

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
        if (op == Operation.HEARTBEAT) {
            return master.heartbeat((HeartbeatRequest) request);
        }
        throw new IllegalArgumentException(op.wireName() + " is not a master operation");
    }
}
