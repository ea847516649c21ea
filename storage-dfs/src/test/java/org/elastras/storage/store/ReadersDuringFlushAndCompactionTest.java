package org.elastras.storage.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.elastras.storage.dfs.Dfs;
import org.elastras.storage.dfs.DfsKind;
import org.elastras.storage.sstable.BlockCache;
import org.elastras.storage.sstable.SsTableOptions;
import org.elastras.storage.util.CloseableIterator;
import org.elastras.storage.util.StorageLimits;
import org.elastras.storage.wal.WalPosition;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A writer keeps committing while readers scan and get at a fixed snapshot and the main thread
 * flushes and compacts: every read at that snapshot returns exactly the same answer.
 */
class ReadersDuringFlushAndCompactionTest {

    @TempDir
    Path temp;

    private static final int KEYS = 200;
    private static final int WRITER_BATCH = 100;

    @ParameterizedTest
    @EnumSource(DfsKind.class)
    void readersSeeTheSameSnapshotThroughoutFlushAndCompaction(DfsKind kind) throws Exception {
        StoreEnvironment env = new StoreEnvironment(new BlockCache(256 * 1024), null, () -> 0);
        StoreOptions options = new StoreOptions(1L << 30, 8, 1000, new SsTableOptions(1024, 8, 10), StorageLimits.DEFAULT);
        try (Dfs dfs = kind.open(temp)) {
            PartitionStore store = PartitionStore.open(dfs, "p", options, env);
            store.finishRecovery(new TestWalCursor("w", WalPosition.START));
            AtomicLong cts = new AtomicLong();
            // Initial state: every key written twice; the readers' snapshot is after that.
            for (int round = 0; round < 2; round++) {
                for (int k = 0; k < KEYS; k++) {
                    long c = cts.incrementAndGet();
                    store.apply("w", new WalPosition(0, c), List.of(new Version(key(k), c, value(k, c))));
                }
            }
            long snapshot = cts.get();
            List<String> expected = scan(store, snapshot);
            assertEquals(KEYS, expected.size());

            AtomicBoolean stop = new AtomicBoolean();
            ConcurrentLinkedQueue<String> failures = new ConcurrentLinkedQueue<>();
            AtomicLong readsDone = new AtomicLong();
            CountDownLatch started = new CountDownLatch(3);
            // At most WRITER_BATCH versions a millisecond: unpaced, the writer's speed set how many
            // versions every flush, compaction and scan went through, and with them the test's
            // length (38-91 s) and heap (a clean-clone run ran out of its 2 GB).
            Thread writer = new Thread(() -> {
                started.countDown();
                int k = 0;
                try {
                    while (!stop.get()) {
                        long c = cts.incrementAndGet();
                        byte[] v = (k % 7 == 0) ? null : value(k, c);
                        store.apply("w", new WalPosition(0, c), List.of(new Version(key(k), c, v)));
                        k = (k + 1) % KEYS;
                        if (c % WRITER_BATCH == 0) {
                            Thread.sleep(1);
                        }
                    }
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            });
            List<Thread> readers = new ArrayList<>();
            for (int r = 0; r < 2; r++) {
                readers.add(new Thread(() -> {
                    started.countDown();
                    try {
                        while (!stop.get()) {
                            List<String> seen = scan(store, snapshot);
                            if (!seen.equals(expected)) {
                                failures.add("scan at " + snapshot + " differed: " + seen.size() + " entries");
                            }
                            for (int k = 0; k < KEYS; k += 17) {
                                byte[] got = store.get(key(k), snapshot);
                                String s = k + "=" + (got == null ? "null" : new String(got, StandardCharsets.UTF_8));
                                if (!expected.get(k).equals(s)) {
                                    failures.add("get " + s + " expected " + expected.get(k));
                                }
                            }
                            readsDone.incrementAndGet();
                        }
                    } catch (Throwable t) {
                        failures.add(t.toString());
                    }
                }));
            }
            writer.start();
            readers.forEach(Thread::start);
            started.await();
            for (int i = 0; i < 8; i++) {
                store.flush();
                if (i % 3 == 2) {
                    assertTrue(store.compact(snapshot));
                }
            }
            stop.set(true);
            writer.join();
            for (Thread t : readers) {
                t.join();
            }
            assertTrue(failures.isEmpty(), () -> failures.size() + " failures, first: " + failures.peek());
            assertTrue(readsDone.get() > 2, "readers ran during maintenance: " + readsDone.get());
            assertTrue(store.stats().compactions() >= 2);
            assertEquals(expected, scan(store, snapshot));
            store.close();
        }
    }

    static byte[] key(int k) {
        return String.format("key-%05d", k).getBytes(StandardCharsets.UTF_8);
    }

    static byte[] value(int k, long cts) {
        return (k + "@" + cts).getBytes(StandardCharsets.UTF_8);
    }

    static List<String> scan(PartitionStore store, long snapshot) {
        List<String> out = new ArrayList<>();
        try (CloseableIterator<Version> it = store.scan(null, null, snapshot, Integer.MAX_VALUE)) {
            while (it.hasNext()) {
                Version v = it.next();
                String key = new String(v.key(), StandardCharsets.UTF_8);
                out.add(Integer.parseInt(key.substring(4)) + "=" + new String(v.value(), StandardCharsets.UTF_8));
            }
        }
        return out;
    }
}
