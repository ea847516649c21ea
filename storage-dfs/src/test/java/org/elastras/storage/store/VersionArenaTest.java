package org.elastras.storage.store;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLongArray;
import org.junit.jupiter.api.Test;

/** The memtable's version records: what goes in comes out, across chunks, oversized, and under racing appends. */
class VersionArenaTest {

    @Test
    void recordsReadBackAcrossChunksWithTombstonesAndOversizedValues() {
        VersionArena arena = new VersionArena();
        SplittableRandom random = new SplittableRandom(7);
        List<long[]> addresses = new ArrayList<>();
        List<byte[]> values = new ArrayList<>();
        long older = VersionArena.NONE;
        // Enough bytes for many chunks; every 97th a tombstone, two values larger than a chunk.
        for (int i = 0; i < 20_000; i++) {
            byte[] value;
            if (i % 97 == 0) {
                value = null;
            } else if (i == 5_000 || i == 12_345) {
                value = new byte[VersionArena.CHUNK_BYTES + 1_000];
                random.nextBytes(value);
            } else {
                value = new byte[random.nextInt(400)];
                random.nextBytes(value);
            }
            long address = arena.append(1_000_000L + i, older, value);
            addresses.add(new long[] {address, older});
            values.add(value);
            older = address;
        }
        for (int i = 0; i < addresses.size(); i++) {
            long address = addresses.get(i)[0];
            assertEquals(1_000_000L + i, arena.cts(address), "cts of record " + i);
            assertEquals(addresses.get(i)[1], arena.older(address), "older of record " + i);
            byte[] expected = values.get(i);
            if (expected == null) {
                assertNull(arena.value(address), "record " + i + " is a tombstone");
                assertTrue(arena.valueEquals(address, null));
                assertFalse(arena.valueEquals(address, new byte[0]));
            } else {
                assertArrayEquals(expected, arena.value(address), "value of record " + i);
                assertTrue(arena.valueEquals(address, expected));
                assertFalse(arena.valueEquals(address, null));
                byte[] other = expected.clone();
                other = other.length == 0 ? new byte[] {1} : other;
                other[other.length - 1] ^= 1;
                assertFalse(arena.valueEquals(address, other), "a value differing in its last byte, record " + i);
            }
        }
        Version v = arena.version(new byte[] {1, 2}, addresses.get(3)[0]);
        assertEquals(new Version(new byte[] {1, 2}, 1_000_003L, values.get(3)), v);
    }

    @Test
    void chunksGrowFromSmallSoAnAlmostEmptyMemtableHoldsLittle() {
        VersionArena arena = new VersionArena();
        assertEquals(0, arena.reservedBytes());
        long first = arena.append(1, VersionArena.NONE, new byte[100]);
        assertEquals(VersionArena.FIRST_CHUNK_BYTES, arena.reservedBytes());
        // Filling the first chunk takes a second of twice its size, and so on up to the largest.
        for (int i = 0; i < 40; i++) {
            arena.append(2 + i, first, new byte[100]);
        }
        assertEquals(VersionArena.FIRST_CHUNK_BYTES * 3L, arena.reservedBytes());
        long big = arena.append(100, VersionArena.NONE, new byte[VersionArena.CHUNK_BYTES * 2]);
        assertEquals(VersionArena.CHUNK_BYTES * 2 + 20, arena.reservedBytes() - VersionArena.FIRST_CHUNK_BYTES * 3L);
        assertEquals(100, arena.cts(big));
        assertEquals(1, arena.cts(first));
    }

    @Test
    void racingAppendersEachReadTheirOwnRecordsAndReadersSeeEveryPublishedOne() throws Exception {
        VersionArena arena = new VersionArena();
        int writers = 4;
        int perWriter = 30_000;
        // Published addresses, one slot per record: a reader reads a slot's record once it is set.
        AtomicLongArray published = new AtomicLongArray(writers * perWriter);
        for (int i = 0; i < published.length(); i++) {
            published.set(i, VersionArena.NONE);
        }
        List<Throwable> failures = new CopyOnWriteArrayList<>();
        List<Thread> threads = new ArrayList<>();
        for (int w = 0; w < writers; w++) {
            int writer = w;
            threads.add(new Thread(() -> {
                try {
                    for (int i = 0; i < perWriter; i++) {
                        int slot = writer * perWriter + i;
                        published.set(slot, arena.append(slot, VersionArena.NONE, valueOf(slot)));
                    }
                } catch (Throwable e) {
                    failures.add(e);
                }
            }));
        }
        threads.add(new Thread(() -> {
            try {
                SplittableRandom random = new SplittableRandom(3);
                for (int n = 0; n < 200_000; n++) {
                    int slot = random.nextInt(published.length());
                    long address = published.get(slot);
                    if (address != VersionArena.NONE) {
                        assertEquals(slot, arena.cts(address));
                        assertArrayEquals(valueOf(slot), arena.value(address));
                    }
                }
            } catch (Throwable e) {
                failures.add(e);
            }
        }));
        threads.forEach(Thread::start);
        for (Thread t : threads) {
            t.join();
        }
        assertEquals(List.of(), failures);
        for (int slot = 0; slot < published.length(); slot++) {
            assertEquals(slot, arena.cts(published.get(slot)));
            assertArrayEquals(valueOf(slot), arena.value(published.get(slot)), "record " + slot);
        }
    }

    private static byte[] valueOf(int slot) {
        byte[] value = new byte[slot % 50];
        for (int i = 0; i < value.length; i++) {
            value[i] = (byte) (slot * 31 + i);
        }
        return value;
    }
}
