package org.elastras.otm.txn;

import java.util.List;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.ReentrantLock;
import org.elastras.storage.store.PartitionStore;
import org.elastras.storage.store.Version;
import org.elastras.storage.wal.WalPosition;

/**
 * One partition a {@link TransactionManager} serves: its store, the write intents of its open
 * transactions, and the lock under which commits take their CTS.
 *
 * <p>Thread-safe: the intent map is concurrent; {@link #serving} is volatile and only written
 * under {@link #commitLock}.
 */
final class PartitionSlot {

    final long partitionId;
    final PartitionStore store;
    /**
     * Key -> the transaction holding the write intent on it (at most one: first updater wins).
     * Sorted, so that commit validation can find intents inside a scanned range.
     */
    final ConcurrentSkipListMap<byte[], Transaction> intents = new ConcurrentSkipListMap<>(Version::compareKeys);
    /**
     * Key -> the transactions holding an adder's intent on it ({@link TransactionManager#add}):
     * any number of adders share a key, no writer may hold it meanwhile. The lists are immutable
     * and replaced under {@link #addersLock}; an adder registers here before it looks for a
     * writer's intent, a writer takes its intent before it looks here, so of two racing one
     * always sees the other.
     */
    final ConcurrentSkipListMap<byte[], List<Transaction>> adders = new ConcurrentSkipListMap<>(Version::compareKeys);
    final Object addersLock = new Object();
    /**
     * Key -> the newest row value an adder's commit computed and logged but has not applied yet,
     * with its CTS. Written under {@link #commitLock} (where adders compute their values in CTS
     * order); an entry goes when its commit applied, unless a later adder replaced it.
     */
    final ConcurrentSkipListMap<byte[], Computed> computed = new ConcurrentSkipListMap<>(Version::compareKeys);

    /** A row value an adder's commit computed at {@code cts}. */
    record Computed(long cts, byte[] value) {
    }
    /**
     * Held while a commit takes its CTS and publishes itself as COMMITTING, so that every
     * transaction of this partition with a smaller CTS is visible as committing (or applied) to a
     * validation that runs after it.
     */
    final ReentrantLock commitLock = new ReentrantLock();
    /** Transactions of this partition that committed (read-only ones too), and that aborted. */
    final LongAdder commits = new LongAdder();
    final LongAdder aborts = new LongAdder();
    /** Transactions begun on this partition. */
    final LongAdder begins = new LongAdder();
    /** Begin-to-commit latency of the committed ones. */
    final LatencyRecorder commitLatency = new LatencyRecorder();
    /**
     * Guarded by {@link #commitLock}: the largest CTS a commit on this partition took, or a
     * participant's branch here was given. A branch prepared later is committed above it, so
     * commits of one partition that read or write the same keys are ordered by CTS as they were
     * validated.
     */
    long maxCtsSeen;
    /** Participants' branches prepared (or restored in doubt) and not ended; while any, reads check intents. */
    final java.util.concurrent.atomic.AtomicInteger branchesPending = new java.util.concurrent.atomic.AtomicInteger();
    /** False while a live move hands the partition over: no new transaction begins (open ones go on). */
    volatile boolean admitting = true;
    /** Set while a live move copies the partition: told every version applied. Written under {@code this}. */
    volatile CommitMirror mirror;
    /**
     * False once the partition is being removed: no begin, no new CTS. Set back only when a live
     * move's removal timed out and the partition serves on ({@code resumeAdmitting}).
     */
    volatile boolean serving = true;

    /** Registers {@code t} as an adder of {@code key}. */
    void addAdder(byte[] key, Transaction t) {
        synchronized (addersLock) {
            List<Transaction> now = adders.get(key);
            if (now == null) {
                adders.put(key, List.of(t));
            } else if (!now.contains(t)) {
                List<Transaction> next = new java.util.ArrayList<>(now.size() + 1);
                next.addAll(now);
                next.add(t);
                adders.put(key, List.copyOf(next));
            }
        }
    }

    /** Removes {@code t} from the adders of {@code key}. */
    void removeAdder(byte[] key, Transaction t) {
        synchronized (addersLock) {
            List<Transaction> now = adders.get(key);
            if (now == null || !now.contains(t)) {
                return;
            }
            if (now.size() == 1) {
                adders.remove(key);
            } else {
                List<Transaction> next = new java.util.ArrayList<>(now);
                next.remove(t);
                adders.put(key, List.copyOf(next));
            }
        }
    }

    /** Whether a transaction other than {@code t} holds an adder's intent on {@code key}. */
    boolean addedByOther(byte[] key, Transaction t) {
        List<Transaction> now = adders.get(key);
        return now != null && (now.size() > 1 || now.get(0) != t);
    }

    PartitionSlot(long partitionId, PartitionStore store) {
        this.partitionId = partitionId;
        this.store = store;
    }

    /**
     * Applies one commit's versions (all at {@code cts}, logged at {@code position} of log
     * {@code walId}) to the store, then tells the live move copying the partition, if any.
     */
    void apply(String walId, WalPosition position, long cts, List<Version> versions) {
        store.apply(walId, position, versions);
        CommitMirror m = mirror;
        if (m != null) {
            m.applied(cts, versions);
        }
    }
}
