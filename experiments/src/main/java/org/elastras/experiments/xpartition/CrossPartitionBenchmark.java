package org.elastras.experiments.xpartition;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.HdrHistogram.Histogram;
import org.elastras.client.ClientTransaction;
import org.elastras.client.ElasTrasClient;
import org.elastras.client.Session;
import org.elastras.experiments.ResultFiles;

/**
 * {@code elastras bench xpartition}: the cost of a cross-partition transaction. One local cluster
 * (ZooKeeper with a 500 ms tick, a master with balancing off, and 2 or 3 OTMs, all in this JVM,
 * each OTM with its own WAL on the local DFS), database {@code XBENCH} with two partitions owned by
 * different OTMs, {@code accounts} accounts in each. N client threads, each with its own session,
 * run transfers ({@code runInTransaction}: read two balances, write both) in alternating phases of
 * the two {@link TransferMode}s: both accounts in the first partition, or one in each partition.
 * Every transaction is begun on the first partition, so its OTM coordinates in both modes. Reported
 * per mode: committed transfers per second, latency p50/p99/max (first attempt to commit, re-runs
 * after conflicts included), re-runs and failures; and the load average. At the end every balance
 * is read in one transaction and the total must be unchanged.
 *
 * <p>Writes {@code xpartition.txt} and {@code xpartition.json} under {@code --out}. Exits 2 on bad
 * arguments, 1 if the total changed or a phase committed nothing.
 */
public final class CrossPartitionBenchmark {

    static final String USAGE = String.join("\n",
            "usage: elastras bench xpartition [options]",
            "  --threads N          client threads (default 8)",
            "  --seconds S          length of each measured phase (default 20)",
            "  --rounds R           single-partition then cross-partition phases, R times (default 2)",
            "  --warmup-seconds W   unmeasured transfers of both modes first (default 5)",
            "  --accounts N         accounts per partition (default 1000)",
            "  --otms N             OTMs, 2 or 3 (default 2)",
            "  --out DIR            results directory (default experiments/results/xpartition)");

    /** The run's settings. Immutable. */
    record Options(int threads, double phaseSeconds, int rounds, double warmupSeconds, int accounts, int otms, Path out) {
        Options {
            if (threads < 1 || threads > 256) {
                throw new IllegalArgumentException("--threads must be 1 to 256, got " + threads);
            }
            if (phaseSeconds <= 0 || phaseSeconds > 3_600 || warmupSeconds < 0 || warmupSeconds > 3_600) {
                throw new IllegalArgumentException("--seconds must be in (0, 3600] and --warmup-seconds in [0, 3600]");
            }
            if (rounds < 1 || rounds > 100) {
                throw new IllegalArgumentException("--rounds must be 1 to 100, got " + rounds);
            }
            if (accounts < 2 || accounts > ACCOUNTS_MAX) {
                throw new IllegalArgumentException("--accounts must be 2 to " + ACCOUNTS_MAX + ", got " + accounts);
            }
            if (otms < 2 || otms > 3) {
                throw new IllegalArgumentException("--otms must be 2 or 3 (the two partitions need two owners), got " + otms);
            }
        }

        static Options defaults() {
            return new Options(8, 20, 2, 5, 1_000, 2, Path.of("experiments", "results", "xpartition"));
        }
    }

