package org.elastras.experiments.store;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;
import java.util.concurrent.CompletableFuture;
import org.elastras.experiments.ResultFiles;
import org.elastras.storage.dfs.Dfs;
import org.elastras.storage.dfs.LocalDfs;
import org.elastras.storage.sstable.BlockCache;
import org.elastras.storage.store.PartitionRecovery;
import org.elastras.storage.store.PartitionStore;
import org.elastras.storage.store.StoreEnvironment;
import org.elastras.storage.store.StoreOptions;
import org.elastras.storage.store.Version;
import org.elastras.storage.store.WalCursor;
import org.elastras.storage.wal.WalOptions;
import org.elastras.storage.wal.WalPosition;
import org.elastras.storage.wal.WalRecord;
import org.elastras.storage.wal.WalWriter;

/**
 * What a larger memtable costs when its OTM fails: the log a new owner replays holds everything
 * the memtable held. For each memtable size, on the local DFS: a partition store takes commits
 * through a real {@link WalWriter} (five updated rows of ~110 bytes per record, keys drawn
 * uniformly from {@code --rows}, as the procedure benchmark writes) and applies them, until its
 * memtable holds the size; then it is abandoned without a flush (a crash), and a second store
 * opens the partition from the DFS and replays the log ({@link PartitionRecovery}), timed. Each
 * size is run {@code --repeat} times, the first of all runs only to warm the code up.
 *
 * <p>Usage: {@code RecoveryReplayBenchmark [--memtable-mb 32,128] [--rows N] [--repeat R] [--out DIR]}.
 * Prints a table and writes {@code recovery-replay.csv} in the output directory.
 */
public final class RecoveryReplayBenchmark {

    private static final long PARTITION = 1;
    private static final int ROWS_PER_RECORD = 5;
    private static final int VALUE_BYTES = 110;
    private static final int RECORDS_PER_APPEND = 64;

    private record Result(int memtableMb, int run, long versions, long walBytes, double replayMs) {
        double versionsPerSecond() {
            return versions / (replayMs / 1000);
        }
    }

    private RecoveryReplayBenchmark() {
    }

    public static void main(String[] args) throws Exception {
        List<Integer> sizesMb = List.of(32, 128);
        int rows = 100_000;
        int repeat = 3;
        Path out = Paths.get("experiments", "results", "recovery-replay");
        for (int i = 0; i < args.length; i++) {
            String flag = args[i];
            if (i + 1 >= args.length) {
                throw new IllegalArgumentException("missing value after " + flag);
            }
            String value = args[++i];
            switch (flag) {
                case "--memtable-mb" -> {
                    List<Integer> parsed = new ArrayList<>();
                    for (String s : value.split(",")) {
                        parsed.add(Integer.parseInt(s.trim()));
                    }
                    sizesMb = parsed;
                }
                case "--rows" -> rows = Integer.parseInt(value);
                case "--repeat" -> repeat = Integer.parseInt(value);
                case "--out" -> out = Paths.get(value);
                default -> throw new IllegalArgumentException("unknown argument " + flag
                        + "; usage: RecoveryReplayBenchmark [--memtable-mb 32,128] [--rows N] [--repeat R] [--out DIR]");
            }
        }
        Path dir = Files.createTempDirectory("elastras-replay-bench");
        List<Result> results = new ArrayList<>();
        try (Dfs dfs = LocalDfs.open(dir)) {
            run(dfs, dir, "warmup", sizesMb.get(0), rows, 0);
            for (int r = 1; r <= repeat; r++) {
                for (int mb : sizesMb) {
                    Result result = run(dfs, dir, "p" + mb + "-" + r, mb, rows, r);
                    results.add(result);
                    System.out.printf(Locale.ROOT, "memtable %4d MiB run %d: %,10d versions from %,6.1f MiB of log replayed"
                            + " in %,8.0f ms (%,.0f versions/s)%n", mb, r, result.versions(), result.walBytes() / 1048576.0,
                            result.replayMs(), result.versionsPerSecond());
                }
            }
        } finally {
            ResultFiles.deleteTree(dir);
        }
        Files.createDirectories(out);
        try (PrintWriter csv = new PrintWriter(Files.newBufferedWriter(out.resolve("recovery-replay.csv")))) {
            csv.println("memtable_mb,run,versions,wal_bytes,replay_ms,versions_per_s");
            for (Result r : results) {
                csv.printf(Locale.ROOT, "%d,%d,%d,%d,%.1f,%.0f%n", r.memtableMb(), r.run(), r.versions(), r.walBytes(),
                        r.replayMs(), r.versionsPerSecond());
            }
        }
        System.out.println("wrote " + out.resolve("recovery-replay.csv"));
    }

