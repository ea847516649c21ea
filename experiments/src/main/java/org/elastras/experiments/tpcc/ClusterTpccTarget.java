package org.elastras.experiments.tpcc;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.math.BigDecimal;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.RetryNTimes;
import org.elastras.catalog.meta.ZkPaths;
import org.elastras.client.ElasTrasClient;
import org.elastras.client.ElasTrasClientConfig;
import org.elastras.client.OtmClient;
import org.elastras.client.protocol.ElasTrasException;
import org.elastras.client.protocol.Isolation;
import org.elastras.client.protocol.PartitionInfo;
import org.elastras.master.local.LocalProvisioner;
import org.elastras.otm.http.PrometheusLabels;

/**
 * TPC-C on a real local ElasTraS cluster through the routing client, every part its own process:
 * a ZooKeeper server ({@code ZooKeeperServerMain}) and the master ({@code MasterMain}, as
 * {@code bin/elastras master} runs it) as {@link ChildJvm}s, N OTM processes started by
 * tm-master's {@link LocalProvisioner}, all with this JVM's class path (so the OTMs find
 * {@link TpccProcedures}); the DFS in a scratch directory. The terminals stay in this JVM, so the
 * CPU split separates driver, master, ZooKeeper and OTMs. (A first version ran ZooKeeper and the
 * master inside the benchmark JVM, like the elasticity experiment; on a loaded machine the JVM's
 * pauses cost the master its 2 s ZooKeeper session again and again, and every commit waited for
 * a re-elected timestamp service.) The database is created through the master's admin API, one
 * partition per {@code warehousesPerPartition} warehouses, placed by the master; every transaction
 * is an {@link ElasTrasClient} call routed by its home warehouse's root key, one client session per
 * terminal. The master balances with its defaults (moves only above 5,000 requests/s per OTM).
 *
 * <p>What differs from {@link OtmTpccTarget}: every terminal's call is SERIALIZABLE, Order-Status
 * and Stock-Level included (the consistency audits run at SNAPSHOT, as there); re-runs after
 * conflicts happen inside the OTM and the client does not report them, so {@code attempts} is 1.
 *
 * <p>ITEM, a global table, is loaded in chunks with {@code loadGlobalTable} into one OTM that owns a
 * partition of TPCC ({@link OtmTpccTarget#itemRequests}); that OTM publishes it to the DFS, and
 * every other OTM (an owner now, or a partition's owner after a move or a failover) reads it from
 * there on first use. Thread-safe; started and closed by one thread.
 */
public final class ClusterTpccTarget implements TpccTarget {

    /** Balancing off (period 0): the measurement must not include moves. */
    /** How long the ZooKeeper child may take to load its (empty) database. */
    private static final long ZOOKEEPER_LOAD_TIMEOUT_MS = 60_000;
    private static final long START_TIMEOUT_SECONDS = 120;
    private static final long AUDIT_TIMEOUT_MS = 600_000;
    private static final int ZOOKEEPER_HEAP_MB = 256;
    private static final int MASTER_HEAP_MB = 512;
    /** ZooKeeper's tick: sessions may be as short as two ticks. */
    private static final int ZOOKEEPER_TICK_MS = 500;
    /**
     * The master's ZooKeeper session. Its default (2 s, for a quick standby takeover) expired again
     * and again on this shared machine at load averages above 20, and there is no standby here:
     * each expiry stopped the timestamp service until the master was re-elected. A failover
     * benchmark would keep the default; a throughput benchmark with one master does not need it.
     */
    private static final int MASTER_ZK_SESSION_MS = 10_000;

    private final ChildJvm zookeeper;
    private final ChildJvm master;
    private final LocalProvisioner provisioner;
    private final ElasTrasClient client;
    private final String zkConnect;
    private final WarehouseRouter router;
    private final List<String> otmIds;
    /** The isolation of New-Order, Payment and Delivery. */
    private final Isolation writers;
    /** Where each OTM serves {@code /metrics}, looked up once. */
    private final Map<String, OtmAddress> metricsAddresses = new ConcurrentHashMap<>();
    /** The OTM that took ITEM's load and published it; written by the loading thread, read after the load. */
    private volatile String itemPublisher;

