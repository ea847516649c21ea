package org.elastras.master.local;

import java.io.IOException;
import java.io.PrintStream;
import java.net.URI;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.elastras.catalog.meta.ZkPaths;
import org.elastras.master.cluster.Master;
import org.elastras.master.cluster.MasterConfig;
import org.elastras.master.cluster.PartitionState;
import org.elastras.master.cluster.PartitionView;

/**
 * A whole ElasTraS cluster on this machine, for trying it out: an embedded ZooKeeper server, the
 * local DFS in a directory, one master in this process and N OTMs as child processes, plus the
 * demo databases ({@link DemoData}) and workload ({@link DemoWorkload}). Not for production: one
 * ZooKeeper server, one master, data wiped on the next start.
 *
 * <p>Data directory layout: {@code zk/} (ZooKeeper), {@code dfs/} (the DFS root),
 * {@code logs/otm-<i>.log}, and the marker {@value #MARKER} that allows the next start to wipe it.
 *
 * <p>Threads: {@link #start} and {@link #close} from one thread (close may also run in a shutdown
 * hook); {@link #status} from any.
 */
public final class LocalCluster implements AutoCloseable {

    static final String MARKER = ".elastras-local";
    private static final String MASTER_ID = "master-1";
    private static final long READY_TIMEOUT_MS = 60_000;

    private final LocalClusterConfig config;
    private final PrintStream out;
    private final long startedAtNanos = System.nanoTime();
    /** The resources below are set under this object's lock ({@link #keep}) and read by {@link #close}. */
    private EmbeddedZooKeeper zk;
    private final List<OtmChildProcess> otms = new ArrayList<>();
    private Master master;
    private OwnerDirectory owners;
    private DemoData data;
    private DemoWorkload workload;
    private boolean closed;

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
        Files.createDirectories(data.resolve("dfs"));
        keep(EmbeddedZooKeeper.start(data.resolve("zk")), z -> zk = z);
        out.println("zookeeper   embedded server at " + zk.connectString() + " (data " + data.resolve("zk") + ")");
        out.println("dfs         local directory " + dfs);

        List<CompletableFuture<OtmChildProcess>> starting = new ArrayList<>();
        for (int i = 1; i <= config.otms(); i++) {
            String id = "otm-" + i;
            starting.add(CompletableFuture.supplyAsync(() -> {
                try {
                    return OtmChildProcess.start(id, config.otmClassPath(), zk.connectString(), dfs, config.otmHeapMb(),
                            data.resolve("logs").resolve(id + ".log"));
                } catch (Exception e) {
                    throw new IllegalStateException(e.getMessage(), e);
                }
            }));
        }
        IllegalStateException failed = null;
        for (CompletableFuture<OtmChildProcess> f : starting) {
            try {
                OtmChildProcess otm = keep(f.join(), o -> {
                    synchronized (otms) {
                        otms.add(o);
                    }
                });
                out.println("otm         " + otm.otmId() + " pid " + otm.pid() + " port " + otm.port()
                        + " (log " + data.resolve("logs").resolve(otm.otmId() + ".log") + ")");
            } catch (RuntimeException e) {
                failed = failed == null ? new IllegalStateException("an OTM did not start: " + e.getMessage(), e) : failed;
            }
        }
        if (failed != null) {
            throw failed;
        }

        keep(Master.start(MasterConfig.defaults(MASTER_ID, zk.connectString(), ZkPaths.DEFAULT_ROOT, dfs)), m -> master = m);
        await("the master to be elected", master::active);
        out.println("master      " + MASTER_ID + " active (in this process)");

        this.data = DemoData.create(master, config);
        await("every demo partition to serve", () -> master.partitions().stream()
                .allMatch(v -> v.state() == PartitionState.SERVING));
        Map<String, Integer> ports = new LinkedHashMap<>();
        otms.forEach(o -> ports.put(o.otmId(), o.port()));
        keep(new OwnerDirectory(master, ports, () -> System.nanoTime() / 1_000_000), o -> owners = o);
        long loadStarted = System.nanoTime();
        this.data.load(owners);
        out.printf("data        %s (1 partition) and %s (%d partitions): %,d rows loaded in %d ms%n", DemoData.TENANT,
                DemoData.SHOP, config.shopPartitions(), this.data.rowCount(), (System.nanoTime() - loadStarted) / 1_000_000);

        keep(new DemoWorkload(this.data, owners, config.workloadThreads(), config.rateTxnPerSecond(), config.seed()),
                w -> workload = w).start();
        out.printf("workload    %d client threads, read-modify-write transactions, at most %d txn/s%n",
                config.workloadThreads(), config.rateTxnPerSecond());
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
    public record Status(long elapsedMs, int otmsAlive, int otms, List<PartitionView> partitions, long committed,
            long conflicts, long reroutes, long errors, String lastError) {

        /** Whether every partition is SERVING on an owner. */
        public boolean allServing() {
            return !partitions.isEmpty() && partitions.stream()
                    .allMatch(v -> v.state() == PartitionState.SERVING && v.record().owner() != null);
        }
    }

    public Status status() throws Exception {
        int alive;
        int total;
        synchronized (otms) {
            alive = (int) otms.stream().filter(OtmChildProcess::alive).count();
            total = otms.size();
        }
        DemoWorkload.Counters c = workload.counters();
        return new Status((System.nanoTime() - startedAtNanos) / 1_000_000, alive, total, master.partitions(),
                c.committed.sum(), c.conflicts.sum(), c.reroutes.sum(), c.errors.sum(), c.lastError.get());
    }

    /** Whether any OTM process this cluster started is still running. */
    public boolean anyOtmProcessAlive() {
        synchronized (otms) {
            return otms.stream().anyMatch(OtmChildProcess::alive);
        }
    }

    /** Process ids of the OTM processes (alive or not). */
    public List<Long> otmPids() {
        synchronized (otms) {
            return otms.stream().map(OtmChildProcess::pid).toList();
        }
    }

    /**
     * Stops the workload, the master, the OTM processes (SIGTERM, then SIGKILL after a grace
     * period) and ZooKeeper, in that order: the master goes first so that it does not treat the
     * stopping OTMs as failures. Idempotent.
     */
    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        try {
            if (workload != null) {
                workload.close();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        if (owners != null) {
            owners.close();
        }
        if (master != null) {
            master.close();
        }
        List<OtmChildProcess> toStop;
        synchronized (otms) {
            toStop = List.copyOf(otms);
        }
        List<Thread> stoppers = new ArrayList<>();
        for (OtmChildProcess otm : toStop) {
            Thread t = new Thread(() -> {
                try {
                    otm.close();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }, "stop-" + otm.otmId());
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
        if (zk != null) {
            zk.close();
        }
    }
}
