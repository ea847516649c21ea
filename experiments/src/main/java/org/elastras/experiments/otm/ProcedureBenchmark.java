package org.elastras.experiments.otm;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Stream;
import org.elastras.client.OtmClientConfig;
import org.elastras.experiments.ResultFiles;

/**
 * The single-partition stored-procedure benchmark of issue 3: one tenant database with one table
 * of N rows ({@link ItemTable}), and C client threads each running, in a closed loop, a
 * transaction that reads 10 random rows and writes 5 of them, durably committed; on an ElasTraS
 * OTM in this JVM over the framed transport on 127.0.0.1 (one shared client sending a request per call, as before
 * call coalescing; one shared client coalescing concurrent calls into {@code callBatch} requests;
 * and a client per thread),
 * and on embedded Apache Derby through JDBC, in the same run, interleaved by thread count so that
 * load from elsewhere on the machine hits both systems alike. After the runs, each system's
 * balances must add up to five per committed transaction.
 *
 * <p>Prints a table and writes {@code procedure-benchmark.csv} and {@code procedure-benchmark.json}.
 * Arguments, all optional: {@code --rows 100000 --threads 1,8,32,64 --seconds 8 --warmup-seconds 3
 * --jit-warmup-seconds 5 --systems otm-shared,otm-coalescing,otm-per-thread,derby --seed 42 --out experiments/results}
 * (diagnostic systems that isolate costs: {@code otm-shared-empty}, {@code otm-shared-read-only} and
 * the same for {@code otm-per-thread} and {@code otm-coalescing}; {@code otm-direct} and
 * {@code otm-direct-read-only} call the OTM's service in this JVM, no HTTP: the engine alone). The defaults take about four and a half minutes. Single-threaded driver; the client threads are the driver's.
 */
public final class ProcedureBenchmark {

    private static final String CSV = "procedure-benchmark.csv";
    private static final int JIT_WARMUP_THREADS = 8;
    private static final String JSON = "procedure-benchmark.json";
    /** Held so that the level set on it stays: the OTM's INFO lines would interleave with the table. */
    private static final java.util.logging.Logger OTM_LOGS = java.util.logging.Logger.getLogger("org.elastras");

    private ProcedureBenchmark() {
    }

