package org.elastras.client;

import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.ExponentialBackoffRetry;
import org.elastras.catalog.meta.ZkPaths;
import org.elastras.client.protocol.CommitId;
import org.elastras.client.protocol.ElasTrasException;
import org.elastras.client.protocol.ErrorCode;
import org.elastras.client.protocol.Isolation;
import org.elastras.client.protocol.ProtocolCodec;

/**
 * The application's client of an ElasTraS cluster: stored procedures and interactive transactions
 * addressed by database and root key, never by partition or OTM. It finds the partition that holds
 * the root key in the catalog, caches where it is served, keeps one connection per OTM, and when a
 * partition moves or its OTM fails it looks the partition up again and retries within the retry
 * deadline, so a failover shows as latency, not as an error. Requests that may have committed
 * before their answer was lost are never re-sent on their own ({@link OutcomeUnknownException}).
 *
 * <p>Thread-safe; make one per application and share it. Close it at the end.
 *
 * <p>Session consistency: the methods here use one {@link Session} shared by all threads of the
 * client, so every request reads what any earlier commit of this client wrote, on any OTM. Use
 * {@link #newSession()} for independent sessions. A database created through this client's
 * {@link #admin()} is found by every request of the client that starts after the create returned
 * (its catalog reads begin at or after the create's catalog commit), in every session.
 *
 * <p>Errors (all {@link ElasTrasException}): {@code UNKNOWN_DATABASE}, {@code TYPE_MISMATCH} for
 * root-key values that do not match the database's root key, the server's own errors for bad
 * requests, {@link OutcomeUnknownException}, {@link TransactionAbortedException} (interactive
 * transactions), {@link RetriesExhaustedException} when the deadline passed.
 */
public final class ElasTrasClient implements AutoCloseable {

    private final CuratorFramework zk;
    private final Router router;
    private final Session session;
    /** Null for a client built over a scripted catalog (tests). */
    private final AdminClient admin;
    /** Whether {@link #close} closes the ZooKeeper session (false for one the caller keeps). */
    private boolean ownsZk = true;

    /**
     * A client over {@code locator} (given the connections to tell about OTMs that went away) and
     * the system clock. Package-private: tests build one over a scripted catalog.
     *
     * @param catalogHorizon raised by this client's creates; the locator's catalog reads begin at it
     */
    ElasTrasClient(CuratorFramework zk, Function<OtmConnections, PartitionLocator> locator,
            ElasTrasClientConfig config, ClientClock clock, CatalogHorizon catalogHorizon) {
        this.zk = zk;
        this.admin = zk == null ? null : new AdminClient(zk, new ZkPaths(config.zkRoot()),
                new OtmClientConfig(config.connectTimeoutMs(), Math.max(config.requestTimeoutMs(), 60_000),
                        ProtocolCodec.BODY_BYTES_MAX_DEFAULT, 64, 4), config.retryPolicy().deadlineMs(), catalogHorizon);
        OtmClientConfig otmConfig = new OtmClientConfig(config.connectTimeoutMs(), config.requestTimeoutMs(),
                ProtocolCodec.BODY_BYTES_MAX_DEFAULT, 4_096, 16);
        OtmConnections connections = new OtmConnections(config.otmConnectionsMax(),
                (host, port) -> new OtmClient(host, port, otmConfig));
        this.router = new Router(locator.apply(connections), connections, config.retryPolicy(), clock,
                new Random(config.jitterSeed()));
        this.session = new Session(router);
    }

    /** A client of the cluster whose ZooKeeper ensemble is {@code zkConnect}, with default settings. */
    public static ElasTrasClient connect(String zkConnect) {
        return connect(zkConnect, ElasTrasClientConfig.defaults());
    }

