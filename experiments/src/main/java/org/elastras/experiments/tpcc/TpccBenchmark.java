package org.elastras.experiments.tpcc;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.elastras.experiments.ResultFiles;

/**
 * TPC-C on ElasTraS (an in-process OTM) and on embedded Derby in the same run: for each target,
 * load, check the consistency conditions (3.3.2.1-12, with 11 as loaded), run the closed-loop
 * driver ({@link TpccDriver}), check again (without 11), and print and write the figures to
 * {@code tpcc.json} and {@code tpcc.csv}.
 *
 * <p>Arguments, all optional: {@code --warehouses 2 --items 10000 --customers 300 --spec false
 * --terminals-per-warehouse 10 --warehouses-per-partition 1 --seconds 30 --warmup-seconds 5
 * --load-threads 2 --targets derby,elastras,elastras-si --remote spec --seed 42 --out experiments/results/tpcc}.
 * {@code --remote} lists how remote warehouse choices are made ({@link RemoteWarehouses}: {@code spec}, the
 * default, or {@code all-local}); with {@code spec,all-local} every target is loaded and run once per mode, on
 * the same generated database, for comparison. The default
 * database is scaled down and the results say so; {@code --spec true} loads the spec's
 * cardinalities, the spec's 100,000 items included.
 * Not a TPC-C result in any case: no keying and think times, among others ({@link #deviations}).
 * Single-threaded main; the loader and driver run their own threads.
 *
 * <p>Run from the repository root:
 * <pre>
 * mvn -q -o -pl experiments -am install -DskipTests
 * mvn -q -o -pl experiments dependency:build-classpath -Dmdep.outputFile=/tmp/cp.txt
 * java -Xmx1500m -cp experiments/target/classes:$(cat /tmp/cp.txt) org.elastras.experiments.tpcc.TpccBenchmark
 * </pre>
 */
public final class TpccBenchmark {

    private static final String JSON = "tpcc.json";
    private static final String TIMELINE_CSV = "tpcc-timeline.csv";
    private static final String PNG = "tpcc.png";
    private static final int PROGRESS_LOG_SECONDS = 5;
    private static final String CSV = "tpcc.csv";
    /** Held so that the level set on it stays: the OTM's INFO lines would interleave with the table. */
    private static final java.util.logging.Logger OTM_LOGS = java.util.logging.Logger.getLogger("org.elastras");
    static final String ALL_LOCAL_FLAG = "runs marked (all-local) draw remote warehouse accesses and then make them local"
            + " (1% of New-Order lines, 15% of Payments); the others keep them, as the spec says";

    private TpccBenchmark() {
    }

