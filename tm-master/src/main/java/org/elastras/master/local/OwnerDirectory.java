package org.elastras.master.local;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.LongSupplier;
import org.elastras.client.OtmClient;
import org.elastras.client.OtmClientConfig;
import org.elastras.master.cluster.Master;
import org.elastras.master.cluster.PartitionState;
import org.elastras.master.cluster.PartitionView;

/**
 * Where each partition of a local cluster is served: the owners the master reports, and a client
 * of each OTM by the port its process announced. A stand-in for the routing client (issue 4), which
 * will look partitions up in the catalog instead of asking the master. Thread-safe.
 */
final class OwnerDirectory implements AutoCloseable {

    /** Bound on how often the master is asked (a thread that finds a stale owner asks again). */
    private static final long REFRESH_INTERVAL_MS_MIN = 100;

    private final Master master;
    private final Map<String, Integer> portsByOtm;
    private final LongSupplier clockMs;
    /** Guarded by this. */
    private final Map<String, OtmClient> clients = new HashMap<>();
    /** Guarded by this: serving owner by partition id, as of {@link #refreshedAtMs}. */
    private Map<Long, String> owners = Map.of();
    private long refreshedAtMs = Long.MIN_VALUE / 2;
    private boolean closed;

    OwnerDirectory(Master master, Map<String, Integer> portsByOtm, LongSupplier clockMs) {
        this.master = master;
        this.portsByOtm = Map.copyOf(portsByOtm);
        this.clockMs = clockMs;
    }

    /**
     * A client of the OTM serving {@code partitionId}, or null if no OTM serves it now (it is
     * being opened or moved: ask again after a pause).
     */
    synchronized OtmClient clientFor(long partitionId) throws Exception {
        String owner = owners.get(partitionId);
        if (owner == null) {
            refresh();
            owner = owners.get(partitionId);
        }
        if (owner == null || closed) {
            return null;
        }
        Integer port = portsByOtm.get(owner);
        if (port == null) {
            throw new IllegalStateException("partition " + partitionId + " is owned by " + owner
                    + ", which this local cluster did not start");
        }
        return clients.computeIfAbsent(owner, id -> new OtmClient("127.0.0.1", port,
                OtmClientConfig.defaults().withRequestTimeoutMs(10_000)));
    }

    /** Forgets the owners (a request met NOT_OWNER or a dead OTM); the next lookup asks the master. */
    synchronized void invalidate() {
        owners = Map.of();
    }

    private void refresh() throws Exception {
        long now = clockMs.getAsLong();
        if (now - refreshedAtMs < REFRESH_INTERVAL_MS_MIN) {
            return;
        }
        refreshedAtMs = now;
        Map<Long, String> serving = new HashMap<>();
        List<PartitionView> views = master.partitions();
        for (PartitionView v : views) {
            if (v.state() == PartitionState.SERVING) {
                serving.put(v.record().partitionId(), v.record().owner());
            }
        }
        owners = serving;
    }

    @Override
    public synchronized void close() {
        closed = true;
        clients.values().forEach(OtmClient::close);
        clients.clear();
    }
}
