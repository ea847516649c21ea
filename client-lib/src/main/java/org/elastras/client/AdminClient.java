package org.elastras.client;

import java.util.List;
import java.util.Objects;
import org.apache.curator.framework.CuratorFramework;
import org.elastras.catalog.meta.ZkPaths;
import org.elastras.catalog.schema.DatabaseSchema;
import org.elastras.client.protocol.BalancePlanResponse;
import org.elastras.client.protocol.CreateDatabaseRequest;
import org.elastras.client.protocol.CreateDatabaseResponse;
import org.elastras.client.protocol.DrainOtmRequest;
import org.elastras.client.protocol.ElasTrasException;
import org.elastras.client.protocol.ErrorCode;
import org.elastras.client.protocol.ListMovesResponse;
import org.elastras.client.protocol.ListPartitionsRequest;
import org.elastras.client.protocol.MovePartitionRequest;
import org.elastras.client.protocol.MovePartitionResponse;
import org.elastras.client.protocol.PartitionInfo;
import org.elastras.client.protocol.SchemaSpec;

/**
 * Admin calls on the cluster, sent to the active master (found in ZooKeeper, looked up again when a
 * master stops answering or answers that it is not the active one). Requests that never reached an
 * active master (NOT_SERVING, UNREACHABLE) are retried until the deadline. A request whose answer
 * was lost (OUTCOME_UNKNOWN) is asked again only if repeating it is harmless: the reads, and
 * {@link #drainOtm}, which sets a flag; a create or a move is not re-sent (the caller lists the
 * partitions or the moves to see whether it happened). Thread-safe.
 *
 * <p>A create raises the owning client's {@link CatalogHorizon} to the CTS of the master's catalog
 * writes, so that the client's next catalog read finds the new database at once.
 */
public final class AdminClient {

    private static final long BACKOFF_MS = 100;

    private final CuratorFramework zk;
    private final ZkPaths paths;
    private final OtmClientConfig config;
    private final long deadlineMs;
    private final CatalogHorizon catalogHorizon;
    /** Guarded by this: a client of the master last found active. */
    private MasterClient master;

    /** @param catalogHorizon raised by every create to its catalog CTS (the client's catalog reads begin there) */
    AdminClient(CuratorFramework zk, ZkPaths paths, OtmClientConfig config, long deadlineMs, CatalogHorizon catalogHorizon) {
        this.zk = Objects.requireNonNull(zk, "zk");
        this.paths = paths;
        this.config = config;
        this.deadlineMs = deadlineMs;
        this.catalogHorizon = Objects.requireNonNull(catalogHorizon, "catalogHorizon");
    }

    /**
     * Creates a tree-partitioned database split at {@code rootKeyBoundaries} (strictly ascending root
     * keys) into {@code boundaries + 1} partitions; returns them once recorded and assigned. The
     * owning client's requests that follow find the database (its catalog reads begin at or after
     * the create's catalog commit).
     */
    public List<PartitionInfo> createDatabase(DatabaseSchema schema, List<List<Object>> rootKeyBoundaries) {
        CreateDatabaseRequest request = new CreateDatabaseRequest(SchemaSpec.of(schema), rootKeyBoundaries);
        CreateDatabaseResponse created = send("createDatabase " + schema.name(), false, m -> m.createDatabase(request));
        catalogHorizon.reached(created.catalogCts());
        return created.partitions();
    }

    /** Creates a single-partition database (a tenant). */
    public PartitionInfo createTenant(DatabaseSchema schema) {
        return createDatabase(schema, List.of()).get(0);
    }

    /** Every partition of {@code database} (every partition if null) with its owner and state. */
    public List<PartitionInfo> partitions(String database) {
        return send("listPartitions", true, m -> m.listPartitions(new ListPartitionsRequest(database)).partitions());
    }

    /**
     * Starts moving partition {@code partitionId} to the live OTM {@code toOtm} and returns once the
     * move has started (the partition CLOSING at its origin); it serves at {@code toOtm}, epoch + 1,
     * once {@link #partitions} shows it SERVING there. Clients retry through the move.
     *
     * <p>Not re-sent when its answer is lost, because a second move request is not a repeat of the
     * first (it is refused while the first is under way, and moves the partition again after it).
     * The caller then sees {@link ErrorCode#OUTCOME_UNKNOWN} and finds out with {@link #moves} or
     * {@link #partitions} whether the move started. A request that never reached the active master
     * is retried until the deadline.
     *
     * @throws ElasTrasException {@link ErrorCode#REFUSED} with the reason if the move cannot start
     *     (no such partition, not serving, already on {@code toOtm}, {@code toOtm} not live or
     *     draining, too many moves under way); nothing changed. {@link ErrorCode#MALFORMED_REQUEST}
     *     for a partition id below 1 or an empty OTM id, before anything is sent
     */
    public MovePartitionResponse movePartition(long partitionId, String toOtm) {
        return movePartition(partitionId, toOtm, null);
    }

    /**
     * {@link #movePartition(long, String)} of a given kind: {@code live} true for a live move (copied
     * while it serves, paused only to hand over), false for a coordinated one (closed, then opened),
     * null for the master's default.
     */
    public MovePartitionResponse movePartition(long partitionId, String toOtm, Boolean live) {
        MovePartitionRequest request = new MovePartitionRequest(partitionId, toOtm, live);
        return send("movePartition " + partitionId + " to " + toOtm, false, m -> m.movePartition(request));
    }

    /**
     * Starts ({@code drain} true) or stops draining OTM {@code otmId}: its partitions move to the
     * other OTMs, a bounded number at a time, and nothing new is assigned to it. Returns the OTMs
     * being drained. Idempotent, so a lost answer is asked again.
     *
     * @throws ElasTrasException {@link ErrorCode#REFUSED} if {@code drain} and the OTM is not live
     */
    public List<String> drainOtm(String otmId, boolean drain) {
        DrainOtmRequest request = new DrainOtmRequest(otmId, drain);
        return send((drain ? "drainOtm " : "stop draining ") + otmId, true, m -> m.drainOtm(request).draining());
    }

    /** The moves under way, the OTMs being drained, and how many moves the active master finished. */
    public ListMovesResponse moves() {
        return send("listMoves", true, MasterClient::listMoves);
    }

    /** What the balancer would do now, as data and as text; changes nothing. */
    public BalancePlanResponse balancePlan() {
        return send("balancePlan", true, MasterClient::balancePlan);
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

    /** @param repeatable whether a lost answer may be asked again (a read, or a request whose repeat changes nothing) */
    private <T> T send(String what, boolean repeatable, Call<T> call) {
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
                            || (repeatable && e.code() == ErrorCode.OUTCOME_UNKNOWN);
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