    /**
     * A client of the cluster whose ZooKeeper ensemble is {@code zkConnect} ("host:port,...").
     *
     * @throws ElasTrasException {@code UNREACHABLE} if ZooKeeper cannot be reached within
     *     {@link ElasTrasClientConfig#zkConnectTimeoutMs()}
     */
    public static ElasTrasClient connect(String zkConnect, ElasTrasClientConfig config) {
        if (zkConnect == null || zkConnect.isBlank()) {
            throw new IllegalArgumentException("zkConnect is missing; give the ZooKeeper ensemble, e.g. 127.0.0.1:2181");
        }
        CuratorFramework zk = CuratorFrameworkFactory.builder().connectString(zkConnect)
                .sessionTimeoutMs(config.zkSessionTimeoutMs())
                .connectionTimeoutMs((int) Math.min(config.zkConnectTimeoutMs(), 15_000))
                .retryPolicy(new ExponentialBackoffRetry(100, 3, 1_000)).build();
        zk.start();
        try {
            if (!zk.blockUntilConnected((int) config.zkConnectTimeoutMs(), TimeUnit.MILLISECONDS)) {
                throw new ElasTrasException(ErrorCode.UNREACHABLE, "cannot reach ZooKeeper at " + zkConnect + " within "
                        + config.zkConnectTimeoutMs() + " ms; check the address and that ZooKeeper runs");
            }
        } catch (InterruptedException e) {
            zk.close();
            Thread.currentThread().interrupt();
            throw new ElasTrasException(ErrorCode.UNREACHABLE, "interrupted while connecting to ZooKeeper at " + zkConnect, e);
        } catch (RuntimeException e) {
            zk.close();
            throw e;
        }
        return overCatalogOf(zk, config, true);
    }

    /**
     * A client of the cluster over a ZooKeeper session the caller owns and keeps open (an OTM's,
     * asking other partitions' owners); {@link #close} leaves it open.
     */
    public static ElasTrasClient overSession(CuratorFramework zk, ElasTrasClientConfig config) {
        return overCatalogOf(zk, config, false);
    }

    private static ElasTrasClient overCatalogOf(CuratorFramework zk, ElasTrasClientConfig config, boolean ownsZk) {
        ZkPaths paths = new ZkPaths(config.zkRoot());
        // One horizon for the client: its admin's creates raise it, its catalog reads begin at it.
        CatalogHorizon catalogHorizon = new CatalogHorizon();
        ElasTrasClient client = new ElasTrasClient(zk, connections -> new CachingPartitionLocator(
                new MetaCatalogReader(zk, paths, connections, catalogHorizon), config.cachedLocationsMax(),
                System::nanoTime, connections::retainOnly), config, ClientClock.SYSTEM, catalogHorizon);
        client.ownsZk = ownsZk;
        return client;
    }

    /** What {@link #aggregate} answers: the snapshot read, the rows read, one value per aggregate. */
    public record AggregateResult(long snapshotCts, long rowsScanned, List<Object> values) {
    }

    /**
     * A read-only aggregate over the rows of {@code table} whose keys lie between two key prefixes
     * (inclusive, as a scan's; null for unbounded), kept by {@code where}, on every partition the
     * range spans, all read at one snapshot (at or after this client's session's last commit): each
     * partition's owner scans, filters and reduces its part, and the client merges. COUNT answers a
     * Long, SUM a BigDecimal (null if nothing was summed), MIN and MAX a column value (null if none).
     * Each partition's request is retried through moves within the retry deadline.
     */
    public AggregateResult aggregate(String database, String table, List<?> fromKey, List<?> toKey,
            List<org.elastras.client.protocol.AggregateRequest.Condition> where,
            List<org.elastras.client.protocol.AggregateRequest.Aggregate> select) {
        long started = router.clock().nanoTime();
        org.elastras.catalog.schema.DatabaseSchema schema = router.locator().schema(database);
        int rootColumns = schema.partitioning() == org.elastras.catalog.schema.PartitioningKind.TREE
                ? schema.partitionKeyColumns().size() : 0;
        List<Object> from = fromKey == null ? null : new java.util.ArrayList<>(fromKey);
        List<Object> to = toKey == null ? null : new java.util.ArrayList<>(toKey);
        byte[] cursor = rootColumns > 0 && from != null && from.size() >= rootColumns
                ? RootKeys.encode(schema, from.subList(0, rootColumns)) : new byte[0];
        byte[] lastRoot = rootColumns > 0 && to != null && to.size() >= rootColumns
                ? RootKeys.encode(schema, to.subList(0, rootColumns)) : null;
        long[] snapshot = {session.lastCommitCts()};
        byte[][] next = new byte[1][];
        long rows = 0;
        List<Object> merged = null;
        while (true) {
            byte[] key = cursor;
            org.elastras.client.protocol.AggregateResponse r = router.run("aggregate over " + database + "." + table,
                    database, key, Router.Resend.SAFE, started, (l, otm) -> {
                        next[0] = l.range().endUnbounded() ? null : l.range().end();
                        return otm.aggregate(new org.elastras.client.protocol.AggregateRequest(l.database(), l.partitionId(),
                                table, from, to, where, select, snapshot[0]));
                    });
            snapshot[0] = r.snapshotCts();
            rows += r.rowsScanned();
            merged = merged == null ? new java.util.ArrayList<>(r.values()) : mergeAggregates(select, merged, r.values());
            if (next[0] == null || (lastRoot != null && org.elastras.catalog.key.KeyBytes.compare(next[0], lastRoot) > 0)) {
                return new AggregateResult(snapshot[0], rows, java.util.Collections.unmodifiableList(merged));
            }
            cursor = next[0];
        }
    }

