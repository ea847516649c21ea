package org.elastras.master.local;

import java.io.IOException;
import java.io.PrintStream;
import java.net.URI;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.ServiceLoader;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.elastras.client.ElasTrasClient;
import org.elastras.client.protocol.PartitionInfo;

/**
 * A whole ElasTraS cluster on this machine, for trying it out: an embedded ZooKeeper server, the
 * local DFS in a directory, {@value #MASTERS} masters (one active, one standby) and N OTMs as child
 * processes, plus the demo databases ({@link DemoData}) and workload ({@link DemoWorkload}), which
 * use the routing client and the admin API like any application. Not for production: one ZooKeeper
 * server, data wiped on the next start.
 *
 * <p>Data directory layout: {@code zk/} (ZooKeeper), {@code dfs/} (the DFS root),
 * {@code logs/otm-<i>.log}, {@code logs/master-<i>.log}, and the marker {@value #MARKER} that
 * allows the next start to wipe it.
 *
 * <p>Threads: {@link #start} and {@link #close} from one thread (close may also run in a shutdown
 * hook); {@link #status} from any.
 */
public final class LocalCluster implements AutoCloseable {

    static final String MARKER = ".elastras-local";
    static final int MASTERS = 2;
    private static final int MASTER_HEAP_MB = 256;
    private static final long READY_TIMEOUT_MS = 60_000;

    private final LocalClusterConfig config;
    private final PrintStream out;
    private final long startedAtNanos = System.nanoTime();
    /** The resources below are set under this object's lock ({@link #keep}) and read by {@link #close}. */
    private EmbeddedZooKeeper zk;
    private final List<ChildProcess> otms = new ArrayList<>();
    private final List<ChildProcess> masters = new ArrayList<>();
    private ElasTrasClient client;
    private DemoData data;
    private DemoWorkload workload;
    /** The TPC-C workload next to the demo, null if none runs. */
    private volatile LocalWorkload tpcc;
    private boolean closed;
    /** Replaces processes that died (see {@link #supervise}); set once started. */
    private Thread supervisor;
    private volatile boolean stopping;
    /** Guarded by otms: the number of the next OTM started (ids are never reused). */
    private int nextOtmNumber;
    /** Guarded by otms: how many processes were replaced. */
    private int replaced;
    private Path dataDirectory;
    private URI dfsRoot;
    /** The token of the masters' dashboard admin actions, fresh for each cluster. */
    private final String adminToken = newToken();

    /** A cluster not started yet; progress of {@link #start} goes to {@code out}. */
    public LocalCluster(LocalClusterConfig config, PrintStream out) {
        this.config = config;
        this.out = out;
    }

    /**
     * Starts everything, creates and loads the demo data and starts the workload. On failure, or
     * if {@link #close} is called meanwhile (from a shutdown hook), stops what it started and throws.
     *
     * @param logsReady called with the logs directory once the data directory is prepared, before
     *     anything logs (to send this process's log there)
     */
    public void start(LogsDirectoryListener logsReady) throws Exception {
        try {
            startAll(logsReady);
        } catch (Exception | Error e) {
            close();
            throw e;
        }
    }

    /** Starts {@code config}'s cluster (see {@link #start(LogsDirectoryListener)}). */
    public static LocalCluster start(LocalClusterConfig config, PrintStream out, LogsDirectoryListener logsReady)
            throws Exception {
        LocalCluster cluster = new LocalCluster(config, out);
        cluster.start(logsReady);
        return cluster;
    }

    /** Keeps {@code resource} for {@link #close}, or closes it at once if close already ran. */
    private synchronized <T extends AutoCloseable> T keep(T resource, Consumer<T> field)
            throws Exception {
        if (closed) {
            resource.close();
            throw new IllegalStateException("the local cluster was stopped while starting");
        }
        field.accept(resource);
        return resource;
    }

    /** Told where the logs go, once the data directory is ready. */
    public interface LogsDirectoryListener {
        void logsDirectoryReady(Path logs) throws IOException;
    }

