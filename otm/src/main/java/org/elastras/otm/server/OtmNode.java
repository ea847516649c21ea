package org.elastras.otm.server;

import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.ServiceLoader;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.ExponentialBackoffRetry;
import org.elastras.catalog.meta.ZkPaths;
import org.elastras.client.protocol.CommitId;
import org.elastras.client.protocol.OtmLoad;
import org.elastras.client.protocol.PartitionLoad;
import org.elastras.otm.http.OtmService;
import org.elastras.otm.http.ProtocolServer;
import org.elastras.otm.http.ProtocolServerConfig;
import org.elastras.otm.txn.CommitTag;
import org.elastras.otm.txn.GlobalTables;
import org.elastras.otm.txn.LocalTimestampSource;
import org.elastras.otm.txn.RangeTimestampSource;
import org.elastras.otm.txn.TimestampSource;
import org.elastras.otm.txn.ProcedureRegistry;
import org.elastras.otm.txn.ProcedureRunner;
import org.elastras.otm.txn.SnapshotTracker;
import org.elastras.otm.txn.TransactionLimits;
import org.elastras.otm.txn.TransactionManager;
import org.elastras.storage.dfs.Dfs;
import org.elastras.storage.sstable.BlockCache;
import org.elastras.storage.store.StoreEnvironment;
import org.elastras.storage.store.StoreOptions;
import org.elastras.storage.store.UnappliedCommits;
import org.elastras.storage.wal.WalNames;
import org.elastras.storage.wal.WalOptions;
import org.elastras.storage.wal.WalWriter;

/**
 * One running OTM: the composition root that wires the DFS, the write-ahead log, the transaction
 * manager, the partitions, the lease and the network endpoint together, and takes them down in
 * the reverse order. Everything with a clock or a thread is created here, not in the logic.
 *
 * <p>Thread-safe: {@link #close()} may be called from a shutdown hook.
 */
public final class OtmNode implements AutoCloseable {

    private static final Logger LOG = Logger.getLogger(OtmNode.class.getName());
    private static final long BLOCK_CACHE_BYTES = 256L << 20;
    private static final long DRAIN_TIMEOUT_MS = 10_000;
    private static final int DATABASES_MAX = 10_000;
    /**
     * Runs of one call before it fails CONFLICT. Each re-run first waits (at most twice
     * {@link #PROCEDURE_RETRY_WAIT_MS}) for the transaction it ran into, so this bounds a call's
     * time in re-runs to a few seconds, well inside a client's 30 s. It was 16 until session 20:
     * sixteen calls incrementing one row from other call batches could make one of them lose
     * sixteen times in a row on a loaded machine (first updater wins hands a row to whoever asks
     * first, not to the longest waiter).
     */
    private static final int PROCEDURE_ATTEMPTS_MAX = 64;
    private static final long PROCEDURE_RETRY_WAIT_MS = 50;
    /** How long a commit waits for the master's next timestamp range (covers a master failover). */
    private static final long CTS_WAIT_MS = 10_000;
    /** A branch that voted asks its coordinator once it heard no outcome for this long. */
    private static final long IN_DOUBT_AFTER_MS = 2_000;
    /** How long one question to a coordinator partition's owner may take, moves and failovers included. */
    private static final long IN_DOUBT_ASK_DEADLINE_MS = 10_000;

