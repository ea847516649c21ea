package org.elastras.experiments.store;

import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.elastras.experiments.ResultFiles;
import org.elastras.storage.dfs.Dfs;
import org.elastras.storage.dfs.LocalDfs;
import org.elastras.storage.sstable.BlockCache;
import org.elastras.storage.store.MemtableBudget;
import org.elastras.storage.store.PartitionStore;
import org.elastras.storage.store.StoreEnvironment;
import org.elastras.storage.store.StoreOptions;
import org.elastras.storage.store.Version;
import org.elastras.storage.store.WalCursor;
import org.elastras.storage.wal.WalPosition;

/**
 * What a memtable's writes cost the young collections of the JVM that holds it. A memtable's
 * versions live until its flush, seconds to minutes, so its structures are in the old generation
 * while they are still written to: each write that stores a reference to a new (young) object
 * into an old one dirties a card the next young collection must scan. One partition store is
 * loaded with {@code --keys} keys and collected fully (so the memtable is old); then commits of
 * {@code --writes} versions each are applied for {@code --seconds} at {@code --commits-per-second}
 * (default 2,000: an OTM's share of TPC-C on this machine), with the rows
 * written chosen by {@code --mode}: {@code update} (keys already in the memtable), {@code insert}
 * (new keys) or {@code mixed} (half each, TPC-C's New-Order). Short-lived garbage is allocated
 * alongside, 64 KiB a commit (an OTM allocated 80-90 KB per TPC-C transaction in session 28). Prints the young collections' count,
 * mean and longest pause (the JVM's {@code GarbageCollectorMXBean}) and writes
 * {@code memtable-gc.csv}. Run it in a JVM of its own, e.g. {@code java -Xmx2g ...}. Not a test.
 *
 * <p>The store flushes in the background (a memtable of at most {@code --memtable-mb}, writers
 * waiting while twice that is in memtables; the GC horizon follows the commits), as an OTM's do,
 * so the memtables' objects live and die as there.
 *
 * <p>Usage: {@code MemtableGcBenchmark [--keys N] [--writes W] [--seconds S] [--mode update|insert|mixed]
 * [--memtable-mb M] [--commits-per-second C] [--out DIR]}.
 */
public final class MemtableGcBenchmark {

    private static final byte[] VALUE = new byte[120];
    /** Where each request's garbage goes, so that the compiler cannot drop the allocation. */
    private static volatile Object garbage;

    private MemtableGcBenchmark() {
    }