    /** What a run measured. Immutable. */
    record Result(Options options, Map<TransferMode, PhaseFigures> figures, double loadAverageStart, double loadAverageEnd,
            long totalExpected, long totalRead, String placement) {

        /** Cross-partition over single-partition: throughput ratio and p50 latency ratio. */
        double throughputRatio() {
            return figures.get(TransferMode.CROSS_PARTITION).transfersPerSecond()
                    / figures.get(TransferMode.SINGLE_PARTITION).transfersPerSecond();
        }

        double latencyP50Ratio() {
            return figures.get(TransferMode.CROSS_PARTITION).latencyMsAtPercentile(50)
                    / figures.get(TransferMode.SINGLE_PARTITION).latencyMsAtPercentile(50);
        }

        boolean sane() {
            return totalRead == totalExpected && figures.values().stream().allMatch(f -> f.committed() > 0);
        }

        String render() {
            StringBuilder text = new StringBuilder();
            text.append(String.format(Locale.ROOT, "cross-partition vs single-partition transfers: %d client threads, %d x %.0f s"
                    + " per mode (alternating, after %.0f s of warm-up), %d accounts per partition, %d OTMs in one JVM; %s%n",
                    options.threads(), options.rounds(), options.phaseSeconds(), options.warmupSeconds(), options.accounts(),
                    options.otms(), placement));
            text.append(String.format(Locale.ROOT, "machine: %d cores, %s %s, Java %s; load average (1 min) %.2f at the start,"
                    + " %.2f at the end%n", Runtime.getRuntime().availableProcessors(), System.getProperty("os.name"),
                    System.getProperty("os.arch"), System.getProperty("java.version"), loadAverageStart, loadAverageEnd));
            text.append(PhaseFigures.header()).append('\n');
            for (PhaseFigures f : figures.values()) {
                text.append(f.render()).append('\n');
            }
            text.append(String.format(Locale.ROOT, "cross/single: throughput x%.2f, p50 latency x%.2f%n", throughputRatio(),
                    latencyP50Ratio()));
            text.append(String.format(Locale.ROOT, "total of every balance afterwards, read in one transaction: %d (must be %d)%n",
                    totalRead, totalExpected));
            return text.toString();
        }

        String json() {
            StringBuilder json = new StringBuilder("{\n");
            json.append(String.format(Locale.ROOT, "  \"threads\": %d, \"phaseSeconds\": %.1f, \"rounds\": %d, \"warmupSeconds\": %.1f,"
                    + " \"accountsPerPartition\": %d, \"otms\": %d,%n", options.threads(), options.phaseSeconds(), options.rounds(),
                    options.warmupSeconds(), options.accounts(), options.otms()));
            json.append(String.format(Locale.ROOT, "  \"cores\": %d, \"java\": %s, \"loadAverageStart\": %.2f, \"loadAverageEnd\": %.2f,%n",
                    Runtime.getRuntime().availableProcessors(), ResultFiles.jsonString(System.getProperty("java.version")),
                    loadAverageStart, loadAverageEnd));
            json.append("  \"placement\": ").append(ResultFiles.jsonString(placement)).append(",\n");
            json.append("  \"modes\": [\n");
            List<String> modes = figures.values().stream().map(f -> "    " + f.json()).toList();
            json.append(String.join(",\n", modes)).append("\n  ],\n");
            json.append(String.format(Locale.ROOT, "  \"throughputRatio\": %.3f, \"latencyP50Ratio\": %.3f, \"totalExpected\": %d,"
                    + " \"totalRead\": %d%n}%n", throughputRatio(), latencyP50Ratio(), totalExpected, totalRead));
            return json.toString();
        }
    }

    static final String DATABASE = TwoPartitionCluster.DATABASE;
    static final String TABLE = TwoPartitionCluster.TABLE;
    static final long SPAN = TwoPartitionCluster.SPAN;
    static final int ACCOUNTS_MAX = 100_000;
    static final long OPENING_BALANCE = 1_000_000_000L;
    static final long LATENCY_MICROS_MAX = TimeUnit.MINUTES.toMicros(10);

    private CrossPartitionBenchmark() {
    }

    public static void main(String[] args) throws Exception {
        if (args.length == 1 && (args[0].equals("--help") || args[0].equals("-h"))) {
            System.out.println(USAGE);
            return;
        }
        Options options;
        try {
            options = parse(args);
        } catch (IllegalArgumentException e) {
            System.err.println("elastras bench xpartition: " + e.getMessage() + "\n" + USAGE);
            System.exit(2);
            return;
        }
        Result result = run(options);
        System.out.print(result.render());
        System.out.println("written to " + options.out().resolve("xpartition.txt") + " and xpartition.json");
        System.exit(result.sane() ? 0 : 1);
    }