    private ClusterTpccTarget(ChildJvm zookeeper, ChildJvm master, LocalProvisioner provisioner, ElasTrasClient client,
            String zkConnect, WarehouseRouter router, List<String> otmIds, Isolation writers) {
        this.writers = writers;
        this.zookeeper = zookeeper;
        this.master = master;
        this.provisioner = provisioner;
        this.client = client;
        this.zkConnect = zkConnect;
        this.router = router;
        this.otmIds = otmIds;
    }

    /**
     * Starts the cluster with its files under {@code scratch}, creates database TPCC and waits
     * until every partition serves.
     *
     * @param otms OTM processes, 1 to 16
     * @param otmHeapMb heap of each OTM process
     */
    public static ClusterTpccTarget start(Path scratch, int warehouses, int warehousesPerPartition, int otms, int otmHeapMb)
            throws Exception {
        return start(scratch, warehouses, warehousesPerPartition, otms, otmHeapMb, Isolation.SERIALIZABLE);
    }

    /**
     * As {@link #start(Path, int, int, int, int)}, New-Order, Payment and Delivery at
     * {@code writers} (Order-Status and Stock-Level read only: the same at either). SERIALIZABLE is
     * what clause 3.4 asks for; SNAPSHOT gives serializable executions of the TPC-C mix too (Fekete
     * et al., "Making Snapshot Isolation Serializable", ACM TODS 30(2), 2005: its static dependency
     * graph has no dangerous structure), and the OTM's per-row SERIALIZABLE validation aborts a
     * New-Order whose WAREHOUSE row (W_TAX) a Payment's W_YTD overwrote meanwhile.
     */
    public static ClusterTpccTarget start(Path scratch, int warehouses, int warehousesPerPartition, int otms, int otmHeapMb,
            Isolation writers) throws Exception {
        if (otms < 1 || otms > 16) {
            throw new IllegalArgumentException("otms must be in [1, 16], got " + otms);
        }
        WarehouseRouter router = new WarehouseRouter(warehouses, warehousesPerPartition);
        ChildJvm zookeeper = null;
        ChildJvm master = null;
        LocalProvisioner provisioner = null;
        ElasTrasClient client = null;
        try {
            int zkPort = freePort();
            String zkConnect = "127.0.0.1:" + zkPort;
            Path logs = scratch.resolve("logs");
            Files.createDirectories(scratch.resolve("zk"));
            zookeeper = ChildJvm.start("zookeeper", "org.apache.zookeeper.server.ZooKeeperServerMain",
                    List.of(Integer.toString(zkPort), scratch.resolve("zk").toString(), Integer.toString(ZOOKEEPER_TICK_MS)),
                    ZOOKEEPER_HEAP_MB, List.of("-Dzookeeper.admin.enableServer=false"), logs.resolve("zookeeper.log"));
            ChildJvm zk = zookeeper;
            awaitZooKeeperLoaded(scratch.resolve("zk"), zk::alive, ZOOKEEPER_LOAD_TIMEOUT_MS, zk.log());
            URI dfs = scratch.resolve("dfs").toUri();
            client = ElasTrasClient.connect(zkConnect, ElasTrasClientConfig.defaults().withRequestTimeoutMs(AUDIT_TIMEOUT_MS));
            master = ChildJvm.start("master", "org.elastras.master.MasterMain", List.of("--zk", zkConnect, "--dfs",
                    dfs.toString(), "--id", "master-1", "--zk-session-timeout-ms", Integer.toString(MASTER_ZK_SESSION_MS)),
                    MASTER_HEAP_MB, List.of(), logs.resolve("master-1.log"));
            provisioner = new LocalProvisioner(System.getProperty("java.class.path"), zkConnect, dfs, otmHeapMb, logs, "otm-", 1,
                    Math.min(otms, 4));
            List<CompletableFuture<String>> starting = new ArrayList<>();
            for (int i = 0; i < otms; i++) {
                starting.add(provisioner.addOtm());
            }
            List<String> otmIds = new ArrayList<>();
            for (CompletableFuture<String> f : starting) {
                otmIds.add(f.get(START_TIMEOUT_SECONDS, TimeUnit.SECONDS));
            }
            ElasTrasClient c = client;
            ChildJvm m = master;
            await("the master to be elected (log " + master.log() + ")", () -> {
                if (!m.alive()) {
                    throw new IllegalStateException("the master process ended; see " + m.log());
                }
                return c.admin().activeMasterId() != null;
            });
            createServingDatabase(client, router);
            spreadOverOtms(client, otmIds);
            return new ClusterTpccTarget(zookeeper, master, provisioner, client, zkConnect, router, List.copyOf(otmIds),
                    writers);
        } catch (Exception | Error e) {
            closeAll(client, provisioner, master, zookeeper);
            throw e;
        }
    }

