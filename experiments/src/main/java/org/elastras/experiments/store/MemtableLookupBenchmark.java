package org.elastras.experiments.store;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;
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
 * What a point read costs in a large memtable: the hot path of every row an OTM reads. One
 * partition store's memtable is loaded with {@code --keys} keys (nothing flushed, so each read
 * looks into that memtable only), then rounds of {@code --lookups} reads of random keys are
 * timed on one thread, a read at a time (each answer goes to a volatile field, as a transaction
 * uses a row before it reads the next): keys the memtable holds (hits) and keys of the same table
 * it does not (misses, as a read of a row last written before the memtable began). The keys are spread over
 * the whole table, so a read's memory accesses miss the CPU caches as an OTM's do. Prints the
 * nanoseconds a read per round and the median, and appends the medians to
 * {@code memtable-lookup.csv}. Run it in a JVM of its own, e.g. {@code java -Xmx4g ...}. Not a
 * test.
 *
 * <p>Usage: {@code MemtableLookupBenchmark [--keys N] [--lookups L] [--rounds R] [--out DIR]}.
 */
public final class MemtableLookupBenchmark {

    private static final byte[] VALUE = new byte[100];
    /** Where the reads' answers go, so that the compiler cannot drop them. */
    private static volatile long sink;

    private MemtableLookupBenchmark() {
    }

    public static void main(String[] args) throws Exception {
        int keys = 1_000_000;
        int lookups = 2_000_000;
        int rounds = 7;
        Path out = Paths.get("experiments", "results", "memtable-lookup");
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--keys" -> keys = Integer.parseInt(args[++i]);
                case "--lookups" -> lookups = Integer.parseInt(args[++i]);
                case "--rounds" -> rounds = Integer.parseInt(args[++i]);
                case "--out" -> out = Paths.get(args[++i]);
                default -> throw new IllegalArgumentException("unknown argument " + args[i]
                        + "; usage: MemtableLookupBenchmark [--keys N] [--lookups L] [--rounds R] [--out DIR]");
            }
        }
        if (keys < 1 || lookups < 1 || rounds < 1) {
            throw new IllegalArgumentException("--keys, --lookups and --rounds must be at least 1");
        }
        Path dir = Files.createTempDirectory("elastras-memtable-lookup-bench");
        double[] hits = new double[rounds];
        double[] misses = new double[rounds];
        try (Dfs dfs = LocalDfs.open(dir)) {
            // No maintenance executor and a memtable bound above what the keys take: nothing is
            // ever flushed, every read looks into this one memtable.
            long bytes = (long) keys * 256 + (64L << 20);
            PartitionStore store = PartitionStore.open(dfs, "data/bench", StoreOptions.DEFAULT.withMemtableBytesMax(bytes),
                    new StoreEnvironment(new BlockCache(0), null, () -> 0L));
            try {
                store.finishRecovery(WalCursor.fixed("bench", WalPosition.START));
                List<Version> versions = new ArrayList<>(100);
                long cts = 0;
                for (int k = 0; k < keys; k += 100) {
                    versions.clear();
                    cts++;
                    for (int i = k; i < Math.min(keys, k + 100); i++) {
                        versions.add(new Version(MemtableGcBenchmark.key(1, i * 2), cts, VALUE));
                    }
                    store.apply("bench", new WalPosition(0, cts), versions);
                }
                System.gc();
                SplittableRandom random = new SplittableRandom(7);
                for (int r = 0; r < rounds; r++) {
                    hits[r] = nanosPerRead(store, random, keys, lookups, 0, cts);
                    misses[r] = nanosPerRead(store, random, keys, lookups, 1, cts);
                    System.out.printf(Locale.ROOT, "round %d: hit %.1f ns, miss %.1f ns a read%n", r + 1, hits[r], misses[r]);
                }
            } finally {
                store.close();
            }
        } finally {
            ResultFiles.deleteTree(dir);
        }
        double hit = median(hits);
        double miss = median(misses);
        System.out.printf(Locale.ROOT, "%,d keys in one memtable, %,d reads a round, %d rounds: median %.1f ns a hit, %.1f ns a miss%n",
                keys, lookups, rounds, hit, miss);
        Files.createDirectories(out);
        Path csv = out.resolve("memtable-lookup.csv");
        if (!Files.exists(csv)) {
            Files.writeString(csv, "keys,lookups,rounds,hit_ns_median,miss_ns_median\n");
        }
        Files.writeString(csv, String.format(Locale.ROOT, "%d,%d,%d,%.1f,%.1f%n", keys, lookups, rounds, hit, miss),
                StandardOpenOption.APPEND);
        System.out.println("appended to " + csv);
    }

    /**
     * Reads {@code lookups} random keys (ids {@code 2i + parity}: even ids are held, odd ones
     * not) and returns the nanoseconds a read. Fails if a hit is missing or a miss is found.
     */
    private static double nanosPerRead(PartitionStore store, SplittableRandom random, int keys, int lookups, int parity, long cts)
            throws Exception {
        // The keys are made before the clock starts: the reads, not the key bytes, are timed.
        byte[][] batch = new byte[Math.min(lookups, 65_536)][];
        long nanos = 0;
        long found = 0;
        for (int done = 0; done < lookups; done += batch.length) {
            int n = Math.min(batch.length, lookups - done);
            for (int i = 0; i < n; i++) {
                batch[i] = MemtableGcBenchmark.key(1, random.nextInt(keys) * 2 + parity);
            }
            long start = System.nanoTime();
            for (int i = 0; i < n; i++) {
                Version v = store.getVersion(batch[i], cts);
                if (v != null) {
                    found++;
                    sink += v.cts();
                }
            }
            nanos += System.nanoTime() - start;
        }
        long expected = parity == 0 ? lookups : 0;
        if (found != expected) {
            throw new IllegalStateException("found " + found + " of " + lookups + " keys, expected " + expected);
        }
        return nanos / (double) lookups;
    }

    private static double median(double[] values) {
        double[] sorted = values.clone();
        Arrays.sort(sorted);
        return sorted[sorted.length / 2];
    }
}
