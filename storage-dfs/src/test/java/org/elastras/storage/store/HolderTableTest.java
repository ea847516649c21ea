package org.elastras.storage.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReferenceArray;
import org.junit.jupiter.api.Test;

/** The memtable's insert-only hash table under racing inserts, lookups and resizes. */
class HolderTableTest {

    private static final class Holder extends HolderTable.Entry {
        Holder(byte[] key) {
            super(key);
        }
    }

    private static byte[] key(int i) {
        // Big-endian ids under a common prefix: the keys a table's rows have.
        return new byte[] {'t', 1, 0, 0, (byte) (i >>> 24), (byte) (i >>> 16), (byte) (i >>> 8), (byte) i};
    }

    @Test
    void racingWritersGetOneHolderPerKeyAndReadersFindEveryKeyWhoseInsertReturned() throws Exception {
        HolderTable<Holder> table = new HolderTable<>();
        int keys = 60_000;
        int writers = 4;
        // Per key: the holder the first returning insert got; every later insert and lookup must get it too.
        AtomicReferenceArray<Holder> seen = new AtomicReferenceArray<>(keys);
        // Keys in the order their inserts returned (a key once per writer), for the readers.
        int[] doneOrder = new int[keys * writers];
        AtomicInteger doneCount = new AtomicInteger();
        AtomicBoolean writing = new AtomicBoolean(true);
        List<Throwable> failures = new CopyOnWriteArrayList<>();
        CountDownLatch start = new CountDownLatch(1);
        List<Thread> threads = new ArrayList<>();
        for (int w = 0; w < writers; w++) {
            int seed = w;
            threads.add(new Thread(() -> {
                try {
                    start.await();
                    for (int n = 0; n < keys; n++) {
                        // Each writer walks every key (7,919 is prime to the key count) in an
                        // order of its own: most keys are raced.
                        int k = (int) ((n * 7_919L + seed * 104_729L) % keys);
                        byte[] key = key(k);
                        Holder h = table.getOrInsert(key, HolderTable.hash(key), Holder::new);
                        if (!seen.compareAndSet(k, null, h) && seen.get(k) != h) {
                            throw new AssertionError("key " + k + " got two holders");
                        }
                        doneOrder[doneCount.getAndIncrement()] = k;
                    }
                } catch (Throwable e) {
                    failures.add(e);
                }
            }));
        }
        for (int r = 0; r < 2; r++) {
            threads.add(new Thread(() -> {
                try {
                    start.await();
                    while (writing.get()) {
                        int upTo = doneCount.get();
                        for (int i = Math.max(0, upTo - 500); i < upTo; i++) {
                            int k = doneOrder[i];
                            Holder expected = seen.get(k);
                            if (expected == null) {
                                continue; // a slot taken but not written yet: no insert of it returned
                            }
                            byte[] key = key(k);
                            if (table.get(key, HolderTable.hash(key)) != expected) {
                                throw new AssertionError("key " + k + " inserted before the lookup was not found");
                            }
                        }
                    }
                } catch (Throwable e) {
                    failures.add(e);
                }
            }));
        }
        threads.forEach(Thread::start);
        start.countDown();
        for (int i = 0; i < writers; i++) {
            threads.get(i).join();
        }
        writing.set(false);
        for (Thread t : threads) {
            t.join();
        }
        assertEquals(List.of(), failures);
        assertEquals(keys, table.size());
        Set<Holder> all = new HashSet<>();
        table.forEach(all::add);
        assertEquals(keys, all.size(), "forEach sees every holder once");
        for (int k = 0; k < keys; k++) {
            byte[] key = key(k);
            assertSame(seen.get(k), table.get(key, HolderTable.hash(key)));
            assertTrue(all.contains(seen.get(k)));
        }
        assertNull(table.get(key(keys), HolderTable.hash(key(keys))), "a key never inserted is not found");
    }

    @Test
    void keysWhoseHashesCollideAreKeptApart() {
        HolderTable<Holder> table = new HolderTable<>();
        // One hash for all: every key probes past the others.
        int hash = 42;
        List<Holder> holders = new ArrayList<>();
        for (int i = 0; i < 100; i++) {
            holders.add(table.getOrInsert(key(i), hash, Holder::new));
        }
        for (int i = 0; i < 100; i++) {
            assertSame(holders.get(i), table.get(key(i), hash));
            assertSame(holders.get(i), table.getOrInsert(key(i), hash, k -> {
                throw new AssertionError("a key already held was made again");
            }));
        }
        assertNull(table.get(key(100), hash));
        assertEquals(100, table.size());
    }

    @Test
    void theHashIsNeverTheEmptySlotsZero() {
        Set<Integer> hashes = ConcurrentHashMap.newKeySet();
        for (int i = 0; i < 100_000; i++) {
            int h = HolderTable.hash(key(i));
            assertNotEquals(0, h);
            hashes.add(h);
        }
        assertTrue(hashes.size() > 99_000, "big-endian ids spread: " + hashes.size() + " distinct hashes");
        assertNotEquals(0, HolderTable.hash(new byte[0]));
        assertEquals(HolderTable.hash("abc".getBytes(StandardCharsets.UTF_8)), HolderTable.hash(new byte[] {'a', 'b', 'c'}));
    }
}
