package org.elastras.storage.store;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.atomic.AtomicLong;
import org.elastras.storage.dfs.MemoryDfs;
import org.elastras.storage.sstable.BlockCache;
import org.elastras.storage.wal.WalPosition;
import org.junit.jupiter.api.Test;

/**
 * A flush writes, of each key's versions at or below the GC horizon, only the newest (tombstones
 * always): every read at a snapshot at or after the horizon answers as before the flush, and the
 * versions left out are counted.
 */
class AFlushWritesOnlyWhatSnapshotsFromTheHorizonSeeTest {

    private final AtomicLong horizon = new AtomicLong();
    private final StoreEnvironment env = new StoreEnvironment(new BlockCache(1 << 20), null, horizon::get);

    private static byte[] b(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    private PartitionStore openFresh() throws IOException {
        PartitionStore store = PartitionStore.open(new MemoryDfs(), "p", StoreOptions.DEFAULT, env);
        store.finishRecovery(new TestWalCursor("w", WalPosition.START));
        return store;
    }

    @Test
    void readsFromTheHorizonOnAnswerAsBeforeAndTheSupersededVersionsAreNotWritten() throws IOException {
        Random random = new Random(7);
        PartitionStore store = openFresh();
        int keys = 40;
        int commits = 600;
        long horizonCts = 400;
        // key -> its versions' CTSs at or below the horizon, to count what the flush may leave out.
        Map<Integer, Integer> atOrBelowHorizon = new HashMap<>();
        for (long cts = 1; cts <= commits; cts++) {
            int key = random.nextInt(keys);
            Version v = random.nextInt(10) == 0 ? Version.tombstone(b("k" + key), cts)
                    : new Version(b("k" + key), cts, b("v" + cts));
            store.apply("w", new WalPosition(1, cts), List.of(v));
            if (cts <= horizonCts) {
                atOrBelowHorizon.merge(key, 1, Integer::sum);
            }
        }
        List<String> before = readEverySnapshotFrom(store, keys, horizonCts, commits);
        horizon.set(horizonCts);

        assertTrue(store.flush());

        assertEquals(before, readEverySnapshotFrom(store, keys, horizonCts, commits));
        long superseded = atOrBelowHorizon.values().stream().mapToLong(n -> n - 1).sum();
        StoreStats stats = store.stats();
        assertTrue(superseded > 100, "the workload supersedes versions below the horizon: " + superseded);
        assertEquals(superseded, stats.versionsDroppedByFlush(), stats.toString());
        assertEquals(commits - superseded, stats.tableEntries(), stats.toString());
        store.close();
    }

    @Test
    void aTombstoneAtTheHorizonIsWrittenBecauseItHidesAnOlderTablesVersion() throws IOException {
        PartitionStore store = openFresh();
        store.apply("w", WalPosition.START, List.of(new Version(b("k"), 1, b("old"))));
        store.flush();
        store.apply("w", WalPosition.START, List.of(new Version(b("k"), 2, b("mid"))));
        store.apply("w", WalPosition.START, List.of(Version.tombstone(b("k"), 3)));
        store.apply("w", WalPosition.START, List.of(new Version(b("k"), 6, b("new"))));
        horizon.set(5);

        store.flush();

        assertEquals(1, store.stats().versionsDroppedByFlush(), "k@2 only: " + store.stats());
        assertNull(store.get(b("k"), 5), "the tombstone still hides k@1 of the older table");
        assertArrayEquals(b("new"), store.get(b("k"), 6));
        store.close();
    }

    @Test
    void withTheHorizonBelowEveryVersionNothingIsLeftOut() throws IOException {
        PartitionStore store = openFresh();
        for (long cts = 10; cts < 20; cts++) {
            store.apply("w", WalPosition.START, List.of(new Version(b("k"), cts, b("v" + cts))));
        }
        horizon.set(9);

        store.flush();

        assertEquals(0, store.stats().versionsDroppedByFlush());
        assertEquals(10, store.stats().tableEntries());
        for (long cts = 10; cts < 20; cts++) {
            assertArrayEquals(b("v" + cts), store.get(b("k"), cts), "k@" + cts);
        }
        store.close();
    }

    /** Every key's value at every snapshot from {@code fromCts} to one past {@code toCts}, as lines. */
    private static List<String> readEverySnapshotFrom(PartitionStore store, int keys, long fromCts, long toCts)
            throws IOException {
        List<String> out = new ArrayList<>();
        for (long snapshot = fromCts; snapshot <= toCts + 1; snapshot++) {
            for (int key = 0; key < keys; key++) {
                byte[] value = store.get(b("k" + key), snapshot);
                out.add(snapshot + " k" + key + "=" + (value == null ? "-" : new String(value, StandardCharsets.UTF_8)));
            }
        }
        return out;
    }
}
