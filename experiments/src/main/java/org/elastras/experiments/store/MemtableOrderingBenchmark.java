package org.elastras.experiments.store;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
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
import org.elastras.storage.util.CloseableIterator;
import org.elastras.storage.wal.WalPosition;

/**
 * What ordering the memtable's keys costs writers, TPC-C's way: each "New-Order" adds 10 new keys
 * to a table that scans read (ORDER_LINE) and 12 to tables no scan reads (STOCK's first updates,
 * ORDERS, NEW_ORDER), into one partition store's memtable. Two modes alternate on fresh stores in
 * one run: a scan of the scanned table alone before the inserts (the memtable then orders that
 * table only, as since session 23), and a scan of the whole store (every table ordered: what any
 * first scan did before). Single thread; prints ns per new key and writes
 * {@code memtable-ordering.csv}. Not a test.
 *
 * <p>Usage: {@code MemtableOrderingBenchmark [--orders N] [--rounds R] [--out DIR]}.
 */
public final class MemtableOrderingBenchmark {

    private static final int SCANNED_TABLE = 9;
    private static final int[] UNSCANNED_TABLES = {3, 5, 7};
    private static final byte[] VALUE = new byte[120];

    private MemtableOrderingBenchmark() {
    }

    public static void main(String[] args) throws Exception {
        int orders = 50_000;
        int rounds = 6;
        Path out = Paths.get("experiments", "results", "memtable-ordering");
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--orders" -> orders = Integer.parseInt(args[++i]);
                case "--rounds" -> rounds = Integer.parseInt(args[++i]);
                case "--out" -> out = Paths.get(args[++i]);
                default -> throw new IllegalArgumentException("unknown argument " + args[i]
                        + "; usage: MemtableOrderingBenchmark [--orders N] [--rounds R] [--out DIR]");
            }
        }
        Path dir = Files.createTempDirectory("elastras-ordering-bench");
        List<double[]> byRound = new ArrayList<>();
        try (Dfs dfs = LocalDfs.open(dir)) {
            for (int r = 0; r < rounds; r++) {
                double[] ns = new double[2];
                // Alternate which mode goes first, so that neither always meets the other's garbage.
                for (int k = 0; k < 2; k++) {
                    boolean wholeStore = (r + k) % 2 == 1;
                    ns[wholeStore ? 1 : 0] = run(dfs, "data/bench/r" + r + (wholeStore ? "all" : "one"), orders, wholeStore);
                }
                byRound.add(ns);
                System.out.printf(Locale.ROOT, "round %d: scanned table ordered alone %.0f ns a new key, every table ordered %.0f ns%n",
                        r + 1, ns[0], ns[1]);
            }
        } finally {
            ResultFiles.deleteTree(dir);
        }
        // The first round warms the JIT: left out of the medians.
        double[] one = byRound.stream().skip(1).mapToDouble(x -> x[0]).sorted().toArray();
        double[] all = byRound.stream().skip(1).mapToDouble(x -> x[1]).sorted().toArray();
        String summary = String.format(Locale.ROOT, "median over rounds 2-%d: scanned table ordered alone %.0f ns a new key,"
                + " every table ordered %.0f ns (%d orders of 22 new keys a round)%n", rounds, one[one.length / 2],
                all[all.length / 2], orders);
        System.out.print(summary);
        Files.createDirectories(out);
        StringBuilder csv = new StringBuilder("round,scanned_table_alone_ns_per_key,every_table_ns_per_key\n");
        for (int r = 0; r < byRound.size(); r++) {
            csv.append(String.format(Locale.ROOT, "%d,%.1f,%.1f%n", r + 1, byRound.get(r)[0], byRound.get(r)[1]));
        }
        Files.writeString(out.resolve("memtable-ordering.csv"), csv.toString());
        Files.writeString(out.resolve("summary.txt"), summary);
        System.out.println("wrote " + out.resolve("memtable-ordering.csv"));
    }

    /** Inserts {@code orders} orders' new keys after the first scan; returns ns per new key. */
    private static double run(Dfs dfs, String path, int orders, boolean wholeStore) throws IOException {
        PartitionStore store = PartitionStore.open(dfs, path, StoreOptions.DEFAULT.withMemtableBytesMax(1L << 30),
                new StoreEnvironment(new BlockCache(0), null, () -> 0));
        try {
            store.finishRecovery(WalCursor.fixed("bench", WalPosition.START));
            long cts = 1;
            store.apply("bench", new WalPosition(0, cts), List.of(new Version(key(SCANNED_TABLE, 0, 0), cts, VALUE)));
            byte[] from = wholeStore ? null : table(SCANNED_TABLE);
            byte[] to = wholeStore ? null : table(SCANNED_TABLE + 1);
            try (CloseableIterator<Version> scan = store.scan(from, to, Long.MAX_VALUE - 1, 10)) {
                if (!scan.hasNext()) {
                    throw new IllegalStateException("the first scan found nothing");
                }
            }
            SplittableRandom random = new SplittableRandom(42);
            List<Version> versions = new ArrayList<>(22);
            long started = System.nanoTime();
            for (int o = 1; o <= orders; o++) {
                versions.clear();
                cts++;
                for (int line = 1; line <= 10; line++) {
                    versions.add(new Version(key(SCANNED_TABLE, o, line), cts, VALUE));
                }
                for (int i = 0; i < 10; i++) {
                    versions.add(new Version(key(UNSCANNED_TABLES[0], random.nextInt(1 << 30), i), cts, VALUE));
                }
                versions.add(new Version(key(UNSCANNED_TABLES[1], o, 0), cts, VALUE));
                versions.add(new Version(key(UNSCANNED_TABLES[2], o, 0), cts, VALUE));
                store.apply("bench", new WalPosition(0, cts), versions);
            }
            return (System.nanoTime() - started) / (orders * 22.0);
        } finally {
            store.close();
        }
    }

    private static byte[] table(int id) {
        return new byte[] {(byte) (id >>> 8), (byte) id};
    }

    /** A storage key as an OTM makes them: two bytes of table id, then the row's key. */
    private static byte[] key(int table, int a, int b) {
        return new byte[] {(byte) (table >>> 8), (byte) table, 1, (byte) (a >>> 24), (byte) (a >>> 16), (byte) (a >>> 8),
            (byte) a, (byte) (b >>> 8), (byte) b};
    }
}
