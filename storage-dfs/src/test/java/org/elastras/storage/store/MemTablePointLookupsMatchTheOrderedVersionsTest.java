package org.elastras.storage.store;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.elastras.storage.dfs.MemoryDfs;
import org.elastras.storage.sstable.BlockCache;
import org.elastras.storage.util.CloseableIterator;
import org.elastras.storage.wal.WalPosition;
import org.junit.jupiter.api.Test;

/**
 * The memtable's hash index answers every point lookup exactly as a seek in its ordered versions
 * would, and its scans yield every version in {@link Version#ORDER}, whatever order the versions
 * arrive in and however many threads add them; and
 * {@link PartitionStore#getVersionNewerThan} finds exactly the versions between two timestamps,
 * in memtables and SSTables.
 */
class MemTablePointLookupsMatchTheOrderedVersionsTest {

    private static final long SEED = 20261122L;

    private static byte[] key(int i) {
        return ("k" + i).getBytes(StandardCharsets.UTF_8);
    }

    /** What a seek in the ordered versions answers: the first version at or after (key, snapshot). */
    private static Version seek(MemTable m, byte[] key, long snapshot) {
        try (CloseableIterator<Version> it = m.scan(key)) {
            while (it.hasNext()) {
                Version v = it.next();
                if (Version.compareKeys(v.key(), key) != 0) {
                    return null;
                }
                if (v.cts() <= snapshot) {
                    return v;
                }
            }
        }
        return null;
    }