    static Options parse(String[] args) {
        Options d = Options.defaults();
        int threads = d.threads();
        double seconds = d.phaseSeconds();
        int rounds = d.rounds();
        double warmup = d.warmupSeconds();
        int accounts = d.accounts();
        int otms = d.otms();
        Path out = d.out();
        for (int i = 0; i < args.length; i++) {
            String flag = args[i];
            if (i + 1 >= args.length) {
                throw new IllegalArgumentException("missing value after " + flag);
            }
            String value = args[++i];
            try {
                switch (flag) {
                    case "--threads" -> threads = Integer.parseInt(value);
                    case "--seconds" -> seconds = Double.parseDouble(value);
                    case "--rounds" -> rounds = Integer.parseInt(value);
                    case "--warmup-seconds" -> warmup = Double.parseDouble(value);
                    case "--accounts" -> accounts = Integer.parseInt(value);
                    case "--otms" -> otms = Integer.parseInt(value);
                    case "--out" -> out = Path.of(value);
                    default -> throw new IllegalArgumentException("unknown argument '" + flag + "'");
                }
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException(flag + " needs a number, got '" + value + "'");
            }
        }
        return new Options(threads, seconds, rounds, warmup, accounts, otms, out);
    }

    /** Starts the cluster, loads, runs the phases, checks the total, writes the results. */
    static Result run(Options options) throws Exception {
        try (TwoPartitionCluster cluster = TwoPartitionCluster.start(options.otms())) {
            ElasTrasClient client = cluster.client();
            cluster.openAccounts(options.accounts(), OPENING_BALANCE);
            double loadStart = loadAverage();
            System.out.printf(Locale.ROOT, "xpartition: %s; load average %.2f; warming up %.0f s%n", cluster.placement(), loadStart,
                    options.warmupSeconds());
            if (options.warmupSeconds() > 0) {
                runPhase(client, options, TransferMode.SINGLE_PARTITION, options.warmupSeconds() / 2, 0);
                runPhase(client, options, TransferMode.CROSS_PARTITION, options.warmupSeconds() / 2, 0);
            }
            Map<TransferMode, List<PhaseFigures>> phases = new EnumMap<>(TransferMode.class);
            for (int round = 1; round <= options.rounds(); round++) {
                for (TransferMode mode : TransferMode.values()) {
                    PhaseFigures f = runPhase(client, options, mode, options.phaseSeconds(), round);
                    System.out.printf(Locale.ROOT, "  round %d %s%n", round, f.render());
                    phases.computeIfAbsent(mode, m -> new ArrayList<>()).add(f);
                }
            }
            double loadEnd = loadAverage();
            if (!cluster.currentPlacement().equals(cluster.placement())) {
                throw new IllegalStateException("the partitions moved during the run: " + cluster.placement() + " -> "
                        + cluster.currentPlacement());
            }
            Map<TransferMode, PhaseFigures> figures = new EnumMap<>(TransferMode.class);
            phases.forEach((mode, list) -> figures.put(mode, merge(mode, list)));
            Result result = new Result(options, figures, loadStart, loadEnd, 2L * options.accounts() * OPENING_BALANCE,
                    total(client, options.accounts()), cluster.placement());
            write(options.out(), result);
            return result;
        }
    }