    /** The run's configuration, checked when parsed. */
    record Options(long rows, int[] threads, double measureSeconds, double warmupSeconds, double jitWarmupSeconds,
            List<String> systems, long seed, Path output, int batchesInFlight) {

        static final List<String> SYSTEMS = List.of("otm-shared", "otm-coalescing", "otm-per-thread", "derby");
        /** Diagnostic OTM runs that isolate costs; not in the default list. */
        static final List<String> DIAGNOSTICS = List.of("otm-shared-read-only", "otm-shared-empty",
                "otm-per-thread-read-only", "otm-per-thread-empty", "otm-coalescing-read-only", "otm-coalescing-empty",
                "otm-direct", "otm-direct-read-only");
        static final String USAGE = "usage: ProcedureBenchmark [--rows N] [--threads 1,8,32,64] [--seconds S]"
                + " [--warmup-seconds W] [--jit-warmup-seconds J] [--systems otm-shared,otm-coalescing,otm-per-thread,derby] [--seed N]"
                + " [--out DIR] [--batches-in-flight N]";

        Options {
            if (rows < ItemTable.READS_PER_TRANSACTION || rows > 10_000_000) {
                throw new IllegalArgumentException("--rows must be 10..10,000,000, got " + rows);
            }
            if (threads.length == 0 || Arrays.stream(threads).anyMatch(t -> t < 1 || t > 1_024)) {
                throw new IllegalArgumentException("--threads must list counts of 1..1024, got " + Arrays.toString(threads));
            }
            if (measureSeconds <= 0 || measureSeconds > 600 || warmupSeconds < 0 || warmupSeconds > 600
                    || jitWarmupSeconds < 0 || jitWarmupSeconds > 600) {
                throw new IllegalArgumentException("--seconds must be in (0, 600], --warmup-seconds and"
                        + " --jit-warmup-seconds in [0, 600]");
            }
            if (batchesInFlight < 1 || batchesInFlight > 64) {
                throw new IllegalArgumentException("--batches-in-flight must be 1..64, got " + batchesInFlight);
            }
            if (systems.isEmpty() || !systems.stream().allMatch(s -> SYSTEMS.contains(s) || DIAGNOSTICS.contains(s))) {
                throw new IllegalArgumentException("--systems must list some of " + SYSTEMS + " or the diagnostics "
                        + DIAGNOSTICS + ", got " + systems);
            }
        }

        static Options parse(String[] args) {
            Map<String, String> values = new LinkedHashMap<>();
            for (int i = 0; i < args.length; i += 2) {
                if (!args[i].startsWith("--") || i + 1 == args.length) {
                    throw new IllegalArgumentException("expected --name value pairs at '" + args[i] + "'\n" + USAGE);
                }
                values.put(args[i].substring(2), args[i + 1]);
            }
            List<String> known = List.of("rows", "threads", "seconds", "warmup-seconds", "jit-warmup-seconds", "systems",
                    "seed", "out", "batches-in-flight");
            for (String name : values.keySet()) {
                if (!known.contains(name)) {
                    throw new IllegalArgumentException("unknown argument --" + name + "\n" + USAGE);
                }
            }
            try {
                return new Options(Long.parseLong(values.getOrDefault("rows", "100000").replace("_", "")),
                        Arrays.stream(values.getOrDefault("threads", "1,8,32,64").split(",")).mapToInt(Integer::parseInt).toArray(),
                        Double.parseDouble(values.getOrDefault("seconds", "8")),
                        Double.parseDouble(values.getOrDefault("warmup-seconds", "3")),
                        Double.parseDouble(values.getOrDefault("jit-warmup-seconds", "5")),
                        List.of(values.getOrDefault("systems", String.join(",", SYSTEMS)).split(",")),
                        Long.parseLong(values.getOrDefault("seed", "42")),
                        Paths.get(values.getOrDefault("out", "experiments/results")),
                        Integer.parseInt(values.getOrDefault("batches-in-flight",
                                String.valueOf(OtmClientConfig.CALL_BATCHES_IN_FLIGHT_MAX_DEFAULT))));
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("a number argument is not a number: " + e.getMessage() + "\n" + USAGE, e);
            }
        }
    }