    /** The run's configuration, checked when parsed. */
    record Options(TpccScale scale, int terminalsPerWarehouse, int warehousesPerPartition, double measureSeconds,
            double warmupSeconds, int loadThreads, List<String> targets, long seed, Path output, int clusterOtms,
            List<RemoteWarehouses> remote) {

        static final List<String> TARGETS = TpccTargets.NAMES;
        static final String DEFAULT_TARGETS = "derby,elastras,elastras-si,postgres-jdbc,postgres-plpgsql";
        static final List<String> NAMES = List.of("warehouses", "items", "customers", "spec", "terminals-per-warehouse",
                "warehouses-per-partition", "seconds", "warmup-seconds", "load-threads", "targets", "seed", "out", "otms", "remote");

        Options {
            if (measureSeconds <= 0 || measureSeconds > 3_600 || warmupSeconds < 0 || warmupSeconds > 600) {
                throw new IllegalArgumentException("--seconds must be in (0, 3600], --warmup-seconds in [0, 600]");
            }
            if (clusterOtms < 1 || clusterOtms > 16) {
                throw new IllegalArgumentException("--otms must be in [1, 16], got " + clusterOtms);
            }
            if (warehousesPerPartition < 1 || loadThreads < 1 || loadThreads > TpccLoader.THREADS_MAX) {
                throw new IllegalArgumentException("--warehouses-per-partition must be >= 1, --load-threads 1.." + TpccLoader.THREADS_MAX);
            }
            if (remote.isEmpty() || remote.size() != remote.stream().distinct().count()) {
                throw new IllegalArgumentException("--remote must list spec and/or all-local once each, got " + remote);
            }
            remote = List.copyOf(remote);
            targets = List.copyOf(targets);
            if (targets.isEmpty() || !TARGETS.containsAll(targets)) {
                throw new IllegalArgumentException("--targets must list some of " + TARGETS + ", got " + targets);
            }
        }

        static Options parse(String[] args) {
            Map<String, String> v = new LinkedHashMap<>();
            for (int i = 0; i < args.length; i += 2) {
                if (!args[i].startsWith("--") || i + 1 == args.length || !NAMES.contains(args[i].substring(2))) {
                    throw new IllegalArgumentException("expected --name value pairs with names " + NAMES + " at '" + args[i] + "'");
                }
                v.put(args[i].substring(2), args[i + 1]);
            }
            int warehouses = Integer.parseInt(v.getOrDefault("warehouses", "2"));
            TpccScale scale = Boolean.parseBoolean(v.getOrDefault("spec", "false")) ? TpccScale.spec(warehouses)
                    : TpccScale.scaledDown(warehouses, Integer.parseInt(v.getOrDefault("items", "10000")),
                    Integer.parseInt(v.getOrDefault("customers", "300")));
            return new Options(scale, Integer.parseInt(v.getOrDefault("terminals-per-warehouse", "10")),
                    Integer.parseInt(v.getOrDefault("warehouses-per-partition", "1")),
                    Double.parseDouble(v.getOrDefault("seconds", "30")), Double.parseDouble(v.getOrDefault("warmup-seconds", "5")),
                    Integer.parseInt(v.getOrDefault("load-threads", "2")),
                    List.of(v.getOrDefault("targets", DEFAULT_TARGETS).split(",")),
                    Long.parseLong(v.getOrDefault("seed", "42")), Paths.get(v.getOrDefault("out", "experiments/results/tpcc")),
                    Integer.parseInt(v.getOrDefault("otms", Integer.toString(TpccTargets.CLUSTER_OTMS))),
                    remoteModes(v.getOrDefault("remote", RemoteWarehouses.SPEC.optionName())));
        }
    }

    /** "spec", "all-local" or "spec,all-local" as modes. */
    static List<RemoteWarehouses> remoteModes(String list) {
        return java.util.Arrays.stream(list.split(",")).map(RemoteWarehouses::parse).toList();
    }

    /** One target's load, checks and run; {@code target} names the run ({@link TpccDriver.Result#target}). */
    record TargetRun(String target, String description, TpccLoader.Report load, List<ConsistencyViolation> afterLoad,
            TpccDriver.Result run, List<ConsistencyViolation> afterRun, String loadAverageBefore, String loadAverageAfter) {
    }

    /** The machine's 1, 5 and 15 minute load averages (Linux), or "unknown": other work on the machine skews the figures. */
    static String loadAverage() {
        try {
            String[] f = Files.readString(Path.of("/proc/loadavg")).trim().split(" ");
            return f[0] + " " + f[1] + " " + f[2];
        } catch (IOException | RuntimeException e) {
            return "unknown";
        }
    }

    public static void main(String[] args) throws Exception {
        Options options;
        try {
            options = Options.parse(args);
        } catch (IllegalArgumentException e) {
            System.err.println("bench tpcc: " + e.getMessage());
            System.exit(2);
            return;
        }
        // Jetty, Curator and Derby leave threads behind.
        System.exit(run(options));
    }