    private final OtmConfig config;
    private final CuratorFramework zk;
    private final Dfs dfs;
    /** This run's log ({@link WalNames}). */
    private final String walId;
    private final WalWriter wal;
    private final ExecutorService maintenance;
    private final ScheduledExecutorService timer;
    private final TransactionManager transactions;
    private final PartitionHost partitions;
    private final LeaseKeeper.Listener leaseListener;
    private volatile LeaseKeeper lease;
    private final ProtocolServer http;
    private final TransactionService service;
    private final PeerOtms peers;
    private final CommitFaults faults = new CommitFaults();
    private final CrossPartitionCommitter committer;
    /** Asks coordinators about in-doubt branches (may wait for a failover); off the timer thread. */
    private final ScheduledExecutorService resolver;
    /** Created on first use: the catalog client that finds coordinator partitions. */
    private volatile org.elastras.client.ElasTrasClient catalogClient;
    private volatile boolean closed;
    /** Set once the WAL died under a commit; the OTM then serves nothing and gives up its lease. */
    private volatile boolean logFailed;
    /** In a cluster: the master's timestamp ranges and the heartbeat that brings them; null when standalone. */
    private final RangeTimestampSource rangeTimestamps;
    private volatile MasterLink masterLink;
    /** Completed, with the reason, when this OTM can serve nothing more (lease lost, log failed, declared failed). */
    private final CompletableFuture<String> ended = new CompletableFuture<>();

    private OtmNode(OtmConfig config, TransactionLimits limits, Dfs dfs) throws Exception {
        this.config = config;
        this.dfs = dfs;
        this.zk = CuratorFrameworkFactory.builder().connectString(config.zkConnect())
                .sessionTimeoutMs(config.zkSessionTimeoutMs()).connectionTimeoutMs(Math.min(5_000, config.zkSessionTimeoutMs()))
                .retryPolicy(new ExponentialBackoffRetry(100, 10, 2_000)).build();
        zk.start();
        // A log of this run's own: never one an earlier run of this id wrote (see WalNames).
        this.walId = WalNames.newWalId(dfs, config.otmId(), System::currentTimeMillis);
        this.wal = WalWriter.open(dfs, WalNames.liveDirectory(walId), WalOptions.DEFAULT);
        UnappliedCommits unapplied = new UnappliedCommits(walId, wal);
        SnapshotTracker snapshots = new SnapshotTracker(0, 1_000_000);
        TimestampSource timestamps;
        if (config.standalone()) {
            timestamps = new LocalTimestampSource(0, snapshots);
            this.rangeTimestamps = null;
        } else {
            this.rangeTimestamps = new RangeTimestampSource(snapshots, CTS_WAIT_MS, this::exchangeNow);
            timestamps = rangeTimestamps;
        }
        this.transactions = new TransactionManager(wal, unapplied, timestamps, snapshots, limits,
                () -> System.nanoTime() / 1_000_000);
        this.maintenance = Executors.newSingleThreadExecutor(daemon("otm-maintenance"));
        StoreEnvironment environment = new StoreEnvironment(new BlockCache(BLOCK_CACHE_BYTES), maintenance,
                transactions::gcHorizon, CommitTag.expiry(System::currentTimeMillis, CommitId.RETENTION_MS),
                () -> System.nanoTime() / 1_000_000, config.memtableBudget());
        GlobalTables globals = new GlobalTables(10_000_000, new org.elastras.otm.txn.GlobalTableFiles(dfs));
        ProcedureRegistry registry = new ProcedureRegistry(1_000);
        for (ProcedureLibrary library : ServiceLoader.load(ProcedureLibrary.class)) {
            library.procedures().forEach((name, procedure) -> registry.register(library.database(), name, procedure));
            LOG.info(() -> "loaded procedures " + library.procedures().keySet() + " of database " + library.database());
        }
        ProcedureRunner runner = new ProcedureRunner(transactions, registry, PROCEDURE_ATTEMPTS_MAX, PROCEDURE_RETRY_WAIT_MS);
        this.partitions = new PartitionHost(config.otmId(), dfs, wal, unapplied, StoreOptions.DEFAULT, environment,
                transactions, timestamps, snapshots, globals, DRAIN_TIMEOUT_MS, DATABASES_MAX);
        this.leaseListener = new LeaseKeeper.Listener() {
            @Override
            public void leaseSuspended() {
                LOG.warning("ZooKeeper connection suspended: refusing requests until it is back");
            }

            @Override
            public void leaseResumed() {
                LOG.info("ZooKeeper connection back with the same session: serving again");
            }

            @Override
            public void leaseLost() {
                LOG.severe("lease lost: OTM " + config.otmId() + " refuses every request and logs nothing from now on");
                ended.complete("its ZooKeeper lease was lost");
                // The master may already be recovering our partitions from this log.
                wal.fence("the ZooKeeper lease of OTM " + config.otmId() + " was lost");
                // Nor may our stores flush or compact into directories a new owner now uses.
                releasePartitions();
            }
        };
        this.peers = new PeerOtms(org.elastras.client.OtmClientConfig.defaults());
        this.committer = new CrossPartitionCommitter(transactions, faults);
        this.service = new TransactionService(config.otmId(), this::serving, transactions, runner, partitions,
                timestamps, snapshots, globals, this::logFailed, committer, peers, this::askCoordinator,
                config.batchSlots());
        this.resolver = Executors.newSingleThreadScheduledExecutor(daemon("otm-branch-resolver"));
        runner.allowCrossPartition(new ProcedureBranches(transactions, partitions, committer, peers,
                config.standalone() ? null : this::catalog));
        this.http = new ProtocolServer(ProtocolServerConfig.defaults(config.host(), config.port()), service);
        this.timer = Executors.newSingleThreadScheduledExecutor(daemon("otm-timer"));
    }

