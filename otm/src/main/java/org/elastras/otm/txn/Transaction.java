package org.elastras.otm.txn;

import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.locks.ReentrantLock;
import org.elastras.storage.store.Version;

/**
 * The state of one open transaction inside a {@link TransactionManager}: its snapshot, its private
 * write set (which doubles as the list of write intents it holds), and for SERIALIZABLE the read
 * set to validate at commit.
 *
 * <p>Every call on the transaction holds {@link #lock}; the mutable collections are guarded by it.
 * {@link #state} and {@link #cts} are also read without the lock by other transactions that run
 * into this one's intents, and by the reaper.
 */
final class Transaction {

    /**
     * PREPARED is for a participant's branch of a cross-partition transaction only: it takes no more
     * calls and waits for its commit timestamp ({@link TransactionManager#voteBranch}).
     */
    enum State { ACTIVE, PREPARED, COMMITTING, COMMITTED, ABORTED }

    final long id;
    final PartitionSlot slot;
    final Isolation isolation;
    final String clientId;
    final long snapshot;
    /** The client's id for this transaction, null if it gave none (then no commit marker is written). */
    /** Set at begin, or later once by {@link TransactionManager#ensureTag} (under the lock). */
    volatile CommitTag tag;
    /** Non-null for a participant's branch of a cross-partition transaction. */
    final Branch branch;
    /**
     * A stored procedure call's transaction (not an interactive one, not a branch): aborted before
     * its commit, the call can run again from the start, so a live move's pause need not wait for it.
     */
    final boolean procedureCall;
    /** The marker's value (see {@link CommitTag}); a procedure sets its encoded result before commit. */
    volatile byte[] markerValue = {CommitTag.NO_RESULT};
    final ReentrantLock lock = new ReentrantLock();
    /** Completes with the CTS when committed, with 0 when aborted. */
    final CompletableFuture<Long> outcome = new CompletableFuture<>();

    /** Set (cts first, then state) under the partition's commit lock when the commit takes its CTS. */
    volatile State state = State.ACTIVE;
    volatile long cts;
    /** {@link System#nanoTime} at begin, for the commit latency only. */
    final long begunNanos = System.nanoTime();
    /**
     * Run before a call on this transaction waits on anything its thread does not control (a
     * branch's outcome): the thread's caller may hold prepared commits of other transactions,
     * whose CTSs hold this OTM's snapshot, and must finish them first. Null: nothing to do. Set
     * and run by the thread that drives the transaction.
     */
    Runnable beforeBlocking;
    /** Time of the last call, by the manager's clock; read by the reaper. */
    volatile long lastActivityMs;

    /** Guarded by lock: key -> value, or null for a delete. Every key here is an intent held. */
    final TreeMap<byte[], byte[]> writes = new TreeMap<>(Version::compareKeys);
    /**
     * Guarded by lock: key -> what this transaction adds to the row (its adds composed in order),
     * for keys it holds an adder's intent on ({@link TransactionManager#add}); never a key of
     * {@link #writes}. The row value is computed from the newest committed one when it commits.
     */
    final TreeMap<byte[], java.util.function.UnaryOperator<byte[]>> adds = new TreeMap<>(Version::compareKeys);
    /** Guarded by lock: bytes of keys plus values in {@link #writes}. */
    long writeBytes;
    /** Guarded by lock, SERIALIZABLE only: keys read from the snapshot. */
    final TreeSet<byte[]> readKeys = new TreeSet<>(Version::compareKeys);
    /**
     * Guarded by lock, SERIALIZABLE only: keys of {@link #readKeys} read in part (some columns of
     * the row) -> whether a newer value still shows what was read. Validation checks those keys by
     * value: a row changed only in columns this transaction did not read does not fail it.
     */
    final TreeMap<byte[], java.util.function.Predicate<byte[]>> readChecks = new TreeMap<>(Version::compareKeys);
    /** Guarded by lock, SERIALIZABLE only: ranges scanned, {from, toExclusive-or-null}. */
    final List<byte[][]> readRanges = new ArrayList<>();

    Transaction(long id, PartitionSlot slot, Isolation isolation, String clientId, long snapshot, long nowMs,
            CommitTag tag, Branch branch) {
        this(id, slot, isolation, clientId, snapshot, nowMs, tag, branch, false);
    }

    Transaction(long id, PartitionSlot slot, Isolation isolation, String clientId, long snapshot, long nowMs,
            CommitTag tag, Branch branch, boolean procedureCall) {
        this.id = id;
        this.procedureCall = procedureCall;
        this.tag = tag;
        this.branch = branch;
        this.slot = slot;
        this.isolation = isolation;
        this.clientId = clientId;
        this.snapshot = snapshot;
        this.lastActivityMs = nowMs;
    }

    /** Read-set entries held: keys plus ranges. REQUIRES: lock. */
    int readSetSize() {
        return readKeys.size() + readRanges.size();
    }

    boolean validatesReads() {
        return isolation == Isolation.SERIALIZABLE;
    }

    /**
     * Whether this transaction may commit before {@code cts}: it is committing or committed below
     * it, or it is a prepared branch whose CTS (chosen by its coordinator) is not known yet.
     */
    boolean committedBefore(long otherCts) {
        State s = state;
        return s == State.PREPARED || (s == State.COMMITTING || s == State.COMMITTED) && cts < otherCts;
    }

    @Override
    public String toString() {
        return "transaction " + id;
    }

    /**
     * For a conflict's message, which the slow-call log shows: {@code transaction 7 (ACTIVE for
     * 812 ms, a procedure call)}, so that a call that kept running into others tells what held it.
     */
    String describe() {
        return "transaction " + id + " (" + state + " for " + (System.nanoTime() - begunNanos) / 1_000_000 + " ms, "
                + (branch != null ? "a branch of a cross-partition transaction of partition " + branch.coordinator.partitionId()
                + (branch.voted != null ? ", voted" : "") : procedureCall ? "a procedure call"
                : "an interactive transaction") + ")";
    }
}