    public static void main(String[] args) throws Exception {
        int keys = 400_000;
        int writes = 20;
        double seconds = 20;
        String mode = "update";
        int memtableMb = 128;
        int rate = 2_000;
        Path out = Paths.get("experiments", "results", "memtable-gc");
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--keys" -> keys = Integer.parseInt(args[++i]);
                case "--writes" -> writes = Integer.parseInt(args[++i]);
                case "--seconds" -> seconds = Double.parseDouble(args[++i]);
                case "--mode" -> mode = args[++i];
                case "--memtable-mb" -> memtableMb = Integer.parseInt(args[++i]);
                case "--commits-per-second" -> rate = Integer.parseInt(args[++i]);
                case "--out" -> out = Paths.get(args[++i]);
                default -> throw new IllegalArgumentException("unknown argument " + args[i] + "; usage: MemtableGcBenchmark"
                        + " [--keys N] [--writes W] [--seconds S] [--mode update|insert|mixed] [--memtable-mb M]"
                        + " [--commits-per-second C] [--out DIR]");
            }
        }
        if (!List.of("update", "insert", "mixed").contains(mode)) {
            throw new IllegalArgumentException("--mode must be update, insert or mixed, got " + mode);
        }
        Path dir = Files.createTempDirectory("elastras-memtable-gc-bench");
        String line;
        ExecutorService maintenance = Executors.newSingleThreadExecutor();
        AtomicLong horizon = new AtomicLong();
        try (Dfs dfs = LocalDfs.open(dir)) {
            PartitionStore store = PartitionStore.open(dfs, "data/bench",
                    StoreOptions.DEFAULT.withMemtableBytesMax((long) memtableMb << 20),
                    new StoreEnvironment(new BlockCache(0), maintenance, horizon::get, key -> false,
                            () -> System.nanoTime() / 1_000_000, new MemtableBudget(2L * memtableMb << 20)));
            try {
                store.finishRecovery(WalCursor.fixed("bench", WalPosition.START));
                long cts = 0;
                List<Version> versions = new ArrayList<>(writes);
                for (int k = 0; k < keys; k += writes) {
                    versions.clear();
                    cts++;
                    for (int i = k; i < Math.min(keys, k + writes); i++) {
                        versions.add(new Version(key(1, i), cts, VALUE));
                    }
                    store.apply("bench", new WalPosition(0, cts), versions);
                }
                System.gc();
                GarbageCollectorMXBean young = youngCollector();
                long count0 = young.getCollectionCount();
                long time0 = young.getCollectionTime();
                SplittableRandom random = new SplittableRandom(42);
                int nextNew = 0;
                long commits = 0;
                long started = System.nanoTime();
                long end = started + (long) (seconds * 1e9);
                long nanosPerCommit = 1_000_000_000L / rate;
                while (System.nanoTime() < end) {
                    long due = started + commits * nanosPerCommit;
                    long ahead = due - System.nanoTime();
                    if (ahead > 0) {
                        Thread.sleep(ahead / 1_000_000, (int) (ahead % 1_000_000));
                    }
                    for (int batch = 0; batch < 10; batch++) {
                        versions.clear();
                        cts++;
                        for (int i = 0; i < writes; i++) {
                            boolean update = mode.equals("update") || (mode.equals("mixed") && i % 2 == 0);
                            byte[] k = update ? key(1, random.nextInt(keys)) : key(2, nextNew++);
                            versions.add(new Version(k, cts, VALUE));
                            // A request's garbage: decoded fields and buffers that die at once.
                            garbage = new byte[3_200];
                            garbage = new Object[8];
                        }
                        // As an OTM does before it logs a commit: a writer faster than the flushes waits.
                        if (!store.awaitWriteCapacity(60_000)) {
                            throw new IllegalStateException("no room in the memtable budget for a minute");
                        }
                        store.apply("bench", new WalPosition(0, cts), versions);
                        horizon.set(cts);
                        commits++;
                    }
                }
                double elapsed = (System.nanoTime() - started) / 1e9;
                long count = young.getCollectionCount() - count0;
                long time = young.getCollectionTime() - time0;
                line = String.format(Locale.ROOT, "%s,%d,%d,%.1f,%d,%.0f,%d,%.2f,%.1f", mode, keys, writes, elapsed, commits,
                        commits / elapsed, count, count == 0 ? 0.0 : time / (double) count, time / elapsed);
                System.out.printf(Locale.ROOT, "mode %s: %d keys loaded, %d versions a commit: %,.0f commits/s; young collections %d,"
                        + " mean pause %.2f ms, paused %.1f ms a second%n", mode, keys, writes, commits / elapsed, count,
                        count == 0 ? 0.0 : time / (double) count, time / elapsed);
            } finally {
                store.close();
            }
        } finally {
            maintenance.shutdown();
            maintenance.awaitTermination(1, TimeUnit.MINUTES);
            ResultFiles.deleteTree(dir);
        }
        Files.createDirectories(out);
        Path csv = out.resolve("memtable-gc.csv");
        if (!Files.exists(csv)) {
            Files.writeString(csv, "mode,keys,writes_per_commit,seconds,commits,commits_per_s,young_collections,mean_pause_ms,paused_ms_per_s\n");
        }
        Files.writeString(csv, line + "\n", StandardOpenOption.APPEND);
        System.out.println("appended to " + csv);
    }

    private static GarbageCollectorMXBean youngCollector() {
        for (GarbageCollectorMXBean b : ManagementFactory.getGarbageCollectorMXBeans()) {
            if (b.getName().contains("Young") || b.getName().equals("Copy") || b.getName().equals("PS Scavenge")) {
                return b;
            }
        }
        throw new IllegalStateException("no young collector among " + ManagementFactory.getGarbageCollectorMXBeans());
    }

    /** A storage key as an OTM makes them: two bytes of table id, then the row's key. */
    static byte[] key(int table, int id) {
        return new byte[] {(byte) (table >>> 8), (byte) table, 1, (byte) (id >>> 24), (byte) (id >>> 16), (byte) (id >>> 8),
            (byte) id};
    }
}