    /**
     * Starts an OTM: opens the DFS and its log, listens, and takes its lease. It serves nothing
     * until partitions are opened on it.
     */
    public static OtmNode start(OtmConfig config) throws Exception {
        return start(config, TransactionLimits.DEFAULT);
    }

    /** Starts an OTM with non-default transaction limits (sizes, open transactions, idle timeout). */
    public static OtmNode start(OtmConfig config, TransactionLimits limits) throws Exception {
        return start(config, limits, Dfs.open(config.dfs()));
    }

    /** Starts an OTM on a DFS the caller opened (tests inject faults through it); the OTM closes it. */
    static OtmNode start(OtmConfig config, TransactionLimits limits, Dfs dfs) throws Exception {
        OtmNode node = new OtmNode(config, limits, dfs);
        try {
            node.http.start();
            // Before the lease: nothing is opened here until the master sees this OTM, and the
            // first partition moved here opens on warm code.
            node.partitions.warmUp();
            node.http.warmUp(PeerOtms.SENT_IN_MOVES, PeerOtms.samplesSentInMoves());
            node.peers.warmUp();
            String registration = "{\"host\":\"" + config.host() + "\",\"port\":" + node.http.port() + ",\"run\":\""
                    + node.walId + "\",\"startedMs\":" + System.currentTimeMillis() + "}";
            node.lease = new LeaseKeeper(node.zk, new ZkPaths(config.zkRoot()), config.otmId(), utf8(registration),
                    node.leaseListener);
            node.lease.acquire(Math.max(10_000, config.zkSessionTimeoutMs()));
            if (node.rangeTimestamps != null) {
                node.masterLink = new MasterLink(config.otmId(), node.walId, node.zk, new ZkPaths(config.zkRoot()), node.rangeTimestamps,
                        node::load, config.heartbeatMs(), node::declaredFailed);
                node.masterLink.start();
            }
            node.timer.scheduleWithFixedDelay(node::reap, 1, 1, TimeUnit.SECONDS);
            node.resolver.scheduleWithFixedDelay(node::resolveInDoubt, 500, 500, TimeUnit.MILLISECONDS);
            LOG.info(() -> "OTM " + config.otmId() + " serving on " + config.host() + ":" + node.http.port() + " " + registration
                    + ", logging to " + WalNames.liveDirectory(node.walId));
            return node;
        } catch (Exception e) {
            node.close();
            throw e;
        }
    }

