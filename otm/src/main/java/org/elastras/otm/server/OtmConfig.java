package org.elastras.otm.server;

import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import org.elastras.catalog.meta.ZkPaths;
import org.elastras.storage.store.MemtableBudget;

/**
 * How one OTM process is started: its id, where ZooKeeper and the DFS are, where it listens.
 * Immutable; validated at construction.
 *
 * @param otmId this OTM's id: its lease znode and WAL directory are named after it
 * @param zkConnect ZooKeeper connect string (host:port[,host:port...])
 * @param zkRoot root path of ElasTraS's znodes
 * @param dfs the DFS root ({@code file:/...} or {@code hdfs://namenode:port/path})
 * @param host address to listen on
 * @param port port to listen on (0: any free port)
 * @param zkSessionTimeoutMs ZooKeeper session timeout: how long a silent OTM keeps its lease
 * @param standalone true for an OTM without a master: it counts commit timestamps itself and sends
 *     no heartbeats (tests, benchmarks, one node); false in a cluster, where CTSs come from the
 *     master's ranges (two counting OTMs would hand out the same CTSs)
 * @param heartbeatMs the heartbeat (and timestamp exchange) period in a cluster
 * @param batchesExecutingMax most call batches executing at once (the others wait for their syncs,
 *     or for one of these slots); 0: one per core of this machine
 * @param memtableBudgetMb what the memtables of all partitions served here may hold together, in
 *     MiB of accounted bytes ({@link MemtableBudget}); 0: an eighth of the JVM's largest heap
 */
