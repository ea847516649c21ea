package org.elastras.storage.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.elastras.storage.dfs.MemoryDfs;
import org.elastras.storage.sstable.BlockCache;
import org.elastras.storage.sstable.SsTableOptions;
import org.elastras.storage.sstable.SsTableReader;
import org.elastras.storage.sstable.SsTableWriter;
import org.junit.jupiter.api.Test;

/**
 * A view's tables stay open while any point read or reference holds the view, and are released
 * exactly once, by whichever of the last read and the last reference comes second.
 */
class StoreViewTest {

    private static final int KEYS = 100;

    private static byte[] key(int i) {
        return String.format("key-%04d", i).getBytes(StandardCharsets.UTF_8);
    }

    /** An obsolete table in a MemoryDfs: its file is deleted when its last view lets go. */
    private static TableHandle obsoleteTable(MemoryDfs dfs, String path) throws Exception {
        List<Version> versions = new ArrayList<>();
        for (int i = 0; i < KEYS; i++) {
            versions.add(new Version(key(i), 1, new byte[] {(byte) i}));
        }
        try (SsTableWriter writer = new SsTableWriter(dfs.create(path), path, new SsTableOptions(256, 4, 10))) {
            for (Version v : versions) {
                writer.add(v);
            }
            writer.finish();
        }
        TableHandle table = new TableHandle(SsTableReader.open(dfs, path, 1, new BlockCache(1 << 20)), dfs, path);
        table.markObsolete();
        return table;
    }

    @Test
    void aReadInProgressKeepsTheTablesPastTheLastReleaseAndItsExitReleasesThem() throws Exception {
        MemoryDfs dfs = new MemoryDfs();
        TableHandle table = obsoleteTable(dfs, "t.sst");
        StoreView view = new StoreView(new MemTable(), List.of(), List.of(table));
        int slot = view.enterRead();
        assertTrue(slot >= 0);
        assertTrue(view.tryRetain(), "a scan's reference");
        view.release();
        view.release(); // the store's own reference: no reference left, one read in progress
        assertFalse(view.tablesReleased());
        assertTrue(dfs.exists("t.sst"));
        assertEquals(new byte[] {(byte) 7}[0], table.reader().get(key(7), 1).value()[0], "the read can still read");
        assertEquals(-1, view.enterRead(), "a released view takes no new read");
        assertFalse(view.tryRetain());
        view.exitRead(slot);
        assertTrue(view.tablesReleased());
        assertFalse(dfs.exists("t.sst"), "the last read out released the obsolete table");
    }

    @Test
    void theLastReferenceReleasesTheTablesWhenNoReadIsInProgress() throws Exception {
        MemoryDfs dfs = new MemoryDfs();
        TableHandle table = obsoleteTable(dfs, "t.sst");
        StoreView view = new StoreView(new MemTable(), List.of(), List.of(table));
        int slot = view.enterRead();
        view.exitRead(slot);
        assertTrue(dfs.exists("t.sst"));
        view.release();
        assertTrue(view.tablesReleased());
        assertFalse(dfs.exists("t.sst"));
    }

    /**
     * Readers read through whatever view is current while another thread keeps replacing it (as
     * flushes and compactions do): no read ever finds its table closed, and every replaced view's
     * tables are released exactly once (a second release would throw in the table).
     */
    @Test
    void readersRacingViewReplacementsNeverReadAClosedTableAndEachViewReleasesOnce() throws Exception {
        MemoryDfs dfs = new MemoryDfs();
        AtomicReference<StoreView> current = new AtomicReference<>(
                new StoreView(new MemTable(), List.of(), List.of(obsoleteTable(dfs, "t-0.sst"))));
        AtomicBoolean stop = new AtomicBoolean();
        AtomicLong reads = new AtomicLong();
        ConcurrentLinkedQueue<Throwable> failures = new ConcurrentLinkedQueue<>();
        List<Thread> readers = new ArrayList<>();
        for (int r = 0; r < 4; r++) {
            final int seed = r;
            readers.add(new Thread(() -> {
                int i = seed;
                try {
                    while (!stop.get()) {
                        StoreView v;
                        int slot;
                        do {
                            v = current.get();
                            slot = v.enterRead();
                        } while (slot < 0);
                        try {
                            i = (i + 7) % KEYS;
                            Version found = v.tables.get(0).reader().get(key(i), 1);
                            if (found == null || found.value()[0] != (byte) i) {
                                failures.add(new AssertionError("key " + i + " read " + found));
                            }
                        } finally {
                            v.exitRead(slot);
                        }
                        reads.incrementAndGet();
                    }
                } catch (Throwable t) {
                    failures.add(t);
                }
            }));
        }
        readers.forEach(Thread::start);
        List<StoreView> replaced = new ArrayList<>();
        List<String> paths = new ArrayList<>();
        long deadline = System.nanoTime() + 2_000_000_000L;
        for (int n = 1; n <= 2_000 && (System.nanoTime() < deadline || reads.get() < 10_000); n++) {
            String path = "t-" + n + ".sst";
            StoreView next = new StoreView(new MemTable(), List.of(), List.of(obsoleteTable(dfs, path)));
            StoreView old = current.getAndSet(next);
            old.release();
            replaced.add(old);
            paths.add("t-" + (n - 1) + ".sst");
        }
        stop.set(true);
        for (Thread t : readers) {
            t.join(30_000);
        }
        assertTrue(failures.isEmpty(), () -> "reads failed: " + failures);
        for (int i = 0; i < replaced.size(); i++) {
            assertTrue(replaced.get(i).tablesReleased(), "view " + i + " kept its tables");
            assertFalse(dfs.exists(paths.get(i)), paths.get(i) + " was not deleted");
        }
        assertTrue(replaced.size() > 10, "views were replaced while reads ran: " + replaced.size());
    }
}
