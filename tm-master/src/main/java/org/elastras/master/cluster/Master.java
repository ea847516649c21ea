package org.elastras.master.cluster;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.Callable;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.LongSupplier;
import java.util.logging.Level;
import java.util.logging.Logger;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.framework.recipes.cache.ChildData;
import org.apache.curator.framework.recipes.cache.CuratorCache;
import org.apache.curator.framework.recipes.cache.CuratorCacheListener;
import org.apache.curator.framework.recipes.leader.LeaderLatch;
import org.apache.curator.framework.recipes.leader.LeaderLatchListener;
import org.apache.curator.retry.ExponentialBackoffRetry;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.data.Stat;
import org.elastras.catalog.key.KeyCodec;
import org.elastras.catalog.meta.CatalogSchemas;
import org.elastras.catalog.meta.MetaRow;
import org.elastras.catalog.meta.ZkPaths;
import org.elastras.catalog.schema.Column;
import org.elastras.catalog.schema.DatabaseSchema;
import org.elastras.catalog.schema.Names;
import org.elastras.catalog.schema.PartitioningKind;
import org.elastras.client.ActiveMaster;
import org.elastras.client.OtmClient;
import org.elastras.client.OtmClientConfig;
import org.elastras.client.protocol.Operation;
import org.elastras.client.protocol.CatalogHandOver;
import org.elastras.client.protocol.ClosePartitionRequest;
import org.elastras.client.protocol.MoveDestination;
import org.elastras.client.protocol.ClosePartitionResponse;
import org.elastras.client.protocol.ElasTrasException;
import org.elastras.client.protocol.HandOverOutcome;
import org.elastras.client.protocol.ErrorCode;
import org.elastras.client.protocol.HeartbeatRequest;
import org.elastras.client.protocol.ProtocolCodec;
import org.elastras.client.protocol.HeartbeatResponse;
import org.elastras.client.protocol.OpenPartitionRequest;
import org.elastras.client.protocol.OtmLoad;
import org.elastras.client.protocol.RegisterDatabaseRequest;
import org.elastras.client.protocol.SchemaSpec;
import org.elastras.client.protocol.TimestampReply;
import org.elastras.client.protocol.WireValues;
import org.elastras.master.balance.BalanceInput;
import org.elastras.master.balance.BalancePlan;
import org.elastras.master.balance.BalancePolicy;
import org.elastras.master.balance.LoadWindow;
import org.elastras.master.balance.Move;
import org.elastras.master.balance.MoveLedger;
import org.elastras.master.balance.MoveReason;
import org.elastras.master.balance.Placement;
import org.elastras.master.balance.Provisioner;
import org.elastras.master.balance.ThresholdPolicy;
import org.elastras.master.timestamp.RejectedReportException;
import org.elastras.master.timestamp.TimestampService;
import org.elastras.master.timestamp.ZkHighWaterMarkStore;
import org.elastras.otm.http.ProtocolServer;
import org.elastras.otm.http.ProtocolServerConfig;
import org.elastras.otm.server.PartitionDirectories;
import org.elastras.storage.dfs.Dfs;
import org.elastras.storage.wal.WalNames;

/**
 * One master process: the IO around {@link ClusterState}. It takes part in the leader election
 * (Curator {@link LeaderLatch} on {@code {root}/master}); standbys only wait. The leader watches
 * {@code {root}/otms} for OTMs joining and leaving (a vanished znode is a failed OTM: its session
 * expired or it closed), rebuilds the partition map from the catalog ({@link CatalogStore}:
 * ZooKeeper -> ROOT -> META, each level read once the partitions holding it serve, reopened first
 * if their owner is gone), feeds every observation to the state machine and carries out its
 * decisions: fencing a failed OTM (delete its znode, rename its log, {@link WalFence}) and opening
 * partitions on OTMs (record the assignment in the catalog one level up, then
 * {@code registerDatabase} + {@code openPartition}). A new cluster's ROOT and first META
 * partition are created by the first master.
 *
 * <p>Threads: one event loop owns the state machine and everything it decides (all events are
 * posted to it, tagged with the leadership term they belong to, and dropped if the term is over);
 * a bounded pool does the blocking IO and posts the outcome back. The admin methods are
 * thread-safe and run on the loop.
 *
 * <p>Not built yet: reloading global tables on a new owner, splitting META.
 */
public final class Master implements AutoCloseable {

    private static final Logger LOG = Logger.getLogger(Master.class.getName());
    private static final long ADMIN_TIMEOUT_MS = 30_000;
    private static final long REBUILD_RETRY_MS = 1_000;
    /** How soon a join whose fence of earlier runs failed is tried again. */
    private static final long JOIN_RETRY_MS = 1_000;
    /** How often the rebuild checks whether the registered OTMs have joined. */
    private static final long JOIN_WAIT_MS = 10;
    private static final int IO_THREADS = 8;
    /** A heartbeat connection silent this long is closed (OTMs exchange every few milliseconds). */
    private static final int HEARTBEAT_IDLE_TIMEOUT_MS = 30_000;
    private static final long FIRST_HEARTBEAT_GRACE_MS = 10_000;
    /** How many recent events the dashboard can show. */
    private static final int EVENTS_MAX = 1_000;

    private final MasterConfig config;
    private final LongSupplier clockMs;
    private final ZkPaths paths;
    private final CuratorFramework zk;
    private final Dfs dfs;
    /** The catalog of the current term (set on the loop when elected; used by IO threads). */
    private volatile CatalogStore catalog;
    private final ScheduledExecutorService loop;
    private final ThreadPoolExecutor io;
    /** This master's place in the election; replaced when it rejoins after abdicating. Loop thread writes it. */
    private volatile LeaderLatch latch;
    private final ObjectMapper json = new ObjectMapper();

    /**
     * Written on the loop thread only (IO threads read it): incremented on every change of
     * leadership; events of older terms are dropped.
     */
    private volatile long term;
    /** Loop thread only: the state machine while leader, null otherwise. */
    private ClusterState state;
    /** Loop thread only: the membership watch while leader. */
    private CuratorCache membership;
    /** Written on the loop, read by IO threads: the schema of every database, by canonical name. */
    private final Map<String, SchemaSpec> schemas = new ConcurrentHashMap<>();
    /** Live moves' hand-over writes sent to their origins and not answered yet, by partition id (this term's). */
    private final Map<Long, CatalogStore.HandOver> handOvers = new ConcurrentHashMap<>();
    /**
     * Partitions that a live move's origin recorded at the destination and opened there, with that
     * record (this term's); the loop takes an entry when it decides that open (which then needs no IO).
     */
    private final Map<Long, PartitionRecord> openedAtHandOver = new ConcurrentHashMap<>();
    /** Clients of live OTMs by id; created by IO threads, closed on the loop when the OTM is lost. */
    private final Map<String, OtmClient> clients = new ConcurrentHashMap<>();
    /**
     * Per OTM (by id, with its client): the databases whose schema it accepted from this master, so
     * that an open there needs no {@code registerDatabase} first. Dropped with the client; an OTM
     * that forgot a schema anyway answers UNKNOWN_DATABASE and gets it again.
     */
    private final Map<String, Set<String>> registeredSchemas = new ConcurrentHashMap<>();
    /** True once leader and rebuilt (the admin API acts only then). */
    private volatile boolean active;
    private volatile boolean closed;
    /** The endpoint OTMs send heartbeats to; a standby answers NOT_SERVING. */
    private final ProtocolServer http;
    /** OTMs' heartbeats over plain TCP ({@link HeartbeatListener}); the endpoint answers them too. */
    private final HeartbeatListener heartbeatPort;
    /** Loop thread: how far the rebuild of a new term has come. */
    private Rebuild rebuild = Rebuild.IDLE;
    /** Loop thread: a rebuild step's IO is under way. */
    private boolean rebuildLoading;
    /** Loop thread: the largest partition id seen in the catalog or handed out in this term. */
    private long partitionIdsUsed;
    /** The timestamp service while active (set on the loop, read by heartbeat threads), else null. */
    private volatile TimestampService timestamps;
    /** Per OTM: when its last heartbeat was accepted (the loop's clock), for failure detection. */
    private final Map<String, Long> lastHeartbeatMs = new ConcurrentHashMap<>();
    /** Per OTM: the load its last heartbeat carried. */
    private final Map<String, OtmLoad> loads = new ConcurrentHashMap<>();
    /** Per OTM: the last report applied and the reply, to answer a resent report without applying it twice. */
    private final Map<String, Exchanged> lastExchange = new ConcurrentHashMap<>();
    /** OTMs declared failed in this term (for the operators' view, the balancer and the claims). */
    private final Set<String> failedOtms = ConcurrentHashMap.newKeySet();
    /**
     * Per OTM id: the run (its wal id, {@code "run"} in its registration) whose znode the membership
     * cache saw last. A restarted OTM keeps its id and registers a new run. Loop thread writes.
     */
    private final Map<String, String> registeredRuns = new ConcurrentHashMap<>();
    /** Per OTM id: the run admitted as live; only its heartbeats are answered. Loop thread writes. */
    private final Map<String, String> liveRuns = new ConcurrentHashMap<>();
    /**
     * Per OTM id: a registered run whose join waits for the fence of the id's earlier runs' logs
     * ({@link #fenceEarlierRuns}); the rebuild starts only once none waits. Loop thread.
     */
    private final Map<String, String> joining = new HashMap<>();
    /** Per OTM id: the live run just lost, until the fence decision declares it failed. Loop thread. */
    private final Map<String, String> lostRuns = new HashMap<>();
    /**
     * Per OTM id: its runs declared failed and not recovered yet, as the timestamp service knows
     * them (the run, or the id for an OTM found dead at a rebuild, run unknown); their heartbeats are
     * answered DECLARED_FAILED. Loop thread writes; heartbeat and fence threads read.
     */
    private final Map<String, Set<String>> failedRuns = new ConcurrentHashMap<>();
    /**
     * After taking over: the OTMs whose CTS claims the timestamp service still waits for (live ones
     * until their first exchange, failed ones until recovered). Guarded by itself.
     */
    private final Set<String> claimsPending = new HashSet<>();
    private boolean claimsComplete;
    /** Operators' view: recent events (elections, OTMs, fences, partitions). Thread-safe. */
    private final MasterEvents events = new MasterEvents(EVENTS_MAX, System::currentTimeMillis);
    /** Per OTM: the address of its registration, for the dashboard (kept after it is lost). */
    private final Map<String, String> otmHosts = new ConcurrentHashMap<>();
    private final Map<String, Integer> otmPorts = new ConcurrentHashMap<>();
    /** The dashboard's URL, announced with this master's address so a standby can point to it; null if none. */
    private volatile String dashboardUrl;

    private record Exchanged(long sequence, HeartbeatResponse response) {
    }