    /** Loads, checks, runs and checks every target of {@code options}; 0 if every check passed, 1 if not. */
    static int run(Options options) throws Exception {
        System.setProperty("org.slf4j.simpleLogger.defaultLogLevel", "warn");
        OTM_LOGS.setLevel(java.util.logging.Level.WARNING);
        Files.createDirectories(options.output());
        List<String> deviations = deviations(options.scale(), options.remote());
        System.out.println("TPC-C " + options.scale().describe() + ", " + options.terminalsPerWarehouse() + " terminals/warehouse, "
                + options.warmupSeconds() + " s warm-up + " + options.measureSeconds() + " s measured, seed " + options.seed());
        deviations.forEach(d -> System.out.println("  not TPC-C: " + d));

        long loadMicros = System.currentTimeMillis() * 1_000;
        TpccDataGenerator generator = new TpccDataGenerator(options.scale(), options.seed(), loadMicros);
        NuRandConstants run = generator.loadConstants().forRun(options.seed());
        List<TargetRun> runs = new ArrayList<>();
        Path scratch = Files.createTempDirectory("tpcc-benchmark");
        try (TpccTargets targets = new TpccTargets(scratch, options.scale().warehouses(), options.warehousesPerPartition(),
                options.scale().warehouses() * options.terminalsPerWarehouse(), options.clusterOtms())) {
            for (String name : options.targets()) {
                for (RemoteWarehouses remote : options.remote()) {
                    try (TpccTarget target = targets.open(name)) {
                        runs.add(runTarget(target, generator, run, options, remote));
                    }
                }
            }
        } finally {
            try {
                ResultFiles.copyLogs(scratch, options.output().resolve("logs"));
            } finally {
                ResultFiles.deleteTree(scratch);
            }
        }
        System.out.println();
        System.out.println(header());
        for (TargetRun r : runs) {
            for (TpccDriver.TypeResult t : r.run().types().values()) {
                System.out.println(row(r.target(), t));
            }
            System.out.printf(Locale.ROOT, "%-9s tpmC %,.0f (New-Orders/min incl. rolled back), %,.1f txn/s, %d terminals,"
                            + " %d failed %s, load %,.0f rows/s, consistency after load %s, after run %s%n", r.target(), r.run().tpmC(),
                    r.run().transactionsPerSecond(), r.run().terminals(), r.run().failed(), r.run().failuresByReason(),
                    r.load().rowsPerSecond(), verdict(r.afterLoad()), verdict(r.afterRun()));
            System.out.println("          " + remoteLine(r.run().remote()));
        }
        writeCsv(options.output().resolve(CSV), runs);
        writeJson(options.output().resolve(JSON), options, deviations, runs);
        writeTimeline(options.output().resolve(TIMELINE_CSV), runs);
        TpccPlot.write(options.output().resolve(PNG), runs.stream().map(r -> r.run()).toList());
        System.out.println("wrote " + options.output().resolve(JSON) + ", " + CSV + ", " + TIMELINE_CSV + " and " + PNG);
        boolean inconsistent = runs.stream().anyMatch(r -> !r.afterLoad().isEmpty() || !r.afterRun().isEmpty());
        return inconsistent ? 1 : 0;
    }

    private static TargetRun runTarget(TpccTarget target, TpccDataGenerator generator, NuRandConstants run, Options options,
            RemoteWarehouses remote) throws Exception {
        TpccScale scale = options.scale();
        int deliveredAsLoaded = scale.firstNewOrderId() - 1;
        long[] lastPercent = {-1};
        TpccLoader.Report load = new TpccLoader(generator, options.loadThreads()).load(target, (rows, expected) -> {
            long percent = rows * 10 / Math.max(1, expected);
            synchronized (lastPercent) {
                if (percent > lastPercent[0]) {
                    lastPercent[0] = percent;
                    System.out.printf(Locale.ROOT, "  %s loading: %,d of ~%,d rows%n", target.name(), rows, expected);
                }
            }
        });
        if (target instanceof ClusterTpccTarget cluster) {
            System.out.println("  ITEM (" + scale.items() + " rows) published by " + cluster.itemPublisher()
                    + " to the DFS; partitions owned by " + cluster.partitionOwners() + " of " + cluster.otmIds() + " started");
        }
        if (target instanceof DerbyTpccTarget derby) {
            derby.updateStatistics();
        } else if (target instanceof PostgresTpccTarget postgres) {
            postgres.analyze();
        }
        System.out.printf(Locale.ROOT, "%s: %s%n  loaded %,d rows in %.1f s (%,.0f rows/s, %d threads)%n", target.name(),
                target.description(), load.rows(), load.seconds(), load.rowsPerSecond(), load.threads());
        List<ConsistencyViolation> afterLoad = target.checkConsistency(scale.warehouses(), true, deliveredAsLoaded);
        System.out.println("  consistency after load: " + verdict(afterLoad));
        boolean console = System.console() != null;
        String loadBefore = loadAverage();
        System.out.println("  remote warehouse accesses: " + remote.optionName());
        TpccDriver.Result result = new TpccDriver(scale, run, options.seed(), remote, () -> System.currentTimeMillis() * 1_000)
                .run(target, options.terminalsPerWarehouse(), options.warmupSeconds(), options.measureSeconds(), 1, sample -> {
                    // On a terminal the line rewrites itself every second; into a file, one line every 5 s.
                    if (console) {
                        System.out.print("\r" + sample.progressLine(target.name()) + "   ");
                        System.out.flush();
                    } else if (sample.endSeconds() % PROGRESS_LOG_SECONDS < sample.intervalSeconds()) {
                        System.out.println(sample.progressLine(target.name()));
                    }
                });
        if (console) {
            System.out.println();
        }
        List<ConsistencyViolation> afterRun = target.checkConsistency(scale.warehouses(), false, deliveredAsLoaded);
        TpccDriver.DistrictCheck x = result.districts();
        System.out.printf(Locale.ROOT, "  tpmC %,.0f; New-Orders/min by sum(D_NEXT_O_ID) %,.0f (grew %,d in %.1f s, the driver saw %,d"
                        + " commit, %s); consistency after run: %s%n", result.tpmC(), result.newOrdersPerMinuteByDistricts(),
                x.growth(), x.windowSeconds(), x.driverCommitted(), x.agrees(result.terminals()) ? "agree" : "DISAGREE",
                verdict(afterRun));
        System.out.println("  " + remoteLine(result.remote()));
        System.out.println("  CPU during the measured period, cores: " + cores(result));
        if (!result.serverRetriesMeasured().isEmpty()) {
            System.out.println("  " + serverRetriesLine(result));
        }
        if (!result.serverLogMeasured().isEmpty()) {
            System.out.println("  " + serverLogLine(result));
        }
        if (result.serverLogMeasured().containsKey("exchanges")) {
            System.out.println("  " + serverTimestampsLine(result));
        }
        if (result.firstError() != null) {
            System.out.println("  first error: " + result.firstError());
        }
        String loadAfter = loadAverage();
        System.out.println("  machine load average (1, 5, 15 min) before the run " + loadBefore + ", after " + loadAfter);
        return new TargetRun(result.target(), target.description(), load, afterLoad, result, afterRun, loadBefore, loadAfter);
    }