public record OtmConfig(String otmId, String zkConnect, String zkRoot, URI dfs, String host, int port, int zkSessionTimeoutMs,
        boolean standalone, int heartbeatMs, int batchesExecutingMax, int memtableBudgetMb) {

    public static final int DEFAULT_SESSION_TIMEOUT_MS = 4_000;
    public static final int DEFAULT_HEARTBEAT_MS = 2;

    /** A standalone OTM (no master, local timestamps); see {@link #inCluster()}. */
    public OtmConfig(String otmId, String zkConnect, String zkRoot, URI dfs, String host, int port, int zkSessionTimeoutMs) {
        this(otmId, zkConnect, zkRoot, dfs, host, port, zkSessionTimeoutMs, true, DEFAULT_HEARTBEAT_MS);
    }

    /** An OTM with one batch execution slot per core. */
    public OtmConfig(String otmId, String zkConnect, String zkRoot, URI dfs, String host, int port, int zkSessionTimeoutMs,
            boolean standalone, int heartbeatMs) {
        this(otmId, zkConnect, zkRoot, dfs, host, port, zkSessionTimeoutMs, standalone, heartbeatMs, 0);
    }

    /** An OTM whose memtables' budget is an eighth of its heap. */
    public OtmConfig(String otmId, String zkConnect, String zkRoot, URI dfs, String host, int port, int zkSessionTimeoutMs,
            boolean standalone, int heartbeatMs, int batchesExecutingMax) {
        this(otmId, zkConnect, zkRoot, dfs, host, port, zkSessionTimeoutMs, standalone, heartbeatMs, batchesExecutingMax, 0);
    }

    /** This OTM as a member of a cluster: timestamps from the master, heartbeats every {@code heartbeatMs}. */
    public OtmConfig inCluster() {
        return new OtmConfig(otmId, zkConnect, zkRoot, dfs, host, port, zkSessionTimeoutMs, false, heartbeatMs,
                batchesExecutingMax, memtableBudgetMb);
    }

    /** This OTM with at most {@code max} call batches executing at once (0: one per core). */
    public OtmConfig withBatchesExecutingMax(int max) {
        return new OtmConfig(otmId, zkConnect, zkRoot, dfs, host, port, zkSessionTimeoutMs, standalone, heartbeatMs, max,
                memtableBudgetMb);
    }

    /** This OTM with a memtable budget of {@code mb} MiB (0: an eighth of the heap). */
    public OtmConfig withMemtableBudgetMb(int mb) {
        return new OtmConfig(otmId, zkConnect, zkRoot, dfs, host, port, zkSessionTimeoutMs, standalone, heartbeatMs,
                batchesExecutingMax, mb);
    }

    /** The memtable budget: as configured, or an eighth of this JVM's largest heap. */
    public MemtableBudget memtableBudget() {
        return memtableBudgetMb == 0 ? MemtableBudget.forHeap(Runtime.getRuntime().maxMemory())
                : new MemtableBudget((long) memtableBudgetMb << 20);
    }

    /** How many call batches may execute at once: as configured, or one per core. */
    public int batchSlots() {
        return batchesExecutingMax == 0 ? Runtime.getRuntime().availableProcessors() : batchesExecutingMax;
    }

    public OtmConfig {
        ZkPaths.checkOtmId(otmId);
        if (zkConnect == null || zkConnect.isBlank()) {
            throw new IllegalArgumentException("--zk is required: the ZooKeeper connect string, e.g. 127.0.0.1:2181");
        }
        new ZkPaths(zkRoot);
        if (dfs == null || dfs.getScheme() == null) {
            throw new IllegalArgumentException("--dfs is required: file:/path or hdfs://namenode:port/path");
        }
        if (port < 0 || port > 65_535) {
            throw new IllegalArgumentException("--port must be in [0, 65535], got " + port);
        }
        if (zkSessionTimeoutMs < 1_000 || zkSessionTimeoutMs > 120_000) {
            throw new IllegalArgumentException("--zk-session-timeout-ms must be in [1000, 120000], got " + zkSessionTimeoutMs);
        }
        if (heartbeatMs < 1 || heartbeatMs > 10_000) {
            throw new IllegalArgumentException("--heartbeat-ms must be in [1, 10000], got " + heartbeatMs);
        }
        if (batchesExecutingMax < 0 || batchesExecutingMax > 1_024) {
            throw new IllegalArgumentException("--batches-executing-max must be in [0, 1024] (0: one per core), got "
                    + batchesExecutingMax);
        }
        if (memtableBudgetMb < 0 || memtableBudgetMb > 1_048_576) {
            throw new IllegalArgumentException("--memtable-budget-mb must be in [0, 1048576] (0: an eighth of the heap), got "
                    + memtableBudgetMb);
        }
    }

    public static final String USAGE = String.join("\n",
            "usage: elastras otm --id ID --zk HOST:PORT[,...] --dfs URI [options]",
            "  --id ID                       this OTM's id ([A-Za-z0-9._-], unique among live OTMs)",
            "  --zk CONNECT                  ZooKeeper connect string",
            "  --dfs URI                     file:/path (local directory) or hdfs://namenode:port/path",
            "  --host HOST                   address to listen on (default 127.0.0.1)",
            "  --port PORT                   port to listen on (default 0: any free port)",
            "  --zk-root PATH                root znode (default /elastras)",
            "  --zk-session-timeout-ms MS    lease timeout (default " + DEFAULT_SESSION_TIMEOUT_MS + ")",
            "  --heartbeat-ms MS             heartbeat and timestamp exchange period (default " + DEFAULT_HEARTBEAT_MS + ")",
            "  --batches-executing-max N     call batches executing at once; the others wait for their syncs",
            "                                (default 0: one per core)",
            "  --memtable-budget-mb MB       what all partitions' memtables may hold together; the largest is",
            "                                flushed at half of it, writers wait at all of it",
            "                                (default 0: an eighth of the heap)",
            "  --standalone                  no master: count commit timestamps locally (one OTM only)");

    /**
     * Parses command-line arguments.
     *
     * @throws IllegalArgumentException with a message naming the bad or missing argument
     */
    public static OtmConfig parse(String[] args) {
        String id = null;
        String zk = null;
        String root = ZkPaths.DEFAULT_ROOT;
        String dfs = null;
        String host = "127.0.0.1";
        int port = 0;
        int timeout = DEFAULT_SESSION_TIMEOUT_MS;
        int heartbeat = DEFAULT_HEARTBEAT_MS;
        boolean standalone = false;
        int batchesExecuting = 0;
        int memtableBudget = 0;
        List<String> rest = new ArrayList<>(List.of(args));
        while (!rest.isEmpty()) {
            String flag = rest.remove(0);
            if (flag.equals("--standalone")) {
                standalone = true;
                continue;
            }
            if (rest.isEmpty()) {
                throw new IllegalArgumentException("missing value after " + flag + "\n" + USAGE);
            }
            String value = rest.remove(0);
            switch (flag) {
                case "--id" -> id = value;
                case "--zk" -> zk = value;
                case "--zk-root" -> root = value;
                case "--dfs" -> dfs = value;
                case "--host" -> host = value;
                case "--port" -> port = parseInt(flag, value);
                case "--zk-session-timeout-ms" -> timeout = parseInt(flag, value);
                case "--heartbeat-ms" -> heartbeat = parseInt(flag, value);
                case "--batches-executing-max" -> batchesExecuting = parseInt(flag, value);
                case "--memtable-budget-mb" -> memtableBudget = parseInt(flag, value);
                default -> throw new IllegalArgumentException("unknown argument " + flag + "\n" + USAGE);
            }
        }
        if (id == null) {
            throw new IllegalArgumentException("--id is required\n" + USAGE);
        }
        return new OtmConfig(id, zk, root, dfs == null ? null : URI.create(dfs), host, port, timeout, standalone, heartbeat,
                batchesExecuting, memtableBudget);
    }

    private static int parseInt(String flag, String value) {
        try {
            return Integer.parseInt(value);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(flag + " needs a number, got '" + value + "'");
        }
    }
}