    private void startAll(LogsDirectoryListener logsReady) throws Exception {
        Path data = config.dataDirectory().toAbsolutePath().normalize();
        prepare(data);
        logsReady.logsDirectoryReady(data.resolve("logs"));
        URI dfs = data.resolve("dfs").toUri();
        this.dataDirectory = data;
        this.dfsRoot = dfs;
        this.nextOtmNumber = config.otms() + 1;
        Files.createDirectories(data.resolve("dfs"));
        keep(EmbeddedZooKeeper.start(data.resolve("zk")), z -> zk = z);
        out.println("zookeeper   embedded server at " + zk.connectString() + " (data " + data.resolve("zk") + ")");
        out.println("dfs         local directory " + dfs);

        List<CompletableFuture<ChildProcess>> starting = new ArrayList<>();
        for (int i = 1; i <= config.otms(); i++) {
            String id = "otm-" + i;
            starting.add(CompletableFuture.supplyAsync(() -> {
                try {
                    return ChildProcess.otm(id, config.otmClassPath(), zk.connectString(), dfs, config.otmHeapMb(),
                            data.resolve("logs").resolve(id + ".log"));
                } catch (Exception e) {
                    throw new IllegalStateException(e.getMessage(), e);
                }
            }));
        }
        for (int i = 1; i <= MASTERS; i++) {
            String id = "master-" + i;
            starting.add(CompletableFuture.supplyAsync(() -> {
                try {
                    return ChildProcess.master(id, System.getProperty("java.class.path"), zk.connectString(), dfs,
                            MASTER_HEAP_MB, data.resolve("logs").resolve(id + ".log"), adminToken);
                } catch (Exception e) {
                    throw new IllegalStateException(e.getMessage(), e);
                }
            }));
        }
        IllegalStateException failed = null;
        for (CompletableFuture<ChildProcess> f : starting) {
            try {
                ChildProcess p = keep(f.join(), c -> {
                    synchronized (otms) {
                        (c.id().startsWith("master-") ? masters : otms).add(c);
                    }
                });
                out.println((p.id().startsWith("master-") ? "master      " : "otm         ") + p.id() + " pid " + p.pid()
                        + " port " + p.port() + " (log " + data.resolve("logs").resolve(p.id() + ".log") + ")");
            } catch (RuntimeException e) {
                failed = failed == null ? new IllegalStateException("a process did not start: " + e.getMessage(), e) : failed;
            }
        }
        if (failed != null) {
            throw failed;
        }

        keep(ElasTrasClient.connect(zk.connectString()), c -> client = c);
        await("a master to be elected", () -> client.admin().activeMasterId() != null);
        out.println("master      " + client.admin().activeMasterId() + " is active, the other waits as a standby");
        out.println("dashboard   " + dashboard());

        this.data = DemoData.create(client, config);
        await("every demo partition to serve", () -> client.admin().partitions(null).stream()
                .allMatch(p -> p.state().equals("SERVING")));
        long loadStarted = System.nanoTime();
        this.data.load(client);
        out.printf("data        %s (1 partition) and %s (%d partitions): %,d rows loaded in %d ms%n", DemoData.TENANT,
                DemoData.SHOP, config.shopPartitions(), this.data.rowCount(), (System.nanoTime() - loadStarted) / 1_000_000);

        keep(new DemoWorkload(this.data, client, config.workloadThreads(), config.rateTxnPerSecond(), config.seed()),
                w -> workload = w).start();
        Thread watch = new Thread(this::supervise, "local-supervisor");
        watch.setDaemon(true);
        synchronized (this) {
            if (closed) {
                throw new IllegalStateException("the local cluster was stopped while starting");
            }
            supervisor = watch;
            watch.start();
        }
        out.printf("workload    %d client threads, read-modify-write transactions, at most %d txn/s%n",
                config.workloadThreads(), config.rateTxnPerSecond());
        if (config.tpccWarehouses() > 0) {
            startTpcc();
        }
    }

    /** Starts the TPC-C workload if one is on the class path; without it, says so and goes on. */
    private void startTpcc() throws Exception {
        LocalWorkload found = null;
        for (LocalWorkload w : ServiceLoader.load(LocalWorkload.class)) {
            if (w.name().equals("tpcc")) {
                found = w;
                break;
            }
        }
        if (found == null) {
            out.println("tpcc        not on this class path (bin/elastras local runs it); --tpcc-warehouses 0 hides this");
            return;
        }
        keep(found, w -> tpcc = w).start(zk.connectString(), config.tpccWarehouses(), config.tpccRateTxnPerSecond(), out);
    }