    /** Loop thread: per-partition and per-OTM load over a sliding window, from the heartbeats. */
    private final LoadWindow loadWindow;
    private final BalancePolicy policy;
    /** Loop thread: moves under way and recent ones, for the policy's cooldowns. */
    private final MoveLedger moveLedger;
    /** Adds and removes OTMs when the balancer asks; null: its advice is only reported. */
    private volatile Provisioner provisioner;
    /** Loop thread: OTMs asked of the provisioner and not answered yet. */
    private int otmsBeingAdded;
    /**
     * OTMs that joined and are still being given this master's schemas: the balancer counts them
     * as being added, not as destinations, so that its first moves into a new OTM do not wait for
     * (or repeat) that registration (0.7-1.0 s on a freshly started JVM in the elasticity
     * experiment). Written by the loop and IO threads.
     */
    private final Set<String> otmsWarming = ConcurrentHashMap.newKeySet();
    /** Loop thread: when an OTM the balancer asked for last came up (no scale-in for a while after). */
    private long lastOtmAddedMs = Long.MIN_VALUE / 2;
    /** Loop thread: OTMs being drained to be removed, and those whose removal was asked. */
    private final Set<String> toRemove = new TreeSet<>();
    private final Set<String> removing = new TreeSet<>();
    /** Loop thread: when the policy last ran, and what it last recommended about OTMs. */
    private long lastBalanceMs;
    /** Loop thread: when the last collection of fenced logs started. */
    private long lastLogCollectMs;
    /** Set on the loop thread when a collection of fenced logs is submitted; cleared when it ends. */
    private volatile boolean collectingLogs;
    /** Collections of fenced logs finished in this process (one runs at a time, so one writer). */
    private volatile long logCollectionsDone;
    private String lastScaleAdvice = "";
    /** Moves under way (written on the loop, read by the dashboard). */
    private final Map<Long, MoveView> moves = new ConcurrentHashMap<>();
    /** Per partition moving: where its time goes (written by IO threads, read on the loop when it ends). */
    private final Map<Long, MovePhases> movePhases = new ConcurrentHashMap<>();
    private volatile long movesDone;

    /**
     * A new term's rebuild, ZooKeeper -> ROOT -> META: each step reads one catalog level once the
     * partitions holding it serve (reopened first if their owner is gone).
     */
    private enum Rebuild {
        IDLE, AWAIT_ROOT, AWAIT_META, DONE
    }

    /** The timestamp claim that stays pending until the rebuild has found every failed OTM. */
    /** After the balancer added an OTM, how many load windows pass before it may remove one. */
    private static final int SCALE_IN_HOLD_WINDOWS = 3;
    private static final String REBUILD_CLAIM = "(rebuilding the catalog)";
    private static final SchemaSpec ROOT_SPEC = SchemaSpec.of(CatalogSchemas.root());
    private static final SchemaSpec META_SPEC = SchemaSpec.of(CatalogSchemas.meta());

    private Master(MasterConfig config, LongSupplier clockMs) throws Exception {
        this.config = config;
        this.clockMs = clockMs;
        this.paths = new ZkPaths(config.zkRoot());
        this.dfs = Dfs.open(config.dfs());
        this.zk = CuratorFrameworkFactory.builder().connectString(config.zkConnect())
                .sessionTimeoutMs(config.zkSessionTimeoutMs())
                .connectionTimeoutMs(Math.min(5_000, config.zkSessionTimeoutMs()))
                .retryPolicy(new ExponentialBackoffRetry(100, 10, 2_000)).build();
        this.loop = Executors.newSingleThreadScheduledExecutor(daemon("master-" + config.masterId() + "-loop"));
        // Bounded: opens are bounded by the state machine, fences by the number of OTMs.
        this.io = new ThreadPoolExecutor(IO_THREADS, IO_THREADS, 30, TimeUnit.SECONDS,
                new ArrayBlockingQueue<>(config.limits().opensInFlightMax() + config.limits().otmsMax()),
                daemon("master-" + config.masterId() + "-io"));
        this.latch = new LeaderLatch(zk, paths.master(), config.masterId());
        this.loadWindow = new LoadWindow(config.balance().window());
        this.policy = new ThresholdPolicy(config.balance().policy());
        this.moveLedger = new MoveLedger(Math.max(config.balance().policy().cooldownMs(), config.balance().window().windowMs()));
        this.http = new ProtocolServer(ProtocolServerConfig.defaults(config.host(), config.port()), new MasterEndpoint(this));
        // Twice the OTMs: an OTM's reconnect may come before the master saw its old connection end.
        this.heartbeatPort = new HeartbeatListener(config.host(), this::heartbeat, new ProtocolCodec(),
                2 * config.limits().otmsMax(), HEARTBEAT_IDLE_TIMEOUT_MS);
    }

    /**
     * Starts a master: connects to ZooKeeper and joins the election. Returns at once; it acts
     * only once elected ({@link #active()}).
     *
     * @param clockMs a monotonic clock in milliseconds (retry backoff)
     */
    public static Master start(MasterConfig config, LongSupplier clockMs) throws Exception {
        Master master = new Master(Objects.requireNonNull(config, "config"), Objects.requireNonNull(clockMs, "clockMs"));
        try {
            // A move must not wait for the readers and writers of its requests to be built.
            OtmClient.warmUp(master.otmClientConfig(), Operation.MOVES);
            master.http.start();
            master.heartbeatPort.start();
            master.zk.start();
            if (!master.zk.blockUntilConnected(Math.max(10_000, config.zkSessionTimeoutMs()), TimeUnit.MILLISECONDS)) {
                throw new TimeoutException("cannot reach ZooKeeper at " + config.zkConnect() + "; check the connect string");
            }
            master.listen(master.latch);
            master.latch.start();
            master.loop.scheduleWithFixedDelay(master::tick, config.tickMs(), config.tickMs(), TimeUnit.MILLISECONDS);
            return master;
        } catch (Exception e) {
            master.close();
            throw e;
        }
    }

    /** Makes {@code l}'s elections this master's, on the loop thread. */
    private void listen(LeaderLatch l) {
        l.addListener(new LeaderLatchListener() {
            @Override
            public void isLeader() {
                if (l == latch) {
                    becomeLeader();
                }
            }

            @Override
            public void notLeader() {
                if (l == latch) {
                    stepDown("leadership lost");
                }
            }
        }, loop);
    }

    /** A master on the system's monotonic clock. */
    public static Master start(MasterConfig config) throws Exception {
        return start(config, () -> System.nanoTime() / 1_000_000);
    }

    /** Whether this master is the elected one and has rebuilt its state (the admin API works). */
    public boolean active() {
        return active;
    }

    public String masterId() {
        return config.masterId();
    }

    /** The port the master's endpoint listens on. */
    public int port() {
        return http.port();
    }

    /** The snapshot the timestamp service announces, or -1 when not active. */
    public long snapshotCts() {
        TimestampService ts = timestamps;
        return ts == null ? -1 : ts.snapshotCts();
    }

    /** The last CTS issued, or -1 when not active. */
    public long issuedUpToCts() {
        TimestampService ts = timestamps;
        return ts == null ? -1 : ts.issuedUpToCts();
    }

    /** The load each OTM last reported. */
    public Map<String, OtmLoad> loads() {
        return Map.copyOf(loads);
    }

    // ---------------------------------------------------------------- dashboard (read-only views)

    /** Recent events, for operators. */
    public MasterEvents events() {
        return events;
    }

    /** The schema of every database, by canonical name; empty on a master that is not active. */
    public Map<String, SchemaSpec> databases() {
        return active ? Map.copyOf(schemas) : Map.of();
    }

    /** How long an OTM may be silent before it is declared failed. */
    public long heartbeatTimeoutMs() {
        return config.heartbeatTimeoutMs();
    }

    /** The live OTMs, then those declared failed in this term, by id; empty on a master that is not active. */
    public List<OtmView> otms() throws Exception {
        return onLoop(() -> {
            List<OtmView> out = new ArrayList<>();
            if (state == null) {
                return out;
            }
            long now = clockMs.getAsLong();
            for (String id : state.liveOtms()) {
                Long last = lastExchange.containsKey(id) ? lastHeartbeatMs.get(id) : null;
                out.add(new OtmView(id, otmHosts.get(id), otmPorts.getOrDefault(id, 0), true, false,
                        last == null ? -1 : Math.max(0, now - last), liveRuns.get(id)));
            }
            for (String id : new TreeSet<>(failedOtms)) {
                if (state.liveOtms().contains(id)) {
                    continue; // A new run of the id is live.
                }
                out.add(new OtmView(id, otmHosts.get(id), otmPorts.getOrDefault(id, 0), false, state.recovering(id), -1,
                        null));
            }
            return out;
        });
    }

    /**
     * What the active master announced in ZooKeeper ({@code masterId}, {@code host}, {@code port}
     * and, if it runs one, {@code dashboard}); empty if no master is announced or it cannot be read.
     */
    public Map<String, Object> activeAnnouncement() {
        try {
            byte[] data = zk.getData().forPath(paths.activeMaster());
            @SuppressWarnings("unchecked")
            Map<String, Object> announced = json.readValue(data, Map.class);
            return announced;
        } catch (Exception e) {
            return Map.of();
        }
    }

    /**
     * Sets the dashboard URL this master announces when it is (or becomes) the active one, so that a
     * standby's dashboard can point operators to it.
     */
    public void advertiseDashboard(String url) {
        dashboardUrl = Objects.requireNonNull(url, "url");
        post(term, () -> {
            if (state != null && announced()) {
                try {
                    zk.setData().forPath(paths.activeMaster(), announcement());
                } catch (Exception e) {
                    LOG.log(Level.WARNING, "announcing the dashboard failed", e);
                }
            }
        });
    }

    // ---------------------------------------------------------------- heartbeats (endpoint threads)

    /**
     * One OTM's heartbeat: the timestamp exchange, its load, and proof of life. A report already
     * applied (the OTM resends it when the reply was lost) is answered with the same reply.
     */
    HeartbeatResponse heartbeat(HeartbeatRequest request) {
        TimestampService ts = timestamps;
        if (ts == null) {
            throw new ElasTrasException(ErrorCode.NOT_SERVING, "master " + config.masterId()
                    + " is not the active master; the active one is announced at " + paths.activeMaster());
        }
        String otmId = request.otmId();
        String run = request.run();
        if (!run.equals(liveRuns.get(otmId))) {
            throw refusal(otmId, run);
        }
        if (ts.fenced()) {
            post(term, () -> abdicate("another master advanced the timestamp high-water mark"));
            throw new ElasTrasException(ErrorCode.NOT_SERVING, "master " + config.masterId() + " was superseded");
        }
        Exchanged previous = lastExchange.get(otmId);
        if (previous != null && previous.sequence() == request.sequence()) {
            lastHeartbeatMs.put(otmId, clockMs.getAsLong());
            return previous.response();
        }
        if (previous != null && request.sequence() < previous.sequence()) {
            throw new ElasTrasException(ErrorCode.MALFORMED_REQUEST, "report " + request.sequence() + " of OTM " + otmId
                    + " is older than report " + previous.sequence() + ", already applied");
        }
        TimestampReply reply;
        try {
            reply = ts.exchange(run, request.timestamps());
        } catch (RejectedReportException e) {
            throw new ElasTrasException(ErrorCode.MALFORMED_REQUEST, "the timestamp report of OTM " + otmId
                    + " was refused: " + e.getMessage());
        }
        HeartbeatResponse response = new HeartbeatResponse(config.masterId(), reply);
        lastExchange.put(otmId, new Exchanged(request.sequence(), response));
        lastHeartbeatMs.put(otmId, clockMs.getAsLong());
        if (request.load() != null) {
            loads.put(otmId, request.load());
            OtmLoad load = request.load();
            post(term, () -> loadWindow.report(otmId, clockMs.getAsLong(), load));
        }
        claimSettled(otmId);
        return response;
    }