    private static List<Object> mergeAggregates(List<org.elastras.client.protocol.AggregateRequest.Aggregate> select,
            List<Object> into, List<Object> part) {
        for (int i = 0; i < select.size(); i++) {
            Object a = into.get(i);
            Object b = part.get(i);
            if (b == null) {
                continue;
            }
            if (a == null) {
                into.set(i, b);
                continue;
            }
            switch (select.get(i).function()) {
                case "COUNT" -> into.set(i, ((Number) a).longValue() + ((Number) b).longValue());
                case "SUM" -> into.set(i, decimal(a).add(decimal(b)));
                case "MIN" -> into.set(i, compareValues(b, a) < 0 ? b : a);
                case "MAX" -> into.set(i, compareValues(b, a) > 0 ? b : a);
                default -> throw new IllegalArgumentException("unknown aggregate " + select.get(i).function());
            }
        }
        return into;
    }

    private static java.math.BigDecimal decimal(Object v) {
        return v instanceof java.math.BigDecimal d ? d : new java.math.BigDecimal(v.toString());
    }

    @SuppressWarnings("unchecked")
    private static int compareValues(Object a, Object b) {
        if (a instanceof Number && b instanceof Number) {
            return decimal(a).compareTo(decimal(b));
        }
        return ((Comparable<Object>) a).compareTo(b);
    }

    /** A branch begun by {@link #beginBranch}: where it runs, and its id there. */
    public record BranchStart(PartitionLocation location, long txnId) {
    }

    /**
     * Begins a participant's branch of a cross-partition transaction on the partition that holds
     * the encoded root key {@code rootKey}, following moves within the retry deadline: for OTMs
     * whose stored procedures reach other partitions (clients' own transactions do it by
     * themselves).
     */
    public BranchStart beginBranch(String database, byte[] rootKey, org.elastras.client.protocol.Isolation isolation,
            CommitId commitId, org.elastras.client.protocol.BranchOf branch) {
        return router.run("branch on " + database, database, rootKey.clone(), Router.Resend.SAFE, router.clock().nanoTime(),
                (l, otm) -> new BranchStart(l, otm.begin(new org.elastras.client.protocol.BeginRequest(l.database(),
                        l.partitionId(), isolation, 0, commitId, branch)).txnId()));
    }

    /** What the owner of a partition says about a commit id: committed at {@code cts}, or never will. */
    public record CommitOutcome(boolean committed, long cts) {
    }

    /**
     * Whether the transaction with {@code commitId} committed on the partition that holds the
     * encoded root key {@code rootKey} (as partitions are ranged, see {@code KeyCodec}), asked of
     * its current owner; final. For OTMs whose branch of a cross-partition transaction did not
     * hear its outcome.
     *
     * @throws OutcomeUnknownException if no owner answered within the retry deadline
     */
    public CommitOutcome resolveCommit(String database, byte[] rootKey, CommitId commitId) {
        Router.Resolution r = router.resolve("commit " + commitId + " of database " + database, database,
                rootKey.clone(), commitId, router.clock().nanoTime());
        return new CommitOutcome(r.committed(), r.cts());
    }

