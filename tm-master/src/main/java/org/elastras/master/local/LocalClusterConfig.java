package org.elastras.master.local;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * How a local cluster is started and what demo it runs. Immutable; validated at construction.
 *
 * @param dataDirectory where ZooKeeper, the DFS and the logs live (wiped at start if a previous
 *     local cluster left it; refused if it holds anything else)
 * @param otms how many OTM processes
 * @param otmClassPath the class path of the OTM processes: the otm module with its dependencies
 *     and this module's classes ({@link ParentWatch})
 * @param otmHeapMb heap of each OTM process
 * @param tenantRows rows of the demo tenant database (one partition)
 * @param warehouses root rows of the demo tree database
 * @param itemsPerWarehouse child rows per root row
 * @param shopPartitions partitions of the demo tree database
 * @param workloadThreads client threads of the demo workload
 * @param rateTxnPerSecond total transactions per second the workload aims at (a bound, not a target)
 * @param statusIntervalMs how often a status line is printed
 * @param seed seed of the workload's choices
 * @param tpccWarehouses warehouses of the TPC-C database loaded next to the demo, 0 for none (it
 *     runs only where a {@link LocalWorkload} named {@code tpcc} is on the class path)
 * @param tpccRateTxnPerSecond the most TPC-C transactions per second
 */
public record LocalClusterConfig(Path dataDirectory, int otms, String otmClassPath, int otmHeapMb, int tenantRows,
        int warehouses, int itemsPerWarehouse, int shopPartitions, int workloadThreads, int rateTxnPerSecond,
        long statusIntervalMs, long seed, int tpccWarehouses, int tpccRateTxnPerSecond) {

    public static final int OTMS_MAX = 16;

    public LocalClusterConfig {
        Objects.requireNonNull(dataDirectory, "dataDirectory");
        check("--otms", otms, 1, OTMS_MAX);
        if (otmClassPath == null || otmClassPath.isBlank()) {
            throw new IllegalArgumentException("--otm-classpath is required: the otm module's class path");
        }
        check("OTM heap MB", otmHeapMb, 64, 65_536);
        check("tenant rows", tenantRows, 1, 1_000_000);
        check("warehouses", warehouses, 1, 100_000);
        check("items per warehouse", itemsPerWarehouse, 1, 100); // one load transaction per warehouse
        check("shop partitions", shopPartitions, 1, Math.min(64, warehouses));
        check("--threads", workloadThreads, 1, 64);
        check("--rate", rateTxnPerSecond, 1, 100_000);
        check("--tpcc-warehouses", tpccWarehouses, 0, 64);
        check("--tpcc-rate", tpccRateTxnPerSecond, 1, 100_000);
        if (statusIntervalMs < 100 || statusIntervalMs > 3_600_000) {
            throw new IllegalArgumentException("--status-seconds must be in [0.1, 3600], got " + statusIntervalMs / 1000.0);
        }
    }

    public static final String USAGE = String.join("\n",
            "usage: elastras local [options]",
            "  Starts on this machine: an embedded ZooKeeper server, the local DFS, one master (in this",
            "  process) and N OTM processes; creates a demo tenant database and a demo tree database,",
            "  loads them and runs a small read-modify-write workload (and a light TPC-C, below), printing a status line every few",
            "  seconds. Ctrl-C stops everything. The data lasts for one run (the next run wipes it).",
            "  --data DIR            data directory (default ./data/local)",
            "  --otms N              OTM processes (default 3, at most " + OTMS_MAX + ")",
            "  --threads N           workload client threads (default 4)",
            "  --rate N              at most N transactions per second in total (default 200)",
            "  --status-seconds S    seconds between status lines (default 5)",
            "  --tpcc-warehouses W   also load a scaled-down TPC-C of W warehouses (one partition each) and",
            "                        run it lightly; 0 for none (default 2; needs the experiments module on the",
            "                        class path, as bin/elastras local runs it)",
            "  --tpcc-rate N         at most N TPC-C transactions per second (default 20)",
            "  --otm-classpath CP    class path of the OTM processes (bin/elastras passes it)",
            "  --help                this text");

    /** The demo's defaults: 3 OTMs, 1,000 tenant rows, 40 warehouses x 25 items in 4 partitions. */
    public static LocalClusterConfig defaults(Path dataDirectory, String otmClassPath) {
        return new LocalClusterConfig(dataDirectory, 3, otmClassPath, 512, 1_000, 40, 25, 4, 4, 200, 5_000, 1, 2, 20);
    }

    /**
     * Parses command-line arguments.
     *
     * @param defaultClassPath the OTM class path when {@code --otm-classpath} is not given
     * @throws IllegalArgumentException with a message naming the bad argument
     */
    public static LocalClusterConfig parse(String[] args, String defaultClassPath) {
        LocalClusterConfig c = defaults(Path.of("data", "local"), defaultClassPath);
        Path data = c.dataDirectory();
        int otms = c.otms();
        int threads = c.workloadThreads();
        int rate = c.rateTxnPerSecond();
        long statusMs = c.statusIntervalMs();
        int tpccWarehouses = c.tpccWarehouses();
        int tpccRate = c.tpccRateTxnPerSecond();
        String classPath = defaultClassPath;
        List<String> rest = new ArrayList<>(List.of(args));
        while (!rest.isEmpty()) {
            String flag = rest.remove(0);
            if (!List.of("--data", "--otms", "--threads", "--rate", "--status-seconds", "--otm-classpath",
                    "--tpcc-warehouses", "--tpcc-rate").contains(flag)) {
                throw new IllegalArgumentException("unknown argument '" + flag + "' (see elastras local --help)");
            }
            if (rest.isEmpty()) {
                throw new IllegalArgumentException("missing value after " + flag);
            }
            String value = rest.remove(0);
            switch (flag) {
                case "--data" -> data = Path.of(value);
                case "--otms" -> otms = parseInt(flag, value);
                case "--threads" -> threads = parseInt(flag, value);
                case "--rate" -> rate = parseInt(flag, value);
                case "--status-seconds" -> statusMs = Math.round(parseDouble(flag, value) * 1000);
                case "--otm-classpath" -> classPath = value;
                case "--tpcc-warehouses" -> tpccWarehouses = parseInt(flag, value);
                case "--tpcc-rate" -> tpccRate = parseInt(flag, value);
                default -> throw new IllegalStateException("flag list and switch disagree on " + flag);
            }
        }
        return new LocalClusterConfig(data, otms, classPath, c.otmHeapMb(), c.tenantRows(), c.warehouses(),
                c.itemsPerWarehouse(), c.shopPartitions(), threads, rate, statusMs, c.seed(), tpccWarehouses, tpccRate);
    }

    private static void check(String what, int value, int min, int max) {
        if (value < min || value > max) {
            throw new IllegalArgumentException(what + " must be in [" + min + ", " + max + "], got " + value);
        }
    }

    private static int parseInt(String flag, String value) {
        try {
            return Integer.parseInt(value);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(flag + " needs a whole number, got '" + value + "'");
        }
    }

    private static double parseDouble(String flag, String value) {
        try {
            return Double.parseDouble(value);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(flag + " needs a number, got '" + value + "'");
        }
    }
}
