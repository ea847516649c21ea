package org.elastras.storage.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicIntegerArray;
import org.elastras.storage.util.CloseableIterator;
import org.junit.jupiter.api.Test;

/**
 * A memtable orders its keys by group (their first two bytes, as an OTM's table id): a scan orders
 * only the groups its range covers, writers keep those ordered, and scans and the flush's sorted
 * scan still yield exactly the versions of their range in {@link Version#ORDER}.
 */
class MemTableOrdersOnlyTheGroupsScansReadTest {

    private static final long SEED = 20261128L;

    /** A key of "table" {@code table}: two bytes of table id, then {@code rest}. */
    private static byte[] key(int table, int rest) {
        return new byte[] {(byte) (table >>> 8), (byte) table, (byte) (rest >>> 16), (byte) (rest >>> 8), (byte) rest};
    }

    private static byte[] tableStart(int table) {
        return new byte[] {(byte) (table >>> 8), (byte) table};
    }

    @Test
    void groupsFollowKeyOrderAndAnExclusiveEndAtAGroupsFirstKeyLeavesThatGroupOut() {
        Random random = new Random(SEED);
        List<byte[]> keys = new ArrayList<>();
        keys.add(new byte[0]);
        for (int i = 0; i < 2_000; i++) {
            byte[] k = new byte[random.nextInt(4)];
            for (int j = 0; j < k.length; j++) {
                k[j] = (byte) (random.nextInt(3) == 0 ? 0 : random.nextInt(256));
            }
            keys.add(k);
        }
        keys.sort(Version::compareKeys);
        for (int i = 1; i < keys.size(); i++) {
            assertTrue(MemTable.group(keys.get(i - 1)) <= MemTable.group(keys.get(i)), "groups follow key order");
        }
        for (byte[] to : keys) {
            int last = MemTable.lastGroupBelow(to);
            for (byte[] k : keys) {
                if (Version.compareKeys(k, to) < 0) {
                    assertTrue(MemTable.group(k) <= last, "a key below the end is in a group up to the last");
                }
            }
            if (last >= 0 && last < MemTable.group(to)) {
                // The end is its group's first key: no key of the group is below it.
                assertTrue(keys.stream().noneMatch(k -> MemTable.group(k) == MemTable.group(to) && Version.compareKeys(k, to) < 0));
            }
        }
        assertEquals(0x0101, MemTable.lastGroupBelow(tableStart(0x0102)));
        assertEquals(0x0200, MemTable.lastGroupBelow(new byte[] {2, 1}), "[2, 0] and [2] are below [2, 1]");
        assertEquals(0x01FF, MemTable.lastGroupBelow(new byte[] {2}));
        assertEquals(0x0200, MemTable.lastGroupBelow(new byte[] {2, 0}), "[2] is below [2, 0]");
        assertEquals(-1, MemTable.lastGroupBelow(new byte[0]));
        assertEquals(0, MemTable.lastGroupBelow(new byte[] {0}), "[] is below [0]");
    }

    @Test
    void aScanOfOneTableOrdersThatTableAloneAndEveryRangeReadsItsVersionsInOrder() {
        Random random = new Random(SEED);
        MemTable m = new MemTable();
        List<Version> all = new ArrayList<>();
        for (int i = 0; i < 3_000; i++) {
            int table = 1 + random.nextInt(4);
            Version v = new Version(key(table, random.nextInt(500)), 1 + i, new byte[] {(byte) i});
            all.add(v);
            assertTrue(m.add(v));
        }
        List<Version> table2 = range(all, tableStart(2), tableStart(3));
        assertEquals(table2, drain(m.scan(tableStart(2), tableStart(3))));
        assertTrue(m.isOrdered(key(2, 0)));
        assertFalse(m.isOrdered(key(1, 0)) || m.isOrdered(key(3, 0)) || m.isOrdered(key(4, 0)),
                "a scan of table 2 that ends at table 3's first key orders table 2 only");
        assertFalse(m.isOrdered());

        // New keys of table 2 are ordered by their writers; of table 3, only hashed.
        Version late2 = new Version(key(2, 999_999), 10_000, new byte[] {1});
        Version late3 = new Version(key(3, 999_999), 10_001, new byte[] {1});
        assertTrue(m.add(late2));
        assertTrue(m.add(late3));
        all.add(late2);
        all.add(late3);
        assertEquals(range(all, tableStart(2), tableStart(3)), drain(m.scan(tableStart(2), tableStart(3))));
        assertFalse(m.isOrdered(key(3, 0)));
        assertEquals(sorted(all), drain(m.sortedScan()), "the flush merges the ordered table with the others sorted");

        // Ranges inside a table, across tables, empty ones; each orders what it covers.
        assertEquals(range(all, key(3, 100), key(3, 200)), drain(m.scan(key(3, 100), key(3, 200))));
        assertTrue(m.isOrdered(key(3, 0)));
        assertEquals(range(all, key(1, 250), key(4, 10)), drain(m.scan(key(1, 250), key(4, 10))));
        assertEquals(List.of(), drain(m.scan(key(4, 10), key(1, 250))));
        assertEquals(List.of(), drain(m.scan(key(2, 5), key(2, 5))));
        assertEquals(range(all, key(4, 300), null), drain(m.scan(key(4, 300), null)));
        assertTrue(m.isOrdered(), "a scan to the end covers more groups than are listed: all of them");
        assertEquals(sorted(all), drain(m.scan(null, null)));
        assertEquals(sorted(all), drain(m.sortedScan()));
    }

