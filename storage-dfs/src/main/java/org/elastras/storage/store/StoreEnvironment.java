package org.elastras.storage.store;

import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;
import java.util.function.Predicate;
import org.elastras.storage.sstable.BlockCache;

/**
 * What every partition store of one process shares: the block cache, the memtable budget, a
 * source of cache ids that are unique among its tables, the executors that run background flushes
 * and compactions and how fast compactions may go, the garbage-collection horizon of the
 * transaction manager above, and a monotonic clock.
 *
 * <p>Thread-safe. {@code gcHorizonCts} must return a timestamp such that no current or future
 * reader uses an older snapshot, and every version with a CTS at or below it has been applied.
 */
public final class StoreEnvironment {

    /**
     * The share of a core a background compaction takes by default: a compaction of a partition
     * that would take a core for most of a second takes a quarter of one for a few seconds.
     */
    public static final double COMPACTION_DUTY_CYCLE_DEFAULT = 0.25;

    private final BlockCache blockCache;
    private final AtomicLong nextCacheId = new AtomicLong(1);
    private final Executor maintenance;
    private final LongSupplier gcHorizonCts;
    private final Predicate<byte[]> expired;
    private final LongSupplier monotonicClockMs;
    private final MemtableBudget memtableBudget;
    private final Executor compactions;
    private final double compactionDutyCycle;

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
        this(blockCache, maintenance, maintenance, 1, gcHorizonCts, expired, monotonicClockMs, memtableBudget);
    }

    /**
     * @param maintenance runs background flushes; null: only explicit calls do
     * @param compactions runs background compactions (a thread of their own keeps a long
     *     compaction from holding up a flush that writers wait for); null: only explicit calls do
     * @param compactionDutyCycle the share of one core a background compaction may take, in
     *     (0, 1] (1: as fast as it goes); explicit {@link PartitionStore#compact} calls are not paced
     */
    public StoreEnvironment(BlockCache blockCache, Executor maintenance, Executor compactions, double compactionDutyCycle,
            LongSupplier gcHorizonCts, Predicate<byte[]> expired, LongSupplier monotonicClockMs,
            MemtableBudget memtableBudget) {
        if (blockCache == null || gcHorizonCts == null || expired == null || monotonicClockMs == null
                || memtableBudget == null) {
            throw new IllegalArgumentException("block cache, GC horizon, expiry, clock and memtable budget are required");
        }
        if (!(compactionDutyCycle > 0 && compactionDutyCycle <= 1)) {
            throw new IllegalArgumentException("compaction duty cycle must be in (0, 1], got " + compactionDutyCycle);
        }
        this.compactions = compactions;
        this.compactionDutyCycle = compactionDutyCycle;
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

    Executor compactions() {
        return compactions;
    }

    double compactionDutyCycle() {
        return compactionDutyCycle;
    }

    long nowMs() {
        return monotonicClockMs.getAsLong();
    }

    long gcHorizonCts() {
        return gcHorizonCts.getAsLong();
    }
}
