package org.elastras.storage.sstable;

import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.ReentrantLock;

/**
 * A cache of decoded SSTable blocks, bounded in bytes, shared by every table of an OTM.
 * Eviction is second-chance (CLOCK), an approximation of least-recently-used: a block used since
 * the hand last passed it is passed over once more.
 *
 * <p>Thread-safe, and a hit takes no lock: it is a concurrent map lookup and, the first time
 * since the hand passed, one write of the block's "used" flag. (Until session 18 one monitor
 * guarded an access-ordered map, so every hit wrote the LRU list under it: with 128 transaction
 * threads on two cores its holder was often descheduled, and a JFR recording of the procedure
 * benchmark counted 2,600 waits of 10 ms or more on it in 20 s.) Insertions reserve their bytes
 * before they become visible and evict under one lock until the reservation fits, so the cached
 * bytes never exceed the capacity. Blocks are immutable and verified before they are inserted,
 * so a cached block is never checked again.
 */
public final class BlockCache {

    /** Identifies a block: the table's cache id and the block's offset in the file. */
    private record Key(long cacheId, long offset) {
    }

    /** A cached block; removed once, by eviction or by its table's eviction, whichever kills it first. */
    private static final class Entry {
        final Key key;
        final Block block;
        final long charge;
        /** Set by a hit, cleared by the clock hand. Racy on purpose: a lost update costs one eviction choice. */
        volatile boolean used;
        final AtomicBoolean dead = new AtomicBoolean();

        Entry(Key key, Block block) {
            this.key = key;
            this.block = block;
            this.charge = block.cacheChargeBytes();
        }
    }

    private final long capacityBytes;
    private final ConcurrentHashMap<Key, Entry> blocks = new ConcurrentHashMap<>();
    /** The clock: every live entry once, in insertion order from the hand on; may hold dead entries. */
    private final ConcurrentLinkedQueue<Entry> clock = new ConcurrentLinkedQueue<>();
    /** Guards the hand's moves: one evictor at a time. */
    private final ReentrantLock evictLock = new ReentrantLock();
    /** Charges of the live entries plus the reservations of insertions under way; never above the capacity. */
    private final AtomicLong sizeBytes = new AtomicLong();

    private final LongAdder hits = new LongAdder();
    private final LongAdder misses = new LongAdder();

    /** @param capacityBytes the most bytes of block data kept; 0 disables caching */
    public BlockCache(long capacityBytes) {
        if (capacityBytes < 0) {
            throw new IllegalArgumentException("capacityBytes must be >= 0 (0 disables the cache), got "
                    + capacityBytes);
        }
        this.capacityBytes = capacityBytes;
    }

    public long capacityBytes() {
        return capacityBytes;
    }

    /** Bytes currently cached (with insertions under way); never more than {@link #capacityBytes()}. */
    public long sizeBytes() {
        return sizeBytes.get();
    }

    public long hits() {
        return hits.sum();
    }

    public long misses() {
        return misses.sum();
    }

    /** Blocks currently cached. */
    public int blockCount() {
        return blocks.size();
    }

    /** Drops every block of one table (a table that was closed or deleted). */
    public void evictTable(long cacheId) {
        boolean any = false;
        for (Entry e : blocks.values()) {
            if (e.key.cacheId() == cacheId) {
                any |= kill(e);
            }
        }
        if (any) {
            // Otherwise a cache that never fills would keep the dead entries on the clock.
            clock.removeIf(e -> e.dead.get());
        }
    }

    /** The cached block, or null (counted as a miss). */
    Block get(long cacheId, long offset) {
        Entry e = capacityBytes > 0 ? blocks.get(new Key(cacheId, offset)) : null;
        if (e == null) {
            misses.increment();
            return null;
        }
        if (!e.used) {
            e.used = true;
        }
        hits.increment();
        return e.block;
    }

    /**
     * Caches a verified block, evicting blocks not used lately to make room. A block larger than
     * the whole capacity is not cached, nor one already cached (two readers missed it at once), nor
     * one for which nothing can be evicted right now (every byte reserved by insertions under way).
     */
    void put(long cacheId, long offset, Block block) {
        long charge = block.cacheChargeBytes();
        Key key = new Key(cacheId, offset);
        if (charge > capacityBytes || blocks.containsKey(key)) {
            return;
        }
        if (!reserve(charge)) {
            return;
        }
        Entry entry = new Entry(key, block);
        if (blocks.putIfAbsent(key, entry) != null) {
            sizeBytes.addAndGet(-charge);
            return;
        }
        clock.add(entry);
    }

    /** Adds {@code charge} to the size, evicting until it fits; false if it cannot fit now. */
    private boolean reserve(long charge) {
        while (true) {
            long size = sizeBytes.get();
            if (size + charge <= capacityBytes) {
                if (sizeBytes.compareAndSet(size, size + charge)) {
                    return true;
                }
            } else if (!evictOne()) {
                return false;
            }
        }
    }

    /**
     * Moves the hand to the first entry not used since it last passed and evicts it: at most two
     * turns of the clock (the first clears every flag; counted by the live entries, {@code
     * ConcurrentLinkedQueue.size} walks the queue). False if none was found to evict.
     */
    private boolean evictOne() {
        evictLock.lock();
        try {
            for (int steps = 2 * blocks.size() + 2; steps > 0; steps--) {
                Entry e = clock.poll();
                if (e == null) {
                    return false;
                }
                if (e.dead.get()) {
                    continue;
                }
                if (e.used) {
                    e.used = false;
                    clock.add(e);
                    continue;
                }
                if (kill(e)) {
                    return true;
                }
            }
            return false;
        } finally {
            evictLock.unlock();
        }
    }

    /** Removes a live entry and its charge; false if it was dead already. */
    private boolean kill(Entry e) {
        if (!e.dead.compareAndSet(false, true)) {
            return false;
        }
        blocks.remove(e.key, e);
        long after = sizeBytes.addAndGet(-e.charge);
        if (after < 0) {
            throw new IllegalStateException("block cache size went negative: " + after);
        }
        return true;
    }
}