    /** A new session of this client, with its own "read your writes" horizon. */
    public Session newSession() {
        return new Session(router);
    }

    /** The session the client's own methods use (shared by all its threads). */
    public Session session() {
        return session;
    }

    /**
     * Runs stored procedure {@code procedure} of {@code database} on the partition holding
     * {@code rootKey} (the values of the root table's key columns, in order; empty for a
     * single-partition database) with {@code args}, and returns its result. Retried on routing
     * errors, overload and conflicts; if the answer is lost after sending, throws
     * {@link OutcomeUnknownException} instead of re-sending.
     *
     * @throws ElasTrasException {@code PROCEDURE_ABORTED} if it rolled back on purpose,
     *     {@code UNKNOWN_PROCEDURE}, and the others of the class comment
     */
    public Object call(String database, String procedure, List<?> rootKey, List<?> args) {
        return session.call(database, procedure, rootKey, args);
    }

    /**
     * Like {@link #call}, the procedure's transaction at {@code isolation}: SERIALIZABLE (what
     * {@link #call} uses) validates every row it read at commit; SNAPSHOT does not, so two calls
     * that read each other's rows and write different ones may both commit (write skew). Under
     * SNAPSHOT, writes of the same row still conflict (first updater wins).
     */
    public Object call(String database, String procedure, List<?> rootKey, List<?> args,
            Isolation isolation) {
        return session.call(database, procedure, rootKey, args, isolation);
    }

    /**
     * Like {@link #call}, for a procedure that is safe to run more than once (its second run has no
     * further effect, e.g. it records a request id and skips work already done): also re-sent when
     * an answer was lost.
     */
    public Object callIdempotent(String database, String procedure, List<?> rootKey, List<?> args) {
        return session.callIdempotent(database, procedure, rootKey, args);
    }

    /**
     * Begins an interactive transaction on the partition holding {@code rootKey} (begin is
     * retried like a call). Close it (try-with-resources) or commit it.
     */
    public ClientTransaction transaction(String database, List<?> rootKey) {
        return session.transaction(database, rootKey);
    }

    /**
     * Runs {@code body} in a transaction on the partition holding {@code rootKey} and commits it,
     * running it again in a new transaction when it was aborted for a reason that a retry may fix
     * (a conflict, a move, its OTM failing before the commit), within the retry deadline and
     * attempt bound. A commit whose answer was lost is not re-run: {@link OutcomeUnknownException}.
     *
     * @return what {@code body} returned in the run that committed
     */
    public <T> T runInTransaction(String database, List<?> rootKey, TransactionBody<T> body) {
        return session.runInTransaction(database, rootKey, body);
    }

    /** Admin calls (create databases and tenants, list partitions), sent to the active master. */
    public AdminClient admin() {
        if (admin == null) {
            throw new IllegalStateException("this client has no cluster connection for admin calls");
        }
        return admin;
    }

    /** Where the partition holding {@code rootKey} is served now, as far as the client knows. */
    public PartitionLocation locate(String database, List<?> rootKey) {
        long started = router.clock().nanoTime();
        byte[] key = router.encodeRootKey(database, rootKey, started);
        return router.run("locate " + database + " root key " + rootKey, database, key, Router.Resend.SAFE, started,
                (location, otm) -> location);
    }

    /**
     * How many times this client read the catalog (a whole database at a time): at a database's
     * first use, then after routing failures; not after a live move's hand-over, whose hint it follows.
     */
    public long catalogReads() {
        return router.locator().reads();
    }

    /** Closes every OTM connection and the ZooKeeper session; calls in flight fail. Idempotent. */
    @Override
    public void close() {
        try {
            if (admin != null) {
                admin.close();
            }
            router.connections().close();
            router.locator().close();
        } finally {
            if (zk != null && ownsZk) {
                zk.close();
            }
        }
    }
}
