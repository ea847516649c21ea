package org.elastras.storage.store;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.Arrays;
import java.util.function.Consumer;
import java.util.function.Function;
import org.elastras.storage.sstable.SsTableReader;

/**
 * A memtable's keys to their holders: an insert-only hash table, open addressing with linear
 * probing over two primitive arrays (each slot a key's hash and its holder's number), the holders
 * themselves in insertion order in chunks. A lookup reads the hash slots until it meets the key's
 * hash or an empty slot, then the holder and its key bytes: a hit costs the hash slot, the holder
 * and the key bytes, where {@code ConcurrentHashMap<IndexKey, holder>} also walked its node and a
 * key wrapper (a quarter of the OTM's CPU in the procedure benchmark was memtable lookups, most of
 * it waiting on those misses).
 *
 * <p>Why numbers in the slots and the holders in insertion order: a memtable lives for seconds to
 * minutes, so its table is in the old generation while writers still add keys, and every store of
 * a new (young) holder into an old array dirties the card (512 bytes) it falls on, which the next
 * young collection scans. Stored at their hash slots, new holders dirtied one card each, all over
 * the table; appended to a chunk, 128 of them share one. (Young pauses were mostly that scanning:
 * G1's "Scan Heap Roots" was 9.5 of 11 s of an OTM's young-collection work in a live-move run of
 * session 30; {@code MemtableGcBenchmark}.)
 *
 * <p>Thread-safe. Lookups take no lock; inserts take this table's monitor (one per new key of a
 * memtable: most writes add to a holder already here). Nothing is ever removed, so a table once
 * published only fills: a resize builds larger slot arrays under the monitor and publishes them,
 * and a lookup still walking the old ones finds every key inserted before the resize began. A key
 * whose insert returned before a lookup began is found by it: the lookup reads the published slots
 * after the insert published them (a slot's hash is written, with release, after its holder
 * number, the holder and its chunk, and read with acquire before them).
 *
 * @param <H> the holder type
 */
final class HolderTable<H extends HolderTable.Entry> {

    /** What the table holds: something that knows its key. */
    abstract static class Entry {
        final byte[] key;

        Entry(byte[] key) {
            this.key = key;
        }
    }

    private static final VarHandle SLOT_HASH = MethodHandles.arrayElementVarHandle(int[].class);
    private static final int INITIAL_CAPACITY = 16;
    private static final int MAX_CAPACITY = 1 << 30;
    /** Holders per chunk: a power of two. */
    private static final int CHUNK_SHIFT = 10;
    private static final int CHUNK_MASK = (1 << CHUNK_SHIFT) - 1;

    /** One generation of the slots; they only fill (each is written once). */
    private static final class Slots {
        /** 0: empty; else the hash of the key whose holder's number is at the same index. */
        final int[] hashes;
        /** The number of the holder (its place in insertion order) of each filled slot. */
        final int[] numbers;
        final int mask;

        Slots(int capacity) {
            hashes = new int[capacity];
            numbers = new int[capacity];
            mask = capacity - 1;
        }
    }

    private volatile Slots slots = new Slots(INITIAL_CAPACITY);
    /**
     * The holders in insertion order, {@code 1 << CHUNK_SHIFT} a chunk. A grown array of chunks
     * is published after its chunks are copied; a chunk is never replaced.
     */
    private volatile Entry[][] chunks = new Entry[4][];
    /**
     * Keys held, which is the next holder's number: written (by inserts, under this monitor) with
     * release after each insert, so {@link #forEach} sees every holder below it.
     */
    private volatile int size;

    /** The hash of {@code key} as this table uses it: never 0 (an empty slot). */
    static int hash(byte[] key) {
        return fromKeyHash(SsTableReader.keyHash(key));
    }