    /** {@code otmId} claimed its CTSs (exchanged) or was recovered; the inherited rest is released once all have. */
    private void claimSettled(String otmId) {
        TimestampService ts = timestamps;
        synchronized (claimsPending) {
            if (claimsComplete || !claimsPending.remove(otmId) || !claimsPending.isEmpty() || ts == null) {
                return;
            }
            claimsComplete = true;
        }
        ts.inheritedClaimsComplete();
        LOG.info(() -> "every OTM has claimed its timestamps: the snapshot may pass the inherited CTSs");
    }

    /**
     * Why a heartbeat from a run that is not the admitted one is refused: DECLARED_FAILED (the OTM
     * stops for good) for a run declared failed or one that does not hold its id's registration in
     * ZooKeeper; NOT_SERVING (it retries) for the run that does, which waits for the fence of the
     * id's previous run or is not yet seen by the membership cache.
     */
    private ElasTrasException refusal(String otmId, String run) {
        Set<String> failed = failedRuns.get(otmId);
        if (failed != null && failed.contains(run)) {
            return new ElasTrasException(ErrorCode.DECLARED_FAILED, "OTM " + otmId + " (run " + run + ") was declared"
                    + " failed; its partitions are recovered elsewhere and this run must not serve again");
        }
        String registered = registeredRuns.get(otmId);
        if (!run.equals(registered)) {
            try {
                registered = runOf(zk.getData().forPath(paths.otm(otmId)));
            } catch (KeeperException.NoNodeException e) {
                registered = null;
            } catch (Exception e) {
                return new ElasTrasException(ErrorCode.NOT_SERVING, "cannot check the registration of OTM " + otmId
                        + " in ZooKeeper: " + e.getMessage());
            }
        }
        if (!run.equals(registered)) {
            return new ElasTrasException(ErrorCode.DECLARED_FAILED, "OTM " + otmId + " (run " + run + ") does not hold"
                    + " the id's registration in ZooKeeper (" + (registered == null ? "nobody does" : "run " + registered
                    + " does") + "): it was declared failed or replaced, and must not serve");
        }
        return new ElasTrasException(ErrorCode.NOT_SERVING, "OTM " + otmId + " (run " + run + ") is registered but not"
                + " live at master " + config.masterId() + " yet" + (failedOtms.contains(otmId)
                        ? ": it joins once the fence of the id's previous run is confirmed" : "") + "; retry");
    }

    /** The run named by an OTM's registration, or null if it names none or is not JSON. */
    private String runOf(byte[] registration) {
        try {
            return registration == null ? null : json.readTree(registration).path("run").asText(null);
        } catch (IOException e) {
            return null;
        }
    }

    // ---------------------------------------------------------------- admin API

    /**
     * Creates a tree-partitioned database split at the given root keys into
     * {@code rootKeyBoundaries.size() + 1} partitions ({@code [-inf, b0), [b0, b1), ..., [bn, +inf)}),
     * records it in ZooKeeper and assigns the partitions. Returns without waiting for them to serve.
     *
     * @param rootKeyBoundaries root keys (each a list of root-key column values), strictly ascending
     * @throws IllegalArgumentException for a bad schema, bad boundaries or an existing database
     * @throws IllegalStateException if this master is not the active one
     */
    public List<PartitionView> createDatabase(DatabaseSchema schema, List<List<Object>> rootKeyBoundaries)
            throws Exception {
        return createTree(schema, rootKeyBoundaries).partitions();
    }

    private CreatedDatabase createTree(DatabaseSchema schema, List<List<Object>> rootKeyBoundaries) throws Exception {
        if (schema.partitioning() != PartitioningKind.TREE) {
            throw new IllegalArgumentException("database " + schema.name()
                    + " is single-partition; create it with createTenant");
        }
        checkAscending(schema, rootKeyBoundaries);
        List<List<Object>> bounds = new ArrayList<>();
        bounds.add(null);
        bounds.addAll(rootKeyBoundaries);
        bounds.add(null);
        return createPartitions(schema, bounds);
    }

    /**
     * Creates a single-partition database (a tenant) and assigns its one partition.
     *
     * @throws IllegalArgumentException for a tree schema or an existing database
     * @throws IllegalStateException if this master is not the active one
     */
    public PartitionView createTenant(DatabaseSchema schema) throws Exception {
        return createSingle(schema).partitions().get(0);
    }

    private CreatedDatabase createSingle(DatabaseSchema schema) throws Exception {
        if (schema.partitioning() != PartitioningKind.SINGLE_PARTITION) {
            throw new IllegalArgumentException("database " + schema.name()
                    + " is tree-partitioned; create it with createDatabase and its root-key boundaries");
        }
        List<List<Object>> bounds = new ArrayList<>();
        bounds.add(null);
        bounds.add(null);
        return createPartitions(schema, bounds);
    }

    /**
     * What a create recorded and assigned. Immutable.
     *
     * @param partitions the new database's partitions
     * @param catalogCts the highest commit timestamp of the create's catalog writes (META's rows,
     *     then ROOT's schema row, which makes the database exist): a catalog read that begins with
     *     it as {@code afterCts} finds the database
     */
    public record CreatedDatabase(List<PartitionView> partitions, long catalogCts) {

        public CreatedDatabase {
            partitions = List.copyOf(partitions);
            if (catalogCts < 0) {
                throw new IllegalArgumentException("catalogCts must be >= 0, got " + catalogCts);
            }
        }
    }

    /**
     * {@link #createTenant} for a single-partition schema without boundaries, else
     * {@link #createDatabase} (which refuses a single-partition schema with boundaries); also says at
     * which commit timestamp the catalog holds the database, for the admin API to hand to the client.
     */
    public CreatedDatabase create(DatabaseSchema schema, List<List<Object>> rootKeyBoundaries) throws Exception {
        return schema.partitioning() == PartitioningKind.SINGLE_PARTITION && rootKeyBoundaries.isEmpty()
                ? createSingle(schema) : createTree(schema, rootKeyBoundaries);
    }

    /**
     * Moves a serving partition to the live OTM {@code toOtm}: the origin closes it (new
     * transactions refused, those in flight finished or aborted, the store flushed), the catalog
     * records the new owner under the next epoch, the destination opens it from the DFS. Returns
     * once the move has started; clients retry through it.
     *
     * @throws IllegalArgumentException if it cannot start now, and why (nothing changed)
     * @throws IllegalStateException if this master is not the active one
     */
    public PartitionView movePartition(long partitionId, String toOtm) throws Exception {
        return movePartition(partitionId, toOtm, null);
    }

    /**
     * {@link #movePartition(long, String)} of a given kind: live (copied while it serves, paused
     * only to hand over), coordinated ({@code live} false), or as the limits say ({@code null}).
     */
    public PartitionView movePartition(long partitionId, String toOtm, Boolean live) throws Exception {
        return onLoop(() -> {
            requireActive();
            for (Decision d : apply(term, new ClusterEvent.MoveRequested(partitionId, toOtm, "operator", live))) {
                if (d instanceof Decision.MoveRefused refused && refused.partitionId() == partitionId) {
                    throw new IllegalArgumentException("partition " + partitionId + " cannot move to " + toOtm + ": "
                            + refused.reason());
                }
            }
            return state.partitions().stream().filter(v -> v.record().partitionId() == partitionId).findFirst()
                    .orElseThrow();
        });
    }

    /**
     * Starts (or, with {@code drain} false, stops) draining an OTM: its partitions move to the other
     * OTMs, at most {@code opensInFlightMax} at a time, and nothing new is assigned to it.
     *
     * @throws IllegalArgumentException if the OTM is not live
     */
    public void drainOtm(String otmId, boolean drain) throws Exception {
        onLoop(() -> {
            requireActive();
            if (drain && !state.liveOtms().contains(otmId)) {
                throw new IllegalArgumentException("OTM " + otmId + " is not live; the live OTMs are " + state.liveOtms());
            }
            apply(term, new ClusterEvent.DrainRequested(otmId, drain));
            events.record(MasterEvents.Kind.OTM_DRAINING, otmId, drain ? "draining: its partitions move to the others"
                    : "drain stopped");
            return null;
        });
    }

    /** The OTMs being drained; empty on a master that is not active. */
    public List<String> drainingOtms() throws Exception {
        return onLoop(() -> state == null ? List.<String>of() : state.drainingOtms());
    }

    /**
     * What the balancer would do now, without doing it ({@code balance --dry-run}).
     *
     * @throws IllegalStateException if this master is not the active one
     */
    public BalancePlan balancePlan() throws Exception {
        return onLoop(() -> {
            requireActive();
            return planNow(clockMs.getAsLong());
        });
    }

    /** Moves under way, by partition id. */
    public List<MoveView> moves() {
        return List.copyOf(new TreeMap<>(moves).values());
    }

    /** How many rounds of the fenced-log collection ({@link MasterConfig#logCollectPeriodMs()}) finished here. */
    public long logCollectionsDone() {
        return logCollectionsDone;
    }

    /** Moves finished by this master process. */
    public long movesFinished() {
        return movesDone;
    }

    /** Every partition with its owner, epoch and state; empty on a master that is not active. */
    public List<PartitionView> partitions() throws Exception {
        return onLoop(() -> state == null ? List.<PartitionView>of() : state.partitions());
    }

    /** What a create decided on the loop before its catalog writes: the records and where they go. */
    private record PreparedCreate(long term, List<PartitionRecord> records, CatalogStore.Holder root,
            Map<Long, CatalogStore.Holder> holders, CatalogStore catalog) {
    }

