package org.elastras.storage.store;

import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;
import java.util.function.Predicate;
import org.elastras.storage.sstable.BlockCache;

/**
 * What every partition store of one process shares: the block cache, the memtable budget, a
 * source of cache ids that are unique among its tables, the executor that runs background flushes
 * and compactions, the garbage-collection horizon of the transaction manager above, and a
 * monotonic clock.
 *
 * <p>Thread-safe. {@code gcHorizonCts} must return a timestamp such that no current or future
 * reader uses an older snapshot, and every version with a CTS at or below it has been applied.
 */
public final class StoreEnvironment {

    private final BlockCache blockCache;
    private final AtomicLong nextCacheId = new AtomicLong(1);
    private final Executor maintenance;
    private final LongSupplier gcHorizonCts;
    private final Predicate<byte[]> expired;
    private final LongSupplier monotonicClockMs;
    private final MemtableBudget memtableBudget;

    /**
     * @param maintenance runs background flushes and compactions; null: only explicit calls do
     */
    public StoreEnvironment(BlockCache blockCache, Executor maintenance, LongSupplier gcHorizonCts) {
        this(blockCache, maintenance, gcHorizonCts, key -> false);
    }

    /**
     * @param expired says of a key whether it has expired: compaction drops every version of such
     *     keys (for bookkeeping rows with a time to live, such as commit markers); until a
     *     compaction runs they stay readable
     */
    public StoreEnvironment(BlockCache blockCache, Executor maintenance, LongSupplier gcHorizonCts,
            Predicate<byte[]> expired) {
        this(blockCache, maintenance, gcHorizonCts, expired, () -> System.nanoTime() / 1_000_000);
    }

    /**
     * @param monotonicClockMs a clock that never goes back, in milliseconds from any origin: how
     *     long ago a store last compacted (tests pass a manual one)
     */
    public StoreEnvironment(BlockCache blockCache, Executor maintenance, LongSupplier gcHorizonCts,
            Predicate<byte[]> expired, LongSupplier monotonicClockMs) {
        this(blockCache, maintenance, gcHorizonCts, expired, monotonicClockMs, MemtableBudget.unbounded());
    }

    /**
     * @param memtableBudget what the memtables of every store here may hold together
     */
    public StoreEnvironment(BlockCache blockCache, Executor maintenance, LongSupplier gcHorizonCts,
            Predicate<byte[]> expired, LongSupplier monotonicClockMs, MemtableBudget memtableBudget) {
        if (blockCache == null || gcHorizonCts == null || expired == null || monotonicClockMs == null
                || memtableBudget == null) {
            throw new IllegalArgumentException("block cache, GC horizon, expiry, clock and memtable budget are required");
        }
        this.memtableBudget = memtableBudget;
        this.blockCache = blockCache;
        this.maintenance = maintenance;
        this.gcHorizonCts = gcHorizonCts;
        this.expired = expired;
        this.monotonicClockMs = monotonicClockMs;
    }

    boolean expired(byte[] key) {
        return expired.test(key);
    }

    public MemtableBudget memtableBudget() {
        return memtableBudget;
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

    long nowMs() {
        return monotonicClockMs.getAsLong();
    }

    long gcHorizonCts() {
        return gcHorizonCts.getAsLong();
    }
}