    /**
     * Runs {@code options.threads()} transfer threads in {@code mode} for {@code seconds}; counts
     * the transfers that committed within the phase.
     */
    private static PhaseFigures runPhase(ElasTrasClient client, Options options, TransferMode mode, double seconds, int round)
            throws InterruptedException {
        long start = System.nanoTime();
        long end = start + (long) (seconds * 1e9);
        AtomicLong committed = new AtomicLong();
        AtomicLong aborted = new AtomicLong();
        AtomicLong failed = new AtomicLong();
        List<Histogram> histograms = new ArrayList<>();
        List<Thread> threads = new ArrayList<>();
        List<Throwable> unexpected = java.util.Collections.synchronizedList(new ArrayList<>());
        for (int t = 0; t < options.threads(); t++) {
            Histogram histogram = new Histogram(LATENCY_MICROS_MAX, 3);
            histograms.add(histogram);
            Random random = new Random(1_000L * round + t + (mode == TransferMode.CROSS_PARTITION ? 500 : 0));
            Thread thread = new Thread(() -> {
                Session session = client.newSession();
                while (System.nanoTime() < end) {
                    long from = random.nextInt(options.accounts());
                    long to = mode == TransferMode.CROSS_PARTITION ? SPAN + random.nextInt(options.accounts())
                            : (from + 1 + random.nextInt(options.accounts() - 1)) % options.accounts();
                    long began = System.nanoTime();
                    AtomicLong attempts = new AtomicLong();
                    try {
                        session.runInTransaction(DATABASE, List.of(from), txn -> {
                            attempts.incrementAndGet();
                            return transfer(txn, from, to);
                        });
                        long done = System.nanoTime();
                        if (done <= end) {
                            committed.incrementAndGet();
                            histogram.recordValue(Math.min(LATENCY_MICROS_MAX, (done - began) / 1_000));
                        }
                    } catch (RuntimeException e) {
                        failed.incrementAndGet();
                        if (unexpected.size() < 5) {
                            unexpected.add(e);
                        }
                    }
                    aborted.addAndGet(Math.max(0, attempts.get() - 1));
                }
            }, "xpartition-" + mode.label() + "-" + t);
            thread.setDaemon(true);
            threads.add(thread);
            thread.start();
        }
        for (Thread thread : threads) {
            thread.join();
        }
        unexpected.forEach(e -> System.err.println("xpartition: a transfer failed: " + e));
        Histogram merged = new Histogram(LATENCY_MICROS_MAX, 3);
        histograms.forEach(merged::add);
        return new PhaseFigures(mode, 1, seconds, committed.get(), aborted.get(), failed.get(), merged);
    }

    private static long transfer(ClientTransaction txn, long from, long to) {
        long fromBalance = balance(txn, from);
        long toBalance = balance(txn, to);
        txn.put(TABLE, Map.of("ID", from, "BALANCE", fromBalance - 1));
        txn.put(TABLE, Map.of("ID", to, "BALANCE", toBalance + 1));
        return txn.commit();
    }

    private static long balance(ClientTransaction txn, long id) {
        return (Long) txn.get(TABLE, List.of(id)).orElseThrow(() -> new IllegalStateException("account " + id + " is missing"))
                .get("BALANCE");
    }

    private static PhaseFigures merge(TransferMode mode, List<PhaseFigures> phases) {
        Histogram latency = new Histogram(LATENCY_MICROS_MAX, 3);
        double seconds = 0;
        long committed = 0;
        long aborted = 0;
        long failed = 0;
        for (PhaseFigures f : phases) {
            latency.add(f.latencyMicros());
            seconds += f.seconds();
            committed += f.committed();
            aborted += f.attemptsAborted();
            failed += f.failed();
        }
        return new PhaseFigures(mode, phases.size(), seconds, committed, aborted, failed, latency);
    }

    /** Every balance of both partitions, read in one transaction (one snapshot), summed. */
    private static long total(ElasTrasClient client, int accounts) {
        return client.runInTransaction(DATABASE, List.of(0L), txn -> {
            long sum = 0;
            for (int p = 0; p < 2; p++) {
                for (int i = 0; i < accounts; i++) {
                    sum += balance(txn, p * SPAN + i);
                }
            }
            return sum;
        });
    }

    private static void write(Path out, Result result) throws IOException {
        Files.createDirectories(out);
        Files.writeString(out.resolve("xpartition.txt"), result.render(), StandardCharsets.UTF_8);
        Files.writeString(out.resolve("xpartition.json"), result.json(), StandardCharsets.UTF_8);
    }

    /** The one-minute load average from /proc/loadavg; -1 where there is none. */
    static double loadAverage() {
        try {
            String line = Files.readString(Path.of("/proc/loadavg")).trim();
            return Double.parseDouble(line.substring(0, line.indexOf(' ')));
        } catch (IOException | RuntimeException e) {
            return -1;
        }
    }
}