    private CreatedDatabase createPartitions(DatabaseSchema schema, List<List<Object>> bounds) throws Exception {
        if (CatalogSchemas.reserved(schema.name())) {
            throw new IllegalArgumentException("database name " + schema.name() + " is reserved for the catalog;"
                    + " choose another name");
        }
        SchemaSpec spec = SchemaSpec.of(schema);
        PreparedCreate prepared = onLoop(() -> {
            requireActive();
            if (schemas.containsKey(Names.canonical(schema.name()))) {
                throw new IllegalArgumentException("database " + schema.name() + " exists already; choose another name");
            }
            long id = Math.max(partitionIdsUsed, state.maxPartitionId());
            List<PartitionRecord> records = new ArrayList<>();
            for (int i = 0; i + 1 < bounds.size(); i++) {
                records.add(PartitionRecord.unassigned(schema.name(), ++id, bounds.get(i), bounds.get(i + 1)));
            }
            if (state.partitions().size() + records.size() > config.limits().partitionsMax()) {
                throw new IllegalArgumentException("creating " + records.size() + " partitions would pass partitionsMax="
                        + config.limits().partitionsMax());
            }
            partitionIdsUsed = id;
            CatalogStore.Holder root = holderFor(CatalogSchemas.ROOT_DATABASE, CatalogSchemas.ROOT_PARTITION_ID);
            Map<Long, CatalogStore.Holder> holders = new java.util.HashMap<>();
            for (PartitionRecord r : records) {
                holders.put(r.partitionId(), metaHolderFor(catalog.toMetaRow(r, spec)));
            }
            if (root == null || holders.containsValue(null)) {
                throw new ElasTrasException(ErrorCode.NOT_SERVING, "the catalog is being recovered (ROOT or META does not"
                        + " serve now); retry in a few seconds");
            }
            return new PreparedCreate(term, records, root, holders, catalog);
        });
        long catalogCts;
        try {
            catalogCts = prepared.catalog().createDatabase(spec, prepared.records(), prepared.root(),
                    r -> prepared.holders().get(r.partitionId()));
        } catch (CatalogStore.CatalogUnavailableException e) {
            throw new ElasTrasException(ErrorCode.NOT_SERVING, e.getMessage() + "; retry in a few seconds", e);
        }
        return onLoop(() -> {
            if (prepared.term() != term) {
                throw new IllegalStateException("master " + config.masterId() + " lost its leadership while creating "
                        + schema.name() + "; the catalog has it if its schema was recorded: list the databases");
            }
            schemas.put(Names.canonical(schema.name()), spec);
            for (PartitionRecord r : prepared.records()) {
                apply(term, new ClusterEvent.PartitionRegistered(r));
            }
            List<PartitionView> created = new ArrayList<>();
            for (PartitionView v : state.partitions()) {
                if (prepared.records().stream().anyMatch(r -> r.partitionId() == v.record().partitionId())) {
                    created.add(v);
                }
            }
            LOG.info(() -> "created database " + schema.name() + " with " + prepared.records().size() + " partitions");
            events.record(MasterEvents.Kind.DATABASE_CREATED, schema.name(), schema.partitioning() + ", "
                    + prepared.records().size() + " partitions");
            return new CreatedDatabase(created, catalogCts);
        });
    }

    private void requireActive() {
        if (!active) {
            throw new IllegalStateException("master " + config.masterId() + " is not the active master;"
                    + " send admin requests to the leader");
        }
    }

    /**
     * Loop thread: the catalog partition {@code partitionId} of {@code database} as a place to write
     * records, if it serves now; null if not.
     */
    private CatalogStore.Holder holderFor(String database, long partitionId) {
        for (PartitionView v : state.catalogPartitions()) {
            PartitionRecord r = v.record();
            if (r.partitionId() == partitionId && v.state() == PartitionState.SERVING) {
                String host = otmHosts.get(r.owner());
                Integer port = otmPorts.get(r.owner());
                if (host == null || port == null) {
                    return null;
                }
                return new CatalogStore.Holder(database, partitionId, clientFor(r.owner(), host, port));
            }
        }
        return null;
    }

    /** Loop thread: the serving META partition whose range holds {@code row}'s key; null if none serves it now. */
    private CatalogStore.Holder metaHolderFor(MetaRow row) {
        byte[] key = CatalogSchemas.metaKeyOf(row);
        for (PartitionView v : state.catalogPartitions()) {
            PartitionRecord r = v.record();
            if (CatalogSchemas.level(r.database()) == 1 && catalog.encodedRange(r).contains(key)) {
                return holderFor(CatalogSchemas.META_DATABASE, r.partitionId());
            }
        }
        return null;
    }

    /** Loop thread: where the record of {@code r} is written (null for ROOT's, which is in ZooKeeper), or null if not now. */
    private CatalogStore.Holder recordHolder(PartitionRecord r) {
        return switch (CatalogSchemas.level(r.database())) {
            case 0 -> null;
            case 1 -> holderFor(CatalogSchemas.ROOT_DATABASE, CatalogSchemas.ROOT_PARTITION_ID);
            default -> metaHolderFor(catalog.toMetaRow(r, schemas.get(Names.canonical(r.database()))));
        };
    }

    private static void checkAscending(DatabaseSchema schema, List<List<Object>> boundaries) {
        KeyCodec codec = KeyCodec.forPartitionKey(schema);
        List<Column> columns = schema.partitionKeyColumns();
        byte[] previous = null;
        for (List<Object> boundary : boundaries) {
            if (boundary == null || boundary.size() != columns.size()) {
                throw new IllegalArgumentException("a root-key boundary of " + schema.name() + " needs " + columns.size()
                        + " values " + columns.stream().map(Column::name).toList() + ", got " + boundary);
            }
            List<Object> values = new ArrayList<>();
            for (int i = 0; i < columns.size(); i++) {
                values.add(WireValues.toColumnValue("root-key boundary of " + schema.name(), columns.get(i), boundary.get(i)));
            }
            byte[] encoded = codec.encode(values);
            if (encoded.length > CatalogSchemas.BOUNDARY_BYTES_MAX) {
                throw new IllegalArgumentException("root-key boundary " + boundary + " of " + schema.name() + " encodes to "
                        + encoded.length + " bytes; the catalog holds boundaries of at most "
                        + CatalogSchemas.BOUNDARY_BYTES_MAX + " bytes");
            }
            if (previous != null && Arrays.compareUnsigned(previous, encoded) >= 0) {
                throw new IllegalArgumentException("root-key boundaries of " + schema.name()
                        + " must be strictly ascending; " + boundary + " is not above the one before it");
            }
            previous = encoded;
        }
    }

    // ---------------------------------------------------------------- leadership (loop thread)

    private void becomeLeader() {
        if (closed) {
            return;
        }
        long myTerm = ++term;
        LOG.info(() -> "master " + config.masterId() + " elected (term " + myTerm + "); rebuilding from ZooKeeper");
        events.record(MasterEvents.Kind.ELECTED, config.masterId(), "elected (term " + myTerm + "); rebuilding from ZooKeeper");
        state = new ClusterState(config.limits(), clockMs.getAsLong());
        catalog = new CatalogStore(zk, paths, config.masterId() + "/" + System.currentTimeMillis() + "." + myTerm,
                name -> schemas.get(name));
        rebuild = Rebuild.IDLE;
        rebuildLoading = false;
        moves.clear();
        movePhases.clear();
        handOvers.clear();
        openedAtHandOver.clear();
        toRemove.clear();
        removing.clear();
        otmsBeingAdded = 0;
        partitionIdsUsed = CatalogSchemas.FIRST_META_PARTITION_ID;
        schemas.clear();
        lastHeartbeatMs.clear();
        lastExchange.clear();
        failedOtms.clear();
        registeredRuns.clear();
        joining.clear();
        liveRuns.clear();
        lostRuns.clear();
        failedRuns.clear();
        loads.clear();
        try {
            zk.createContainers(paths.otms());
        } catch (Exception e) {
            LOG.log(Level.WARNING, "cannot create " + paths.otms(), e);
        }
        String prefix = paths.otms() + "/";
        membership = CuratorCache.build(zk, paths.otms());
        membership.listenable().addListener(CuratorCacheListener.builder()
                .forCreates(node -> {
                    if (node.getPath().startsWith(prefix)) {
                        post(myTerm, () -> otmRegistered(myTerm, node));
                    }
                })
                .forChanges((before, after) -> {
                    // A restart whose delete and create the cache saw as one change of the znode.
                    if (after.getPath().startsWith(prefix) && !Objects.equals(runOf(before.getData()), runOf(after.getData()))) {
                        String id = after.getPath().substring(prefix.length());
                        post(myTerm, () -> {
                            otmGone(myTerm, id, runOf(before.getData()));
                            otmRegistered(myTerm, after);
                        });
                    }
                })
                .forDeletes(node -> {
                    if (node.getPath().startsWith(prefix)) {
                        String id = node.getPath().substring(prefix.length());
                        post(myTerm, () -> otmGone(myTerm, id, runOf(node.getData())));
                    }
                })
                .forInitialized(() -> post(myTerm, () -> rebuild(myTerm)))
                .build());
        membership.start();
    }

    /**
     * Loop thread, once the live OTMs are known (so owners that are gone get fenced): starts the
     * timestamp service (OTMs need ranges to open partitions, the catalog's too), announces this
     * master, and starts the rebuild with ROOT's record from ZooKeeper; {@link #advanceRebuild}
     * continues it level by level.
     */
    private void rebuild(long myTerm) {
        if (!joining.isEmpty()) {
            // The live OTMs are known only once the registered ones joined (their earlier runs fenced).
            loop.schedule(() -> post(myTerm, () -> rebuild(myTerm)), JOIN_WAIT_MS, TimeUnit.MILLISECONDS);
            return;
        }
        try {
            if (timestamps == null) {
                startTimestamps(myTerm);
            }
            if (!announced()) {
                announce();
            }
            PartitionRecord root = catalog.loadRootRecord();
            rebuild = Rebuild.AWAIT_ROOT;
            apply(myTerm, new ClusterEvent.PartitionRegistered(root));
        } catch (Exception e) {
            LOG.log(Level.WARNING, "starting the rebuild failed; retrying", e);
            loop.schedule(() -> {
                if (myTerm == term) {
                    rebuild(myTerm);
                }
            }, REBUILD_RETRY_MS, TimeUnit.MILLISECONDS);
        }
    }

    /**
     * Loop thread: the next step of the rebuild, if the catalog level it reads serves: ROOT's rows
     * (the schemas and the META partitions; a new cluster's first META partition is created here),
     * then META's rows (the user partitions). Then this master is active.
     */
    private void advanceRebuild(long myTerm) {
        if (myTerm != term || state == null || rebuildLoading) {
            return;
        }
        CatalogStore store = catalog;
        if (rebuild == Rebuild.AWAIT_ROOT && state.levelServing(0)) {
            CatalogStore.Holder root = holderFor(CatalogSchemas.ROOT_DATABASE, CatalogSchemas.ROOT_PARTITION_ID);
            if (root == null) {
                return;
            }
            rebuildLoading = true;
            submitRebuildStep(myTerm, "reading ROOT", () -> {
                CatalogStore.RootContents contents = store.loadRoot(root.otm());
                List<PartitionRecord> metas = contents.metaPartitions().isEmpty()
                        ? List.of(store.createFirstMeta(root.otm())) : contents.metaPartitions();
                post(myTerm, () -> rootLoaded(myTerm, contents.databases(), metas));
            });
        } else if (rebuild == Rebuild.AWAIT_META && state.levelServing(1)) {
            Map<Long, CatalogStore.Holder> metas = new LinkedHashMap<>();
            for (PartitionView v : state.catalogPartitions()) {
                if (CatalogSchemas.level(v.record().database()) == 1) {
                    CatalogStore.Holder h = holderFor(CatalogSchemas.META_DATABASE, v.record().partitionId());
                    if (h == null) {
                        return;
                    }
                    metas.put(v.record().partitionId(), h);
                }
            }
            Set<String> databases = Set.copyOf(schemas.keySet());
            rebuildLoading = true;
            submitRebuildStep(myTerm, "reading META", () -> {
                List<PartitionRecord> users = new ArrayList<>();
                long maxId = CatalogSchemas.FIRST_META_PARTITION_ID;
                for (Map.Entry<Long, CatalogStore.Holder> e : metas.entrySet()) {
                    CatalogStore.MetaContents contents = store.loadMeta(e.getValue().otm(), e.getKey(), databases);
                    users.addAll(contents.partitions());
                    maxId = Math.max(maxId, contents.maxPartitionId());
                }
                long idsUsed = maxId;
                post(myTerm, () -> metaLoaded(myTerm, users, idsUsed));
            });
        }
    }

