package org.elastras.experiments.wal;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicReference;
import org.HdrHistogram.Histogram;
import org.elastras.storage.dfs.Dfs;
import org.elastras.storage.dfs.LocalDfs;
import org.elastras.storage.dfs.MiniHdfs;
import org.elastras.storage.wal.WalDurability;
import org.elastras.storage.wal.WalMetrics;
import org.elastras.storage.wal.WalOptions;
import org.elastras.storage.wal.WalRecord;
import org.elastras.storage.wal.WalWriter;

/**
 * Group-commit throughput and latency of the WAL: N committer threads each append a ~200-byte
 * record and wait for its acknowledgement, in a loop, on the local DFS and on a 3-datanode
 * MiniDFSCluster, with {@code sync} per batch (durable) and with {@code flush} only (the no-sync
 * ceiling). Prints a table and writes {@code wal-benchmark.csv} and {@code wal-benchmark.json}.
 *
 * <p>Arguments (all optional): output directory (default {@code experiments/results}), measured
 * seconds per run (default 3), warm-up seconds per run (default 1), which DFS ({@code all},
 * {@code local} or {@code hdfs}; default all). Single-threaded driver; the committers are its own
 * threads.
 */
public final class WalBenchmark {

    private static final int[] COMMITTERS = {1, 16, 64};
    private static final int KEY_BYTES = 16;
    private static final int VALUE_BYTES = 160;

    private WalBenchmark() {
    }

    /** One measured configuration. */
    record Result(String dfs, WalDurability durability, int committers, long commits, double seconds,
            long latencyMicrosP50, long latencyMicrosP99, long latencyMicrosMax, double groupRecordsAverage,
            long groupRecordsMax, long syncLatencyMicrosP50, long syncLatencyMicrosP99, long syncLatencyMicrosMean,
            int frameBytes) {

        double commitsPerSecond() {
            return commits / seconds;
        }
    }

    public static void main(String[] args) throws Exception {
        Path output = Paths.get(args.length > 0 ? args[0] : "experiments/results");
        double measureSeconds = args.length > 1 ? Double.parseDouble(args[1]) : 3;
        double warmupSeconds = args.length > 2 ? Double.parseDouble(args[2]) : 1;
        String which = args.length > 3 ? args[3] : "all";
        if (!which.equals("all") && !which.equals("local") && !which.equals("hdfs")) {
            throw new IllegalArgumentException("DFS must be all, local or hdfs, got '" + which + "'");
        }
        Files.createDirectories(output);
        Path scratch = Files.createTempDirectory("wal-benchmark");
        List<Result> results = new ArrayList<>();

        if (!which.equals("hdfs")) {
            try (Dfs local = LocalDfs.open(scratch.resolve("local"))) {
                runAll("local", local, measureSeconds, warmupSeconds, results);
            }
        }
        if (!which.equals("local")) {
            try (MiniHdfs hdfs = MiniHdfs.start(3, scratch.resolve("minidfs")); Dfs dfs = hdfs.newDfs()) {
                runAll("hdfs-3dn", dfs, measureSeconds, warmupSeconds, results);
            }
        }

        writeCsv(output.resolve("wal-benchmark.csv"), results);
        writeJson(output.resolve("wal-benchmark.json"), results, measureSeconds, warmupSeconds);
        System.out.println();
        System.out.println("wrote " + output.resolve("wal-benchmark.csv") + " and " + output.resolve("wal-benchmark.json"));
        // MiniDFSCluster leaves non-daemon threads behind.
        System.exit(0);
    }

    private static void runAll(String dfsName, Dfs dfs, double measureSeconds, double warmupSeconds,
            List<Result> results) throws Exception {
        for (WalDurability durability : new WalDurability[] {WalDurability.SYNC, WalDurability.FLUSH}) {
            for (int committers : COMMITTERS) {
                String directory = "wal-" + durability + "-" + committers;
                Result result = run(dfsName, dfs, directory, durability, committers, measureSeconds, warmupSeconds);
                results.add(result);
                System.out.printf(Locale.ROOT,
                        "%-9s %-5s committers=%3d  %,10.0f commits/s  p50=%6d us  p99=%6d us  group avg=%5.1f max=%3d"
                                + "  sync p50=%5d us p99=%6d us mean=%5d us%n",
                        result.dfs(), result.durability(), result.committers(), result.commitsPerSecond(),
                        result.latencyMicrosP50(), result.latencyMicrosP99(), result.groupRecordsAverage(),
                        result.groupRecordsMax(), result.syncLatencyMicrosP50(), result.syncLatencyMicrosP99(), result.syncLatencyMicrosMean());
                dfs.delete(directory);
            }
        }
    }

