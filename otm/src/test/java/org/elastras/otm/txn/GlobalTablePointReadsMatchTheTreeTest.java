package org.elastras.otm.txn;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Random;
import java.util.TreeMap;
import org.elastras.catalog.key.KeyBytes;
import org.junit.jupiter.api.Test;

/**
 * A published global table answers point reads from its hash index exactly as its key-ordered
 * rows would: every key present finds its own row, keys absent (between, before, after the
 * present ones, of other lengths, prefixes of present keys) find none, at every size from empty
 * to one that wraps the probe sequence around the end of the index.
 */
class GlobalTablePointReadsMatchTheTreeTest {

    private static TreeMap<byte[], List<Object>> rows(int n, Random random) {
        TreeMap<byte[], List<Object>> rows = new TreeMap<>(KeyBytes::compare);
        while (rows.size() < n) {
            byte[] key = new byte[1 + random.nextInt(6)];
            random.nextBytes(key);
            rows.put(key, List.of(rows.size(), KeyBytes.toHex(key)));
        }
        return rows;
    }

    @Test
    void everyPresentKeyFindsItsRowAndNoAbsentKeyFindsOne() {
        Random random = new Random(7);
        for (int n : new int[] {0, 1, 2, 3, 17, 1_000, 100_000}) {
            TreeMap<byte[], List<Object>> rows = rows(n, random);
            GlobalTables.Published table = new GlobalTables.Published(java.util.Collections.unmodifiableNavigableMap(rows));
            for (var e : rows.entrySet()) {
                assertSame(e.getValue(), table.get(e.getKey().clone()), "present key " + KeyBytes.toHex(e.getKey()) + " of " + n);
                byte[] prefix = java.util.Arrays.copyOf(e.getKey(), e.getKey().length - 1);
                assertEquals(rows.get(prefix), table.get(prefix), "prefix of a present key, table of " + n);
            }
            for (int i = 0; i < 20_000; i++) {
                byte[] probe = new byte[random.nextInt(8)];
                random.nextBytes(probe);
                assertEquals(rows.get(probe), table.get(probe), "probe " + KeyBytes.toHex(probe) + ", table of " + n);
            }
            assertNull(table.get(new byte[] {1, 2, 3, 4, 5, 6, 7, 8, 9}), "a key longer than any present, table of " + n);
        }
    }

    @Test
    void sequentialKeysAsTpccItemIdsEncodeAreAllFound() {
        TreeMap<byte[], List<Object>> rows = new TreeMap<>(KeyBytes::compare);
        for (int id = 1; id <= 100_000; id++) {
            rows.put(new byte[] {(byte) 0x80, (byte) (id >>> 16), (byte) (id >>> 8), (byte) id}, List.of(id));
        }
        GlobalTables.Published table = new GlobalTables.Published(rows);
        for (int id = 1; id <= 100_000; id++) {
            assertEquals(List.of(id), table.get(new byte[] {(byte) 0x80, (byte) (id >>> 16), (byte) (id >>> 8), (byte) id}));
        }
        assertNull(table.get(new byte[] {(byte) 0x80, 0, 0, 0}));
        assertNull(table.get(new byte[] {(byte) 0x80, 1, (byte) 0x86, (byte) 0xA1}), "item 100,001");
        // Keys that differ in two bytes must not share hashes in runs (Arrays.hashCode's base 31
        // gave 100,000 item keys ~10,000 hashes, and reads probed 40+ slots).
        assertTrue(table.longestProbe() <= 24, "longest probe " + table.longestProbe() + " slots");
    }
}