    public static void main(String[] args) throws Exception {
        System.setProperty("org.slf4j.simpleLogger.defaultLogLevel", "warn");
        OTM_LOGS.setLevel(java.util.logging.Level.WARNING);
        Options options = Options.parse(args);
        Files.createDirectories(options.output());
        Machine machine = Machine.describe();
        System.out.println(machine.summary());
        System.out.printf(Locale.ROOT, "rows=%,d threads=%s JIT warm-up=%.0f s per system, warm-up=%.0f s and measured=%.0f s"
                        + " per run, systems=%s seed=%d, coalescing: %d requests in flight%n", options.rows(), Arrays.toString(options.threads()),
                options.jitWarmupSeconds(), options.warmupSeconds(), options.measureSeconds(), options.systems(), options.seed(),
                options.batchesInFlight());

        Path scratch = Files.createTempDirectory("procedure-benchmark");
        List<ClosedLoopDriver.Result> results = new ArrayList<>();
        List<ClosedLoopDriver.Result> warmups = new ArrayList<>();
        Map<String, String> checks = new LinkedHashMap<>();
        Map<String, Double> loadSeconds = new LinkedHashMap<>();
        List<TransactionTarget> targets = new ArrayList<>();
        boolean wantOtm = options.systems().stream().anyMatch(s -> s.startsWith("otm"));
        boolean wantDerby = options.systems().contains("derby");
        InProcessOtm otm = null;
        DerbyTarget derby = null;
        try {
            if (wantOtm) {
                Files.createDirectories(scratch.resolve("otm"));
                otm = InProcessOtm.start(scratch.resolve("otm"), options.batchesInFlight());
                long start = System.nanoTime();
                otm.load(options.rows());
                loadSeconds.put("otm", (System.nanoTime() - start) / 1e9);
                System.out.printf(Locale.ROOT, "OTM on 127.0.0.1:%d loaded %,d rows in %.1f s%n", otm.port(), options.rows(),
                        loadSeconds.get("otm"));
                for (String system : options.systems()) {
                    if (!system.startsWith("otm")) {
                        continue;
                    }
                    OtmTarget.ClientMode mode = system.startsWith("otm-shared") ? OtmTarget.ClientMode.SHARED
                            : system.startsWith("otm-coalescing") ? OtmTarget.ClientMode.SHARED_COALESCING
                            : system.startsWith("otm-direct") ? OtmTarget.ClientMode.DIRECT
                            : OtmTarget.ClientMode.PER_THREAD;
                    OtmTarget.Workload workload = system.endsWith("-read-only") ? OtmTarget.Workload.READ_TEN
                            : system.endsWith("-empty") ? OtmTarget.Workload.EMPTY : OtmTarget.Workload.READ_TEN_WRITE_FIVE;
                    targets.add(new OtmTarget(otm, mode, options.rows(), workload));
                }
            }
            if (wantDerby) {
                Files.createDirectories(scratch.resolve("derby"));
                long start = System.nanoTime();
                derby = DerbyTarget.createAndLoad(scratch.resolve("derby"), options.rows());
                loadSeconds.put("derby", (System.nanoTime() - start) / 1e9);
                System.out.printf(Locale.ROOT, "Derby loaded %,d rows in %.1f s%n", options.rows(), loadSeconds.get("derby"));
                targets.add(derby);
            }
            for (TransactionTarget target : targets) {
                System.out.println("  " + target.name() + ": " + target.description());
            }
            System.out.println();
            System.out.println(header());

            ClosedLoopDriver driver = new ClosedLoopDriver(options.rows(), options.seed());
            // One JIT warm-up per system before anything is measured, so that the first measured
            // configuration does not pay for compiling the code every later one runs compiled.
            if (options.jitWarmupSeconds() > 0) {
                for (TransactionTarget target : targets) {
                    warmups.add(driver.run(target, JIT_WARMUP_THREADS, 0, options.jitWarmupSeconds()));
                }
            }
            for (int threads : options.threads()) {
                for (TransactionTarget target : targets) {
                    System.gc();
                    ClosedLoopDriver.Result r = driver.run(target, threads, options.warmupSeconds(), options.measureSeconds());
                    results.add(r);
                    System.out.println(row(r));
                    if (r.firstError() != null) {
                        System.out.println("    first error: " + r.firstError());
                    }
                }
            }

            if (otm != null) {
                checks.put("otm", check(otm.balanceSum(options.rows()), concat(warmups, results), "otm"));
            }
            if (derby != null) {
                checks.put("derby", check(derby.balanceSum(), concat(warmups, results), "derby"));
            }
        } finally {
            if (derby != null) {
                derby.close();
            }
            if (otm != null) {
                otm.close();
            }
            ResultFiles.deleteTree(scratch);
        }

        System.out.println();
        checks.forEach((system, verdict) -> System.out.println("check " + system + ": " + verdict));
        System.out.println(comparison(results, options.threads()));
        writeCsv(options.output().resolve(CSV), results);
        writeJson(options.output().resolve(JSON), options, machine, loadSeconds, checks, results);
        System.out.println("wrote " + options.output().resolve(CSV) + " and " + options.output().resolve(JSON));
        if (checks.values().stream().anyMatch(v -> v.startsWith("MISMATCH"))) {
            System.exit(1);
        }
        // Jetty, Curator and Derby leave daemon and non-daemon threads behind.
        System.exit(0);
    }

    /**
     * Every committed transaction added 1 to five balances (none for the diagnostics), from 0: the
     * sum must be five times the commits of every run of that system (warm-ups included). A call that failed with an unknown
     * outcome may have committed too, so with errors the sum may lie between the two bounds.
     */
    private static String check(long sum, List<ClosedLoopDriver.Result> results, String systemPrefix) {
        long committed = 0;
        long unknown = 0;
        for (ClosedLoopDriver.Result r : results) {
            if (r.system().startsWith(systemPrefix)) {
                committed += r.writesPerTransaction() * r.committedInAll();
                unknown += r.writesPerTransaction() * r.errorsInAll();
            }
        }
        long low = committed;
        long high = committed + unknown;
        String numbers = String.format(Locale.ROOT, "balance sum %,d for %,d committed row writes (%,d in failed calls)",
                sum, committed, unknown);
        return sum >= low && sum <= high ? "ok, " + numbers : "MISMATCH, " + numbers + ": expected " + low
                + (unknown > 0 ? ".." + high : "");
    }