    @Test
    void lookupsMatchSeeksForVersionsAddedInAnyOrderByManyThreads() throws Exception {
        Random random = new Random(SEED);
        int keys = 50;
        List<Version> all = new ArrayList<>();
        TreeMap<String, TreeMap<Long, Version>> model = new TreeMap<>();
        for (int k = 0; k < keys; k++) {
            int versions = 1 + random.nextInt(k % 10 == 0 ? 200 : 8);
            List<Long> ctss = new ArrayList<>();
            for (long c = 1; c <= versions * 3L; c++) {
                ctss.add(c);
            }
            Collections.shuffle(ctss, random);
            for (int v = 0; v < versions; v++) {
                long cts = ctss.get(v);
                Version version = random.nextInt(5) == 0 ? Version.tombstone(key(k), cts)
                        : new Version(key(k), cts, ("v" + k + "@" + cts).getBytes(StandardCharsets.UTF_8));
                all.add(version);
                model.computeIfAbsent("k" + k, x -> new TreeMap<>()).put(cts, version);
            }
        }
        Collections.shuffle(all, random);
        MemTable m = new MemTable();
        int threads = 4;
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            List<Future<?>> done = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                final int slice = t;
                done.add(pool.submit(() -> {
                    for (int i = slice; i < all.size(); i += threads) {
                        assertTrue(m.add(all.get(i)));
                    }
                }));
            }
            for (Future<?> f : done) {
                f.get(30, TimeUnit.SECONDS);
            }
        } finally {
            pool.shutdownNow();
        }
        assertEquals(all.size(), m.versionCount());
        List<Version> ordered = new ArrayList<>(all);
        ordered.sort(Version.ORDER);
        assertFalse(m.isOrdered(), "no scan yet: the keys are not ordered");
        assertEquals(ordered, drain(m.sortedScan()), "a flush's scan sorts the keys once");
        assertFalse(m.isOrdered(), "and keeps no order");
        assertEquals(ordered, drain(m.scan(null)), "a scan yields every version in key, then CTS-descending order");
        assertTrue(m.isOrdered());
        assertEquals(ordered, drain(m.sortedScan()), "through the order a scan built");
        List<Version> fromMiddle = ordered.stream().filter(v -> Version.compareKeys(v.key(), key(25)) >= 0).toList();
        assertEquals(fromMiddle, drain(m.scan(key(25))));
        for (int k = 0; k < keys + 2; k++) {
            TreeMap<Long, Version> versions = model.getOrDefault("k" + k, new TreeMap<>());
            for (long snapshot = 0; snapshot <= 700; snapshot++) {
                var floor = versions.floorEntry(snapshot);
                Version expected = floor == null ? null : floor.getValue();
                Version got = m.get(key(k), snapshot);
                assertEquals(expected, got, "k" + k + " at " + snapshot);
                assertEquals(seek(m, key(k), snapshot), got, "index and ordered set agree on k" + k + " at " + snapshot);
            }
        }
    }

    /**
     * Writers keep adding new keys while the first scan orders the memtable: every scan started
     * after a version was added yields it, and once the writers stop, the order holds every key.
     */
    @Test
    void theFirstScanOrdersTheKeysWhileWritersAddNewOnesAndMissesNone() throws Exception {
        for (int round = 0; round < 20; round++) {
            MemTable m = new MemTable();
            int writers = 3;
            int perWriter = 3_000;
            java.util.concurrent.atomic.AtomicIntegerArray added = new java.util.concurrent.atomic.AtomicIntegerArray(writers);
            ExecutorService pool = Executors.newFixedThreadPool(writers + 1);
            try {
                List<Future<?>> done = new ArrayList<>();
                for (int w = 0; w < writers; w++) {
                    final int writer = w;
                    done.add(pool.submit(() -> {
                        for (int i = 0; i < perWriter; i++) {
                            assertTrue(m.add(new Version(key(writer * 1_000_000 + i), 1, new byte[] {1})));
                            added.set(writer, i + 1);
                        }
                    }));
                }
                Future<?> scanner = pool.submit(() -> {
                    for (int scans = 0; scans < 30; scans++) {
                        int[] before = new int[writers];
                        for (int w = 0; w < writers; w++) {
                            before[w] = added.get(w);
                        }
                        java.util.Set<String> seen = new java.util.HashSet<>();
                        for (Version v : drain(m.scan(null))) {
                            seen.add(new String(v.key(), StandardCharsets.UTF_8));
                        }
                        for (int w = 0; w < writers; w++) {
                            for (int i = 0; i < before[w]; i++) {
                                String k = "k" + (w * 1_000_000 + i);
                                assertTrue(seen.contains(k), () -> "a scan missed " + k + ", added before it started");
                            }
                        }
                    }
                });
                for (Future<?> f : done) {
                    f.get(60, TimeUnit.SECONDS);
                }
                scanner.get(60, TimeUnit.SECONDS);
            } finally {
                pool.shutdownNow();
            }
            assertEquals(writers * perWriter, drain(m.scan(null)).size(), "round " + round);
            assertEquals(drain(m.scan(null)), drain(m.sortedScan()));
        }
    }

    /**
     * Writers of the same new keys (each its own CTSs) race each other and scans of an ordered
     * memtable: a version added to a holder another writer created is still in every scan that
     * started after it was added, even if the creating writer has not returned yet.
     */
    @Test
    void aVersionAddedToAHolderAnotherWriterCreatedIsInEveryLaterScan() throws Exception {
        for (int round = 0; round < 20; round++) {
            MemTable m = new MemTable();
            drain(m.scan(null)); // ordered from the start: every new key is ordered by its writers
            int writers = 3;
            int keys = 3_000;
            java.util.concurrent.atomic.AtomicIntegerArray added = new java.util.concurrent.atomic.AtomicIntegerArray(writers);
            ExecutorService pool = Executors.newFixedThreadPool(writers + 1);
            try {
                List<Future<?>> done = new ArrayList<>();
                for (int w = 0; w < writers; w++) {
                    final int writer = w;
                    done.add(pool.submit(() -> {
                        for (int i = 0; i < keys; i++) {
                            assertTrue(m.add(new Version(key(i), writer + 1, new byte[] {(byte) writer})));
                            added.set(writer, i + 1);
                        }
                    }));
                }
                Future<?> scanner = pool.submit(() -> {
                    for (int scans = 0; scans < 30; scans++) {
                        int[] before = new int[writers];
                        for (int w = 0; w < writers; w++) {
                            before[w] = added.get(w);
                        }
                        java.util.Set<String> seen = new java.util.HashSet<>();
                        for (Version v : drain(m.scan(null))) {
                            seen.add(new String(v.key(), StandardCharsets.UTF_8) + "@" + v.cts());
                        }
                        for (int w = 0; w < writers; w++) {
                            for (int i = 0; i < before[w]; i++) {
                                String version = "k" + i + "@" + (w + 1);
                                assertTrue(seen.contains(version), () -> "a scan missed " + version + ", added before it started");
                            }
                        }
                    }
                });
                for (Future<?> f : done) {
                    f.get(60, TimeUnit.SECONDS);
                }
                scanner.get(60, TimeUnit.SECONDS);
            } finally {
                pool.shutdownNow();
            }
            assertEquals(writers * keys, drain(m.scan(null)).size(), "round " + round);
        }
    }

    private static List<Version> drain(CloseableIterator<Version> it) {
        List<Version> out = new ArrayList<>();
        try (it) {
            it.forEachRemaining(out::add);
        }
        return out;
    }

    @Test
    void aRepeatedVersionIsANoOpAndAConflictingOneIsABug() {
        MemTable m = new MemTable();
        Version v = new Version(key(1), 7, new byte[] {1});
        assertTrue(m.add(v));
        assertFalse(m.add(new Version(key(1), 7, new byte[] {1})));
        assertThrows(IllegalStateException.class, () -> m.add(new Version(key(1), 7, new byte[] {2})));
        // Reads get copies of the records (VersionArena): equal to the first, not the conflicting one.
        assertEquals(v, m.get(key(1), 7));
        assertNull(m.get(key(1), 6));
        assertNull(m.get(key(2), 100));
    }

    @Test
    void versionsNewerThanASnapshotAreFoundInMemtablesAndTables() throws IOException {
        StoreEnvironment env = new StoreEnvironment(new BlockCache(1 << 20), null, () -> 0);
        PartitionStore store = PartitionStore.open(new MemoryDfs(), "p", StoreOptions.DEFAULT, env);
        store.finishRecovery(new TestWalCursor("w", WalPosition.START));
        byte[] a = key(1);
        byte[] b = key(2);
        store.apply("w", new WalPosition(1, 0), List.of(new Version(a, 5, new byte[] {5}), new Version(b, 3, new byte[] {3})));
        store.flush(); // a@5 and b@3 now live in an SSTable
        store.apply("w", new WalPosition(1, 10), List.of(new Version(a, 10, new byte[] {10})));

        assertEquals(10, store.getVersionNewerThan(a, 5, 20).cts(), "in the memtable");
        assertNull(store.getVersionNewerThan(a, 10, 20));
        assertEquals(5, store.getVersionNewerThan(a, 3, 9).cts(), "in the SSTable, the memtable's one is too new");
        assertArrayEquals(new byte[] {5}, store.getVersionNewerThan(a, 4, 9).value());
        assertNull(store.getVersionNewerThan(a, 5, 9));
        assertNull(store.getVersionNewerThan(a, 4, 4), "an empty interval holds nothing");
        assertEquals(3, store.getVersionNewerThan(b, 2, 100).cts());
        assertNull(store.getVersionNewerThan(b, 3, 100));
        assertNull(store.getVersionNewerThan(key(3), 0, 100));
        store.close();
    }
}
