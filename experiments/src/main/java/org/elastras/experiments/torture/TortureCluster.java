package org.elastras.experiments.torture;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.ExponentialBackoffRetry;
import org.apache.curator.test.InstanceSpec;
import org.apache.curator.test.TestingServer;
import org.elastras.catalog.meta.ZkPaths;
import org.elastras.master.MasterMain;
import org.elastras.otm.server.OtmMain;

/**
 * A real ElasTraS cluster on this machine for fault injection: an embedded ZooKeeper server
 * (ticking every 500 ms, so that the masters' 2 s and the OTMs' 4 s sessions are granted as
 * asked), the local DFS in a directory, OTM processes and master processes in JVMs of their own
 * ({@link ChildJvm}, on this JVM's class path so that the OTMs load the experiments' procedure
 * libraries). Ids are never reused within a cluster: an OTM or master that was killed is replaced
 * under a new id ({@code otm-4}, {@code master-3}, ...).
 *
 * <p>Thread-safe, but meant for one fault-injecting thread; {@link #close()} stops everything.
 */
final class TortureCluster implements AutoCloseable {

    static final Pattern OTM_READY = Pattern.compile("ELASTRAS-OTM READY id=(\\S+) port=(\\d+)");
    static final Pattern MASTER_ACTIVE = Pattern.compile("ELASTRAS-MASTER ACTIVE id=(\\S+)");
    static final Pattern MASTER_STANDBY = Pattern.compile("ELASTRAS-MASTER STANDBY id=(\\S+)");
    static final Pattern MASTER_READY = Pattern.compile("ELASTRAS-MASTER READY id=(\\S+) port=(\\d+)");

    /** ZooKeeper tick: sessions may last 2 to 20 ticks, 1 s to 10 s. */
    static final int ZK_TICK_MS = 500;
    static final long START_TIMEOUT_MS = 60_000;
    static final long STOP_GRACE_MS = 5_000;

    private final TestingServer zk;
    /** The harness's own ZooKeeper client, to find the sessions of the processes. */
    private final CuratorFramework zkClient;
    private final Path dfs;
    private final Path logDirectory;
    /** Live (or paused) OTMs by id, in start order. Guarded by this. */
    private final Map<String, ChildJvm> otms = new LinkedHashMap<>();
    /** The port each OTM started serves on. */
    private final Map<String, Integer> otmPorts = new ConcurrentHashMap<>();
    /** Live masters by id, in start order. Guarded by this. */
    private final Map<String, ChildJvm> masters = new LinkedHashMap<>();
    /** Masters that last announced ACTIVE (an announcement from a killed one may linger: check liveness). */
    private final Map<String, Boolean> masterActive = new ConcurrentHashMap<>();
    /** Guarded by this. */
    private int otmsStarted;
    /** Guarded by this: OTM id -> how many times it was restarted under that id. */
    private final Map<String, Integer> otmRuns = new HashMap<>();
    /** Guarded by this. */
    private int mastersStarted;

    private TortureCluster(TestingServer zk, Path dfs, Path logDirectory) {
        this.zk = zk;
        this.zkClient = CuratorFrameworkFactory.newClient(zk.getConnectString(), 10_000, 10_000, new ExponentialBackoffRetry(100, 3));
        this.zkClient.start();
        this.dfs = dfs;
        this.logDirectory = logDirectory;
    }

    /**
     * Starts ZooKeeper, {@code masterCount} masters and {@code otmCount} OTMs under {@code directory}
     * (data in {@code zk/} and {@code dfs/}, process logs in {@code logs/}), and waits until a master
     * is active.
     */
    static TortureCluster start(Path directory, int otmCount, int masterCount) throws Exception {
        if (otmCount < 1 || otmCount > 16) {
            throw new IllegalArgumentException("otmCount must be 1 to 16, got " + otmCount);
        }
        if (masterCount < 1 || masterCount > 4) {
            throw new IllegalArgumentException("masterCount must be 1 to 4, got " + masterCount);
        }
        Files.createDirectories(directory);
        InstanceSpec spec = new InstanceSpec(directory.resolve("zk").toFile(), -1, -1, -1, true, 1, ZK_TICK_MS, 0);
        TestingServer zk = new TestingServer(spec, true);
        TortureCluster cluster = new TortureCluster(zk, directory.resolve("dfs"), directory.resolve("logs"));
        try {
            for (int i = 0; i < masterCount; i++) {
                cluster.startMaster();
            }
            // The OTMs before waiting: a master is active only once it has read the catalog, which
            // OTMs serve.
            for (int i = 0; i < otmCount; i++) {
                cluster.startOtm();
            }
            cluster.awaitActiveMaster(START_TIMEOUT_MS);
            return cluster;
        } catch (Exception | Error e) {
            cluster.close();
            throw e;
        }
    }

