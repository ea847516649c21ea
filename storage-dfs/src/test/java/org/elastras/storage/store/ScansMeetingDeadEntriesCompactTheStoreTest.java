package org.elastras.storage.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicLong;
import org.elastras.storage.dfs.MemoryDfs;
import org.elastras.storage.sstable.BlockCache;
import org.elastras.storage.util.CloseableIterator;
import org.elastras.storage.wal.WalPosition;
import org.junit.jupiter.api.Test;

/**
 * A queue-like table (rows inserted at the tail, consumed and deleted at the head, flushed often,
 * the GC horizon following the commits) scanned from its head with a small limit: the dead
 * entries those scans walk past make the store compact on its own, long before the table count
 * would, and every scan returns exactly the live rows throughout.
 */
class ScansMeetingDeadEntriesCompactTheStoreTest {

    private static final int BACKLOG_ROWS = 300;
    /** Rows inserted at the tail, and rows consumed at the head, per round (one flush a round). */
    private static final int ROWS_PER_ROUND = 200;
    private static final int ROUNDS = 24;
    private static final int SCANS_PER_ROUND = 3;
    private static final int SCAN_LIMIT = 10;
    private static final long INTERVAL_MS = 1_000;
    /** Far above the tables the run writes, so the ordinary trigger never fires. */
    private static final int TABLES_TRIGGER = 1000;

    /** What one run of the workload observed. */
    private record QueueRun(List<Long> deadEntriesSkippedPerScan, List<Long> compactionsForDeadEntriesAfterScan,
            StoreStats stats) {
    }

    @Test
    void scansFromTheHeadOfAQueueCompactItAndThenSkipFewDeadEntries() throws IOException {
        QueueRun run = runQueue(2_000);

        assertTrue(run.stats().compactionsForDeadEntries() >= 2, "compactions for dead entries: " + run.stats());
        assertEquals(run.stats().compactions(), run.stats().compactionsForDeadEntries(), "every compaction was for dead entries");
        assertTrue(run.stats().versionsDroppedByCompaction() > 0);

        int first = firstScanThatCompacted(run);
        long deadBefore = run.deadEntriesSkippedPerScan().get(first);
        long deadAfter = run.deadEntriesSkippedPerScan().get(first + 1);
        assertTrue(deadBefore >= 2 * ROWS_PER_ROUND, "the compacting scan walked past dead entries: " + deadBefore);
        assertTrue(deadAfter * 10 < deadBefore, "after the compaction a scan from the head skipped " + deadAfter
                + " dead entries, before it " + deadBefore);
        long worst = run.deadEntriesSkippedPerScan().stream().mapToLong(Long::longValue).max().orElseThrow();
        assertTrue(worst < 4L * 2 * ROWS_PER_ROUND, "the dead entries a scan meets stay bounded, worst " + worst);
    }

    @Test
    void withTheThresholdOutOfReachNoCompactionHappensAndDeadEntriesPileUp() throws IOException {
        QueueRun run = runQueue(Long.MAX_VALUE);

        assertEquals(0, run.stats().compactions(), run.stats().toString());
        assertTrue(run.stats().tables() < TABLES_TRIGGER, "the table-count trigger could not fire");
        assertEquals(0, run.stats().compactionsForDeadEntries());
        List<Long> dead = run.deadEntriesSkippedPerScan();
        long last = dead.get(dead.size() - 1);
        assertTrue(last >= 2L * ROWS_PER_ROUND * (ROUNDS - 2), "the last scan walked past every consumed row: " + last);
        assertEquals(dead.stream().mapToLong(Long::longValue).sum(), run.stats().deadEntriesSkippedByScans());
        assertTrue(run.stats().tableEntriesReadByScans() > run.stats().deadEntriesSkippedByScans());
    }

    @Test
    void versionsShadowedByUpdatesAreNotDeadEntries() throws IOException {
        AtomicLong horizonCts = new AtomicLong();
        AtomicLong clockMs = new AtomicLong();
        StoreEnvironment env = new StoreEnvironment(new BlockCache(1 << 20), Runnable::run, horizonCts::get, key -> false,
                clockMs::get);
        StoreOptions options = StoreOptions.DEFAULT.withCompactionTablesTrigger(TABLES_TRIGGER)
                .withDeadEntriesCompaction(100, 50, INTERVAL_MS);
        PartitionStore store = PartitionStore.open(new MemoryDfs(), "updated", options, env);
        store.finishRecovery(new TestWalCursor("w", WalPosition.START));
        TreeMap<String, String> live = new TreeMap<>();
        long[] cts = {0};
        // Every row rewritten each round, flushed: a scan reads each row's newest version and the
        // older ones under it in the tables, most of what it reads (as TPC-C's customers by name).
        for (int round = 0; round < 12; round++) {
            for (int n = 0; n < 100; n++) {
                commit(store, cts, live, n, false);
            }
            store.flush();
            horizonCts.set(cts[0]);
            clockMs.addAndGet(INTERVAL_MS);
            List<String> rows = new ArrayList<>();
            try (CloseableIterator<Version> it = store.scan(null, null, cts[0], 1_000)) {
                it.forEachRemaining(v -> rows.add(new String(v.key(), StandardCharsets.UTF_8)));
            }
            assertEquals(List.copyOf(live.keySet()), rows, "round " + round);
        }
        StoreStats stats = store.stats();
        store.close();
        assertEquals(0, stats.compactions(), "no compaction: the versions are the ordinary compaction's " + stats);
        assertEquals(0, stats.deadEntriesSkippedByScans(), stats.toString());
        assertTrue(stats.tableEntriesReadByScans() >= 1_000 * 6, "the scans read the old versions too: " + stats);
    }

