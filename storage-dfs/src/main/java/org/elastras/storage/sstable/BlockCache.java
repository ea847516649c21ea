package org.elastras.storage.sstable;

import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A cache of decoded SSTable blocks, bounded in bytes, shared by every table of an OTM.
 * Least-recently-used blocks are evicted first.
 *
 * <p>Thread-safe. One lock guards the map and the byte count (a lookup reorders the LRU list,
 * so even a hit writes); the hit and miss counters are atomics read without it. Blocks are
 * immutable and verified before they are inserted, so a cached block is never checked again.
 */
public final class BlockCache {

    /** Identifies a block: the table's cache id and the block's offset in the file. */
    private record Key(long cacheId, long offset) {
    }

    private final long capacityBytes;

    /** Guarded by {@code this}; in access order, eldest first. */
    private final LinkedHashMap<Key, Block> blocks = new LinkedHashMap<>(64, 0.75f, true);

    /** Guarded by {@code this}; the sum of {@link Block#cacheChargeBytes()} over {@link #blocks}. */
    private long sizeBytes;

    private final AtomicLong hits = new AtomicLong();
    private final AtomicLong misses = new AtomicLong();

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

    /** Bytes currently cached; never more than {@link #capacityBytes()}. */
    public synchronized long sizeBytes() {
        return sizeBytes;
    }

    public long hits() {
        return hits.get();
    }

    public long misses() {
        return misses.get();
    }

    /** Blocks currently cached. */
    public synchronized int blockCount() {
        return blocks.size();
    }

    /** Drops every block of one table (a table that was closed or deleted). */
    public synchronized void evictTable(long cacheId) {
        for (Iterator<Map.Entry<Key, Block>> it = blocks.entrySet().iterator(); it.hasNext(); ) {
            Map.Entry<Key, Block> e = it.next();
            if (e.getKey().cacheId() == cacheId) {
                sizeBytes -= e.getValue().cacheChargeBytes();
                it.remove();
            }
        }
    }

    /** The cached block, or null (counted as a miss). */
    Block get(long cacheId, long offset) {
        Block block = null;
        if (capacityBytes > 0) {
            synchronized (this) {
                block = blocks.get(new Key(cacheId, offset));
            }
        }
        (block == null ? misses : hits).incrementAndGet();
        return block;
    }

    /**
     * Caches a verified block, evicting the least recently used ones to make room. A block larger
     * than the whole capacity is not cached.
     */
    void put(long cacheId, long offset, Block block) {
        long charge = block.cacheChargeBytes();
        if (charge > capacityBytes) {
            return;
        }
        synchronized (this) {
            Block previous = blocks.put(new Key(cacheId, offset), block);
            sizeBytes += charge;
            if (previous != null) {
                // Two readers missed the same block at once and both read it.
                sizeBytes -= previous.cacheChargeBytes();
            }
            Iterator<Block> eldest = blocks.values().iterator();
            while (sizeBytes > capacityBytes) {
                sizeBytes -= eldest.next().cacheChargeBytes();
                eldest.remove();
            }
            if (sizeBytes < 0) {
                throw new IllegalStateException("block cache size went negative: " + sizeBytes);
            }
        }
    }
}