    String zkConnect() {
        return zk.getConnectString();
    }

    Path logDirectory() {
        return logDirectory;
    }

    /** Starts an OTM under the next unused id and waits until it serves; returns its id. */
    String startOtm() throws Exception {
        String id;
        synchronized (this) {
            id = "otm-" + (++otmsStarted);
        }
        return startOtm(id, id);
    }

    /**
     * Starts a new run of the killed OTM {@code id} under the same id, as a service manager would,
     * and waits until it serves (its start waits for the dead run's registration to go); returns
     * the id. Its logs are {@code <id>.run<n>.log}.
     */
    String restartOtm(String id) throws Exception {
        int run;
        synchronized (this) {
            if (otms.containsKey(id)) {
                throw new IllegalArgumentException("OTM " + id + " still runs");
            }
            run = otmRuns.merge(id, 1, Integer::sum) + 1;
        }
        return startOtm(id, id + ".run" + run);
    }

    private String startOtm(String id, String logName) throws Exception {
        CompletableFuture<Integer> ready = new CompletableFuture<>();
        ChildJvm jvm = ChildJvm.start(logName, OtmMain.class.getName(), List.of("--id", id, "--zk", zkConnect(), "--dfs",
                dfs.toUri().toString(), "--port", "0"), logDirectory, line -> {
                    Matcher m = OTM_READY.matcher(line);
                    if (m.find()) {
                        ready.complete(Integer.parseInt(m.group(2)));
                    }
                });
        synchronized (this) {
            otms.put(id, jvm);
        }
        try {
            awaitReady(jvm, ready);
        } catch (Exception e) {
            synchronized (this) {
                otms.remove(id);
            }
            throw e;
        }
        otmPorts.put(id, ready.getNow(0));
        return id;
    }

    /** The port OTM {@code id} serves on. */
    int otmPort(String id) {
        Integer port = otmPorts.get(id);
        if (port == null) {
            throw new IllegalArgumentException("no OTM " + id + " was started");
        }
        return port;
    }

    /** Starts a master under the next unused id and waits until it has joined the election; returns its id. */
    String startMaster() throws Exception {
        String id;
        synchronized (this) {
            id = "master-" + (++mastersStarted);
        }
        CompletableFuture<Integer> ready = new CompletableFuture<>();
        ChildJvm jvm = ChildJvm.start(id, MasterMain.class.getName(), List.of("--id", id, "--zk", zkConnect(), "--dfs",
                dfs.toUri().toString(), "--port", "0"), logDirectory, line -> {
                    Matcher m = MASTER_READY.matcher(line);
                    if (m.find()) {
                        ready.complete(Integer.parseInt(m.group(2)));
                    }
                    if (MASTER_ACTIVE.matcher(line).find()) {
                        masterActive.put(id, true);
                    } else if (MASTER_STANDBY.matcher(line).find()) {
                        masterActive.put(id, false);
                    }
                });
        synchronized (this) {
            masters.put(id, jvm);
        }
        try {
            awaitReady(jvm, ready);
        } catch (Exception e) {
            synchronized (this) {
                masters.remove(id);
            }
            throw e;
        }
        return id;
    }