    /** IO that may fail. */
    @FunctionalInterface
    private interface IoStep {
        void run() throws Exception;
    }

    /** A rebuild step's IO, on the IO pool; a failure is retried after {@code REBUILD_RETRY_MS}. */
    private void submitRebuildStep(long myTerm, String what, IoStep step) {
        Runnable failed = () -> {
            rebuildLoading = false;
            loop.schedule(() -> advanceRebuild(myTerm), REBUILD_RETRY_MS, TimeUnit.MILLISECONDS);
        };
        submit(() -> {
            try {
                step.run();
            } catch (Exception e) {
                LOG.log(Level.WARNING, "rebuild: " + what + " failed; retrying", e);
                post(myTerm, failed);
            }
        }, () -> post(myTerm, failed));
    }

    private void rootLoaded(long myTerm, Map<String, SchemaSpec> databases, List<PartitionRecord> metas) {
        rebuildLoading = false;
        schemas.putAll(canonicalNames(databases));
        rebuild = Rebuild.AWAIT_META;
        LOG.info(() -> "ROOT read: " + databases.size() + " databases, META partitions "
                + metas.stream().map(PartitionRecord::partitionId).toList());
        for (PartitionRecord r : metas) {
            apply(myTerm, new ClusterEvent.PartitionRegistered(r));
        }
        advanceRebuild(myTerm);
    }

    private void metaLoaded(long myTerm, List<PartitionRecord> users, long idsUsed) {
        rebuildLoading = false;
        partitionIdsUsed = Math.max(partitionIdsUsed, idsUsed);
        rebuild = Rebuild.DONE;
        for (PartitionRecord r : users) {
            apply(myTerm, new ClusterEvent.PartitionRegistered(r));
        }
        if (myTerm != term) {
            return;
        }
        active = true;
        claimSettled(REBUILD_CLAIM);
        int databases = schemas.size();
        events.record(MasterEvents.Kind.ACTIVE, config.masterId(), "active: " + databases + " databases, "
                + users.size() + " partitions, live OTMs " + state.liveOtms());
        LOG.info(() -> "master " + config.masterId() + " active: " + databases + " databases, " + users.size()
                + " partitions, live OTMs " + state.liveOtms());
    }

    /**
     * Loop thread: starts the timestamp service (above the persisted high-water mark) and notes
     * whose CTS claims it must wait for before the snapshot may pass the inherited ones.
     */
    private void startTimestamps(long myTerm) throws Exception {
        long writerId = (System.nanoTime() << 16) ^ config.masterId().hashCode() ^ myTerm;
        TimestampService ts = TimestampService.start(new ZkHighWaterMarkStore(zk, paths, writerId), config.timestamps());
        long now = clockMs.getAsLong();
        synchronized (claimsPending) {
            claimsPending.clear();
            claimsComplete = false;
            claimsPending.addAll(state.liveOtms());
            claimsPending.add(REBUILD_CLAIM);
            for (Map.Entry<String, Set<String>> failed : failedRuns.entrySet()) {
                claimsPending.add(failed.getKey());
                failed.getValue().forEach(ts::otmFailed);
            }
        }
        for (String otmId : state.liveOtms()) {
            lastHeartbeatMs.putIfAbsent(otmId, now);
        }
        timestamps = ts;
        synchronized (claimsPending) {
            if (claimsPending.isEmpty()) {
                claimsComplete = true;
                ts.inheritedClaimsComplete();
            }
        }
    }

    /** Loop thread: announces this master's address for the OTMs' heartbeats (an ephemeral node). */
    private void announce() throws Exception {
        byte[] data = announcement();
        try {
            zk.delete().forPath(paths.activeMaster());
        } catch (KeeperException.NoNodeException gone) {
            // The usual case: the previous master's session ended with its node.
        }
        zk.create().withMode(CreateMode.EPHEMERAL).forPath(paths.activeMaster(), data);
    }

    private byte[] announcement() throws Exception {
        Map<String, Object> fields = new LinkedHashMap<>(
                Map.of("masterId", config.masterId(), "host", config.host(), "port", http.port(), "heartbeatPort",
                        heartbeatPort.port()));
        String dashboard = dashboardUrl;
        if (dashboard != null) {
            fields.put("dashboard", dashboard);
        }
        return json.writeValueAsBytes(fields);
    }

    /** Whether the active-master node is this master's. */
    private boolean announced() {
        try {
            ActiveMaster active = ActiveMaster.read(zk, paths);
            return active != null && config.masterId().equals(active.masterId());
        } catch (Exception e) {
            return false;
        }
    }

    private static Map<String, SchemaSpec> canonicalNames(Map<String, SchemaSpec> databases) {
        Map<String, SchemaSpec> out = new ConcurrentHashMap<>();
        databases.values().forEach(spec -> out.put(Names.canonical(spec.name()), spec));
        return out;
    }

    /** How long an abdicated master stays out of the election before it joins again as a standby. */
    static final long REJOIN_DELAY_MS = 5_000;

    private void stepDown(String why) {
        term++;
        if (state != null || active) {
            LOG.warning(() -> "master " + config.masterId() + " stops acting: " + why);
            events.record(MasterEvents.Kind.STEPPED_DOWN, config.masterId(), "stops acting: " + why);
        }
        active = false;
        state = null;
        timestamps = null;
        rebuild = Rebuild.IDLE;
        if (announced()) {
            try {
                zk.delete().forPath(paths.activeMaster());
            } catch (Exception e) {
                LOG.log(Level.FINE, "withdrawing the announcement", e);
            }
        }
        if (membership != null) {
            membership.close();
            membership = null;
        }
        clients.values().forEach(OtmClient::close);
        clients.clear();
        registeredSchemas.clear();
    }

    /**
     * Loop thread: stops acting and leaves the election, so that a standby takes over; for a state
     * this master can no longer trust (a broken invariant, or another master writing). After
     * {@link #REJOIN_DELAY_MS} it joins again, at the back, as a standby: the writer it yielded to
     * may have been a deposed master's late write, and a cluster whose masters all abdicated would
     * have none (a torture run lost its only standby so, then its active master, and stopped).
     */
    private void abdicate(String why) {
        stepDown(why);
        LeaderLatch left = latch;
        try {
            left.close();
        } catch (Exception e) {
            LOG.log(Level.WARNING, "leaving the election failed", e);
        }
        loop.schedule(() -> rejoin(left), REJOIN_DELAY_MS, TimeUnit.MILLISECONDS);
    }

    /** Abdicates as if another master had written its catalog rows (tests: the rejoin after it). */
    void abdicateForTest(String why) throws Exception {
        loop.submit(() -> abdicate(why)).get(10, TimeUnit.SECONDS);
    }

    /** Loop thread: joins the election again after {@link #abdicate}, unless closed or already rejoined. */
    private void rejoin(LeaderLatch left) {
        if (closed || latch != left) {
            return;
        }
        LeaderLatch next = new LeaderLatch(zk, paths.master(), config.masterId());
        latch = next;
        listen(next);
        try {
            next.start();
            LOG.info(() -> "master " + config.masterId() + " joins the election again, as a standby");
        } catch (Exception e) {
            LOG.log(Level.WARNING, "joining the election again failed; this master stays out of it", e);
        }
    }

    private void otmRegistered(long myTerm, ChildData node) {
        String id = node.getPath().substring(paths.otms().length() + 1);
        try {
            JsonNode registration = json.readTree(node.getData());
            String host = registration.path("host").asText(null);
            int port = registration.path("port").asInt(0);
            String run = registration.path("run").asText(null);
            if (run == null || run.isEmpty()) {
                LOG.warning(() -> "ignoring OTM " + id + ": its registration names no run (an OTM older than this master?)");
                return;
            }
            registeredRuns.put(id, run);
            if (host != null) {
                otmHosts.put(id, host);
                otmPorts.put(id, port);
            }
            boolean waits = state != null && state.fencing(id);
            events.record(MasterEvents.Kind.OTM_JOINED, id, "registered at " + host + ":" + port + " (run " + run + ")"
                    + (waits ? "; joins once the fence of its previous run is confirmed" : ""));
            joining.put(id, run);
            submit(() -> fenceEarlierRuns(myTerm, id, run, host, port),
                    () -> retryJoin(myTerm, id, run, host, port, "IO queue full"));
        } catch (Exception e) {
            LOG.log(Level.WARNING, "ignoring OTM " + id + ": its registration is not {host, port, run, ...}", e);
        }
    }

    /**
     * IO thread: fences the logs of every earlier run of {@code id} still live on the DFS, then lets
     * {@code run} join. Usually there is none (the master that saw the earlier run fail fenced it);
     * after a master failover nothing else tells this master that such a run died, and the
     * partitions it owned (recorded under the id) would be reopened on the new run from a log a
     * zombie of the old one could still acknowledge commits into.
     */
    private void fenceEarlierRuns(long myTerm, String id, String run, String host, int port) {
        try {
            List<String> earlier = WalNames.liveLogsOf(dfs, id);
            earlier.remove(run);
            if (!earlier.isEmpty()) {
                WalFence.fence(dfs, id, Set.of(run));
                LOG.info(() -> "fenced the logs " + earlier + " of earlier runs of OTM " + id + " before its run " + run
                        + " joins");
                events.record(MasterEvents.Kind.OTM_FENCED, id, "logs of earlier runs " + earlier + " fenced before run "
                        + run + " joins");
            }
            post(myTerm, () -> {
                if (joining.remove(id, run) && run.equals(registeredRuns.get(id))) {
                    apply(myTerm, new ClusterEvent.OtmJoined(id, host, port));
                }
            });
        } catch (Exception e) {
            retryJoin(myTerm, id, run, host, port, String.valueOf(e.getMessage()));
        }
    }

    private void retryJoin(long myTerm, String id, String run, String host, int port, String why) {
        LOG.warning(() -> "cannot fence the earlier runs of OTM " + id + " before its run " + run + " joins (" + why
                + "); retrying");
        try {
            loop.schedule(() -> post(myTerm, () -> {
                if (run.equals(joining.get(id))) {
                    submit(() -> fenceEarlierRuns(myTerm, id, run, host, port),
                            () -> retryJoin(myTerm, id, run, host, port, "IO queue full"));
                }
            }), JOIN_RETRY_MS, TimeUnit.MILLISECONDS);
        } catch (RejectedExecutionException closing) {
            // Closing.
        }
    }

