package org.elastras.storage.sstable;

/**
 * A cache of decoded SSTable blocks, bounded in bytes, shared by every table of an OTM.
 * Least-recently-used blocks are evicted first.
 *
 * <p>Thread-safe.
 */
public final class BlockCache {

    /** @param capacityBytes the most bytes of block data kept; 0 disables caching */
    public BlockCache(long capacityBytes) {
        throw new UnsupportedOperationException("TODO");
    }

    public long capacityBytes() {
        throw new UnsupportedOperationException("TODO");
    }

    /** Bytes currently cached; never more than {@link #capacityBytes()}. */
    public long sizeBytes() {
        throw new UnsupportedOperationException("TODO");
    }

    public long hits() {
        throw new UnsupportedOperationException("TODO");
    }

    public long misses() {
        throw new UnsupportedOperationException("TODO");
    }
}
