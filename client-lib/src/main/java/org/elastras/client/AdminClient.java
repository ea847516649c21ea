package org.elastras.client;

import java.util.List;
import java.util.Objects;
import org.apache.curator.framework.CuratorFramework;
import org.elastras.catalog.meta.ZkPaths;
import org.elastras.catalog.schema.DatabaseSchema;
import org.elastras.client.protocol.CreateDatabaseRequest;
import org.elastras.client.protocol.ElasTrasException;
import org.elastras.client.protocol.ErrorCode;
import org.elastras.client.protocol.ListPartitionsRequest;
import org.elastras.client.protocol.PartitionInfo;
import org.elastras.client.protocol.SchemaSpec;

/**
 * Admin calls on the cluster, sent to the active master (found in ZooKeeper, looked up again when a
 * master stops answering or answers that it is not the active one). Requests that never reached an
 * active master are retried until the deadline; a create whose answer was lost is not re-sent
 * (OUTCOME_UNKNOWN: list the partitions to see whether it happened). Thread-safe.
 */
public final class AdminClient {

    private static final long BACKOFF_MS = 100;

    private final CuratorFramework zk;
    private final ZkPaths paths;
    private final OtmClientConfig config;
    private final long deadlineMs;
    /** Guarded by this: a client of the master last found active. */
    private MasterClient master;

    AdminClient(CuratorFramework zk, ZkPaths paths, OtmClientConfig config, long deadlineMs) {
        this.zk = Objects.requireNonNull(zk, "zk");
        this.paths = paths;
        this.config = config;
        this.deadlineMs = deadlineMs;
    }

    /**
     * Creates a tree-partitioned database split at {@code rootKeyBoundaries} (strictly ascending root
     * keys) into {@code boundaries + 1} partitions; returns them once recorded and assigned.
     */
    public List<PartitionInfo> createDatabase(DatabaseSchema schema, List<List<Object>> rootKeyBoundaries) {
        CreateDatabaseRequest request = new CreateDatabaseRequest(SchemaSpec.of(schema), rootKeyBoundaries);
        return send("createDatabase " + schema.name(), false, m -> m.createDatabase(request).partitions());
    }

    /** Creates a single-partition database (a tenant). */
    public PartitionInfo createTenant(DatabaseSchema schema) {
        return createDatabase(schema, List.of()).get(0);
    }

    /** Every partition of {@code database} (every partition if null) with its owner and state. */
    public List<PartitionInfo> partitions(String database) {
        return send("listPartitions", true, m -> m.listPartitions(new ListPartitionsRequest(database)).partitions());
    }

    /** The id of the master announced as active now, or null if none is. */
    public String activeMasterId() {
        try {
            ActiveMaster active = ActiveMaster.read(zk, paths);
            return active == null ? null : active.masterId();
        } catch (Exception e) {
            throw new ElasTrasException(ErrorCode.UNREACHABLE, "cannot read " + paths.activeMaster() + ": " + e, e);
        }
    }

    private interface Call<T> {
        T run(MasterClient master);
    }

    /** @param readOnly whether a lost answer may be asked again (a read changes nothing) */
    private <T> T send(String what, boolean readOnly, Call<T> call) {
        long deadline = System.nanoTime() + deadlineMs * 1_000_000;
        ElasTrasException last = null;
        while (System.nanoTime() < deadline) {
            MasterClient m;
            try {
                m = master();
            } catch (Exception e) {
                last = new ElasTrasException(ErrorCode.UNREACHABLE, "cannot read the active master's address from"
                        + " ZooKeeper: " + e, e);
                m = null;
            }
            if (m != null) {
                try {
                    return call.run(m);
                } catch (ElasTrasException e) {
                    boolean again = e.code() == ErrorCode.NOT_SERVING || e.code() == ErrorCode.UNREACHABLE
                            || (readOnly && e.code() == ErrorCode.OUTCOME_UNKNOWN);
                    if (!again) {
                        throw e;
                    }
                    last = e;
                    forget(m);
                }
            } else if (last == null) {
                last = new ElasTrasException(ErrorCode.UNREACHABLE, "no active master is announced at "
                        + paths.activeMaster());
            }
            try {
                Thread.sleep(BACKOFF_MS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new ElasTrasException(ErrorCode.UNREACHABLE, what + " interrupted", e);
            }
        }
        throw new ElasTrasException(ErrorCode.UNREACHABLE, what + ": no active master answered within " + deadlineMs
                + " ms; last error: " + (last == null ? "none" : last.getMessage()), last);
    }

    private synchronized MasterClient master() throws Exception {
        if (master != null) {
            return master;
        }
        ActiveMaster active = ActiveMaster.read(zk, paths);
        if (active == null) {
            return null;
        }
        master = new MasterClient(active.host(), active.port(), config);
        return master;
    }

    private synchronized void forget(MasterClient stale) {
        if (master == stale) {
            master.close();
            master = null;
        }
    }

    synchronized void close() {
        if (master != null) {
            master.close();
            master = null;
        }
    }
}