    /** Loop thread: the run of {@code id} that registered last is live from now on; it gets the known schemas. */
    private void admitted(String id) {
        String run = registeredRuns.get(id);
        if (run == null) {
            return;
        }
        liveRuns.put(id, run);
        lastHeartbeatMs.put(id, clockMs.getAsLong());
        String host = otmHosts.get(id);
        int port = otmPorts.getOrDefault(id, 0);
        if (host == null) {
            return;
        }
        List<SchemaSpec> known = new ArrayList<>(List.of(ROOT_SPEC, META_SPEC));
        known.addAll(new TreeMap<>(schemas).values());
        // Best effort: an open registers what is missing anyway.
        otmsWarming.add(id);
        submit(() -> {
            try {
                registerSchemas(id, host, port, known);
            } finally {
                otmsWarming.remove(id);
            }
        }, () -> otmsWarming.remove(id));
    }

    /**
     * Loop thread: the registration of {@code id} vanished (its run {@code run}), or the live run
     * sent no heartbeat in time ({@code run} null).
     */
    private void otmGone(long myTerm, String id, String run) {
        if (run != null) {
            registeredRuns.remove(id, run);
            joining.remove(id, run);
        }
        if (state == null) {
            return;
        }
        String live = liveRuns.get(id);
        if (!state.liveOtms().contains(id) || (run != null && !run.equals(live))) {
            // Already declared failed (its znode vanishes when it is fenced), or a run that waited
            // to join left before it could.
            if (!state.liveOtms().contains(id)) {
                apply(myTerm, new ClusterEvent.OtmLost(id));
            }
            return;
        }
        liveRuns.remove(id);
        lostRuns.put(id, live);
        if (removing.contains(id)) {
            LOG.info(() -> "OTM " + id + " was removed as the balancer asked; fencing its log all the same");
            events.record(MasterEvents.Kind.OTM_REMOVED, id, "stopped as the balancer asked");
        } else {
            LOG.warning(() -> "OTM " + id + " is gone: fencing it, then reassigning its partitions");
            events.record(MasterEvents.Kind.OTM_LOST, id, "gone: fencing it, then reassigning its partitions");
        }
        OtmClient client = clients.remove(id);
        registeredSchemas.remove(id);
        otmsWarming.remove(id);
        if (client != null) {
            client.close();
        }
        loadWindow.otmGone(id);
        moveLedger.otmLost(id, clockMs.getAsLong());
        apply(myTerm, new ClusterEvent.OtmLost(id));
    }

    private void tick() {
        if (state == null) {
            return;
        }
        long now = clockMs.getAsLong();
        if (active) {
            for (String otmId : state.liveOtms()) {
                Long last = lastHeartbeatMs.get(otmId);
                // Until its first exchange with this master an OTM gets a longer grace: it may be
                // starting, or still looking for the new master after a failover.
                long timeout = lastExchange.containsKey(otmId) ? config.heartbeatTimeoutMs()
                        : Math.max(config.heartbeatTimeoutMs(), FIRST_HEARTBEAT_GRACE_MS);
                if (last != null && now - last > timeout) {
                    LOG.warning(() -> "OTM " + otmId + " sent no heartbeat for " + (now - last) + " ms (timeout "
                            + timeout + " ms): declaring it failed");
                    events.record(MasterEvents.Kind.OTM_SILENT, otmId, "no heartbeat for " + (now - last) + " ms (timeout "
                            + timeout + " ms)");
                    otmGone(term, otmId, null);
                }
            }
        }
        apply(term, new ClusterEvent.Tick(now));
        long period = config.balance().periodMs();
        if (active && period > 0 && now - lastBalanceMs >= period) {
            lastBalanceMs = now;
            balance(now);
        }
        if (active && rebuild == Rebuild.DONE && !collectingLogs && now - lastLogCollectMs >= config.logCollectPeriodMs()) {
            lastLogCollectMs = now;
            collectLogs();
        }
    }

    /**
     * Loop thread: deletes, on the IO pool, the fenced logs no partition of the catalog needs any
     * more ({@link FencedLogCollector}), with the catalog's partitions and the OTMs under recovery
     * as they are now.
     */
    private void collectLogs() {
        List<String> directories = new ArrayList<>();
        for (PartitionView v : state.partitions()) {
            directories.add(PartitionDirectories.of(v.record().database(), v.record().partitionId()));
        }
        Set<String> recovering = Set.copyOf(state.recoveringOtms());
        collectingLogs = true;
        submit(() -> {
            try {
                FencedLogCollector.Round round = FencedLogCollector.collect(dfs, directories, recovering::contains);
                if (!round.deleted().isEmpty()) {
                    LOG.info(() -> "deleted the fenced logs " + round.deleted() + ": no partition's manifest names them ("
                            + round.manifestsRead() + " read); kept " + round.kept());
                    events.record(MasterEvents.Kind.LOGS_DELETED, String.join(", ", round.deleted()), "no partition needs"
                            + (round.deleted().size() == 1 ? " this fenced log" : " these fenced logs") + " any more");
                }
            } catch (Exception e) {
                LOG.log(Level.WARNING, "collecting the fenced logs failed; the next round tries again", e);
            } finally {
                logCollectionsDone++;
                collectingLogs = false;
            }
        }, () -> collectingLogs = false);
    }

    /**
     * Lets the balancer add and remove OTMs through {@code p} (the master does not close it). Run it
     * in a process that outlives this master's failovers, or give every master one.
     */
    public void provisionWith(Provisioner p) {
        provisioner = Objects.requireNonNull(p, "provisioner");
    }

    /** Loop thread: the policy's plan for now. */
    private BalancePlan planNow(long now) {
        SortedMap<Long, Placement> placements = new TreeMap<>();
        for (PartitionView v : state.partitions()) {
            if (v.record().owner() != null) {
                placements.put(v.record().partitionId(), new Placement(v.record().owner(), v.state() == PartitionState.SERVING));
            }
        }
        TreeSet<String> usable = new TreeSet<>(state.liveOtms());
        int warming = 0;
        for (String id : otmsWarming) {
            warming += usable.remove(id) ? 1 : 0;
        }
        return policy.plan(new BalanceInput(now, loadWindow.view(now), placements, usable,
                new TreeSet<>(state.drainingOtms()), moveLedger.inFlight(), moveLedger.lastMovedAtMs(now),
                otmsBeingAdded + warming));
    }

    /**
     * Loop thread: runs the policy and starts its moves for load. Drains are the state machine's own;
     * adding and removing OTMs needs a provisioner, so that advice is only reported.
     */
    private void balance(long now) {
        boolean settled;
        synchronized (claimsPending) {
            settled = claimsComplete;
        }
        if (!settled || failedOtms.stream().anyMatch(state::recovering)) {
            return; // Recovery first: its reassignments change the picture.
        }
        BalancePlan plan = planNow(now);
        for (Move m : plan.moves()) {
            if (m.reason() == MoveReason.OVERLOAD) {
                apply(term, new ClusterEvent.MoveRequested(m.partitionId(), m.toOtm(), "balancer: " + m.why()));
            }
        }
        Provisioner p = provisioner;
        if (p != null) {
            provision(p, plan);
            return;
        }
        String advice = plan.otmsToAdd() > 0 ? "add " + plan.otmsToAdd() + " OTM(s)"
                : plan.otmsToRemove().isEmpty() ? "" : "remove " + plan.otmsToRemove();
        if (!advice.equals(lastScaleAdvice)) {
            lastScaleAdvice = advice;
            if (!advice.isEmpty()) {
                LOG.info(() -> "balancer advice (no provisioner, not carried out): " + advice);
                events.record(MasterEvents.Kind.BALANCER_ADVICE, config.masterId(), advice + " (no provisioner: not carried out)");
            }
        }
    }

    /**
     * Loop thread: carries out the plan's advice on OTMs: asks for new ones (they join through
     * ZooKeeper and the balancer moves load to them), drains the ones to remove and, once one owns
     * nothing, asks for its removal.
     */
    private void provision(Provisioner p, BalancePlan plan) {
        long myTerm = term;
        for (int i = 0; i < plan.otmsToAdd() && otmsBeingAdded < p.pendingMax(); i++) {
            otmsBeingAdded++;
            events.record(MasterEvents.Kind.OTM_REQUESTED, config.masterId(), "balancer: adding an OTM (" + plan.notes() + ")");
            p.addOtm().whenComplete((id, failure) -> post(myTerm, () -> {
                otmsBeingAdded--;
                if (failure != null) {
                    LOG.log(Level.WARNING, "adding an OTM failed", failure);
                    events.record(MasterEvents.Kind.OTM_REQUESTED, config.masterId(), "adding an OTM failed: "
                            + failure.getMessage());
                } else {
                    lastOtmAddedMs = clockMs.getAsLong();
                    LOG.info(() -> "the provisioner started OTM " + id);
                }
            }));
        }
        // Stabilization: a new OTM starting up slows everything on a small machine, which can look
        // like the load went away; no scale-in until a few windows after the last scale-out.
        long now = clockMs.getAsLong();
        boolean settledSinceAdd = now - lastOtmAddedMs >= SCALE_IN_HOLD_WINDOWS * config.balance().window().windowMs();
        for (String id : settledSinceAdd && otmsBeingAdded == 0 ? plan.otmsToRemove() : List.<String>of()) {
            if (toRemove.add(id)) {
                events.record(MasterEvents.Kind.OTM_DRAINING, id, "balancer: draining it to remove it");
                apply(myTerm, new ClusterEvent.DrainRequested(id, true));
            }
        }
        for (String id : List.copyOf(toRemove)) {
            boolean owns = state.partitions().stream().anyMatch(v -> id.equals(v.record().owner())
                    && v.state() != PartitionState.UNASSIGNED && v.state() != PartitionState.AWAITING_FENCE);
            if (!state.liveOtms().contains(id)) {
                toRemove.remove(id);
                removing.remove(id);
            } else if (!owns && removing.add(id)) {
                events.record(MasterEvents.Kind.OTM_REMOVED, id, "drained: asking the provisioner to stop it");
                p.removeOtm(id).whenComplete((v, failure) -> post(myTerm, () -> {
                    if (failure != null) {
                        removing.remove(id);
                        LOG.log(Level.WARNING, "removing OTM " + id + " failed", failure);
                    }
                }));
            }
        }
    }

    private static MoveReason reasonOf(String reason) {
        if (reason.startsWith("balancer")) {
            return MoveReason.OVERLOAD;
        }
        return reason.startsWith("draining") ? MoveReason.DRAIN : MoveReason.OPERATOR;
    }

    // ---------------------------------------------------------------- decisions

    /** Loop thread: feeds an event of {@code eventTerm} to the state machine and carries out the decisions. */
    private List<Decision> apply(long eventTerm, ClusterEvent event) {
        if (eventTerm != term || state == null) {
            return List.of();
        }
        List<Decision> decisions;
        try {
            decisions = state.on(event);
        } catch (RuntimeException e) {
            // A broken invariant: stop acting rather than act on a state we no longer trust.
            LOG.log(Level.SEVERE, "the cluster state rejected " + event + "; this master abdicates", e);
            abdicate("broken invariant: " + e.getMessage());
            return List.of();
        }
        for (Decision d : decisions) {
            carryOut(eventTerm, d);
        }
        if (rebuild == Rebuild.AWAIT_ROOT || rebuild == Rebuild.AWAIT_META) {
            advanceRebuild(eventTerm);
        }
        return decisions;
    }