    private static Result run(String dfsName, Dfs dfs, String directory, WalDurability durability, int committers,
            double measureSeconds, double warmupSeconds) throws Exception {
        WalOptions options = WalOptions.DEFAULT.withDurability(durability);
        Histogram[] latencies = new Histogram[committers];
        long[] commits = new long[committers];
        AtomicReference<Throwable> failure = new AtomicReference<>();
        Phase phase = new Phase();
        WalMetrics atStart;
        WalMetrics atEnd;
        long measuredNanos;
        int frameBytes;
        try (WalWriter writer = WalWriter.open(dfs, directory, options)) {
            frameBytes = org.elastras.storage.wal.WalFormat.encodeFrame(record(0), options.limits()).length;
            CountDownLatch done = new CountDownLatch(committers);
            List<Thread> threads = new ArrayList<>();
            for (int c = 0; c < committers; c++) {
                int committer = c;
                latencies[c] = new Histogram(60_000_000L, 2);
                Thread thread = new Thread(() -> {
                    WalRecord record = record(committer);
                    Histogram latency = latencies[committer];
                    long count = 0;
                    try {
                        int p;
                        while ((p = phase.value) != 2) {
                            long start = System.nanoTime();
                            writer.append(record).join();
                            if (p == 1 && phase.value == 1) {
                                latency.recordValue(Math.min((System.nanoTime() - start) / 1000, 60_000_000L));
                                count++;
                            }
                        }
                    } catch (Throwable t) {
                        failure.compareAndSet(null, t);
                    } finally {
                        commits[committer] = count;
                        done.countDown();
                    }
                }, "committer-" + c);
                threads.add(thread);
                thread.start();
            }
            Thread.sleep((long) (warmupSeconds * 1000));
            atStart = writer.metrics();
            long startNanos = System.nanoTime();
            phase.value = 1;
            Thread.sleep((long) (measureSeconds * 1000));
            phase.value = 2;
            measuredNanos = System.nanoTime() - startNanos;
            atEnd = writer.metrics();
            done.await();
        }
        if (failure.get() != null) {
            throw new IllegalStateException("committer failed in " + dfsName + " " + durability + " " + committers,
                    failure.get());
        }
        Histogram all = new Histogram(60_000_000L, 2);
        long total = 0;
        for (int c = 0; c < committers; c++) {
            all.add(latencies[c]);
            total += commits[c];
        }
        long batches = atEnd.batches() - atStart.batches();
        long records = atEnd.records() - atStart.records();
        return new Result(dfsName, durability, committers, total, measuredNanos / 1e9,
                all.getValueAtPercentile(50), all.getValueAtPercentile(99), all.getMaxValue(),
                batches == 0 ? 0 : (double) records / batches, atEnd.batchRecordsMax(),
                atEnd.syncLatencyMicrosP50(), atEnd.syncLatencyMicrosP99(), atEnd.syncLatencyMicrosMean(), frameBytes);
    }

    /** The phase committers read on every loop; written by the driver thread only. */
    private static final class Phase {
        /** 0 = warm-up, 1 = measuring, 2 = stop. */
        volatile int value;
    }

    /** A single-mutation record of about 200 encoded bytes, its key naming the committer. */
    private static WalRecord record(int committer) {
        byte[] key = new byte[KEY_BYTES];
        byte[] id = Integer.toString(committer).getBytes(StandardCharsets.US_ASCII);
        System.arraycopy(id, 0, key, 0, id.length);
        byte[] value = new byte[VALUE_BYTES];
        for (int i = 0; i < value.length; i++) {
            value[i] = (byte) (i * 7 + committer);
        }
        return new WalRecord(committer + 1, List.of(new WalRecord.Mutation(committer % 8, key, value)));
    }

    private static void writeCsv(Path file, List<Result> results) throws IOException {
        try (PrintWriter out = new PrintWriter(Files.newBufferedWriter(file, StandardCharsets.UTF_8))) {
            out.println("dfs,durability,committers,commits,seconds,commits_per_second,latency_p50_micros,"
                    + "latency_p99_micros,latency_max_micros,group_records_avg,group_records_max,sync_p50_micros,"
                    + "sync_p99_micros,sync_mean_micros,frame_bytes");
            for (Result r : results) {
                out.printf(Locale.ROOT, "%s,%s,%d,%d,%.3f,%.0f,%d,%d,%d,%.2f,%d,%d,%d,%d,%d%n", r.dfs(), r.durability(),
                        r.committers(), r.commits(), r.seconds(), r.commitsPerSecond(), r.latencyMicrosP50(),
                        r.latencyMicrosP99(), r.latencyMicrosMax(), r.groupRecordsAverage(), r.groupRecordsMax(),
                        r.syncLatencyMicrosP50(), r.syncLatencyMicrosP99(), r.syncLatencyMicrosMean(), r.frameBytes());
            }
        }
    }

    private static void writeJson(Path file, List<Result> results, double measureSeconds, double warmupSeconds)
            throws IOException {
        StringBuilder json = new StringBuilder();
        json.append("{\n  \"benchmark\": \"WalBenchmark\",\n");
        json.append(String.format(Locale.ROOT, "  \"cores\": %d,%n", Runtime.getRuntime().availableProcessors()));
        json.append(String.format(Locale.ROOT, "  \"measure_seconds\": %.1f,%n  \"warmup_seconds\": %.1f,%n",
                measureSeconds, warmupSeconds));
        json.append("  \"results\": [\n");
        for (int i = 0; i < results.size(); i++) {
            Result r = results.get(i);
            json.append(String.format(Locale.ROOT, "    {\"dfs\": \"%s\", \"durability\": \"%s\", \"committers\": %d,"
                            + " \"commits_per_second\": %.0f, \"latency_p50_micros\": %d, \"latency_p99_micros\": %d,"
                            + " \"group_records_avg\": %.2f, \"sync_p50_micros\": %d, \"frame_bytes\": %d}%s%n",
                    r.dfs(), r.durability(), r.committers(), r.commitsPerSecond(), r.latencyMicrosP50(),
                    r.latencyMicrosP99(), r.groupRecordsAverage(), r.syncLatencyMicrosP50(), r.frameBytes(),
                    i + 1 < results.size() ? "," : ""));
        }
        json.append("  ]\n}\n");
        Files.writeString(file, json.toString(), StandardCharsets.UTF_8);
    }
}
