package org.elastras.storage.store;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
import org.elastras.storage.dfs.MemoryDfs;
import org.elastras.storage.sstable.BlockCache;
import org.elastras.storage.wal.WalPosition;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The process-wide memtable budget over real stores: the largest memtable that can flush is
 * flushed when the active ones hold half the budget, writers wait when all memtables hold all of
 * it, and closed stores give their bytes back.
 */
class MemtableBudgetTest {

    /** Far above what any store here gets: only the budget makes them flush. */
    private static final StoreOptions OPTIONS = StoreOptions.DEFAULT.withMemtableBytesMax(64L << 20);
    private static final int VALUE_BYTES = 1_000;

    private final MemoryDfs dfs = new MemoryDfs();
    private final ExecutorService maintenance = Executors.newSingleThreadExecutor();
    private final List<PartitionStore> stores = new ArrayList<>();
    private long cts;

    @AfterEach
    void tearDown() throws InterruptedException {
        stores.forEach(PartitionStore::close);
        maintenance.shutdownNow();
        assertTrue(maintenance.awaitTermination(10, TimeUnit.SECONDS));
    }

    private StoreEnvironment environment(MemtableBudget budget, boolean withMaintenance) {
        return new StoreEnvironment(new BlockCache(1 << 20), withMaintenance ? maintenance : null, () -> 0, key -> false,
                () -> System.nanoTime() / 1_000_000, budget);
    }

    private PartitionStore open(String name, StoreEnvironment env) throws IOException {
        PartitionStore store = PartitionStore.open(dfs, name, OPTIONS, env);
        store.finishRecovery(new TestWalCursor("w", WalPosition.START));
        stores.add(store);
        return store;
    }

    /** Applies {@code rows} versions of about {@link #VALUE_BYTES} each to {@code store}. */
    private void write(PartitionStore store, String prefix, int rows) {
        for (int i = 0; i < rows; i++) {
            cts++;
            store.apply("w", new WalPosition(1, cts), List.of(new Version(key(prefix, i), cts, value(prefix, i))));
        }
    }

    private static byte[] key(String prefix, int i) {
        return (prefix + "-" + i).getBytes(StandardCharsets.UTF_8);
    }

    private static byte[] value(String prefix, int i) {
        byte[] v = new byte[VALUE_BYTES];
        byte[] tag = key(prefix, i);
        System.arraycopy(tag, 0, v, 0, tag.length);
        return v;
    }