    /**
     * Creates TPCC in a cluster that runs already (one {@code elastras local} started) and waits
     * until every partition serves. The target owns no process: closing it closes its client only,
     * and it measures no process's CPU.
     */
    public static ClusterTpccTarget attach(String zkConnect, int warehouses, int warehousesPerPartition) throws Exception {
        WarehouseRouter router = new WarehouseRouter(warehouses, warehousesPerPartition);
        ElasTrasClient client = ElasTrasClient.connect(zkConnect,
                ElasTrasClientConfig.defaults().withRequestTimeoutMs(AUDIT_TIMEOUT_MS));
        try {
            createServingDatabase(client, router);
            return new ClusterTpccTarget(null, null, null, client, zkConnect, router, List.of(), Isolation.SERIALIZABLE);
        } catch (Exception | Error e) {
            client.close();
            throw e;
        }
    }

    /** How many times the terminals' client read the catalog (it does after routing failures). */
    public long catalogReads() {
        return client.catalogReads();
    }

    /** Creates TPCC with one partition per router partition and waits until every one serves. */
    private static void createServingDatabase(ElasTrasClient client, WarehouseRouter router) throws Exception {
        List<List<Object>> boundaries = new ArrayList<>();
        for (long p = 2; p <= router.partitions(); p++) {
            boundaries.add(router.startKey(p));
        }
        createDatabase(client, boundaries);
        await("every partition of " + TpccSchema.DATABASE + " to serve", () -> {
            List<PartitionInfo> tpcc = client.admin().partitions(TpccSchema.DATABASE);
            return tpcc.size() == router.partitions() && tpcc.stream().allMatch(v -> v.state().equals("SERVING"));
        });
    }

    /**
     * Puts TPCC's partitions on distinct OTMs while there are OTMs without one, by a coordinated
     * move of the still empty partition. The master places a new partition on the OTM with the
     * fewest, ROOT and META included: when both catalog partitions were placed on the first OTM
     * before the second registered, both warehouses went to the second (a CI run, session 29), and
     * a run then measures one OTM and no transaction across OTMs.
     */
    private static void spreadOverOtms(ElasTrasClient client, List<String> otmIds) throws Exception {
        List<PartitionInfo> tpcc = client.admin().partitions(TpccSchema.DATABASE);
        Set<String> owners = new HashSet<>();
        List<PartitionInfo> sharing = new ArrayList<>();
        for (PartitionInfo p : tpcc) {
            if (!owners.add(p.owner())) {
                sharing.add(p);
            }
        }
        List<String> without = new ArrayList<>(otmIds);
        without.removeAll(owners);
        int moves = Math.min(sharing.size(), without.size());
        if (moves == 0) {
            return;
        }
        for (int i = 0; i < moves; i++) {
            client.admin().movePartition(sharing.get(i).partitionId(), without.get(i), false);
        }
        int spread = Math.min(tpcc.size(), otmIds.size());
        await("TPCC's partitions to serve on " + spread + " OTMs", () -> {
            List<PartitionInfo> now = client.admin().partitions(TpccSchema.DATABASE);
            return now.stream().allMatch(v -> v.state().equals("SERVING"))
                    && now.stream().map(PartitionInfo::owner).distinct().count() == spread;
        });
    }

    /** Most attempts at creating TPCC when no active master answers (the admin client retries each for 30 s). */
    private static final int CREATE_ATTEMPTS_MAX = 4;