    /** The TPC-C workload's status fragment, or null if none runs. */
    public String tpccStatus() {
        LocalWorkload w = tpcc;
        return w == null ? null : w.status();
    }

    /**
     * Keeps the cluster whole, like a process supervisor would: an OTM process that ended (killed,
     * or exited because it lost its lease or was declared failed) is replaced by a new OTM under a
     * new id (its id could be used again by a new run, but a new one keeps the dead OTM's events
     * apart on the dashboard); a master process that died is started again under its id.
     */
    private void supervise() {
        while (!stopping) {
            try {
                Thread.sleep(500);
                List<ChildProcess> dead;
                synchronized (otms) {
                    dead = new ArrayList<>();
                    otms.stream().filter(p -> !p.alive()).forEach(dead::add);
                    masters.stream().filter(p -> !p.alive()).forEach(dead::add);
                }
                for (ChildProcess p : dead) {
                    if (stopping) {
                        return;
                    }
                    replace(p);
                }
            } catch (InterruptedException e) {
                return;
            } catch (Exception e) {
                out.println("supervisor  could not replace a process: " + e.getMessage());
            }
        }
    }

    private void replace(ChildProcess dead) throws Exception {
        boolean master = dead.id().startsWith("master-");
        String id;
        synchronized (otms) {
            id = master ? dead.id() : "otm-" + nextOtmNumber++;
        }
        Path logs = dataDirectory.resolve("logs");
        ChildProcess fresh = master
                ? ChildProcess.master(id, System.getProperty("java.class.path"), zk.connectString(), dfsRoot, MASTER_HEAP_MB,
                        logs.resolve(id + ".log"), adminToken)
                : ChildProcess.otm(id, config.otmClassPath(), zk.connectString(), dfsRoot, config.otmHeapMb(),
                        logs.resolve(id + ".log"));
        synchronized (otms) {
            if (stopping) {
                fresh.close();
                return;
            }
            List<ChildProcess> list = master ? masters : otms;
            list.remove(dead);
            list.add(fresh);
            replaced++;
        }
        out.println((master ? "master      " : "otm         ") + dead.id() + " ended; started " + fresh.id() + " pid "
                + fresh.pid() + " port " + fresh.port() + " in its place");
    }

    /** Where the active master's dashboard is and the admin token, for a human; "none" if no master is active. */
    public String dashboard() {
        String active = client == null ? null : client.admin().activeMasterId();
        synchronized (otms) {
            for (ChildProcess m : masters) {
                if (m.id().equals(active) && m.dashboardUrl() != null) {
                    return m.dashboardUrl() + " (token " + adminToken + ")";
                }
            }
        }
        return "none: no master is active yet";
    }

    private static String newToken() {
        byte[] bytes = new byte[16];
        new SecureRandom().nextBytes(bytes);
        return HexFormat.of().formatHex(bytes);
    }

    /** Refuses a non-empty directory that a local cluster did not make; wipes one that it did. */
    private static void prepare(Path data) throws IOException {
        if (Files.isDirectory(data)) {
            boolean empty;
            try (DirectoryStream<Path> entries = Files.newDirectoryStream(data)) {
                empty = !entries.iterator().hasNext();
            }
            if (!empty && !Files.exists(data.resolve(MARKER))) {
                throw new IllegalArgumentException("data directory " + data + " is not empty and was not made by"
                        + " elastras local; choose another with --data DIR");
            }
            if (!empty) {
                deleteTree(data);
            }
        }
        Files.createDirectories(data.resolve("logs"));
        Files.writeString(data.resolve(MARKER), "made by elastras local; wiped by its next start\n");
    }

    private static void deleteTree(Path root) throws IOException {
        try (Stream<Path> all = Files.walk(root)) {
            for (Path p : all.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(p);
            }
        }
    }

    private interface Condition {
        boolean holds() throws Exception;
    }

