package org.elastras.storage.store;

import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;
import org.elastras.storage.sstable.BlockCache;

/**
 * What every partition store of one process shares: the block cache, a source of cache ids that
 * are unique among its tables, the executor that runs background flushes and compactions, and
 * the garbage-collection horizon of the transaction manager above.
 *
 * <p>Thread-safe. {@code gcHorizonCts} must return a timestamp such that no current or future
 * reader uses an older snapshot, and every version with a CTS at or below it has been applied.
 */
public final class StoreEnvironment {

    private final BlockCache blockCache;
    private final AtomicLong nextCacheId = new AtomicLong(1);
    private final Executor maintenance;
    private final LongSupplier gcHorizonCts;

    /**
     * @param maintenance runs background flushes and compactions; null: only explicit calls do
     */
    public StoreEnvironment(BlockCache blockCache, Executor maintenance, LongSupplier gcHorizonCts) {
        if (blockCache == null || gcHorizonCts == null) {
            throw new IllegalArgumentException("block cache and GC horizon are required");
        }
        this.blockCache = blockCache;
        this.maintenance = maintenance;
        this.gcHorizonCts = gcHorizonCts;
    }

    public BlockCache blockCache() {
        return blockCache;
    }

    long newCacheId() {
        return nextCacheId.getAndIncrement();
    }

    Executor maintenance() {
        return maintenance;
    }

    long gcHorizonCts() {
        return gcHorizonCts.getAsLong();
    }
}