    /**
     * Creates TPCC through the active master, again when no master answered in time: on a loaded
     * machine the master announced itself and then answered NOT_SERVING for over 30 s (twice,
     * at load averages of 20-30). A retry first asks whether an earlier attempt created it.
     */
    private static void createDatabase(ElasTrasClient client, List<List<Object>> boundaries) {
        for (int attempt = 1; ; attempt++) {
            try {
                if (attempt > 1 && !client.admin().partitions(TpccSchema.DATABASE).isEmpty()) {
                    return;
                }
                client.admin().createDatabase(TpccSchema.schema(), boundaries);
                return;
            } catch (ElasTrasException e) {
                if (attempt == CREATE_ATTEMPTS_MAX) {
                    throw e;
                }
                System.err.println("createDatabase TPCC, attempt " + attempt + " of " + CREATE_ATTEMPTS_MAX + ": " + e.getMessage());
            }
        }
    }

    /**
     * Waits until the ZooKeeper server in {@code dataDir} has loaded its database (its first
     * snapshot is on disk) before anything connects to it. ZooKeeper 3.9 accepts connections before
     * it has a database, and the close of such an early connection throws inside the server
     * (ZOOKEEPER-5051), which leaves that client waiting until its whole session timeout passed:
     * a cluster start failed that way once in session 8 ("cannot reach ZooKeeper within 15000 ms").
     *
     * @throws IOException if the server exited, or did not load within {@code timeoutMs}
     */
    static void awaitZooKeeperLoaded(Path dataDir, java.util.function.BooleanSupplier alive, long timeoutMs, Path log)
            throws IOException, InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMs);
        Path snapshots = dataDir.resolve("version-2");
        while (true) {
            if (Files.isDirectory(snapshots)) {
                try (java.util.stream.Stream<Path> files = Files.list(snapshots)) {
                    if (files.anyMatch(f -> f.getFileName().toString().startsWith("snapshot."))) {
                        return;
                    }
                }
            }
            if (!alive.getAsBoolean()) {
                throw new IOException("the ZooKeeper server exited while starting; see " + log);
            }
            if (System.nanoTime() >= deadline) {
                throw new IOException("the ZooKeeper server did not load its database into " + dataDir + " within "
                        + timeoutMs + " ms; see " + log);
            }
            Thread.sleep(20);
        }
    }

    private static int freePort() throws IOException {
        try (java.net.ServerSocket s = new java.net.ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        }
    }

    private interface Check {
        boolean ok() throws Exception;
    }

    /** Polls {@code check} every 50 ms until it holds, for at most {@link #START_TIMEOUT_SECONDS}. */
    private static void await(String what, Check check) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(START_TIMEOUT_SECONDS);
        while (true) {
            try {
                if (check.ok()) {
                    return;
                }
            } catch (ElasTrasException notYet) {
                // The master is not up or not elected yet: ask again.
            }
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("timed out after " + START_TIMEOUT_SECONDS + " s waiting for " + what);
            }
            Thread.sleep(50);
        }
    }

    /** The cluster's ZooKeeper connect string (for clients beside the terminals). */
    String zkConnect() {
        return zkConnect;
    }

    @Override
    public String name() {
        return writers == Isolation.SNAPSHOT ? "elastras-cluster-si" : "elastras-cluster";
    }

    @Override
    public String description() {
        return "ElasTraS cluster on this machine: " + otmIds.size() + " OTM processes, a master process (ZooKeeper session "
                + MASTER_ZK_SESSION_MS / 1000 + " s), a ZooKeeper process, "
                + router.partitions() + " partition(s) placed by the master, routing client"
                + " (ElasTrasClient, a session per terminal, the framed transport), stored procedures,"
                + " New-Order/Payment/Delivery " + writers
                + " (Order-Status and Stock-Level read only), WAL sync per group commit";
    }

    private Object call(int warehouseId, String procedure, List<?> args) {
        return client.call(TpccSchema.DATABASE, procedure, List.of(warehouseId), args);
    }

    // ---- Loading and row access ----

    @Override
    public int loadBatchRowsMax() {
        return OtmTpccTarget.LOAD_BATCH_ROWS;
    }

    /**
     * Loads ITEM, in chunks, into the OTM that owns warehouse 1's partition now (an OTM takes a
     * load only for a database it serves a partition of); it publishes ITEM to the DFS, where every
     * other OTM finds it.
     */
    @Override
    public void loadItems(List<List<Object>> rows) throws Exception {
        String owner = null;
        for (PartitionInfo p : client.admin().partitions(TpccSchema.DATABASE)) {
            if (p.startKey() == null || p.startKey().isEmpty()) {
                owner = p.owner(); // the first partition: warehouse 1's
            }
        }
        if (owner == null) {
            throw new IllegalStateException("no OTM owns the first partition of TPCC (warehouse 1's)");
        }
        OtmAddress address = registeredAddress(owner);
        try (OtmClient c = new OtmClient(address.host(), address.port())) {
            OtmTpccTarget.loadItems(c, rows);
        }
        itemPublisher = owner;
    }

    /** The OTM that took ITEM's load (null before the load). */
    String itemPublisher() {
        return itemPublisher;
    }

    /** The OTMs owning a partition of TPCC now, in partition order (one per partition). */
    List<String> partitionOwners() {
        List<String> owners = new ArrayList<>();
        for (PartitionInfo p : client.admin().partitions(TpccSchema.DATABASE)) {
            owners.add(p.owner());
        }
        return owners;
    }

    private record OtmAddress(String host, int port) {
    }

    /** The metric each OTM's {@code /metrics} counts its procedure re-runs by cause in. */
    static final String RETRIES_BY_CAUSE = "elastras_otm_procedure_retries_by_cause_total";

    /** Summed over the OTMs this target started, from their {@code /metrics}; an OTM that does not answer is left out. */
    @Override
    public Map<String, Long> serverRetries() throws Exception {
        return summedOverOtms(ClusterTpccTarget::retriesByCause);
    }

    /** Summed over the OTMs this target started, as {@link #serverRetries}. */
    @Override
    public Map<String, Long> serverLogCounters() throws Exception {
        return summedOverOtms(ClusterTpccTarget::logCounters);
    }

    /** What {@code parse} reads from each answering OTM's {@code /metrics}, summed by name. */
    private Map<String, Long> summedOverOtms(java.util.function.Function<String, Map<String, Long>> parse) throws Exception {
        Map<String, Long> sums = new TreeMap<>();
        for (String text : otmMetrics()) {
            parse.apply(text).forEach((name, n) -> sums.merge(name, n, Long::sum));
        }
        return sums;
    }

    /** The {@code /metrics} text of each OTM this target started that answers (a stopped one's counts are left out). */
    private List<String> otmMetrics() throws Exception {
        List<String> texts = new ArrayList<>();
        HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(Duration.ofSeconds(5)).build();
        for (String id : otmIds) {
            try {
                OtmAddress a = metricsAddresses.computeIfAbsent(id, this::registeredAddressOrNull);
                if (a != null) {
                    texts.add(http.send(HttpRequest.newBuilder(URI.create("http://" + a.host() + ":" + a.port()
                            + "/metrics")).timeout(Duration.ofSeconds(5)).GET().build(),
                            HttpResponse.BodyHandlers.ofString()).body());
                }
            } catch (IOException e) {
                // stopped or unreachable
            }
        }
        return texts;
    }

    /**
     * The metrics one OTM counts its log's batches and records in, and its timestamp exchanges with
     * the master (the other source of its per-commit hand-offs), by the names
     * {@link #serverLogCounters} gives them.
     */
    static final Map<String, String> LOG_COUNTERS = Map.of("elastras_otm_wal_batches_total", "batches",
            "elastras_otm_wal_records_total", "records", "elastras_otm_timestamp_exchanges_total", "exchanges",
            "elastras_otm_cts_lift_waits_total", "lift_waits", "elastras_otm_cts_range_waits_total", "range_waits");

    /** The {@link #LOG_COUNTERS} samples of one OTM's metrics text. */
    static Map<String, Long> logCounters(String metricsText) {
        Map<String, Long> out = new TreeMap<>();
        for (String line : metricsText.split("\n")) {
            int brace = line.indexOf('{');
            String name = LOG_COUNTERS.get(brace < 0 ? "" : line.substring(0, brace));
            if (name != null) {
                out.merge(name, Long.parseLong(line.substring(line.lastIndexOf('}') + 1).trim()), Long::sum);
            }
        }
        return out;
    }

    private OtmAddress registeredAddressOrNull(String id) {
        try {
            return registeredAddress(id);
        } catch (Exception e) {
            return null;
        }
    }

    /**
     * The {@link #RETRIES_BY_CAUSE} samples of one OTM's metrics text, by "procedure reason" (of
     * database TPCC only).
     */
    static Map<String, Long> retriesByCause(String metricsText) {
        Map<String, Long> out = new TreeMap<>();
        for (String line : metricsText.split("\n")) {
            if (!line.startsWith(RETRIES_BY_CAUSE + "{")) {
                continue;
            }
            int close = line.lastIndexOf('}');
            Map<String, String> labels = PrometheusLabels.parse(line.substring(RETRIES_BY_CAUSE.length() + 1, close));
            if (TpccSchema.DATABASE.equalsIgnoreCase(labels.get("database"))) {
                out.merge(labels.get("procedure") + " " + labels.get("reason"), Long.parseLong(line.substring(close + 1).trim()),
                        Long::sum);
            }
        }
        return out;
    }

    /** Where OTM {@code id} listens, from its registration in ZooKeeper ({"host": .., "port": ..}, as the client reads it). */
    private OtmAddress registeredAddress(String id) throws Exception {
        try (CuratorFramework zk = CuratorFrameworkFactory.newClient(zkConnect, new RetryNTimes(3, 200))) {
            zk.start();
            if (!zk.blockUntilConnected(30, TimeUnit.SECONDS)) {
                throw new IllegalStateException("cannot reach ZooKeeper at " + zkConnect);
            }
            JsonNode registration = new ObjectMapper().readTree(zk.getData().forPath(new ZkPaths(ZkPaths.DEFAULT_ROOT).otm(id)));
            return new OtmAddress(registration.path("host").asText(), registration.path("port").asInt());
        }
    }

    @Override
    public TpccLoader.BatchWriter openBatchWriter() {
        org.elastras.client.Session session = client.newSession();
        return new TpccLoader.BatchWriter() {
            @Override
            public void write(String table, List<List<Object>> rows) {
                if (rows.isEmpty()) {
                    return;
                }
                int w = (Integer) rows.get(0).get(0);
                List<Object> args = TpccLoader.loadRowsArguments(table, rows);
                session.call(TpccSchema.DATABASE, "loadRows", List.of(w), args);
            }

            @Override
            public void close() {
            }
        };
    }

    @Override
    public List<Object> readRow(String table, List<Object> key) {
        List<Object> args = new ArrayList<>(key.size() + 1);
        args.add(table);
        args.addAll(key);
        int w = TpccSchema.ITEM.equals(table) ? 1 : (Integer) key.get(0);
        return OtmTpccTarget.decodeRow(table, call(w, "readRow", args));
    }

    @Override
    public void writeRow(String table, List<Object> row) {
        call((Integer) row.get(0), "writeRow", List.of(table, new ArrayList<>(row)));
    }

    @Override
    public long countRows(String table, int warehouseId, int districtId) {
        return ((Number) call(warehouseId, "countRows", List.of(table, warehouseId, districtId))).longValue();
    }

    @Override
    public List<ConsistencyViolation> checkConsistency(int warehouses, boolean afterLoad, int loadedDeliveredOrders) {
        List<ConsistencyViolation> violations = new ArrayList<>();
        // At SNAPSHOT, as the procedures ask: read-only, and a SERIALIZABLE audit's read set (every
        // row of a district's orders, lines, customers and history) passes the OTM's bound of
        // 100,000 keys once a run has added ~6,000 orders to a district.
        for (int w = 1; w <= warehouses; w++) {
            OtmTpccTarget.collect(violations, client.call(TpccSchema.DATABASE, "auditWarehouse", List.of(w), List.of(w),
                    Isolation.SNAPSHOT));
            for (int d = 1; d <= TpccScale.DISTRICTS_PER_WAREHOUSE; d++) {
                OtmTpccTarget.collect(violations, client.call(TpccSchema.DATABASE, "auditDistrict", List.of(w),
                        List.of(w, d, afterLoad, loadedDeliveredOrders, warehouses), Isolation.SNAPSHOT));
            }
        }
        violations.sort(java.util.Comparator.comparingInt(ConsistencyViolation::condition));
        return violations;
    }

    /** CPU seconds so far of each OTM process, the master and ZooKeeper (the benchmark JVM is the driver's to count). */
    @Override
    public Map<String, Double> processCpuSeconds() {
        Map<String, Double> cpu = new LinkedHashMap<>();
        if (master == null) {
            return cpu; // attached: the cluster's processes are not this target's
        }
        cpu.put("master", ProcessCpu.seconds(master.pid()));
        cpu.put("zookeeper", ProcessCpu.seconds(zookeeper.pid()));
        for (String id : otmIds) {
            cpu.put(id, ProcessCpu.seconds(provisioner.pid(id)));
        }
        return cpu;
    }

    /** The JIT compiler threads' share of {@link #processCpuSeconds()}, per process. */
    @Override
    public Map<String, Double> processJitSeconds() {
        Map<String, Double> jit = new LinkedHashMap<>();
        if (master == null) {
            return jit;
        }
        jit.put("master", ProcessCpu.jitSeconds(master.pid()));
        jit.put("zookeeper", ProcessCpu.jitSeconds(zookeeper.pid()));
        for (String id : otmIds) {
            jit.put(id, ProcessCpu.jitSeconds(provisioner.pid(id)));
        }
        return jit;
    }

    // ---- The transactions ----

    @Override
    public TpccTarget.Session openSession() {
        org.elastras.client.Session session = client.newSession();
        return new TpccTarget.Session() {
            private Object call(int w, String procedure, List<?> args) {
                return session.call(TpccSchema.DATABASE, procedure, List.of(w), args);
            }

            /** New-Order, Payment and Delivery: at the target's isolation for writers. */
            private Object write(int w, String procedure, List<?> args) {
                return session.call(TpccSchema.DATABASE, procedure, List.of(w), args, writers);
            }

            @Override
            public NewOrderResult newOrder(TpccInputs.NewOrder in) {
                try {
                    return OtmTpccTarget.newOrderResult(write(in.warehouseId(), "newOrder", OtmTpccTarget.newOrderArgs(in)), 1);
                } catch (ElasTrasException e) {
                    if (OtmTpccTarget.isRequestedRollback(e)) {
                        return new NewOrderResult(true, 0, BigDecimal.ZERO, 1);
                    }
                    throw e;
                }
            }

            @Override
            public PaymentResult payment(TpccInputs.Payment in) {
                return OtmTpccTarget.paymentResult(write(in.warehouseId(), "payment", withoutNull(OtmTpccTarget.paymentArgs(in))), 1);
            }

            @Override
            public OrderStatusResult orderStatus(TpccInputs.OrderStatus in) {
                return OtmTpccTarget.orderStatusResult(call(in.warehouseId(), "orderStatus",
                        withoutNull(OtmTpccTarget.orderStatusArgs(in))), 1);
            }

            @Override
            public DeliveryResult delivery(TpccInputs.Delivery in) {
                return OtmTpccTarget.deliveryResult(write(in.warehouseId(), "delivery", OtmTpccTarget.deliveryArgs(in)), 1);
            }

            @Override
            public StockLevelResult stockLevel(TpccInputs.StockLevel in) {
                return new StockLevelResult(((Number) call(in.warehouseId(), "stockLevel", OtmTpccTarget.stockLevelArgs(in)))
                        .intValue(), 1);
            }

            @Override
            public void close() {
            }
        };
    }

    /**
     * The arguments with a null last name (Payment and Order-Status by customer id) sent as "":
     * the routing client's Session copies arguments with List.copyOf, which refuses null, though
     * the protocol carries null. The procedures read "" as "by id".
     */
    private static List<Object> withoutNull(List<Object> args) {
        List<Object> out = new ArrayList<>(args.size());
        for (Object a : args) {
            out.add(a == null ? "" : a);
        }
        return out;
    }

    /** The OTM processes, for tests and tools. */
    List<String> otmIds() {
        return otmIds;
    }

    @Override
    public void close() {
        closeAll(client, provisioner, master, zookeeper);
    }

    /** Closes in this order: the client, the OTMs, the master, ZooKeeper. */
    private static void closeAll(ElasTrasClient client, LocalProvisioner provisioner, ChildJvm master, ChildJvm zookeeper) {
        RuntimeException failed = null;
        for (AutoCloseable c : new AutoCloseable[] {client, provisioner, master, zookeeper}) {
            if (c == null) {
                continue;
            }
            try {
                c.close();
            } catch (Exception e) {
                failed = failed == null ? new IllegalStateException("closing the TPC-C cluster failed", e) : failed;
            }
        }
        if (failed != null) {
            throw failed;
        }
    }
}