    private static List<ClosedLoopDriver.Result> concat(List<ClosedLoopDriver.Result> a, List<ClosedLoopDriver.Result> b) {
        List<ClosedLoopDriver.Result> all = new ArrayList<>(a);
        all.addAll(b);
        return all;
    }

    private static String header() {
        return String.format(Locale.ROOT, "%-22s %7s %10s %9s %9s %9s %9s %8s %7s %10s %6s %10s",
                "system", "threads", "txn/s", "p50 us", "p99 us", "max us", "mean us", "retries", "errors", "cpu us/txn",
                "cores", "load 1m");
    }

    private static String row(ClosedLoopDriver.Result r) {
        return String.format(Locale.ROOT, "%-22s %7d %,10.0f %9d %9d %9d %9.0f %8d %7d %10.0f %6.2f %4.1f->%4.1f", r.system(),
                r.threads(), r.transactionsPerSecond(), r.latencyMicrosP50(), r.latencyMicrosP99(), r.latencyMicrosMax(),
                r.latencyMicrosMean(), r.retries(), r.errors(), r.cpuMicrosPerTransaction(), r.coresBusy(),
                r.loadAverageStart(), r.loadAverageEnd());
    }

    /** Best OTM figure against Derby's at every thread count, and the best of each overall. */
    private static String comparison(List<ClosedLoopDriver.Result> results, int[] threadCounts) {
        StringBuilder s = new StringBuilder("OTM (better client mode) / Derby:");
        for (int threads : threadCounts) {
            double otm = best(results, "otm", threads);
            double derby = best(results, "derby", threads);
            if (otm > 0 && derby > 0) {
                s.append(String.format(Locale.ROOT, "  %d threads %.2fx", threads, otm / derby));
            }
        }
        double otmBest = best(results, "otm", 0);
        double derbyBest = best(results, "derby", 0);
        s.append(String.format(Locale.ROOT, "%nbest: OTM %,.0f txn/s, Derby %,.0f txn/s", otmBest, derbyBest));
        if (otmBest > 0 && derbyBest > 0) {
            s.append(String.format(Locale.ROOT, " (%.2fx)", otmBest / derbyBest));
        }
        return s.toString();
    }

    /** Highest txn/s of a system (prefix) at a thread count, or at any count when {@code threads} is 0. */
    private static double best(List<ClosedLoopDriver.Result> results, String systemPrefix, int threads) {
        // otm-direct is a diagnostic with no client and no wire: never the OTM's figure against Derby.
        return results.stream().filter(r -> r.system().startsWith(systemPrefix) && r.writesPerTransaction() > 0
                        && !r.system().startsWith("otm-direct") && (threads == 0 || r.threads() == threads))
                .mapToDouble(ClosedLoopDriver.Result::transactionsPerSecond).max().orElse(0);
    }

    private static void writeCsv(Path file, List<ClosedLoopDriver.Result> results) throws IOException {
        try (PrintWriter out = new PrintWriter(Files.newBufferedWriter(file, StandardCharsets.UTF_8))) {
            out.println("system,threads,seconds,transactions,txn_per_second,latency_p50_micros,latency_p99_micros,"
                    + "latency_max_micros,latency_mean_micros,retries,transactions_retried,errors,cpu_micros_per_txn,"
                    + "cores_busy,load_average_1m_start,load_average_1m_end");
            for (ClosedLoopDriver.Result r : results) {
                out.printf(Locale.ROOT, "%s,%d,%.3f,%d,%.0f,%d,%d,%d,%.0f,%d,%d,%d,%.0f,%.2f,%.2f,%.2f%n", r.system(),
                        r.threads(), r.seconds(), r.transactions(), r.transactionsPerSecond(), r.latencyMicrosP50(),
                        r.latencyMicrosP99(), r.latencyMicrosMax(), r.latencyMicrosMean(), r.retries(),
                        r.transactionsRetried(), r.errors(), r.cpuMicrosPerTransaction(), r.coresBusy(),
                        r.loadAverageStart(), r.loadAverageEnd());
            }
        }
    }