    /** What the measured period's committed transactions did remotely. */
    static String remoteLine(TpccDriver.RemoteAccesses r) {
        return String.format(Locale.ROOT, "remote warehouses %s: %,d New-Order lines from another warehouse (in %,d New-Orders),"
                + " %,d Payments for another warehouse's customer; %,d choices made local; p50/p99 New-Order %s, Payment %s",
                r.mode().optionName(), r.newOrderLines(), r.newOrders(), r.payments(), r.choicesMadeLocal(),
                splitLine(r.newOrderLatency()), splitLine(r.paymentLatency()));
    }

    /** E.g. "local 8.9/40.1 ms, remote 20.3/98.0 ms". */
    static String splitLine(TpccDriver.LocalAndRemote l) {
        return String.format(Locale.ROOT, "local %.1f/%.1f ms, remote %.1f/%.1f ms", l.localP50() / 1e3, l.localP99() / 1e3,
                l.remoteP50() / 1e3, l.remoteP99() / 1e3);
    }

    /** The split as JSON fields named after {@code prefix}: counts and p50/p99 of the local and the remote ones. */
    private static String splitJson(String prefix, TpccDriver.LocalAndRemote l) {
        return String.format(Locale.ROOT, "\"%1$s_local\": %2$d, \"%1$s_local_p50_micros\": %3$d, \"%1$s_local_p99_micros\": %4$d,"
                + " \"%1$s_remote\": %5$d, \"%1$s_remote_p50_micros\": %6$d, \"%1$s_remote_p99_micros\": %7$d", prefix,
                l.localCount(), l.localP50(), l.localP99(), l.remoteCount(), l.remoteP50(), l.remoteP99());
    }

    /**
     * E.g. "re-runs inside the servers (each client saw one call): 1,234 = 2.1% of transactions;
     * payment CONFLICT 1,000, newOrder SERIALIZATION_FAILURE 234".
     */
    static String serverRetriesLine(TpccDriver.Result r) {
        long total = r.serverRetriesMeasured().values().stream().mapToLong(Long::longValue).sum();
        long transactions = r.types().values().stream().mapToLong(t -> t.completed() + t.failed()).sum();
        return String.format(Locale.ROOT, "re-runs inside the servers (each client saw one call): %,d = %.1f%% of transactions; %s",
                total, transactions == 0 ? 0.0 : 100.0 * total / transactions, String.join(", ", r.serverRetriesMeasured()
                        .entrySet().stream().map(e -> String.format(Locale.ROOT, "%s %,d", e.getKey(), e.getValue())).toList()));
    }

