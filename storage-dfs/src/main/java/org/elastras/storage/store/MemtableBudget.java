package org.elastras.storage.store;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.LongAdder;

/**
 * The memory every memtable of one process may hold together, in the bytes memtables account
 * ({@link Version#sizeBytes}): a partition's own limit ({@link StoreOptions#memtableBytesMax})
 * bounds one memtable, this bounds their sum, however many partitions an OTM serves.
 *
 * <ul>
 *   <li>When the active memtables together reach half the capacity, the largest of them that can
 *       flush is frozen and flushed (one such flush at a time: the next is chosen once that one
 *       froze or gave up). The other half is room for the frozen memtables being written out.</li>
 *   <li>While active and frozen memtables together hold the whole capacity, writers wait
 *       ({@link PartitionStore#awaitWriteCapacity}) until a flush frees some.</li>
 * </ul>
 * So one busy partition may grow its memtable to its own limit when it is alone, and thousands of
 * small tenants' memtables are flushed largest first before they hold more than the budget.
 *
 * <p>Thread-safe. Stores join through {@link #join} and leave when they close.
 */
public final class MemtableBudget {

    /** What a store shows the budget. */
    interface Member {
        /** Bytes in the active memtable now. */
        long activeBytes();

        /** Whether a flush asked for now would run (the store serves and its maintenance is not paused). */
        boolean canFlush();

        /**
         * Schedules a flush of the active memtable if the store can flush now; the store then
         * calls {@link Account#flushAttemptEnded} when that flush ends, whatever its outcome.
         *
         * @return false if no flush was scheduled (closed, recovering, maintenance paused)
         */
        boolean requestFlush();
    }

    private final long capacityBytes;
    private final long flushTriggerBytes;
    private final AtomicLong activeBytes = new AtomicLong();
    private final AtomicLong frozenBytes = new AtomicLong();
    private final Set<Account> accounts = ConcurrentHashMap.newKeySet();
    /** The account whose flush the budget asked for and that has not frozen or given up yet. */
    private final AtomicReference<Account> flushing = new AtomicReference<>();
    private final LongAdder flushesRequested = new LongAdder();
    private final LongAdder writerWaits = new LongAdder();
    /** Writers waiting for room; the monitor they wait on is this budget. */
    private int waiting;
    /**
     * No look for a memtable to flush before this ({@link System#nanoTime}): a look walks every
     * member, so while none can flush (all recovering, say) writers look at most once per interval.
     */
    private volatile long nextLookNanos = System.nanoTime();
    /** Shortest interval between two looks for a memtable to flush. */
    private static final long LOOK_INTERVAL_NANOS = TimeUnit.MILLISECONDS.toNanos(1);

    /** @param capacityBytes what all memtables together may hold, at least 64 KiB */
    public MemtableBudget(long capacityBytes) {
        if (capacityBytes < 64 * 1024) {
            throw new IllegalArgumentException("memtable budget must be at least 64 KiB, got " + capacityBytes);
        }
        this.capacityBytes = capacityBytes;
        this.flushTriggerBytes = capacityBytes / 2;
    }

    /** A budget no process reaches: each store's own limit is the only one. */
    public static MemtableBudget unbounded() {
        return new MemtableBudget(Long.MAX_VALUE);
    }

    /**
     * The default for a JVM: an eighth of its largest heap, at least 16 MiB. Memtables take about
     * twice the bytes they account on the heap, and up to the whole budget may be in them.
     */
    public static MemtableBudget forHeap(long maxHeapBytes) {
        return new MemtableBudget(Math.max(16L << 20, maxHeapBytes / 8));
    }

    public long capacityBytes() {
        return capacityBytes;
    }

    /** Bytes in active memtables of every member. */
    public long activeBytes() {
        return activeBytes.get();
    }

    /** Bytes in frozen memtables not flushed yet. */
    public long frozenBytes() {
        return frozenBytes.get();
    }

    /** Flushes the budget asked for since it was made. */
    public long flushesRequested() {
        return flushesRequested.sum();
    }

    /** Times a writer found the budget full and waited. */
    public long writerWaits() {
        return writerWaits.sum();
    }

    /** Whether a writer may go on: the memtables hold less than the capacity. */
    boolean hasRoom() {
        return activeBytes.get() + frozenBytes.get() < capacityBytes;
    }

    /**
     * Waits until {@link #hasRoom}, at most until {@code deadlineNanos} ({@link System#nanoTime}).
     *
     * @return false if the deadline passed first
     */
    boolean awaitRoom(long deadlineNanos) throws InterruptedException {
        if (hasRoom()) {
            return true;
        }
        writerWaits.increment();
        synchronized (this) {
            waiting++;
            try {
                while (!hasRoom()) {
                    long left = deadlineNanos - System.nanoTime();
                    if (left <= 0) {
                        return false;
                    }
                    TimeUnit.NANOSECONDS.timedWait(this, left);
                }
                return true;
            } finally {
                waiting--;
            }
        }
    }

    /** Makes {@code member} count against this budget until its account closes. */
    Account join(Member member) {
        Account account = new Account(member);
        accounts.add(account);
        return account;
    }

    /** Members joined and not closed. */
    int memberCount() {
        return accounts.size();
    }

    /** Asks the member with the largest active memtable that can flush to flush, unless one was asked already. */
    private void maybeFlush() {
        long now = System.nanoTime();
        if (flushing.get() != null || now - nextLookNanos < 0) {
            return;
        }
        nextLookNanos = now + LOOK_INTERVAL_NANOS;
        Account largest = null;
        long largestBytes = 0;
        for (Account a : accounts) {
            long bytes = a.member.activeBytes();
            if (bytes > largestBytes && a.member.canFlush()) {
                largest = a;
                largestBytes = bytes;
            }
        }
        if (largest == null || !flushing.compareAndSet(null, largest)) {
            return;
        }
        flushesRequested.increment();
        if (!largest.member.requestFlush()) {
            flushing.compareAndSet(largest, null);
        }
    }

    private void freed() {
        synchronized (this) {
            if (waiting > 0) {
                notifyAll();
            }
        }
    }

    /** One store's part of the budget. Its calls follow the store's memtables' lives. */
    final class Account {
        private final Member member;
        private boolean closed;

        private Account(Member member) {
            this.member = member;
        }

        /** The active memtable grew by {@code bytes}. */
        void grew(long bytes) {
            if (activeBytes.addAndGet(bytes) >= flushTriggerBytes) {
                maybeFlush();
            }
        }

        /** The active memtable of {@code bytes} was frozen (a new, empty one is active). */
        void froze(long bytes) {
            frozenBytes.addAndGet(bytes);
            activeBytes.addAndGet(-bytes);
            flushing.compareAndSet(this, null);
        }

        /** A frozen memtable of {@code bytes} was flushed and dropped. */
        void flushed(long bytes) {
            frozenBytes.addAndGet(-bytes);
            freed();
        }

        /** A flush this store scheduled ended, whether or not it froze anything. */
        void flushAttemptEnded() {
            flushing.compareAndSet(this, null);
        }

        /** The store closed: its memtables, active and frozen, are dropped. Idempotent. */
        synchronized void close(long active, long frozen) {
            if (closed) {
                return;
            }
            closed = true;
            accounts.remove(this);
            activeBytes.addAndGet(-active);
            frozenBytes.addAndGet(-frozen);
            flushing.compareAndSet(this, null);
            freed();
        }
    }
}
