package org.elastras.experiments.store;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.elastras.experiments.ResultFiles;
import org.elastras.storage.dfs.Dfs;
import org.elastras.storage.dfs.LocalDfs;
import org.elastras.storage.sstable.BlockCache;
import org.elastras.storage.store.PartitionStore;
import org.elastras.storage.store.StoreEnvironment;
import org.elastras.storage.store.StoreOptions;
import org.elastras.storage.store.Version;
import org.elastras.storage.store.WalCursor;
import org.elastras.storage.wal.WalPosition;

/**
 * PartitionStore point writes/s and point reads/s on the local DFS, against an in-memory
 * {@link ConcurrentSkipListMap} measured in the same run as the ceiling. Not a test: prints its
 * figures and writes them as CSV.
 *
 * <p>Usage: {@code PartitionStoreBenchmark [--keys N] [--seconds S] [--out DIR]}.
 */
public final class PartitionStoreBenchmark {

    private static final int VALUE_BYTES = 100;

    private record Result(String operation, String source, int threads, long operations, double seconds) {
        double perSecond() {
            return operations / seconds;
        }
    }

    public static void main(String[] args) throws Exception {
        int keys = 200_000;
        double seconds = 5;
        Path out = Paths.get("experiments", "results");
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--keys" -> keys = Integer.parseInt(args[++i]);
                case "--seconds" -> seconds = Double.parseDouble(args[++i]);
                case "--out" -> out = Paths.get(args[++i]);
                default -> throw new IllegalArgumentException("unknown argument " + args[i]
                        + "; usage: PartitionStoreBenchmark [--keys N] [--seconds S] [--out DIR]");
            }
        }
        Path dir = Files.createTempDirectory("elastras-store-bench");
        List<Result> results = new ArrayList<>();
        ExecutorService maintenance = Executors.newSingleThreadExecutor();
        try (Dfs dfs = LocalDfs.open(dir)) {
            for (int threads : new int[] {1, 2}) {
                StoreEnvironment env = new StoreEnvironment(new BlockCache(64L << 20), maintenance, () -> 0);
                PartitionStore store = open(dfs, "data/bench/w" + threads, env);
                results.add(writes(store, keys, threads, seconds));
                results.add(reads(store, keys, threads, seconds, "memtable+tables"));
                store.flush();
                store.compact(Long.MAX_VALUE - 1);
                results.add(reads(store, keys, threads, seconds, "sstable, warm 64 MiB cache"));
                store.close();
                StoreEnvironment cold = new StoreEnvironment(new BlockCache(1L << 20), null, () -> 0);
                PartitionStore reopened = open(dfs, "data/bench/w" + threads, cold);
                results.add(reads(reopened, keys, threads, seconds, "sstable, 1 MiB cache"));
                reopened.close();
                results.addAll(ceiling(keys, threads, seconds));
            }
        } finally {
            maintenance.shutdown();
            maintenance.awaitTermination(1, TimeUnit.MINUTES);
            ResultFiles.deleteTree(dir);
        }
        report(results, keys, out);
    }

    private static PartitionStore open(Dfs dfs, String path, StoreEnvironment env) throws IOException {
        PartitionStore store = PartitionStore.open(dfs, path, StoreOptions.DEFAULT.withMemtableBytesMax(16L << 20), env);
        store.finishRecovery(WalCursor.fixed("bench", WalPosition.START));
        return store;
    }

    /**
     * "user" and k in 12 digits, zero-padded (as {@code String.format("user%012d", k)}, which cost
     * 40 % of a read from one table in a profile of this benchmark).
     */
    static byte[] key(long k) {
        if (k < 0 || k > 999_999_999_999L) {
            throw new IllegalArgumentException("key number " + k + " outside [0, 10^12)");
        }
        byte[] key = {'u', 's', 'e', 'r', '0', '0', '0', '0', '0', '0', '0', '0', '0', '0', '0', '0'};
        for (int i = key.length - 1; k > 0; i--, k /= 10) {
            key[i] = (byte) ('0' + k % 10);
        }
        return key;
    }

    private static Result writes(PartitionStore store, int keys, int threads, double seconds) throws Exception {
        AtomicLong cts = new AtomicLong();
        // Load every key once so reads hit, then measure random overwrites for the period.
        byte[] value = new byte[VALUE_BYTES];
        for (int k = 0; k < keys; k++) {
            long c = cts.incrementAndGet();
            store.apply("bench", new WalPosition(0, c), List.of(new Version(key(k), c, value)));
        }
        long[] counts = runThreads(threads, seconds, (random, deadlineNanos) -> {
            long n = 0;
            byte[] v = new byte[VALUE_BYTES];
            while ((n & 255) != 0 || System.nanoTime() < deadlineNanos) {
                long c = cts.incrementAndGet();
                store.apply("bench", new WalPosition(0, c), List.of(new Version(key(random.nextInt(keys)), c, v)));
                n++;
            }
            return n;
        });
        return new Result("write", "memtable (background flush)", threads, sum(counts), seconds);
    }

    private static Result reads(PartitionStore store, int keys, int threads, double seconds, String source) throws Exception {
        long[] counts = runThreads(threads, seconds, (random, deadlineNanos) -> {
            long n = 0;
            while ((n & 255) != 0 || System.nanoTime() < deadlineNanos) {
                if (store.get(key(random.nextInt(keys)), Long.MAX_VALUE - 1) == null) {
                    throw new IllegalStateException("a loaded key was not found");
                }
                n++;
            }
            return n;
        });
        return new Result("read", source, threads, sum(counts), seconds);
    }

    private static List<Result> ceiling(int keys, int threads, double seconds) throws Exception {
        ConcurrentSkipListMap<Version, Boolean> map = new ConcurrentSkipListMap<>(Version.ORDER);
        AtomicLong cts = new AtomicLong();
        byte[] value = new byte[VALUE_BYTES];
        for (int k = 0; k < keys; k++) {
            map.put(new Version(key(k), cts.incrementAndGet(), value), Boolean.TRUE);
        }
        long[] writes = runThreads(threads, seconds, (random, deadlineNanos) -> {
            long n = 0;
            while ((n & 255) != 0 || System.nanoTime() < deadlineNanos) {
                map.put(new Version(key(random.nextInt(keys)), cts.incrementAndGet(), value), Boolean.TRUE);
                n++;
            }
            return n;
        });
        long[] reads = runThreads(threads, seconds, (random, deadlineNanos) -> {
            long n = 0;
            while ((n & 255) != 0 || System.nanoTime() < deadlineNanos) {
                byte[] k = key(random.nextInt(keys));
                Version v = map.ceilingKey(new Version(k, Long.MAX_VALUE - 1, null));
                if (v == null || Version.compareKeys(v.key(), k) != 0) {
                    throw new IllegalStateException("ceiling lost a key");
                }
                n++;
            }
            return n;
        });
        return List.of(new Result("write", "ceiling: ConcurrentSkipListMap", threads, sum(writes), seconds),
                new Result("read", "ceiling: ConcurrentSkipListMap", threads, sum(reads), seconds));
    }

    private interface Loop {
        long run(SplittableRandom random, long deadlineNanos) throws Exception;
    }

    private static long[] runThreads(int threads, double seconds, Loop loop) throws Exception {
        long[] counts = new long[threads];
        Throwable[] errors = new Throwable[threads];
        long deadline = System.nanoTime() + (long) (seconds * 1e9);
        List<Thread> all = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            int index = t;
            Thread thread = new Thread(() -> {
                try {
                    counts[index] = loop.run(new SplittableRandom(1000 + index), deadline);
                } catch (Throwable e) {
                    errors[index] = e;
                }
            });
            all.add(thread);
            thread.start();
        }
        for (Thread t : all) {
            t.join();
        }
        for (Throwable e : errors) {
            if (e != null) {
                throw new IllegalStateException("benchmark thread failed", e);
            }
        }
        return counts;
    }

    private static long sum(long[] counts) {
        long s = 0;
        for (long c : counts) {
            s += c;
        }
        return s;
    }

    private static void report(List<Result> results, int keys, Path outDir) throws IOException {
        System.out.printf("%nPartitionStore, %d keys of 16 bytes, values of %d bytes, local DFS, %d cores%n", keys, VALUE_BYTES,
                Runtime.getRuntime().availableProcessors());
        System.out.printf("%-6s %-34s %7s %14s%n", "op", "source", "threads", "ops/s");
        for (Result r : results) {
            System.out.printf("%-6s %-34s %7d %,14.0f%n", r.operation(), r.source(), r.threads(), r.perSecond());
        }
        Files.createDirectories(outDir);
        Path csv = outDir.resolve("partition-store.csv");
        try (PrintWriter w = new PrintWriter(Files.newBufferedWriter(csv))) {
            w.println("operation,source,threads,operations,seconds,ops_per_second");
            for (Result r : results) {
                w.printf("%s,\"%s\",%d,%d,%.3f,%.0f%n", r.operation(), r.source(), r.threads(), r.operations(), r.seconds(), r.perSecond());
            }
        }
        System.out.println("wrote " + csv);
    }
}