    /**
     * E.g. "the servers' timestamp exchanges with the master in the measured period: 48,000 (800/s
     * over all OTMs); waits for a CTS range above another OTM's snapshot 200/s; commits that waited
     * for a range 0".
     */
    static String serverTimestampsLine(TpccDriver.Result r) {
        double seconds = r.seconds() == 0 ? Double.POSITIVE_INFINITY : r.seconds();
        long exchanges = r.serverLogMeasured().getOrDefault("exchanges", 0L);
        return String.format(Locale.ROOT, "the servers' timestamp exchanges with the master in the measured period: %,d"
                + " (%,.0f/s over all OTMs); waits for a CTS range above another OTM's snapshot %,.0f/s; commits that"
                + " waited for a range %,d", exchanges, exchanges / seconds,
                r.serverLogMeasured().getOrDefault("lift_waits", 0L) / seconds,
                r.serverLogMeasured().getOrDefault("range_waits", 0L));
    }

    /**
     * E.g. "the servers' logs in the measured period: 120,000 syncs (2,000/s) for 150,000 records,
     * 1.25 records per sync".
     */
    static String serverLogLine(TpccDriver.Result r) {
        long batches = r.serverLogMeasured().getOrDefault("batches", 0L);
        long records = r.serverLogMeasured().getOrDefault("records", 0L);
        return String.format(Locale.ROOT, "the servers' logs in the measured period: %,d syncs (%,.0f/s) for %,d records, %.2f"
                + " records per sync", batches, r.seconds() == 0 ? 0.0 : batches / r.seconds(), records,
                batches == 0 ? 0.0 : (double) records / batches);
    }

    /** E.g. "benchmark JVM 1.20, otm-1 0.45, otm-2 0.40 (total 2.05)". */
    static String cores(TpccDriver.Result r) {
        StringBuilder b = new StringBuilder();
        double total = 0;
        for (Map.Entry<String, Double> e : r.coresUsed().entrySet()) {
            b.append(b.length() == 0 ? "" : ", ").append(String.format(Locale.ROOT, "%s %.2f", e.getKey(), e.getValue()));
            total += e.getValue();
        }
        b.append(String.format(Locale.ROOT, " (total %.2f)", total));
        double jitTotal = 0;
        StringBuilder jit = new StringBuilder();
        for (Map.Entry<String, Double> e : r.jitCoresUsed().entrySet()) {
            if (e.getValue() >= 0.005) {
                jit.append(jit.length() == 0 ? "" : ", ").append(String.format(Locale.ROOT, "%s %.2f", e.getKey(), e.getValue()));
            }
            if (!Double.isNaN(e.getValue())) {
                jitTotal += e.getValue();
            }
        }
        if (!r.jitCoresUsed().isEmpty()) {
            b.append(String.format(Locale.ROOT, "; of which JIT compiling %.2f%s", jitTotal,
                    jit.length() == 0 ? "" : " (" + jit + ")"));
        }
        return b.toString();
    }

    /** Why these figures are not TPC-C results. */
    static List<String> deviations(TpccScale scale, List<RemoteWarehouses> remote) {
        List<String> d = new ArrayList<>();
        if (!scale.specCompliant()) {
            d.add("scaled-down database, NOT SPEC-COMPLIANT: " + scale.describe());
        }
        if (remote.contains(RemoteWarehouses.ALL_LOCAL)) {
            d.add(ALL_LOCAL_FLAG);
        }
        d.add("closed loop with no keying or think times (clause 5.2.5), terminals bound to (warehouse, district)");
        d.add("Delivery runs synchronously in the terminal, not deferred (clause 2.7.2)");
        d.add("no ACID/durability audit beyond the 3.3.2 consistency conditions; single machine, no price/performance");
        return d;
    }

    private static String verdict(List<ConsistencyViolation> v) {
        return v.isEmpty() ? "all conditions hold" : v.size() + " violations " + v;
    }

    private static String header() {
        return String.format(Locale.ROOT, "%-9s %-13s %9s %8s %7s %8s %9s %9s %9s %9s", "target", "transaction", "completed",
                "rolledbk", "failed", "retries", "p50 us", "p90 us", "p99 us", "max us");
    }

    private static String row(String target, TpccDriver.TypeResult t) {
        return String.format(Locale.ROOT, "%-9s %-13s %9d %8d %7d %8d %9d %9d %9d %9d", target, t.type(), t.completed(),
                t.rolledBack(), t.failed(), t.retries(), t.latencyMicrosP50(), t.latencyMicrosP90(), t.latencyMicrosP99(),
                t.latencyMicrosMax());
    }