    private void reap() {
        try {
            transactions.reap(System.nanoTime() / 1_000_000);
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, "reaping idle transactions failed", e);
        }
        try {
            partitions.sweepIncoming();
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, "closing idle partition copies failed", e);
        }
    }

    private void resolveInDoubt() {
        if (!serving()) {
            return;
        }
        try {
            int decided = service.resolveInDoubt(System.nanoTime() / 1_000_000, IN_DOUBT_AFTER_MS);
            if (decided > 0) {
                LOG.info(() -> decided + " in-doubt branch(es) decided after asking their coordinators");
            }
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, "resolving in-doubt branches failed", e);
        }
    }

    /**
     * The outcome of a cross-partition transaction, from its coordinator partition: here if this
     * OTM serves it, else from its owner found through the catalog. Null if it cannot be learnt now.
     */
    private TransactionManager.Resolution askCoordinator(org.elastras.otm.txn.BranchCoordinator coordinator, CommitTag tag) {
        if (transactions.serves(coordinator.partitionId())) {
            try {
                return transactions.resolve(coordinator.partitionId(), tag, IN_DOUBT_ASK_DEADLINE_MS);
            } catch (org.elastras.otm.txn.TransactionException e) {
                LOG.fine(() -> "cannot resolve " + tag + " here yet: " + e.getMessage());
                return null;
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return null;
            }
        }
        if (config.standalone()) {
            LOG.warning(() -> "a branch of " + tag + " waits for " + coordinator + ", which this standalone OTM does not"
                    + " serve and cannot find without a catalog");
            return null;
        }
        try {
            org.elastras.client.ElasTrasClient.CommitOutcome o = catalog().resolveCommit(coordinator.database(),
                    coordinator.rootKey(), new CommitId(tag.issuedMs(), tag.nonce()));
            return new TransactionManager.Resolution(o.committed(), o.cts(), null);
        } catch (org.elastras.client.protocol.ElasTrasException e) {
            LOG.info(() -> "cannot learn the outcome of " + tag + " from " + coordinator + " yet: " + e.getMessage());
            return null;
        }
    }

    private org.elastras.client.ElasTrasClient catalog() {
        org.elastras.client.ElasTrasClient c = catalogClient;
        if (c == null) {
            synchronized (this) {
                c = catalogClient;
                if (c == null) {
                    c = org.elastras.client.ElasTrasClient.overSession(zk, org.elastras.client.ElasTrasClientConfig
                            .defaults().withZkRoot(config.zkRoot()).withRetryDeadlineMs(IN_DOUBT_ASK_DEADLINE_MS));
                    catalogClient = c;
                }
            }
        }
        return c;
    }

    /** Fault injection into this OTM's live moves out (tests only; off by default). */
    public MoveFaults moveFaults() {
        return partitions.moveFaults();
    }

    /** Whether this OTM holds a live move's copy of the partition (filling, or complete and not served yet). */
    public boolean receiving(long partitionId) {
        return partitions.receiving(partitionId);
    }

    /** Fault injection into this OTM's cross-partition commits (tests only; off by default). */
    public CommitFaults commitFaults() {
        return faults;
    }

    public int port() {
        return http.port();
    }

    /**
     * The service behind the HTTP endpoint, for callers in this JVM: the same checks, limits and
     * durability as a request, without the wire. Benchmarks use it to measure the engine alone.
     */
    public OtmService service() {
        return service;
    }

    public String otmId() {
        return config.otmId();
    }

    /** The wal id of this run's log: {@code <otm id>@<start time>} ({@link WalNames}). */
    public String walId() {
        return walId;
    }

    /** Whether this OTM holds its lease and serves. */
    public boolean serving() {
        LeaseKeeper l = lease;
        return l != null && l.holds() && !closed && !logFailed;
    }

    /**
     * The write-ahead log failed under a commit: stop serving and give the lease up (delete the
     * znode), so that the master fences the log and another OTM recovers the partitions; the
     * commits whose durability was unknown are decided there, by what the log holds.
     */
    private void logFailed() {
        if (logFailed) {
            return;
        }
        logFailed = true;
        LOG.severe("the write-ahead log of OTM " + config.otmId() + " failed: giving up the lease and every partition");
        ended.complete("its write-ahead log failed");
        LeaseKeeper l = lease;
        if (l != null) {
            l.close();
        }
        releasePartitions();
    }

    private void exchangeNow() {
        MasterLink link = masterLink;
        if (link != null) {
            link.exchangeNow();
        }
    }

    /** What the heartbeat reports about this OTM's load. */
    private OtmLoad load() {
        double cpu = -1;
        if (ManagementFactory.getOperatingSystemMXBean() instanceof com.sun.management.OperatingSystemMXBean os) {
            double v = os.getProcessCpuLoad();
            cpu = v >= 0 && v <= 1 ? v : -1;
        }
        // One consistent sample: totalMemory() - freeMemory() went negative when the heap grew
        // between the two calls, and the load it made killed the heartbeat thread.
        java.lang.management.MemoryUsage heap = ManagementFactory.getMemoryMXBean().getHeapMemoryUsage();
        long heapMax = heap.getMax() >= 0 ? heap.getMax() : Runtime.getRuntime().maxMemory();
        List<PartitionLoad> partitionLoads = new ArrayList<>();
        for (TransactionManager.PartitionLoadSample c : transactions.takePartitionLoads()) {
            partitionLoads.add(new PartitionLoad(c.partitionId(), c.commits(), c.aborts(), c.begins(), c.storeBytes(),
                    c.commitLatency()));
        }
        return new OtmLoad(cpu, Math.max(0, heap.getUsed()), heapMax, partitionLoads);
    }

    /**
     * The master declared this OTM failed (it missed heartbeats) and is recovering its partitions
     * elsewhere: stop logging and serving at once, as when the lease is lost.
     */
    private void declaredFailed() {
        LOG.severe("OTM " + config.otmId() + " was declared failed by the master: it refuses every request from now on");
        logFailed = true;
        ended.complete("the master declared it failed");
        wal.fence("OTM " + config.otmId() + " was declared failed by the master");
        LeaseKeeper l = lease;
        if (l != null) {
            l.close();
        }
        releasePartitions();
    }

    /**
     * Completes, with the reason, once this OTM can serve nothing more: its lease was lost, its log
     * failed or the master declared it failed. Its id is spent; a supervisor should start a new OTM
     * under a new id.
     */
    public CompletableFuture<String> ended() {
        return ended;
    }

    /** The highest snapshot the master announced, or -1 for a standalone OTM. */
    public long globalSnapshot() {
        return rangeTimestamps == null ? -1 : rangeTimestamps.globalSnapshot();
    }

    /** Closes every store without flushing, on a thread of its own (an open in progress may hold it up). */
    private void releasePartitions() {
        Thread release = new Thread(partitions::abandonAll, "otm-release-partitions");
        release.setDaemon(true);
        release.start();
    }

    /**
     * Stops: the endpoint first (no new requests), then the lease, the log (commits in flight
     * finish), the stores (without a flush: the log has everything) and the DFS.
     */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        MasterLink link = masterLink;
        if (link != null) {
            link.close();
        }
        http.close();
        timer.shutdownNow();
        resolver.shutdownNow();
        committer.close();
        peers.close();
        org.elastras.client.ElasTrasClient c = catalogClient;
        if (c != null) {
            c.close();
        }
        LeaseKeeper l = lease;
        if (l != null) {
            l.close();
        }
        try {
            wal.close();
        } catch (Exception e) {
            LOG.log(Level.WARNING, "closing the WAL failed", e);
        }
        partitions.abandonAll();
        maintenance.shutdownNow();
        zk.close();
        try {
            dfs.close();
        } catch (Exception e) {
            LOG.log(Level.WARNING, "closing the DFS failed", e);
        }
    }

    private static java.util.concurrent.ThreadFactory daemon(String name) {
        return r -> {
            Thread t = new Thread(r, name);
            t.setDaemon(true);
            return t;
        };
    }

    static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