    private static void await(String what, Condition condition) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(READY_TIMEOUT_MS);
        while (!condition.holds()) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("gave up waiting " + READY_TIMEOUT_MS + " ms for " + what);
            }
            Thread.sleep(20);
        }
    }

    /** A snapshot of the cluster and the workload. */
    public record Status(long elapsedMs, int otmsAlive, int otms, int mastersAlive, String activeMaster,
            List<PartitionInfo> partitions, long committed, long errors, String lastError, long slowestMs) {

        /** Whether every partition is SERVING on an owner. */
        public boolean allServing() {
            return !partitions.isEmpty() && partitions.stream()
                    .allMatch(p -> p.state().equals("SERVING") && p.owner() != null);
        }
    }

    public Status status() throws Exception {
        int alive;
        int total;
        int mastersAlive;
        synchronized (otms) {
            alive = (int) otms.stream().filter(ChildProcess::alive).count();
            total = config.otms();
            mastersAlive = (int) masters.stream().filter(ChildProcess::alive).count();
        }
        DemoWorkload.Counters c = workload.counters();
        return new Status((System.nanoTime() - startedAtNanos) / 1_000_000, alive, total, mastersAlive,
                client.admin().activeMasterId(), client.admin().partitions(null), c.committed.sum(), c.errors.sum(),
                c.lastError.get(), c.slowestMicros.get() / 1_000);
    }

    /**
     * Fault injection: kills the active master's process (SIGKILL) and returns its id; the standby
     * takes over once ZooKeeper expires the dead master's session.
     */
    public String killActiveMaster() throws Exception {
        String active = client.admin().activeMasterId();
        synchronized (otms) {
            for (ChildProcess m : masters) {
                if (m.id().equals(active)) {
                    m.kill();
                    return active;
                }
            }
        }
        throw new IllegalStateException("no running master process is the active one (" + active + ")");
    }

    /**
     * Stops the workload and returns {committed transactions, increments the rows hold}: equal
     * unless an acknowledged commit was lost (or applied twice).
     */
    public long[] stopWorkloadAndCount() throws InterruptedException {
        workload.close();
        return new long[] {workload.counters().committed.sum(), data.incrementsApplied(client)};
    }

    /** Fault injection: kills the OTM process {@code otmId} (SIGKILL). */
    public void killOtm(String otmId) throws Exception {
        synchronized (otms) {
            for (ChildProcess o : otms) {
                if (o.id().equals(otmId)) {
                    o.kill();
                    return;
                }
            }
        }
        throw new IllegalArgumentException("no OTM process " + otmId);
    }

    /** Whether any OTM or master process this cluster started is still running. */
    public boolean anyOtmProcessAlive() {
        synchronized (otms) {
            return otms.stream().anyMatch(ChildProcess::alive) || masters.stream().anyMatch(ChildProcess::alive);
        }
    }

    /** Process ids of the OTM and master processes (alive or not). */
    public List<Long> pids() {
        synchronized (otms) {
            List<Long> pids = new ArrayList<>();
            otms.forEach(o -> pids.add(o.pid()));
            masters.forEach(m -> pids.add(m.pid()));
            return pids;
        }
    }

    /**
     * Stops the workload, the masters, the OTM processes (SIGTERM, then SIGKILL after a grace
     * period) and ZooKeeper, in that order: the masters go first so that they do not treat the
     * stopping OTMs as failures. Idempotent.
     */
    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        stopping = true;
        if (supervisor != null) {
            supervisor.interrupt();
            try {
                supervisor.join(60_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        LocalWorkload t = tpcc;
        if (t != null) {
            t.close();
        }
        try {
            if (workload != null) {
                workload.close();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        if (client != null) {
            client.close();
        }
        List<ChildProcess> mastersToStop;
        List<ChildProcess> otmsToStop;
        synchronized (otms) {
            mastersToStop = List.copyOf(masters);
            otmsToStop = List.copyOf(otms);
        }
        stopAll(mastersToStop);
        stopAll(otmsToStop);
        if (zk != null) {
            zk.close();
        }
    }

    private static void stopAll(List<ChildProcess> processes) {
        List<Thread> stoppers = new ArrayList<>();
        for (ChildProcess p : processes) {
            Thread t = new Thread(() -> {
                try {
                    p.close();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }, "stop-" + p.id());
            t.start();
            stoppers.add(t);
        }
        for (Thread t : stoppers) {
            try {
                t.join();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