    private static void writeCsv(Path file, List<TargetRun> runs) throws IOException {
        try (PrintWriter out = new PrintWriter(Files.newBufferedWriter(file, StandardCharsets.UTF_8))) {
            out.println("target,transaction,seconds,completed,rolled_back,failed,retries,latency_p50_micros,latency_p90_micros,"
                    + "latency_p99_micros,latency_max_micros,latency_mean_micros,tpmC,remote_warehouses,remote_new_order_lines,"
                    + "remote_payments");
            for (TargetRun r : runs) {
                TpccDriver.RemoteAccesses remote = r.run().remote();
                for (TpccDriver.TypeResult t : r.run().types().values()) {
                    out.printf(Locale.ROOT, "%s,%s,%.3f,%d,%d,%d,%d,%d,%d,%d,%d,%.0f,%.0f,%s,%d,%d%n", r.target(), t.type(), r.run().seconds(),
                            t.completed(), t.rolledBack(), t.failed(), t.retries(), t.latencyMicrosP50(), t.latencyMicrosP90(),
                            t.latencyMicrosP99(), t.latencyMicrosMax(), t.latencyMicrosMean(), r.run().tpmC(),
                            remote.mode().optionName(), remote.newOrderLines(), remote.payments());
                }
            }
        }
    }

    /** One row per target and second: what the progress line showed. */
    private static void writeTimeline(Path file, List<TargetRun> runs) throws IOException {
        try (PrintWriter out = new PrintWriter(Files.newBufferedWriter(file, StandardCharsets.UTF_8))) {
            out.println("target,end_seconds,interval_seconds,measured,new_order,payment,order_status,delivery,stock_level,failed,"
                    + "latency_p50_micros,latency_p99_micros,new_order_latency_p99_micros");
            for (TargetRun r : runs) {
                for (TpccTimeline.Sample x : r.run().timeline()) {
                    long[] c = x.completed();
                    out.printf(Locale.ROOT, "%s,%.3f,%.3f,%b,%d,%d,%d,%d,%d,%d,%d,%d,%d%n", r.target(), x.endSeconds(),
                            x.intervalSeconds(), x.measured(), c[0], c[1], c[2], c[3], c[4], x.failed(), x.latencyMicrosP50(),
                            x.latencyMicrosP99(), x.newOrderLatencyMicrosP99());
                }
            }
        }
    }

