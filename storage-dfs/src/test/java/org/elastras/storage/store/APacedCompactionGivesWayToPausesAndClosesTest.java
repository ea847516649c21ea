package org.elastras.storage.store;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.elastras.storage.dfs.Dfs;
import org.elastras.storage.dfs.LocalDfs;
import org.elastras.storage.sstable.BlockCache;
import org.elastras.storage.sstable.SsTableOptions;
import org.elastras.storage.util.StorageLimits;
import org.elastras.storage.wal.WalPosition;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A background compaction runs on the compaction executor at its duty cycle. One paced to rest for
 * seconds is given up at once when a live move pauses the store's maintenance or the store closes:
 * the pause and the close do not wait for it, it leaves no table file behind and changes no table.
 * One paced at half a core completes and merges the tables.
 */
class APacedCompactionGivesWayToPausesAndClosesTest {

    @TempDir
    Path temp;

    private static final int TABLES = 4;
    private static final int KEYS = 10_000;
    /** Above every CTS written: a compaction keeps a key's newest version only. */
    private static final long HORIZON = 1L << 40;
    private final ExecutorService compactions = Executors.newSingleThreadExecutor();

    @AfterEach
    void stop() {
        compactions.shutdownNow();
    }

    private PartitionStore storeWithFourTables(Dfs dfs, double dutyCycle) throws Exception {
        StoreEnvironment env = new StoreEnvironment(new BlockCache(1L << 20), null, compactions, dutyCycle, () -> HORIZON,
                key -> false, () -> System.nanoTime() / 1_000_000, MemtableBudget.unbounded());
        StoreOptions options = new StoreOptions(1L << 30, 8, TABLES, new SsTableOptions(4096, 8, 10), StorageLimits.DEFAULT);
        PartitionStore store = PartitionStore.open(dfs, "p", options, env);
        store.finishRecovery(new TestWalCursor("w", WalPosition.START));
        long cts = 0;
        for (int t = 0; t < TABLES; t++) {
            for (int k = 0; k < KEYS; k++) {
                cts++;
                store.apply("w", new WalPosition(0, cts), List.of(new Version(key(k), cts, value(k, t))));
            }
            store.flush(); // the last one makes a compaction due: scheduled on the compaction executor
        }
        return store;
    }

    /** Waits until the compaction executor has run what was queued before this call. */
    private boolean compactionsIdleWithin(long ms) throws InterruptedException {
        CountDownLatch idle = new CountDownLatch(1);
        compactions.execute(idle::countDown);
        return idle.await(ms, TimeUnit.MILLISECONDS);
    }

    @Test
    void aPauseGivesUpACompactionResting() throws Exception {
        try (Dfs dfs = LocalDfs.open(temp)) {
            // A thousandth of a core: 5 ms of work, then a rest of about 5 s.
            PartitionStore store = storeWithFourTables(dfs, 0.001);
            Thread.sleep(300); // the compaction merges its first slice and rests
            long started = System.nanoTime();
            store.pauseMaintenance();
            long pauseMs = (System.nanoTime() - started) / 1_000_000;
            assertTrue(pauseMs < 2_000, "the pause waited " + pauseMs + " ms for the compaction");
            assertTrue(compactionsIdleWithin(2_000), "the compaction did not give up");
            StoreStats stats = store.stats();
            assertEquals(TABLES, stats.tables(), "the compaction was to be under way when the pause came");
            assertEquals(0, stats.compactions());
            assertOnlyTheManifestsTablesAreOnTheDfs(dfs, store);
            assertEveryKeyReadsItsLastValue(store);
            store.close();
        }
    }

    @Test
    void aCloseGivesUpACompactionRestingAndTheNextOwnerFindsTheTablesAsTheyWere() throws Exception {
        try (Dfs dfs = LocalDfs.open(temp)) {
            PartitionStore store = storeWithFourTables(dfs, 0.001);
            Thread.sleep(300);
            store.close();
            assertTrue(compactionsIdleWithin(2_000), "the compaction did not give up when the store closed");
            assertEquals(0, store.stats().compactions());
            PartitionStore reopened = PartitionStore.open(dfs, "p",
                    new StoreOptions(1L << 30, 8, 1000, new SsTableOptions(4096, 8, 10), StorageLimits.DEFAULT),
                    new StoreEnvironment(new BlockCache(1L << 20), null, () -> 0));
            reopened.finishRecovery(new TestWalCursor("w", WalPosition.START));
            assertEquals(TABLES, reopened.stats().tables());
            assertOnlyTheManifestsTablesAreOnTheDfs(dfs, reopened);
            assertEveryKeyReadsItsLastValue(reopened);
            reopened.close();
        }
    }

    @Test
    void aCompactionAtHalfACoreMergesTheTables() throws Exception {
        try (Dfs dfs = LocalDfs.open(temp)) {
            PartitionStore store = storeWithFourTables(dfs, 0.5);
            assertTrue(compactionsIdleWithin(60_000), "the compaction did not end");
            StoreStats stats = store.stats();
            assertEquals(1, stats.compactions());
            assertEquals(1, stats.tables());
            assertEquals(KEYS, stats.tableEntries(), "the merged table keeps one version a key");
            assertOnlyTheManifestsTablesAreOnTheDfs(dfs, store);
            assertEveryKeyReadsItsLastValue(store);
            store.close();
        }
    }

    private static void assertOnlyTheManifestsTablesAreOnTheDfs(Dfs dfs, PartitionStore store) throws Exception {
        long tableFiles = dfs.list("p").stream().filter(n -> n.endsWith(".sst")).count();
        assertEquals(store.manifest().tables().size(), tableFiles, "table files on the DFS: " + dfs.list("p"));
    }

    private static void assertEveryKeyReadsItsLastValue(PartitionStore store) throws Exception {
        for (int k = 0; k < KEYS; k += 97) {
            assertArrayEquals(value(k, TABLES - 1), store.get(key(k), Long.MAX_VALUE - 1), "key " + k);
        }
    }

    private static byte[] key(int k) {
        return String.format("key-%06d", k).getBytes(StandardCharsets.UTF_8);
    }

    private static byte[] value(int k, int round) {
        return ("value-" + k + "-" + round + "-" + "x".repeat(60)).getBytes(StandardCharsets.UTF_8);
    }
}