    private void carryOut(long myTerm, Decision d) {
        if (d instanceof Decision.FenceOtm f) {
            events.record(MasterEvents.Kind.FENCE_STARTED, f.otmId(), "fencing its log");
            declareFailed(f.otmId());
            submit(() -> fence(myTerm, f.otmId()), () -> post(myTerm,
                    () -> apply(myTerm, new ClusterEvent.FenceFailed(f.otmId(), "IO queue full"))));
        } else if (d instanceof Decision.OpenPartition o) {
            PartitionRecord r = o.assignment();
            events.record(MasterEvents.Kind.PARTITION_ASSIGNED, "partition " + r.partitionId(), r.database() + " to "
                    + r.owner() + " (epoch " + r.epoch() + (r.epoch() > 1 ? ", reassigned" : "") + ")");
            PartitionRecord opened = openedAtHandOver.remove(r.partitionId());
            if (r.equals(opened)) {
                // At a live move's hand-over the destination recorded itself and served: nothing to do.
                LOG.info(() -> "partition " + r.partitionId() + " of " + r.database() + " serving on " + r.owner()
                        + " (epoch " + r.epoch() + ", recorded and opened at the live move's hand-over)");
                events.record(MasterEvents.Kind.PARTITION_OPENED, "partition " + r.partitionId(), r.database()
                        + " serving on " + r.owner() + " (epoch " + r.epoch() + ", opened at the live move's hand-over)");
                post(myTerm, () -> apply(myTerm, new ClusterEvent.OpenDone(r.partitionId(), r.owner(), r.epoch())));
                return;
            }
            CatalogStore.Holder holder = recordHolder(r);
            if (holder == null && CatalogSchemas.level(r.database()) > 0) {
                post(myTerm, () -> apply(myTerm, new ClusterEvent.OpenFailed(r.partitionId(), r.owner(), r.epoch(),
                        "the catalog partition that holds its record does not serve now", true)));
                return;
            }
            submit(() -> open(myTerm, o, holder), () -> post(myTerm, () -> apply(myTerm,
                    new ClusterEvent.OpenFailed(r.partitionId(), r.owner(), r.epoch(), "IO queue full"))));
        } else if (d instanceof Decision.PartitionUnassigned u) {
            LOG.info(() -> "partition " + u.partitionId() + " unassigned: its owner " + u.formerOwner() + " failed");
            events.record(MasterEvents.Kind.PARTITION_UNASSIGNED, "partition " + u.partitionId(), "its owner "
                    + u.formerOwner() + " failed");
        } else if (d instanceof Decision.OtmIgnored i) {
            LOG.warning(() -> "OTM " + i.otmId() + " ignored: " + i.reason());
            events.record(MasterEvents.Kind.OTM_IGNORED, i.otmId(), i.reason());
        } else if (d instanceof Decision.OtmAdmitted a) {
            admitted(a.otmId());
        } else if (d instanceof Decision.OtmRecovered r) {
            TimestampService ts = timestamps;
            Set<String> recovered = failedRuns.remove(r.otmId());
            if (ts != null && recovered != null) {
                recovered.forEach(ts::otmRecovered);
            }
            LOG.info(() -> "OTM " + r.otmId() + " recovered: fenced, and its partitions serve elsewhere");
            events.record(MasterEvents.Kind.OTM_RECOVERED, r.otmId(), "fenced, and its partitions serve elsewhere");
            claimSettled(r.otmId());
        } else if (d instanceof Decision.ClosePartition c) {
            PartitionRecord r = c.record();
            CatalogHandOver handOver = c.liveTo() == null ? null : handOverFor(r.assignedTo(c.liveTo().otmId()));
            submit(() -> close(myTerm, c, handOver), () -> post(myTerm, () -> apply(myTerm,
                    new ClusterEvent.CloseFailed(r.partitionId(), r.owner(), r.epoch(), "IO queue full"))));
        } else if (d instanceof Decision.MoveStarted m) {
            if (!moveLedger.inFlight().containsKey(m.partitionId())) {
                moveLedger.started(new Move(m.partitionId(), m.from(), m.to(), reasonOf(m.reason()), m.reason()));
            }
            moves.put(m.partitionId(), new MoveView(m.partitionId(), m.from(), m.to(), m.reason(), System.currentTimeMillis(),
                    System.nanoTime()));
            movePhases.put(m.partitionId(), new MovePhases());
            LOG.info(() -> "moving partition " + m.partitionId() + (m.live() ? " live" : "") + " from " + m.from() + " to "
                    + m.to() + " (" + m.reason() + ")");
            events.record(MasterEvents.Kind.MOVE_STARTED, "partition " + m.partitionId(), "from " + m.from() + " to "
                    + m.to() + " (" + m.reason() + "): " + (m.live() ? "copying live from the origin" : "closing at the origin"));
        } else if (d instanceof Decision.MoveFinished m) {
            MoveView started = moves.remove(m.partitionId());
            MovePhases phases = movePhases.remove(m.partitionId());
            moveLedger.ended(m.partitionId(), clockMs.getAsLong());
            long ms = started == null ? m.tookMs() : (System.nanoTime() - started.startedNanos()) / 1_000_000;
            movesDone++;
            long unavailable = phases == null ? -1 : phases.unavailableMs(System.currentTimeMillis());
            String breakdown = (unavailable >= 0 ? (phases.live() ? "live, " : "") + "unavailable " + unavailable + " ms: " : "")
                    + (phases == null ? "closed, recorded, opened" : phases.describe() + ", queueing "
                    + Math.max(0, ms - phases.measuredMs()) + " ms");
            LOG.info(() -> "partition " + m.partitionId() + " moved from " + m.from() + " to " + m.to() + " in " + ms
                    + " ms (" + breakdown + ")");
            events.record(MasterEvents.Kind.MOVE_FINISHED, "partition " + m.partitionId(), "moved from " + m.from() + " to "
                    + m.to() + " in " + ms + " ms (" + breakdown + ")");
        } else if (d instanceof Decision.MoveAbandoned m) {
            moves.remove(m.partitionId());
            movePhases.remove(m.partitionId());
            moveLedger.ended(m.partitionId(), clockMs.getAsLong());
            LOG.warning(() -> "move of partition " + m.partitionId() + " abandoned: " + m.reason());
            events.record(MasterEvents.Kind.MOVE_ABANDONED, "partition " + m.partitionId(), m.reason());
        } else if (d instanceof Decision.MoveRefused m) {
            LOG.info(() -> "move of partition " + m.partitionId() + " to " + m.toOtm() + " refused: " + m.reason());
        } else if (d instanceof Decision.OtmDrained o) {
            LOG.info(() -> "OTM " + o.otmId() + " is drained: it owns no partition");
            events.record(MasterEvents.Kind.OTM_DRAINED, o.otmId(), "owns no partition; it can be stopped");
        } else if (d instanceof Decision.PartitionParked p) {
            LOG.severe(() -> "partition " + p.partitionId() + " parked after failing to open on " + p.otmId()
                    + ": " + p.lastReason() + "; an operator must act");
            events.record(MasterEvents.Kind.PARTITION_PARKED, "partition " + p.partitionId(), "failed to open on "
                    + p.otmId() + ": " + p.lastReason() + "; an operator must act");
        }
    }

    /** Loop thread: from now on {@code otmId} gets no timestamps and its heartbeats are refused. */
    private void declareFailed(String otmId) {
        String run = lostRuns.remove(otmId);
        Set<String> failed = failedRuns.computeIfAbsent(otmId, id -> ConcurrentHashMap.newKeySet());
        // A retried fence declares nothing new; an OTM found dead at a rebuild has no known run.
        String key = run != null ? run : otmId;
        if ((run == null && !failed.isEmpty()) || !failed.add(key)) {
            return;
        }
        failedOtms.add(otmId);
        lastHeartbeatMs.remove(otmId);
        lastExchange.remove(otmId);
        loads.remove(otmId);
        TimestampService ts = timestamps;
        if (ts != null) {
            ts.otmFailed(key);
            synchronized (claimsPending) {
                if (!claimsComplete) {
                    claimsPending.add(otmId);
                }
            }
        }
    }

    private void fence(long myTerm, String otmId) {
        long started = System.nanoTime();
        try {
            Set<String> failed = failedRuns.getOrDefault(otmId, Set.of());
            String path = paths.otm(otmId);
            try {
                // The znode is normally gone already (that is how the failure was seen); if the
                // master ever declares an OTM dead while it exists, the OTM must lose it first. Not
                // a new run's: it registered after the failed one and waits for this fence.
                Stat stat = new Stat();
                String registered = runOf(zk.getData().storingStatIn(stat).forPath(path));
                if (registered == null || failed.contains(registered)) {
                    zk.delete().withVersion(stat.getVersion()).forPath(path);
                }
            } catch (KeeperException.NoNodeException | KeeperException.BadVersionException gone) {
                // Expected: gone already, or replaced by a new run's registration since the read.
            }
            List<String> logs;
            if (failed.isEmpty() || failed.contains(otmId)) {
                // A run this master never saw (found dead at a rebuild): every log of the id but a
                // registered new run's.
                String waiting = registeredRuns.get(otmId);
                Set<String> keep = waiting == null || failed.contains(waiting) ? Set.of() : Set.of(waiting);
                logs = WalFence.fence(dfs, otmId, keep);
            } else {
                // Exactly the runs seen to fail: every earlier run of the id was fenced before they
                // joined, and a new run may already be logging while it waits for the id's znode.
                logs = WalFence.fenceLogs(dfs, failed);
            }
            long ms = (System.nanoTime() - started) / 1_000_000;
            LOG.info(() -> "fenced OTM " + otmId + " in " + ms + " ms: logs " + logs);
            events.record(MasterEvents.Kind.OTM_FENCED, otmId, logs.size() + (logs.size() == 1 ? " log" : " logs")
                    + " fenced in " + ms + " ms");
            post(myTerm, () -> apply(myTerm, new ClusterEvent.FenceDone(otmId)));
        } catch (Exception e) {
            LOG.log(Level.WARNING, "fencing OTM " + otmId + " failed; will retry", e);
            events.record(MasterEvents.Kind.FENCE_FAILED, otmId, "will retry: " + e.getMessage());
            post(myTerm, () -> apply(myTerm, new ClusterEvent.FenceFailed(otmId, String.valueOf(e.getMessage()))));
        }
    }