    private void awaitReady(ChildJvm jvm, CompletableFuture<Integer> ready) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(START_TIMEOUT_MS);
        while (true) {
            try {
                ready.get(100, TimeUnit.MILLISECONDS);
                return;
            } catch (java.util.concurrent.TimeoutException e) {
                if (!jvm.alive()) {
                    throw new IOException(jvm.name() + " exited before it was ready; see " + jvm.log());
                }
                if (System.nanoTime() > deadline) {
                    jvm.kill();
                    throw new IOException(jvm.name() + " was not ready within " + START_TIMEOUT_MS + " ms; see " + jvm.log());
                }
            }
        }
    }

    /** The ids of the OTMs started, not killed and still running, in start order (a paused one included). */
    synchronized List<String> otmIds() {
        List<String> ids = new ArrayList<>();
        otms.forEach((id, jvm) -> {
            if (jvm.alive()) {
                ids.add(id);
            }
        });
        return ids;
    }

    /**
     * Replaces every OTM that can no longer serve although no fault was aimed at it: its process
     * ended (an OTM exits once it can serve nothing more), or its ZooKeeper registration is gone
     * (its session expired, e.g. while the embedded ZooKeeper server was starved on a loaded
     * machine: such an OTM never serves again under its id). Call between faults only: a zombie
     * kept on purpose would be replaced too. Returns "otm-2 (status 3) -> otm-7" or "otm-2
     * (registration gone) -> otm-7" for each.
     */
    List<String> replaceLostOtms() throws Exception {
        Map<String, String> lost = new LinkedHashMap<>();
        ZkPaths paths = new ZkPaths(ZkPaths.DEFAULT_ROOT);
        for (String id : allOtmIds()) {
            ChildJvm jvm;
            synchronized (this) {
                jvm = otms.get(id);
            }
            if (jvm == null) {
                continue;
            }
            if (!jvm.alive()) {
                lost.put(id, "status " + jvm.exitStatus());
            } else if (zkClient.checkExists().forPath(paths.otm(id)) == null) {
                lost.put(id, "registration gone");
            }
        }
        List<String> replaced = new ArrayList<>();
        for (Map.Entry<String, String> entry : lost.entrySet()) {
            ChildJvm jvm;
            synchronized (this) {
                jvm = otms.remove(entry.getKey());
            }
            jvm.kill();
            replaced.add(entry.getKey() + " (" + entry.getValue() + ") -> " + startOtm());
        }
        return replaced;
    }

    private synchronized List<String> allOtmIds() {
        return new ArrayList<>(otms.keySet());
    }

    /** The live master that last announced itself active, if any. */
    synchronized Optional<String> activeMaster() {
        for (Map.Entry<String, ChildJvm> entry : masters.entrySet()) {
            if (masterActive.getOrDefault(entry.getKey(), false) && entry.getValue().alive()) {
                return Optional.of(entry.getKey());
            }
        }
        return Optional.empty();
    }

    /** Waits until a live master announces itself active; returns its id. */
    String awaitActiveMaster(long timeoutMs) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMs);
        while (true) {
            Optional<String> active = activeMaster();
            if (active.isPresent()) {
                return active.get();
            }
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("no master became active within " + timeoutMs + " ms; see the logs in " + logDirectory);
            }
            Thread.sleep(20);
        }
    }

    /** SIGKILLs an OTM; its id is spent. */
    void killOtm(String id) throws Exception {
        ChildJvm jvm;
        synchronized (this) {
            jvm = otms.remove(id);
        }
        if (jvm == null) {
            throw new IllegalArgumentException("no live OTM " + id);
        }
        jvm.kill();
    }

    /** SIGKILLs a master; its id is spent. */
    void killMaster(String id) throws Exception {
        ChildJvm jvm;
        synchronized (this) {
            jvm = masters.remove(id);
        }
        if (jvm == null) {
            throw new IllegalArgumentException("no live master " + id);
        }
        masterActive.remove(id);
        jvm.kill();
    }

    /**
     * Expires OTM {@code id}'s ZooKeeper session on the server while the process runs on (a
     * network partition from ZooKeeper); returns the session id.
     */
    long expireOtmSession(String id) throws Exception {
        otm(id);
        return ZkSessionExpirer.expireOwnerOf(zk, zkClient, new ZkPaths(ZkPaths.DEFAULT_ROOT).otm(id));
    }

    /** SIGSTOPs an OTM: it stays in the cluster's list until it is killed. */
    void pauseOtm(String id) throws Exception {
        ChildJvm jvm = otm(id);
        if (!jvm.signal("STOP")) {
            throw new IllegalStateException("OTM " + id + " ended (status " + jvm.exitStatus() + ") before it could be paused; see "
                    + jvm.log());
        }
    }

    /** SIGCONTs a paused OTM (nothing if it has ended). */
    void resumeOtm(String id) throws Exception {
        otm(id).signal("CONT");
    }

    private synchronized ChildJvm otm(String id) {
        ChildJvm jvm = otms.get(id);
        if (jvm == null) {
            throw new IllegalArgumentException("no live OTM " + id);
        }
        return jvm;
    }

    /** Stops every process at once (each resumed if paused, SIGTERM, SIGKILL after a grace), then ZooKeeper. */
    @Override
    public void close() throws Exception {
        List<ChildJvm> all = new ArrayList<>();
        synchronized (this) {
            all.addAll(otms.values());
            all.addAll(masters.values());
            otms.clear();
            masters.clear();
        }
        // One thread each (not the common pool, which has one thread on a two-core machine).
        List<String> failures = java.util.Collections.synchronizedList(new ArrayList<>());
        List<Thread> stops = new ArrayList<>();
        for (ChildJvm jvm : all) {
            Thread stop = new Thread(() -> {
                try {
                    jvm.signal("CONT"); // A paused JVM cannot run its shutdown hooks.
                    jvm.stop(STOP_GRACE_MS);
                } catch (Exception e) {
                    failures.add("stopping " + jvm.name() + ": " + e);
                }
            }, "stop-" + jvm.name());
            stops.add(stop);
            stop.start();
        }
        for (Thread stop : stops) {
            stop.join();
        }
        Exception first = failures.isEmpty() ? null : new IOException(String.join("; ", failures));
        zkClient.close();
        zk.close();
        if (first != null) {
            throw first;
        }
    }
}