    /** Fills a memtable of {@code mb} through the log, abandons it, and times the replay into a new store. */
    private static Result run(Dfs dfs, Path root, String name, int mb, int rows, int run) throws IOException {
        String walDirectory = "wal/" + name;
        String storeDirectory = "data/" + name;
        StoreOptions options = StoreOptions.DEFAULT.withMemtableBytesMax((long) mb << 20);
        // No maintenance executor: nothing flushes, so the log holds all the memtable holds.
        StoreEnvironment env = new StoreEnvironment(new BlockCache(64L << 20), null, () -> 0);
        long walBytes;
        try (WalWriter wal = WalWriter.open(dfs, walDirectory, WalOptions.DEFAULT)) {
            WalPosition start = wal.endPosition();
            PartitionStore crashed = PartitionStore.open(dfs, storeDirectory, options, env);
            crashed.finishRecovery(WalCursor.fixed(name, start));
            SplittableRandom random = new SplittableRandom(42 + run);
            long cts = 0;
            while (crashed.stats().memtableBytes() < options.memtableBytesMax()) {
                List<WalRecord> records = new ArrayList<>(RECORDS_PER_APPEND);
                for (int i = 0; i < RECORDS_PER_APPEND; i++) {
                    cts++;
                    List<WalRecord.Mutation> mutations = new ArrayList<>(ROWS_PER_RECORD);
                    int[] drawn = new int[ROWS_PER_RECORD];
                    for (int k = 0; k < ROWS_PER_RECORD; k++) {
                        drawn[k] = distinctRow(random, rows, drawn, k);
                        mutations.add(new WalRecord.Mutation(PARTITION, key(drawn[k]), value(cts, k)));
                    }
                    records.add(new WalRecord(cts, mutations));
                }
                List<CompletableFuture<WalPosition>> acks = wal.appendAll(records);
                for (int i = 0; i < records.size(); i++) {
                    WalPosition position = acks.get(i).join();
                    crashed.apply(name, position, PartitionRecovery.versionsOf(records.get(i), PARTITION));
                }
            }
            // The crash: the store is dropped as it is, its memtable never flushed.
        }
        try (var files = Files.walk(root.resolve(walDirectory))) {
            walBytes = files.filter(Files::isRegularFile).mapToLong(f -> f.toFile().length()).sum();
        }
        PartitionStore recovered = PartitionStore.open(dfs, storeDirectory, options, env);
        try {
            long begin = System.nanoTime();
            PartitionRecovery.Result replayed = PartitionRecovery.replay(recovered, PARTITION, dfs, walId -> walDirectory);
            double ms = (System.nanoTime() - begin) / 1e6;
            return new Result(mb, run, replayed.versionsApplied(), walBytes, ms);
        } finally {
            recovered.close();
        }
    }

    /** A row not among the first {@code count} of {@code drawn}: a commit writes each of its rows once. */
    private static int distinctRow(SplittableRandom random, int rows, int[] drawn, int count) {
        while (true) {
            int row = random.nextInt(rows);
            boolean seen = false;
            for (int i = 0; i < count; i++) {
                seen |= drawn[i] == row;
            }
            if (!seen) {
                return row;
            }
        }
    }

    private static byte[] key(int row) {
        return String.format(Locale.ROOT, "item%08d", row).getBytes(StandardCharsets.US_ASCII);
    }

    private static byte[] value(long cts, int k) {
        byte[] v = new byte[VALUE_BYTES];
        long x = cts * 31 + k;
        for (int i = 0; i < 8; i++) {
            v[i] = (byte) (x >>> (8 * i));
        }
        return v;
    }
}