    /** Polls {@code condition} until it holds; fails naming {@code what} after 10 s. */
    private static void await(String what, BooleanSupplier condition) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (!condition.getAsBoolean()) {
            assertTrue(System.nanoTime() < deadline, "timed out waiting until " + what);
            Thread.sleep(1);
        }
    }

    private static void awaitFlushes(PartitionStore store, long flushes) throws InterruptedException {
        await(store.stats() + " shows " + flushes + " flushes and nothing frozen",
                () -> store.stats().flushes() >= flushes && store.stats().frozenMemtables() == 0);
    }

    @Test
    void theLargestMemtableIsFlushedWhenTheActiveOnesHoldHalfTheBudget() throws Exception {
        MemtableBudget budget = new MemtableBudget(256 * 1024);
        StoreEnvironment env = environment(budget, true);
        PartitionStore big = open("big", env);
        PartitionStore small = open("small", env);
        write(small, "s", 30);
        write(big, "b", 60);
        assertEquals(0, big.stats().flushes() + small.stats().flushes(), "under half the budget: nothing flushed");
        assertTrue(budget.activeBytes() >= 90 * VALUE_BYTES, "the budget counts both stores: " + budget.activeBytes());

        long bigBefore = big.stats().memtableBytes();
        write(big, "b2", 40);
        awaitFlushes(big, 1);
        assertEquals(0, small.stats().flushes(), "the smaller memtable stays");
        assertEquals(1, budget.flushesRequested());
        assertTrue(big.stats().memtableBytes() < bigBefore, "the big store's memtable was flushed: " + big.stats());
        assertTrue(budget.activeBytes() < 128 * 1024, "the flush gave the big store's bytes back: " + budget.activeBytes());
        assertEquals(0, budget.frozenBytes());
        assertEquals(small.stats().memtableBytes() + big.stats().memtableBytes(), budget.activeBytes(),
                "the budget holds what the stores' memtables hold");
        // Nothing was lost on the way to the table.
        assertArrayEquals(value("b", 7), big.get(key("b", 7), cts));
        assertArrayEquals(value("b2", 39), big.get(key("b2", 39), cts));
    }

    @Test
    void aStoreThatCannotFlushIsPassedOverForTheNextLargest() throws Exception {
        MemtableBudget budget = new MemtableBudget(256 * 1024);
        StoreEnvironment env = environment(budget, true);
        PartitionStore paused = open("paused", env);
        PartitionStore other = open("other", env);
        paused.pauseMaintenance();
        write(other, "o", 40);
        write(paused, "p", 140);
        awaitFlushes(other, 1);
        assertEquals(0, paused.stats().flushes(), "a store whose maintenance is paused (a live move) is not flushed");
        assertTrue(budget.activeBytes() >= 128 * 1024, "the paused store alone holds half the budget");
        paused.resumeMaintenance();
        // The next write over half the budget asks for the flush (looks are at most 1 ms apart).
        AtomicInteger more = new AtomicInteger();
        await("a write after the resume flushed the store", () -> {
            write(paused, "p2-" + more.getAndIncrement(), 1);
            return paused.stats().flushes() > 0;
        });
        awaitFlushes(paused, 1);
        assertArrayEquals(value("p", 139), paused.get(key("p", 139), cts));
    }

    @Test
    void writersWaitWhileTheMemtablesHoldTheWholeBudgetAndGoOnWhenAStoreGivesItsBytesBack() throws Exception {
        MemtableBudget budget = new MemtableBudget(128 * 1024);
        // No maintenance: nothing flushes, so the budget fills.
        StoreEnvironment env = environment(budget, false);
        PartitionStore a = open("a", env);
        PartitionStore b = open("b", env);
        write(a, "a", 70);
        assertTrue(a.awaitWriteCapacity(0), "under the budget a writer goes on at once");
        write(b, "b", 70);
        assertFalse(budget.hasRoom());
        long start = System.nanoTime();
        assertFalse(b.awaitWriteCapacity(100), "a full budget holds the writer until its deadline");
        assertTrue(System.nanoTime() - start >= TimeUnit.MILLISECONDS.toNanos(90));
        assertEquals(1, budget.writerWaits());

        Thread waiter = new Thread(() -> {
            try {
                if (!b.awaitWriteCapacity(10_000)) {
                    throw new AssertionError("the writer was not let go when room was made");
                }
            } catch (InterruptedException e) {
                throw new AssertionError(e);
            }
        });
        List<Throwable> failures = new ArrayList<>();
        waiter.setUncaughtExceptionHandler((t, e) -> failures.add(e));
        waiter.start();
        await("the writer waits in the full budget",
                () -> budget.writerWaits() == 2 && waiter.getState() == Thread.State.TIMED_WAITING);
        assertTrue(waiter.isAlive(), "the writer waits while the budget is full");
        a.close();
        waiter.join(10_000);
        assertFalse(waiter.isAlive());
        assertEquals(List.of(), failures);
        assertEquals(b.stats().memtableBytes(), budget.activeBytes(), "the closed store's bytes left the budget");
    }

    @Test
    void closedStoresLeaveNothingInTheBudget() throws Exception {
        MemtableBudget budget = new MemtableBudget(1 << 20);
        StoreEnvironment env = environment(budget, false);
        PartitionStore a = open("a", env);
        PartitionStore b = open("b", env);
        write(a, "a", 20);
        write(b, "b", 20);
        b.flush();
        write(b, "b2", 5);
        assertEquals(2, budget.memberCount());
        assertEquals(a.stats().memtableBytes() + b.stats().memtableBytes(), budget.activeBytes());
        a.close();
        b.close();
        b.close();
        assertEquals(0, budget.activeBytes());
        assertEquals(0, budget.frozenBytes());
        assertEquals(0, budget.memberCount());
    }

    @Test
    void aBudgetTooSmallToHoldAnythingIsRefused() {
        assertThrows(IllegalArgumentException.class, () -> new MemtableBudget(1024));
        assertEquals(16L << 20, MemtableBudget.forHeap(64L << 20).capacityBytes(), "small heaps get the floor");
        assertEquals(32L << 20, MemtableBudget.forHeap(256L << 20).capacityBytes());
        assertEquals(512L << 20, MemtableBudget.forHeap(4L << 30).capacityBytes());
    }
}