    private static void writeJson(Path file, Options o, List<String> deviations, List<TargetRun> runs) throws IOException {
        StringBuilder j = new StringBuilder("{\n  \"benchmark\": \"TpccBenchmark\",\n");
        TpccScale s = o.scale();
        j.append(String.format(Locale.ROOT, "  \"config\": {\"warehouses\": %d, \"items\": %d, \"customers_per_district\": %d,"
                        + " \"new_orders_per_district\": %d, \"spec_compliant_cardinalities\": %b, \"terminals_per_warehouse\": %d,"
                        + " \"warehouses_per_partition\": %d, \"cluster_otms\": %d, \"measure_seconds\": %.1f, \"warmup_seconds\": %.1f,"
                        + " \"load_threads\": %d,"
                        + " \"seed\": %d, \"cores\": %d},%n", s.warehouses(), s.items(), s.customersPerDistrict(),
                s.newOrdersPerDistrict(), s.specCompliant(), o.terminalsPerWarehouse(), o.warehousesPerPartition(), o.clusterOtms(),
                o.measureSeconds(),
                o.warmupSeconds(), o.loadThreads(), o.seed(), Runtime.getRuntime().availableProcessors()));
        j.append("  \"flags\": [").append(String.join(", ", deviations.stream().map(ResultFiles::jsonString).toList())).append("],\n");
        j.append("  \"targets\": [\n");
        for (int i = 0; i < runs.size(); i++) {
            TargetRun r = runs.get(i);
            TpccDriver.Result x = r.run();
            j.append(String.format(Locale.ROOT, "    {\"target\": %s, \"description\": %s, \"load_rows\": %d, \"load_seconds\": %.2f,"
                            + " \"load_rows_per_second\": %.0f, \"consistency_after_load\": %s, \"consistency_after_run\": %s,"
                            + " \"terminals\": %d, \"seconds\": %.3f, \"tpmC\": %.0f, \"transactions_per_second\": %.1f,"
                            + " \"new_orders_committed\": %d, \"district_next_order_id_growth\": %d,"
                            + " \"district_window_driver_new_orders\": %d, \"district_window_seconds\": %.3f, \"district_check_agrees\": %b,"
                            + " \"new_orders_per_minute_by_districts\": %.0f, \"cores_used\": {%s}, \"jit_cores_used\": {%s},"
                            + " \"server_retries\": {%s}, \"server_log\": {%s},"
                            + " \"load_average_before\": %s, \"load_average_after\": %s,"
                            + " \"delivery_skipped_districts\": %d, \"remote_warehouses\": %s, \"remote_new_order_lines\": %d,"
                            + " \"remote_new_orders\": %d, \"remote_payments\": %d, \"remote_choices_made_local\": %d, %s, %s,"
                            + " \"failures_by_reason\": {%s},"
                            + " \"first_error\": %s,%n     \"transactions\": [", ResultFiles.jsonString(r.target()), ResultFiles.jsonString(r.description()),
                    r.load().rows(), r.load().seconds(), r.load().rowsPerSecond(), violationsJson(r.afterLoad()),
                    violationsJson(r.afterRun()), x.terminals(), x.seconds(), x.tpmC(), x.transactionsPerSecond(),
                    x.newOrdersCommitted(), x.districts().growth(), x.districts().driverCommitted(), x.districts().windowSeconds(),
                    x.districts().agrees(x.terminals()), x.newOrdersPerMinuteByDistricts(),
                    String.join(", ", x.coresUsed().entrySet().stream().map(e -> ResultFiles.jsonString(e.getKey()) + ": "
                            + String.format(Locale.ROOT, "%.3f", e.getValue())).toList()),
                    String.join(", ", x.jitCoresUsed().entrySet().stream().map(e -> ResultFiles.jsonString(e.getKey()) + ": "
                            + (Double.isNaN(e.getValue()) ? "null" : String.format(Locale.ROOT, "%.3f", e.getValue()))).toList()),
                    String.join(", ", x.serverRetriesMeasured().entrySet().stream().map(e -> ResultFiles.jsonString(e.getKey())
                            + ": " + e.getValue()).toList()),
                    String.join(", ", x.serverLogMeasured().entrySet().stream().map(e -> ResultFiles.jsonString(e.getKey())
                            + ": " + e.getValue()).toList()),
                    ResultFiles.jsonString(r.loadAverageBefore()), ResultFiles.jsonString(r.loadAverageAfter()),
                    x.deliverySkippedDistricts(), ResultFiles.jsonString(x.remote().mode().optionName()), x.remote().newOrderLines(),
                    x.remote().newOrders(), x.remote().payments(), x.remote().choicesMadeLocal(),
                    splitJson("new_order", x.remote().newOrderLatency()), splitJson("payment", x.remote().paymentLatency()),
                    String.join(", ", x.failuresByReason().entrySet().stream().map(e -> ResultFiles.jsonString(e.getKey()) + ": " + e.getValue()).toList()),
                    x.firstError() == null ? "null" : ResultFiles.jsonString(x.firstError())));
            List<String> types = new ArrayList<>();
            for (TpccDriver.TypeResult t : x.types().values()) {
                types.add(String.format(Locale.ROOT, "%n       {\"type\": %s, \"completed\": %d, \"rolled_back\": %d, \"failed\": %d,"
                                + " \"retries\": %d, \"latency_p50_micros\": %d, \"latency_p90_micros\": %d, \"latency_p99_micros\": %d,"
                                + " \"latency_max_micros\": %d, \"latency_mean_micros\": %.0f}", ResultFiles.jsonString(t.type().name()), t.completed(),
                        t.rolledBack(), t.failed(), t.retries(), t.latencyMicrosP50(), t.latencyMicrosP90(), t.latencyMicrosP99(),
                        t.latencyMicrosMax(), t.latencyMicrosMean()));
            }
            j.append(String.join(",", types)).append("]}").append(i + 1 < runs.size() ? ",\n" : "\n");
        }
        j.append("  ]\n}\n");
        Files.writeString(file, j.toString(), StandardCharsets.UTF_8);
    }

    private static String violationsJson(List<ConsistencyViolation> v) {
        return "[" + String.join(", ", v.stream().map(x -> ResultFiles.jsonString(x.toString())).toList()) + "]";
    }
}