    /**
     * Writers add new keys to two tables while scanners read one of them, whose first scan orders
     * it meanwhile: every scan yields each version of its table added before it started; the
     * flush's sorted scan afterwards yields every version once, in order.
     */
    @Test
    void writersOfOrderedAndUnorderedTablesWhileTheFirstScansOrderOneMissNothingAndRepeatNothing() throws Exception {
        for (int round = 0; round < 20; round++) {
            MemTable m = new MemTable();
            int writers = 3;
            int perWriter = 20_000;
            AtomicIntegerArray added = new AtomicIntegerArray(writers);
            ExecutorService pool = Executors.newFixedThreadPool(writers + 1);
            try {
                List<Future<?>> done = new ArrayList<>();
                for (int w = 0; w < writers; w++) {
                    final int writer = w;
                    done.add(pool.submit(() -> {
                        for (int i = 0; i < perWriter; i++) {
                            // Even i into table 7, odd into table 8: one scanned, one not.
                            assertTrue(m.add(new Version(key(7 + i % 2, writer * 100_000 + i), 1, new byte[] {1})));
                            added.set(writer, i + 1);
                        }
                    }));
                }
                Future<?> scanner = pool.submit(() -> {
                    for (int scans = 0; scans < 20; scans++) {
                        int[] before = new int[writers];
                        for (int w = 0; w < writers; w++) {
                            before[w] = added.get(w);
                        }
                        Set<Integer> seen = new HashSet<>();
                        for (Version v : drain(m.scan(tableStart(7), tableStart(8)))) {
                            assertEquals(7, MemTable.group(v.key()), "only table 7 in its range");
                            assertTrue(seen.add(rest(v.key())), "once each");
                        }
                        for (int w = 0; w < writers; w++) {
                            for (int i = 0; i < before[w]; i += 2) {
                                int k = w * 100_000 + i;
                                assertTrue(seen.contains(k), () -> "a scan missed table 7's key " + k + ", added before it started");
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
            assertFalse(m.isOrdered(key(8, 0)), "round " + round);
            List<Version> flushed = drain(m.sortedScan());
            assertEquals(writers * perWriter, flushed.size(), "round " + round + ": every version once");
            List<Version> expected = new ArrayList<>(flushed);
            expected.sort(Version.ORDER);
            assertEquals(expected, flushed, "round " + round + ": in order");
            assertEquals(writers * perWriter / 2, drain(m.scan(tableStart(7), tableStart(8))).size(), "round " + round);
        }
    }

    private static int rest(byte[] key) {
        return (key[2] & 0xFF) << 16 | (key[3] & 0xFF) << 8 | (key[4] & 0xFF);
    }

    private static List<Version> range(List<Version> all, byte[] from, byte[] toExclusive) {
        return sorted(all.stream().filter(v -> Version.compareKeys(v.key(), from) >= 0
                && (toExclusive == null || Version.compareKeys(v.key(), toExclusive) < 0)).toList());
    }

    private static List<Version> sorted(List<Version> versions) {
        List<Version> out = new ArrayList<>(versions);
        out.sort(Version.ORDER);
        return out;
    }

    private static List<Version> drain(CloseableIterator<Version> it) {
        List<Version> out = new ArrayList<>();
        try (it) {
            it.forEachRemaining(out::add);
        }
        return out;
    }
}