    private static void writeJson(Path file, Options options, Machine machine, Map<String, Double> loadSeconds,
            Map<String, String> checks, List<ClosedLoopDriver.Result> results) throws IOException {
        StringBuilder json = new StringBuilder("{\n  \"benchmark\": \"ProcedureBenchmark\",\n");
        json.append(String.format(Locale.ROOT, "  \"machine\": {\"cores\": %d, \"cpu_model\": %s, \"java\": %s, \"os\": %s},%n",
                machine.cores(), ResultFiles.jsonString(machine.cpuModel()), ResultFiles.jsonString(machine.java()), ResultFiles.jsonString(machine.os())));
        json.append(String.format(Locale.ROOT, "  \"config\": {\"rows\": %d, \"threads\": %s, \"measure_seconds\": %.1f,"
                        + " \"warmup_seconds\": %.1f, \"jit_warmup_seconds\": %.1f, \"seed\": %d, \"reads_per_transaction\": %d,"
                        + " \"writes_per_transaction\": %d, \"coalescing_batches_in_flight\": %d},%n", options.rows(), Arrays.toString(options.threads()),
                options.measureSeconds(), options.warmupSeconds(), options.jitWarmupSeconds(), options.seed(),
                ItemTable.READS_PER_TRANSACTION,
                ItemTable.WRITES_PER_TRANSACTION, options.batchesInFlight()));
        json.append("  \"load_seconds\": {");
        json.append(String.join(", ", loadSeconds.entrySet().stream()
                .map(e -> String.format(Locale.ROOT, "%s: %.2f", ResultFiles.jsonString(e.getKey()), e.getValue())).toList()));
        json.append("},\n  \"checks\": {");
        json.append(String.join(", ", checks.entrySet().stream().map(e -> ResultFiles.jsonString(e.getKey()) + ": " + ResultFiles.jsonString(e.getValue())).toList()));
        json.append("},\n  \"results\": [\n");
        for (int i = 0; i < results.size(); i++) {
            ClosedLoopDriver.Result r = results.get(i);
            json.append(String.format(Locale.ROOT, "    {\"system\": %s, \"threads\": %d, \"txn_per_second\": %.0f,"
                            + " \"transactions\": %d, \"seconds\": %.3f, \"latency_p50_micros\": %d, \"latency_p99_micros\": %d,"
                            + " \"latency_max_micros\": %d, \"latency_mean_micros\": %.0f, \"retries\": %d,"
                            + " \"transactions_retried\": %d, \"errors\": %d, \"first_error\": %s,"
                            + " \"cpu_micros_per_txn\": %.0f, \"cores_busy\": %.2f,"
                            + " \"load_average_1m_start\": %.2f, \"load_average_1m_end\": %.2f}%s%n",
                    ResultFiles.jsonString(r.system()), r.threads(), r.transactionsPerSecond(), r.transactions(), r.seconds(),
                    r.latencyMicrosP50(), r.latencyMicrosP99(), r.latencyMicrosMax(), r.latencyMicrosMean(), r.retries(),
                    r.transactionsRetried(), r.errors(), r.firstError() == null ? "null" : ResultFiles.jsonString(r.firstError()),
                    r.cpuMicrosPerTransaction(), r.coresBusy(), r.loadAverageStart(), r.loadAverageEnd(), i + 1 < results.size() ? "," : ""));
        }
        json.append("  ]\n}\n");
        Files.writeString(file, json.toString(), StandardCharsets.UTF_8);
    }

    /** The machine the run is on. Immutable. */
    record Machine(int cores, String cpuModel, String java, String os) {

        static Machine describe() {
            String model = "unknown";
            try (Stream<String> lines = Files.lines(Path.of("/proc/cpuinfo"))) {
                model = lines.filter(l -> l.startsWith("model name")).map(l -> l.substring(l.indexOf(':') + 1).trim())
                        .findFirst().orElse(model);
            } catch (IOException | RuntimeException e) {
                // Not Linux: the model stays unknown.
            }
            return new Machine(Runtime.getRuntime().availableProcessors(), model,
                    System.getProperty("java.vm.name") + " " + System.getProperty("java.version"),
                    System.getProperty("os.name") + " " + System.getProperty("os.version"));
        }

        String summary() {
            return String.format(Locale.ROOT, "machine: %d cores (nproc), %s; %s; %s; load average 1m %.2f", cores, cpuModel,
                    java, os, LoadAverage.oneMinute());
        }
    }
}
