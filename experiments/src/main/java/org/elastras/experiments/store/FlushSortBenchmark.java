package org.elastras.experiments.store;

import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;
import org.elastras.storage.store.KeySort;
import org.elastras.storage.store.Version;

/**
 * What a flush's sort of a memtable's unordered keys costs: the comparator sort of the holders a
 * flush used until session 29 ({@code Arrays.sort} comparing their keys) against {@link KeySort},
 * on the same holders in the same run. The holders are made as an OTM's memtable gets them under
 * TPC-C, one warehouse per partition: keys of STOCK (random items), ORDERS, NEW_ORDER and HISTORY
 * (growing ids in ten districts) arrive interleaved, each holder allocated with its key and a
 * value, so holders and keys lie scattered over the heap as they do there, and are listed in no
 * key order, as the memtable's hash table lists them. Each round sorts a fresh copy of that list
 * both ways (which goes first alternates); single thread; prints ms per
 * sort and ns per key, and writes {@code flush-sort.csv} and {@code summary.txt}. Not a test.
 *
 * <p>Usage: {@code FlushSortBenchmark [--keys N] [--rounds R] [--out DIR]}.
 */
public final class FlushSortBenchmark {

    /** A memtable holder: its key and what else it keeps alive next to it. */
    private record Holder(byte[] key, byte[] value) {
    }

    private FlushSortBenchmark() {
    }

    public static void main(String[] args) throws Exception {
        int keys = 500_000;
        int rounds = 8;
        Path out = Paths.get("experiments", "results", "flush-sort");
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--keys" -> keys = Integer.parseInt(args[++i]);
                case "--rounds" -> rounds = Integer.parseInt(args[++i]);
                case "--out" -> out = Paths.get(args[++i]);
                default -> throw new IllegalArgumentException("unknown argument " + args[i]
                        + "; usage: FlushSortBenchmark [--keys N] [--rounds R] [--out DIR]");
            }
        }
        Holder[] arrival = holders(keys, new SplittableRandom(29));
        List<double[]> byRound = new ArrayList<>();
        for (int r = 0; r < rounds; r++) {
            double[] ms = new double[2];
            for (int k = 0; k < 2; k++) {
                boolean keySort = (r + k) % 2 == 1;
                Holder[] copy = arrival.clone();
                long started = System.nanoTime();
                if (keySort) {
                    KeySort.sort(copy, Holder::key);
                } else {
                    Arrays.sort(copy, (a, b) -> Version.compareKeys(a.key(), b.key()));
                }
                ms[keySort ? 1 : 0] = (System.nanoTime() - started) / 1e6;
                checkSorted(copy);
            }
            byRound.add(ms);
            System.out.printf(Locale.ROOT, "round %d: comparator sort %.1f ms, KeySort %.1f ms (%d keys)%n", r + 1, ms[0],
                    ms[1], keys);
        }
        // The first two rounds warm the JIT: left out of the medians.
        double[] comparator = byRound.stream().skip(2).mapToDouble(x -> x[0]).sorted().toArray();
        double[] keySort = byRound.stream().skip(2).mapToDouble(x -> x[1]).sorted().toArray();
        double c = comparator[comparator.length / 2];
        double s = keySort[keySort.length / 2];
        String summary = String.format(Locale.ROOT, "median over rounds 3-%d, %d keys: comparator sort %.1f ms (%.0f ns a key),"
                + " KeySort %.1f ms (%.0f ns a key), %.2fx%n", rounds, keys, c, c * 1e6 / keys, s, s * 1e6 / keys, c / s);
        System.out.print(summary);
        Files.createDirectories(out);
        StringBuilder csv = new StringBuilder("round,keys,comparator_sort_ms,key_sort_ms\n");
        for (int r = 0; r < byRound.size(); r++) {
            csv.append(String.format(Locale.ROOT, "%d,%d,%.2f,%.2f%n", r + 1, keys, byRound.get(r)[0], byRound.get(r)[1]));
        }
        Files.writeString(out.resolve("flush-sort.csv"), csv.toString());
        Files.writeString(out.resolve("summary.txt"), summary);
        System.out.println("wrote " + out.resolve("flush-sort.csv"));
    }

    /** {@code n} holders of distinct TPC-C-like storage keys in arrival order. */
    private static Holder[] holders(int n, SplittableRandom random) {
        Holder[] out = new Holder[n];
        java.util.Set<ByteBuffer> seen = new java.util.HashSet<>(n * 2);
        int[] nextOrder = new int[10];
        long history = 0;
        int made = 0;
        while (made < n) {
            byte[] key;
            int kind = random.nextInt(4);
            int district = random.nextInt(10);
            if (kind == 0) {
                key = key(10, 1, 1 + random.nextInt(100_000)); // STOCK (w, i)
            } else if (kind == 1) {
                key = key(7, 1, district, ++nextOrder[district] + 3_000); // ORDERS (w, d, o)
            } else if (kind == 2) {
                key = key(6, 1, district, nextOrder[district] + 3_000); // NEW_ORDER (w, d, o)
            } else {
                key = key(5, 1, district, (int) (++history >>> 32), (int) history); // HISTORY (w, d, id as a long)
            }
            if (seen.add(ByteBuffer.wrap(key))) {
                out[made++] = new Holder(key, new byte[48 + random.nextInt(160)]);
            }
        }
        // A flush lists the unordered holders in its hash table's order: no key order left.
        for (int i = n - 1; i > 0; i--) {
            int j = random.nextInt(i + 1);
            Holder h = out[i];
            out[i] = out[j];
            out[j] = h;
        }
        return out;
    }

    /** A storage key: two bytes of table id, then INT columns as KeyCodec writes them (sign bit flipped). */
    private static byte[] key(int table, int... columns) {
        ByteBuffer b = ByteBuffer.allocate(2 + 4 * columns.length);
        b.putShort((short) table);
        for (int c : columns) {
            b.putInt(c ^ Integer.MIN_VALUE);
        }
        return b.array();
    }

    private static void checkSorted(Holder[] sorted) {
        for (int i = 1; i < sorted.length; i++) {
            if (Version.compareKeys(sorted[i - 1].key(), sorted[i].key()) >= 0) {
                throw new IllegalStateException("not in key order at " + i);
            }
        }
    }
}