    /**
     * This table's hash of a key from the 64-bit hash every SSTable's bloom filter is probed with
     * ({@link SsTableReader#keyHash}), folded: a read hashes its key once for memtables and tables.
     * That hash mixes every bit, so keys that differ only in their last bytes (ids encoded
     * big-endian) spread, where {@code Arrays.hashCode} maps them onto a few thousand values.
     */
    static int fromKeyHash(long keyHash) {
        int folded = (int) (keyHash ^ (keyHash >>> 32));
        return folded == 0 ? 1 : folded;
    }

    /** The holder of {@code key}, or null. {@code hash} is {@link #hash}{@code (key)}. */
    @SuppressWarnings("unchecked")
    H get(byte[] key, int hash) {
        Slots s = slots;
        int[] hashes = s.hashes;
        int mask = s.mask;
        for (int i = hash & mask; ; i = (i + 1) & mask) {
            int h = (int) SLOT_HASH.getAcquire(hashes, i);
            if (h == 0) {
                return null;
            }
            if (h == hash) {
                Entry e = holder(s.numbers[i]);
                if (Arrays.equals(e.key, key)) {
                    return (H) e;
                }
            }
        }
    }

    /**
     * The holder of {@code key}, made by {@code create} (a holder of that key) and inserted if there
     * was none. Two callers racing on one new key get the same holder.
     */
    H getOrInsert(byte[] key, int hash, Function<byte[], H> create) {
        H found = get(key, hash);
        return found != null ? found : insert(key, hash, create);
    }

    private synchronized H insert(byte[] key, int hash, Function<byte[], H> create) {
        H raced = get(key, hash);
        if (raced != null) {
            return raced;
        }
        Slots s = slots;
        if ((size + 1) * 2 > s.hashes.length) {
            if (s.hashes.length >= MAX_CAPACITY) {
                throw new IllegalStateException("memtable holds " + size + " keys, the most one table can");
            }
            s = grown(s);
            slots = s;
        }
        H holder = create.apply(key);
        int number = size;
        Entry[][] cs = chunks;
        int chunk = number >>> CHUNK_SHIFT;
        if (chunk == cs.length) {
            cs = Arrays.copyOf(cs, cs.length * 2);
            chunks = cs;
        }
        if (cs[chunk] == null) {
            cs[chunk] = new Entry[1 << CHUNK_SHIFT];
        }
        cs[chunk][number & CHUNK_MASK] = holder;
        place(s, hash, number);
        size = number + 1;
        return holder;
    }

    /** The holder numbered {@code number}, whose slot the caller read with acquire. */
    private Entry holder(int number) {
        return chunks[number >>> CHUNK_SHIFT][number & CHUNK_MASK];
    }

    /** A table twice as large with every key of {@code from}. REQUIRES: this monitor. */
    private static Slots grown(Slots from) {
        Slots to = new Slots(from.hashes.length * 2);
        for (int i = 0; i < from.hashes.length; i++) {
            int h = from.hashes[i];
            if (h != 0) {
                place(to, h, from.numbers[i]);
            }
        }
        return to;
    }

    /** Writes a holder's slot: its number first, then its hash with release. REQUIRES: this monitor. */
    private static void place(Slots s, int hash, int number) {
        int i = hash & s.mask;
        while (s.hashes[i] != 0) {
            i = (i + 1) & s.mask;
        }
        s.numbers[i] = number;
        SLOT_HASH.setRelease(s.hashes, i, hash);
    }

    /**
     * Calls {@code action} with every holder in the table now, in insertion order; weakly
     * consistent (a holder inserted meanwhile may or may not be seen), but every holder whose
     * insert returned before is.
     */
    @SuppressWarnings("unchecked")
    void forEach(Consumer<H> action) {
        int n = size;
        Entry[][] cs = chunks;
        for (int i = 0; i < n; i++) {
            action.accept((H) cs[i >>> CHUNK_SHIFT][i & CHUNK_MASK]);
        }
    }

    /** Keys held. */
    int size() {
        return size;
    }
}