    private static int firstScanThatCompacted(QueueRun run) {
        List<Long> compactions = run.compactionsForDeadEntriesAfterScan();
        for (int i = 0; i < compactions.size(); i++) {
            if (compactions.get(i) > 0) {
                return i;
            }
        }
        throw new AssertionError("no scan made a compaction due");
    }

    /**
     * Runs the queue workload on a store whose scans make a compaction due after
     * {@code deadEntriesMin} dead entries (half of what they read, at least a second apart),
     * checking every scan against the live rows.
     */
    private static QueueRun runQueue(long deadEntriesMin) throws IOException {
        AtomicLong horizonCts = new AtomicLong();
        AtomicLong clockMs = new AtomicLong();
        // Background maintenance runs inline, so a compaction a scan makes due ends as it closes.
        StoreEnvironment env = new StoreEnvironment(new BlockCache(1 << 20), Runnable::run, horizonCts::get, key -> false,
                clockMs::get);
        StoreOptions options = StoreOptions.DEFAULT.withCompactionTablesTrigger(TABLES_TRIGGER)
                .withDeadEntriesCompaction(deadEntriesMin, 50, INTERVAL_MS);
        PartitionStore store = PartitionStore.open(new MemoryDfs(), "queue", options, env);
        store.finishRecovery(new TestWalCursor("w", WalPosition.START));
        TreeMap<String, String> live = new TreeMap<>();
        long[] cts = {0};
        int tail = 0;
        for (; tail < BACKLOG_ROWS; tail++) {
            commit(store, cts, live, tail, false);
        }
        List<Long> deadPerScan = new ArrayList<>();
        List<Long> compactionsPerScan = new ArrayList<>();
        for (int round = 0; round < ROUNDS; round++) {
            for (int i = 0; i < ROWS_PER_ROUND; i++) {
                commit(store, cts, live, tail++, false);
                commit(store, cts, live, Integer.parseInt(live.firstKey().substring(1)), true);
            }
            store.flush();
            horizonCts.set(cts[0]);
            clockMs.addAndGet(INTERVAL_MS);
            for (int s = 0; s < SCANS_PER_ROUND; s++) {
                StoreStats before = store.stats();
                List<String> expected = live.entrySet().stream().limit(SCAN_LIMIT).map(e -> e.getKey() + "=" + e.getValue()).toList();
                assertEquals(expected, scanHead(store, cts[0]), "round " + round + " scan " + s);
                StoreStats after = store.stats();
                deadPerScan.add(after.deadEntriesSkippedByScans() - before.deadEntriesSkippedByScans());
                compactionsPerScan.add(after.compactionsForDeadEntries() - before.compactionsForDeadEntries());
            }
        }
        StoreStats stats = store.stats();
        store.close();
        return new QueueRun(deadPerScan, compactionsPerScan, stats);
    }

    /** Inserts row {@code n} (or deletes it) in a commit of its own, in the store and the model. */
    private static void commit(PartitionStore store, long[] cts, TreeMap<String, String> live, int n, boolean delete) {
        String key = String.format("q%08d", n);
        byte[] keyBytes = key.getBytes(StandardCharsets.UTF_8);
        long at = ++cts[0];
        Version v = delete ? Version.tombstone(keyBytes, at) : new Version(keyBytes, at, ("order-" + n).getBytes(StandardCharsets.UTF_8));
        store.apply("w", new WalPosition(1, at), List.of(v));
        if (delete) {
            live.remove(key);
        } else {
            live.put(key, "order-" + n);
        }
    }

    /** The first rows from the head of the queue, as key=value. */
    private static List<String> scanHead(PartitionStore store, long snapshotCts) {
        List<String> rows = new ArrayList<>();
        try (CloseableIterator<Version> it = store.scan(null, null, snapshotCts, SCAN_LIMIT)) {
            it.forEachRemaining(v -> rows.add(new String(v.key(), StandardCharsets.UTF_8) + "=" + new String(v.value(), StandardCharsets.UTF_8)));
        }
        return rows;
    }
}