    private void open(long myTerm, Decision.OpenPartition o, CatalogStore.Holder holder) {
        PartitionRecord r = o.assignment();
        long started = System.nanoTime();
        try {
            // The record first: a master taking over must know about an open that may have happened.
            try {
                writeRecord(r, holder);
            } catch (CatalogStore.HandedOverException e) {
                String to = e.recorded().owner();
                LOG.info(() -> "partition " + r.partitionId() + " is not opened on " + r.owner() + ": " + e.getMessage());
                events.record(MasterEvents.Kind.PARTITION_OPEN_FAILED, "partition " + r.partitionId(), "not opened on "
                        + r.owner() + ": " + e.getMessage());
                post(myTerm, () -> apply(myTerm, new ClusterEvent.HandOverFound(r.partitionId(), r.owner(), r.epoch(), to)));
                return;
            } catch (CatalogStore.CatalogUnavailableException e) {
                LOG.info(() -> "partition " + r.partitionId() + " waits for the catalog: " + e.getMessage());
                post(myTerm, () -> apply(myTerm, new ClusterEvent.OpenFailed(r.partitionId(), r.owner(), r.epoch(),
                        e.getMessage(), true)));
                return;
            }
            long recorded = System.nanoTime();
            SchemaSpec schema = schemaSpec(r.database());
            if (schema == null) {
                throw new IllegalStateException("no schema known for database " + r.database());
            }
            OtmClient client = clientFor(r.owner(), o.host(), o.port());
            OpenPartitionRequest request = new OpenPartitionRequest(r.database(), r.partitionId(), r.startKey(), r.endKey());
            Set<String> known = registeredSchemas.computeIfAbsent(r.owner(), id -> ConcurrentHashMap.newKeySet());
            String name = Names.canonical(r.database());
            long registered = recorded;
            if (!known.contains(name)) {
                client.registerDatabase(new RegisterDatabaseRequest(schema));
                known.add(name);
                registered = System.nanoTime();
            }
            try {
                client.openPartition(request);
            } catch (ElasTrasException e) {
                if (e.code() != ErrorCode.UNKNOWN_DATABASE) {
                    throw e;
                }
                // It lost the schema this master registered (it was restarted under the same id?): again.
                LOG.warning(() -> "OTM " + r.owner() + " no longer knows database " + r.database() + "; registering it again");
                client.registerDatabase(new RegisterDatabaseRequest(schema));
                known.add(name);
                client.openPartition(request);
            }
            long opened = System.nanoTime();
            MovePhases phases = movePhases.get(r.partitionId());
            if (phases != null) {
                phases.opened((recorded - started) / 1_000_000, (registered - recorded) / 1_000_000,
                        (opened - registered) / 1_000_000, System.currentTimeMillis());
            }
            long ms = (opened - started) / 1_000_000;
            LOG.info(() -> "partition " + r.partitionId() + " of " + r.database() + " serving on " + r.owner()
                    + " (epoch " + r.epoch() + ", " + ms + " ms)");
            events.record(MasterEvents.Kind.PARTITION_OPENED, "partition " + r.partitionId(), r.database()
                    + " serving on " + r.owner() + " (epoch " + r.epoch() + ", " + ms + " ms)");
            post(myTerm, () -> apply(myTerm, new ClusterEvent.OpenDone(r.partitionId(), r.owner(), r.epoch())));
        } catch (CatalogStore.SupersededException e) {
            LOG.log(Level.SEVERE, "another master changed the partition map", e);
            post(myTerm, () -> abdicate(e.getMessage()));
        } catch (Exception e) {
            LOG.log(Level.WARNING, "opening partition " + r.partitionId() + " on " + r.owner() + " failed", e);
            events.record(MasterEvents.Kind.PARTITION_OPEN_FAILED, "partition " + r.partitionId(), "on " + r.owner()
                    + ": " + e.getMessage());
            post(myTerm, () -> apply(myTerm, new ClusterEvent.OpenFailed(r.partitionId(), r.owner(), r.epoch(),
                    String.valueOf(e.getMessage()))));
        }
    }

    /**
     * IO thread: writes an open's record. If the row holds a live move's hand-over to the OTM this
     * open goes to anyway (the origin wrote it and its answer was lost), the write is made again over
     * it; a hand-over to another OTM is thrown.
     */
    private void writeRecord(PartitionRecord r, CatalogStore.Holder holder) throws Exception {
        try {
            catalog.write(r, holder);
        } catch (CatalogStore.HandedOverException e) {
            if (!e.recorded().owner().equals(r.owner())) {
                throw e;
            }
            catalog.write(r, holder);
        }
    }

    /**
     * Loop thread: the catalog write a live move's origin makes after its hand-over, so that it
     * opens the partition at the destination without waiting for this master; null if this record
     * is not written that way (its catalog partition does not serve now, or see
     * {@link CatalogStore#prepareHandOver}).
     */
    private CatalogHandOver handOverFor(PartitionRecord next) {
        CatalogStore.Holder holder = recordHolder(next);
        if (holder == null) {
            return null;
        }
        CatalogStore.HandOver h = catalog.prepareHandOver(next);
        if (h == null) {
            return null;
        }
        handOvers.put(next.partitionId(), h);
        return new CatalogHandOver(holder.otm().address().getHost(), holder.otm().address().getPort(),
                holder.database(), holder.partitionId(), h.swapArgs());
    }

    /**
     * IO thread: registers every schema this master knows on an OTM that just joined, so that the
     * first partition moved or assigned to it opens without {@code registerDatabase} on its
     * critical path (the first requests to a freshly started OTM took 0.8-1.1 s in the elasticity
     * experiment). At most {@code schemas.size() + 2} requests; a failure only leaves the
     * registration to the open.
     */
    private void registerSchemas(String otmId, String host, int port, List<SchemaSpec> known) {
        OtmClient client = clientFor(otmId, host, port);
        Set<String> registered = registeredSchemas.computeIfAbsent(otmId, id -> ConcurrentHashMap.newKeySet());
        long started = System.nanoTime();
        try {
            for (SchemaSpec schema : known) {
                String name = Names.canonical(schema.name());
                if (!registered.contains(name)) {
                    client.registerDatabase(new RegisterDatabaseRequest(schema));
                    registered.add(name);
                }
            }
            long ms = (System.nanoTime() - started) / 1_000_000;
            LOG.info(() -> "registered " + known.size() + " schemas on OTM " + otmId + " as it joined, in " + ms + " ms");
        } catch (RuntimeException e) {
            LOG.log(Level.INFO, "registering schemas on OTM " + otmId + " as it joined failed; its opens will", e);
        }
    }

    /** The schema of a database, the catalog's own included; null if unknown. */
    private SchemaSpec schemaSpec(String database) {
        return switch (CatalogSchemas.level(database)) {
            case 0 -> ROOT_SPEC;
            case 1 -> META_SPEC;
            default -> schemas.get(Names.canonical(database));
        };
    }

    /**
     * IO thread: a move's close at the origin; NOT_OWNER means it does not serve it (any more):
     * closed. With {@code handOver}, the origin of a live move passes it to the destination, which
     * records itself and serves; what they confirm is noted for the loop (the open then needs no IO).
     */
    private void close(long myTerm, Decision.ClosePartition c, CatalogHandOver handOver) {
        PartitionRecord r = c.record();
        long started = System.nanoTime();
        MovePhases sending = movePhases.get(r.partitionId());
        if (sending != null) {
            sending.closeSent(System.currentTimeMillis());
        }
        try {
            ClosePartitionResponse answer = null;
            Decision.LiveTarget to = c.liveTo();
            try {
                answer = clientFor(r.owner(), c.host(), c.port()).closePartition(new ClosePartitionRequest(r.partitionId(),
                        to == null ? null : new MoveDestination(to.otmId(), to.host(), to.port()), handOver));
            } catch (ElasTrasException e) {
                // NOT_OWNER: it does not serve it (any more). After a live move that is no proof
                // the destination holds it complete: only a hand-over's answer is.
                if (e.code() != ErrorCode.NOT_OWNER || to != null) {
                    throw e;
                }
            }
            MovePhases phases = movePhases.get(r.partitionId());
            if (phases != null) {
                phases.closed((System.nanoTime() - started) / 1_000_000);
                if (answer != null && answer.live() != null) {
                    phases.copiedLive(answer.live());
                }
                if (answer != null && answer.closed() != null) {
                    phases.closedCoordinated(answer.closed());
                }
            }
            CatalogStore.HandOver h = handOver == null ? null : handOvers.remove(r.partitionId());
            HandOverOutcome outcome = answer == null ? null : answer.handOver();
            if (h != null && outcome != null && outcome.recorded() && myTerm == term) {
                catalog.handOverRecorded(h);
                if (outcome.serving()) {
                    openedAtHandOver.put(r.partitionId(), h.record());
                    if (phases != null) {
                        phases.openedAtHandOver(outcome.recordMs(), outcome.openMs(), outcome.servingAtEpochMs());
                    }
                }
            }
            if (outcome != null && !outcome.serving()) {
                LOG.info(() -> "partition " + r.partitionId() + ": the live move's hand-over left the record and the open to"
                        + " this master: " + outcome.detail());
            }
            post(myTerm, () -> apply(myTerm, new ClusterEvent.CloseDone(r.partitionId(), r.owner(), r.epoch())));
        } catch (Exception e) {
            LOG.log(Level.WARNING, "closing partition " + r.partitionId() + " on " + r.owner() + " for a move failed", e);
            post(myTerm, () -> apply(myTerm, new ClusterEvent.CloseFailed(r.partitionId(), r.owner(), r.epoch(),
                    String.valueOf(e.getMessage()))));
        }
    }

    private OtmClientConfig otmClientConfig() {
        return OtmClientConfig.defaults().withRequestTimeoutMs(config.otmRequestTimeoutMs());
    }

    private OtmClient clientFor(String otmId, String host, int port) {
        OtmClient client = clients.compute(otmId, (id, existing) -> {
            if (existing != null && existing.address().getHost().equals(host) && existing.address().getPort() == port) {
                return existing;
            }
            if (existing != null) {
                existing.close();
            }
            registeredSchemas.remove(id);
            return new OtmClient(host, port, otmClientConfig());
        });
        return client;
    }

    private void submit(Runnable task, Runnable onRejected) {
        try {
            io.execute(task);
        } catch (RejectedExecutionException e) {
            onRejected.run();
        }
    }

    /** Runs {@code action} on the loop if {@code eventTerm} is still the current term. */
    private void post(long eventTerm, Runnable action) {
        try {
            loop.execute(() -> {
                if (eventTerm == term) {
                    action.run();
                }
            });
        } catch (RejectedExecutionException e) {
            // Closing.
        }
    }

    private <T> T onLoop(Callable<T> action) throws Exception {
        try {
            return loop.submit(action).get(ADMIN_TIMEOUT_MS, TimeUnit.MILLISECONDS);
        } catch (ExecutionException e) {
            if (e.getCause() instanceof Exception cause) {
                throw cause;
            }
            throw e;
        }
    }

    /** Leaves the election (a standby takes over) and stops. Idempotent. */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        try {
            latch.close();
        } catch (Exception e) {
            LOG.log(Level.FINE, "closing the leader latch", e);
        }
        try {
            loop.submit(() -> stepDown("closing")).get(5, TimeUnit.SECONDS);
        } catch (Exception e) {
            LOG.log(Level.FINE, "stepping down on close", e);
        }
        loop.shutdownNow();
        io.shutdownNow();
        heartbeatPort.close();
        try {
            http.close();
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, "closing the endpoint failed", e);
        }
        zk.close();
        try {
            dfs.close();
        } catch (Exception e) {
            LOG.log(Level.WARNING, "closing the DFS failed", e);
        }
    }

    private static ThreadFactory daemon(String name) {
        return r -> {
            Thread t = new Thread(r, name);
            t.setDaemon(true);
            return t;
        };
    }
}
