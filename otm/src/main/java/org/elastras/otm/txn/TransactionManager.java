package org.elastras.otm.txn;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.invoke.VarHandle;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;
import java.util.function.Predicate;
import java.util.function.UnaryOperator;
import org.elastras.otm.txn.TransactionException.Reason;
import org.elastras.client.protocol.LatencyHistogram;
import org.elastras.storage.store.PartitionStore;
import org.elastras.storage.store.StoreStats;
import org.elastras.storage.store.UnappliedCommits;
import org.elastras.storage.store.Version;
import org.elastras.storage.util.CloseableIterator;
import org.elastras.storage.util.LimitExceededException;
import org.elastras.storage.wal.WalMetrics;
import org.elastras.storage.wal.WalPosition;
import org.elastras.storage.wal.WalRecord;
import org.elastras.storage.wal.WalWriter;

/**
 * The transaction manager of one OTM for the partitions it owns: snapshot reads merged with each
 * transaction's private writes, write-write conflicts resolved first-updater-wins when the write
 * happens, read-set validation at commit for SERIALIZABLE, and the commit pipeline
 * (take a CTS -> WAL append and group-commit sync -> acknowledge -> apply -> report readable).
 *
 * <p>Thread-safe: any thread may call any method. Calls on different transactions run in
 * parallel; calls on one transaction are serialised by that transaction's lock. IO (store reads,
 * waiting for the log's sync) happens on the calling thread; there are no threads here. Time comes
 * from the injected clock, and {@link #reap} is driven by the caller's timer.
 *
 * <h2>How conflicts are found</h2>
 * <ul>
 * <li>A write intent is an entry key -> transaction in the partition's intent map, taken with
 *     {@code putIfAbsent} at the first write of a key and released after the commit is applied (or
 *     at abort). A write first takes the intent, then reads the latest committed version: since a
 *     committer releases its intents only after its versions are applied, a concurrent committer is
 *     seen either as an intent or as a version newer than the writer's snapshot. Either aborts the
 *     writer at once with CONFLICT.</li>
 * <li>A commit takes its CTS and publishes itself as COMMITTING in one short critical section per
 *     partition. SERIALIZABLE validation then runs outside it: for each key read (and each range
 *     scanned) it looks first for an intent of a transaction that took a smaller CTS, then for a
 *     version committed between the snapshot and its own CTS. Every transaction of the partition
 *     with a smaller CTS published itself before this one took its CTS, so it is found as one or
 *     the other; a failed validation reports its CTS unused. Committed SERIALIZABLE transactions
 *     are therefore equivalent to running one at a time in CTS order. Read-only transactions read
 *     a gap-free snapshot, which is such a prefix, so they commit without validation.</li>
 * </ul>
 */
public final class TransactionManager {

    /** How many ended transaction ids are remembered, to tell "timed out" from "never existed". */
    private static final int RECENT_ENDINGS_MAX = 4096;
    /** Resolved commit ids remembered; beyond, the oldest are forgotten (their clients gave up long ago). */
    private static final int RESOLVED_TAGS_MAX = 100_000;
    /**
     * Longest wait of a cross-partition coordinator for the other adders of a row it adds to (they
     * are commits of this partition; see {@link #add}).
     */
    static final long ADDERS_WAIT_MS = 2_000;
    /** How often a wait for other adders looks whether they are still on the row. */
    private static final long ADDER_LOOK_NANOS = TimeUnit.MILLISECONDS.toNanos(1);
    /** Longest wait of a cross-partition commit for a commit timestamp above a bound. */
    private static final long BRANCH_WAIT_MS = 10_000;
    /**
     * How long ago the snapshot a garbage-collection horizon may reach was current: a branch or a
     * read begun at a snapshot younger than this is never refused as too old.
     */
    static final long GC_HORIZON_LAG_MS = 1_000;

    private final WalWriter wal;
    private final UnappliedCommits unapplied;
    private final TimestampSource timestamps;
    private final SnapshotTracker snapshots;
    private final TransactionLimits limits;
    private final LongSupplier clockMs;

    private final ConcurrentHashMap<Long, PartitionSlot> partitions = new ConcurrentHashMap<>();
    private final ConcurrentHashMap<Long, Transaction> transactions = new ConcurrentHashMap<>();
    private final ConcurrentHashMap<String, Integer> openPerClient = new ConcurrentHashMap<>();
    private final AtomicInteger open = new AtomicInteger();
    private final AtomicLong nextId = new AtomicLong(1);
    /**
     * The highest horizon {@link #gcHorizon} handed out: versions only snapshots below it could
     * see may be gone, so no transaction may begin below it.
     */
    private final AtomicLong gcFloor = new AtomicLong(-1);
    /** (clock ms, snapshot) samples, oldest first, at most one per eighth of the lag: the horizon's lag. */
    private final ArrayDeque<long[]> snapshotSamples = new ArrayDeque<>();
    /** Guarded by itself: recently ended transaction id -> how it ended, oldest first. */
    private final LinkedHashMap<Long, Ending> recentEndings = new LinkedHashMap<>();
    /** Set when a commit failed while its record was being logged (its durability is unknown). */
    private volatile boolean logFailed;
    /** Open and committing transactions that carry a commit id. */
    private final ConcurrentHashMap<CommitTag, Transaction> tagged = new ConcurrentHashMap<>();
    /** Commit ids resolved here, oldest first (bounded): none of them may begin again. Guarded by itself. */
    private final LinkedHashSet<CommitTag> resolvedTags = new LinkedHashSet<>();

    private final AtomicLong commits = new AtomicLong();
    private final AtomicLong aborts = new AtomicLong();

    private record Ending(Reason reason, long cts, String what) {
    }

    /**
     * @param wal the OTM's write-ahead log, shared by its partitions
     * @param unapplied the commit tracker the partition stores were given in {@code finishRecovery}
     * @param timestamps where commit timestamps come from
     * @param snapshots the snapshot counter; every CTS taken is reported to it
     * @param clockMs milliseconds of some monotonic clock, for idle timeouts
     */
    public TransactionManager(WalWriter wal, UnappliedCommits unapplied, TimestampSource timestamps,
            SnapshotTracker snapshots, TransactionLimits limits, LongSupplier clockMs) {
        if (wal == null || unapplied == null || timestamps == null || snapshots == null || limits == null
                || clockMs == null) {
            throw new IllegalArgumentException("wal, unapplied, timestamps, snapshots, limits and clock are required");
        }
        this.wal = wal;
        this.unapplied = unapplied;
        this.timestamps = timestamps;
        this.snapshots = snapshots;
        this.limits = limits;
        this.clockMs = clockMs;
    }

    // ---------------------------------------------------------------- partitions

    /**
     * Starts serving transactions on a partition. REQUIRES: the store finished recovery with this
     * manager's {@code UnappliedCommits} as its WAL cursor.
     */
    public void addPartition(long partitionId, PartitionStore store) {
        addPartition(partitionId, store, List.of());
    }

    /**
     * A participant's branch found in doubt by a partition's replay: its prepare record (logged by
     * a previous owner) without an outcome. See {@link #addPartition(long, PartitionStore, List)}.
     *
     * @param record the prepare record as logged (its writes and its branch marker)
     * @param versions its writes on this partition, at {@code cts}
     */
    public record RestoredBranch(CommitTag tag, BranchCoordinator coordinator, long cts, WalRecord record,
            List<Version> versions) {
    }

    /**
     * Starts serving a partition whose replay found branches in doubt: each is logged again in this
     * OTM's own log (so it no longer depends on the previous owner's), and held here as a branch
     * that voted: its intents block writers, a reader whose snapshot is at or above its CTS waits
     * for its outcome, and {@link #inDoubtBranches} offers it at once to be asked of its
     * coordinator. So the partition serves without waiting for any other partition, and partitions
     * whose branches wait on each other's coordinators can all open.
     *
     * @throws TransactionException LOG_FAILED or OVERLOADED if the branches could not be logged
     *     (the partition is not added)
     */
    public void addPartition(long partitionId, PartitionStore store, List<RestoredBranch> inDoubt) {
        if (store == null) {
            throw new IllegalArgumentException("partition " + partitionId + " needs a store");
        }
        PartitionSlot slot = new PartitionSlot(partitionId, store);
        List<PendingCommit> logged = new ArrayList<>(inDoubt.size());
        for (RestoredBranch r : inDoubt) {
            Transaction t = new Transaction(nextId.getAndIncrement(), slot, Isolation.SNAPSHOT, "recovery", r.cts() - 1,
                    clockMs.getAsLong(), r.tag(), new Branch(r.coordinator()));
            t.cts = r.cts();
            t.state = Transaction.State.COMMITTING;
            t.branch.restored = true;
            t.branch.pending = true;
            for (Version v : r.versions()) {
                t.writes.put(v.key(), v.value());
            }
            logged.add(PendingCommit.toLog(t, r.cts(), r.record(), r.versions(), unapplied.begin()));
        }
        if (!logged.isEmpty()) {
            log(logged);
            for (PendingCommit p : logged) {
                try {
                    if (p.logRefused != null) {
                        throw p.logRefused;
                    }
                    p.transaction.branch.votedAt = p.logged.join();
                } catch (RuntimeException e) {
                    for (PendingCommit q : logged) {
                        q.ticket.close();
                    }
                    throw new TransactionException(Reason.LOG_FAILED, false, "partition " + partitionId + " could not log"
                            + " again the " + logged.size() + " branches in doubt its replay found: " + e, e);
                }
                p.finished = true;
                p.transaction.branch.voted = p;
            }
        }
        for (PendingCommit p : logged) {
            Transaction t = p.transaction;
            for (byte[] key : t.writes.keySet()) {
                slot.intents.put(key, t);
            }
            slot.maxCtsSeen = Math.max(slot.maxCtsSeen, t.cts);
            slot.branchesPending.incrementAndGet();
            transactions.put(t.id, t);
            open.incrementAndGet();
            openPerClient.merge(t.clientId, 1, Integer::sum);
        }
        if (partitions.putIfAbsent(partitionId, slot) != null) {
            for (PendingCommit p : logged) {
                p.ticket.close();
                transactions.remove(p.transaction.id);
                releaseOpenSlot(p.transaction.clientId);
            }
            throw new IllegalStateException("partition " + partitionId + " is already served");
        }
    }

    /**
     * A read at {@code t}'s snapshot of a key that a participant's branch wrote waits for the
     * branch's outcome when the branch may commit at or below that snapshot: prepared (its CTS not
     * chosen yet) or voted at a CTS at or below it. The branch's versions are applied only once its
     * coordinator decided, while this OTM's snapshot may pass its CTS before (the CTS is another
     * OTM's; a restored branch was even prepared under a previous owner). Keys the branch did not
     * write are read at once. REQUIRES: t.lock.
     */
    private void awaitBranch(Transaction t, Transaction holder) {
        if (holder == null || holder == t || holder.branch == null) {
            return;
        }
        // A prepared branch's cts is the bound its CTS will be above; a voted one's, its CTS.
        Transaction.State state = holder.state;
        boolean mayBeVisible = state == Transaction.State.PREPARED ? holder.cts < t.snapshot
                : state == Transaction.State.COMMITTING && holder.cts <= t.snapshot;
        if (!mayBeVisible || holder.outcome.isDone()) {
            return;
        }
        if (t.beforeBlocking != null) {
            t.beforeBlocking.run();
        }
        long began = System.nanoTime();
        try {
            holder.outcome.get(BRANCH_WAIT_MS, TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new TransactionException(Reason.OVERLOADED, false, "interrupted waiting for a branch in doubt");
        } catch (ExecutionException | TimeoutException e) {
            throw new TransactionException(Reason.OVERLOADED, false, t + ": a key it reads was written by a branch of "
                    + holder.tag + " still in doubt after " + BRANCH_WAIT_MS + " ms (its coordinator cannot be asked"
                    + " yet); retry later");
        } finally {
            CallWaits.since(CallWaits.Cause.BRANCH_OUTCOME, began);
        }
    }

    /**
     * Takes the partition's commit lock, accounting the wait to the thread's {@link CallWaits}
     * when it is held by another commit (the common, free lock costs one {@code tryLock}).
     */
    private static void lockCommits(PartitionSlot slot) {
        if (!slot.commitLock.tryLock()) {
            long began = System.nanoTime();
            slot.commitLock.lock();
            CallWaits.since(CallWaits.Cause.COMMIT_LOCK, began);
        }
    }

    /** {@link #awaitBranch} for every intent in [from, toExclusive). REQUIRES: t.lock. */
    private void awaitBranches(Transaction t, byte[] from, byte[] toExclusive) {
        NavigableMap<byte[], Transaction> inRange = toExclusive == null
                ? t.slot.intents.tailMap(from, true) : t.slot.intents.subMap(from, true, toExclusive, false);
        for (Transaction holder : inRange.values()) {
            awaitBranch(t, holder);
        }
    }

    /**
     * Stops serving a partition: no new transaction or commit starts on it, open transactions are
     * aborted with NOT_OWNER, and commits already logging are waited for (up to
     * {@code drainTimeoutMs}). The caller then flushes and closes the store.
     *
     * @return the partition's store, or null if it was not served; the partition is forgotten
     *     either way
     * @throws IllegalStateException if a commit still runs after the timeout (the store must not be
     *     closed then; the partition stays registered as not serving)
     */
    public PartitionStore removePartition(long partitionId, long drainTimeoutMs) throws InterruptedException {
        PartitionSlot slot = partitions.get(partitionId);
        if (slot == null) {
            return null;
        }
        slot.commitLock.lock();
        try {
            slot.serving = false;
        } finally {
            slot.commitLock.unlock();
        }
        long deadlineNanos = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(drainTimeoutMs);
        for (Transaction t : transactions.values()) {
            if (t.slot != slot) {
                continue;
            }
            long leftNanos = deadlineNanos - System.nanoTime();
            if (!t.lock.tryLock(Math.max(0, leftNanos), TimeUnit.NANOSECONDS)) {
                throw new IllegalStateException(t + " on partition " + partitionId + " is still committing after "
                        + drainTimeoutMs + " ms; the partition is no longer serving but was not removed");
            }
            boolean voted;
            try {
                if (t.state == Transaction.State.ACTIVE || t.state == Transaction.State.PREPARED) {
                    abortLocked(t, Reason.NOT_OWNER, "its partition " + partitionId + " was closed on this OTM");
                }
                voted = t.branch != null && t.state == Transaction.State.COMMITTING;
            } finally {
                t.lock.unlock();
            }
            if (voted) {
                // A branch that voted waits for its coordinator's outcome, which it must apply here.
                try {
                    t.outcome.get(Math.max(0, deadlineNanos - System.nanoTime()), TimeUnit.NANOSECONDS);
                } catch (ExecutionException e) {
                    // ended anyway
                } catch (TimeoutException e) {
                    throw new IllegalStateException(t + " on partition " + partitionId + " voted and has no outcome after "
                            + drainTimeoutMs + " ms; the partition is no longer serving but was not removed");
                }
            }
        }
        partitions.remove(partitionId, slot);
        return slot.store;
    }

    /**
     * Starts telling {@code mirror} every version applied to the partition from now on (a live
     * move ships them to the destination). A version applied before this call is in the store
     * before it returns. At most one mirror per partition.
     *
     * @return false if the partition is not served here
     * @throws IllegalStateException if a mirror is set already
     */
    public boolean mirror(long partitionId, CommitMirror mirror) {
        PartitionSlot slot = partitions.get(partitionId);
        if (slot == null || !slot.serving) {
            return false;
        }
        synchronized (slot) {
            if (slot.mirror != null) {
                throw new IllegalStateException("partition " + partitionId + " is already being copied");
            }
            slot.mirror = mirror;
        }
        return true;
    }

    /** Stops the mirror of {@link #mirror}, if it is {@code mirror}. */
    public void unmirror(long partitionId, CommitMirror mirror) {
        PartitionSlot slot = partitions.get(partitionId);
        if (slot != null) {
            synchronized (slot) {
                if (slot.mirror == mirror) {
                    slot.mirror = null;
                }
            }
        }
    }

    /**
     * What {@link #stopAdmitting} found: what was open when it began (branches of cross-partition
     * transactions, procedure calls busy in one of their transaction's calls or committing, other
     * transactions), calls aborted to run again elsewhere, and transactions still open at its end.
     */
    public record Stopped(int branchesAtPause, int callsBusyAtPause, int othersAtPause, int callsAborted,
            int branchesAborted, int stillOpen, String firstStillOpen) {

        /**
         * For logs: {@code open at the pause: 1 branches, 0 busy calls, 0 others; 2 calls to re-run, 1
         * branches to re-run, 0 still open}, and what the first one still open at the grace's end was.
         */
        public String describe() {
            return "open at the pause: " + branchesAtPause + " branches, " + callsBusyAtPause + " busy calls, " + othersAtPause
                    + " others; " + callsAborted + " calls to re-run, " + branchesAborted + " branches to re-run, "
                    + stillOpen + " still open" + (firstStillOpen == null ? "" : ": " + firstStillOpen);
        }
    }

    /**
     * The first step of a live move's pause: new transactions on the partition are refused with
     * NOT_OWNER (clients retry at its next owner). Stored procedure calls still running (not yet
     * committing) are aborted with NOT_OWNER as soon as their transaction is between two of its
     * calls, or at their next call or commit ({@link #enter}): nothing of them was written, and the call runs again from the start at the next owner
     * (the server holds it until the move's outcome, then the client follows {@code movedTo}),
     * so the pause does not wait for a whole procedure. Interactive transactions go on: waits up
     * to {@code graceMs} for them to end, so that {@link #removePartition} aborts as few as
     * possible. Branches of cross-partition transactions get {@code branchGraceMs} (at most
     * {@code graceMs}) to vote; those still running then are aborted, as soon as they are between
     * two of their coordinator's requests, and their coordinators run the transaction again: a
     * coordinator may be waiting for a transaction whose branch begin this pause holds (a Payment
     * turning its W_YTD add into a write waits for the warehouse's other adders, one of them
     * beginning a branch here), a wait only the grace's end breaks. Branches that voted wait for
     * their coordinators' outcomes in {@link #removePartition}.
     */
    public Stopped stopAdmitting(long partitionId, long graceMs, long branchGraceMs) throws InterruptedException {
        PartitionSlot slot = partitions.get(partitionId);
        if (slot == null) {
            return new Stopped(0, 0, 0, 0, 0, 0, null);
        }
        slot.admitting = false;
        int branches = 0;
        int callsBusy = 0;
        int others = 0;
        for (Transaction t : transactions.values()) {
            Transaction.State state = t.state;
            if (t.slot != slot || state == Transaction.State.COMMITTED || state == Transaction.State.ABORTED) {
                continue;
            }
            if (t.branch != null) {
                branches++;
            } else if (t.procedureCall && (state != Transaction.State.ACTIVE || t.lock.isLocked())) {
                callsBusy++;
            } else if (!t.procedureCall) {
                others++;
            }
        }
        long paused = System.nanoTime();
        long deadline = paused + TimeUnit.MILLISECONDS.toNanos(graceMs);
        long branchDeadline = paused + TimeUnit.MILLISECONDS.toNanos(Math.min(branchGraceMs, graceMs));
        int callsAborted = 0;
        int branchesAborted = 0;
        while (true) {
            int open = 0;
            Transaction firstOpen = null;
            boolean branchesDue = System.nanoTime() >= branchDeadline;
            for (Transaction t : transactions.values()) {
                // Voted branches wait for their coordinators; removePartition waits for those.
                Transaction.State state = t.state;
                if (t.slot != slot || (state != Transaction.State.ACTIVE && state != Transaction.State.PREPARED)) {
                    continue;
                }
                boolean abortNow = t.procedureCall || (t.branch != null && branchesDue);
                if (abortNow && state == Transaction.State.ACTIVE && t.lock.tryLock()) {
                    try {
                        if (t.state == Transaction.State.ACTIVE) {
                            abortLocked(t, Reason.NOT_OWNER, "its partition " + partitionId + " is being handed over to"
                                    + (t.procedureCall ? " another OTM; the call runs again there"
                                    : " another OTM and the branch had not voted; its coordinator runs the transaction again"));
                            if (t.procedureCall) {
                                callsAborted++;
                            } else {
                                branchesAborted++;
                            }
                            continue;
                        }
                    } finally {
                        t.lock.unlock();
                    }
                }
                open++;
                if (firstOpen == null) {
                    firstOpen = t;
                }
            }
            if (open == 0 || System.nanoTime() >= deadline) {
                return new Stopped(branches, callsBusy, others, callsAborted, branchesAborted, open,
                        firstOpen == null ? null : firstOpen.describe());
            }
            Thread.sleep(1);
        }
    }

    /**
     * Undoes {@link #stopAdmitting}, and a {@link #removePartition} that timed out (the move was
     * given up before the partition was removed): the partition serves and admits again.
     */
    public void resumeAdmitting(long partitionId) {
        PartitionSlot slot = partitions.get(partitionId);
        if (slot != null) {
            slot.commitLock.lock();
            try {
                slot.serving = true;
            } finally {
                slot.commitLock.unlock();
            }
            slot.admitting = true;
        }
    }

    /** Whether this manager serves the partition. */
    public boolean serves(long partitionId) {
        PartitionSlot slot = partitions.get(partitionId);
        return slot != null && slot.serving;
    }

    // ---------------------------------------------------------------- begin, reads, writes

    /** Begins a transaction of an anonymous client. See {@link #begin(long, Isolation, String)}. */
    public long begin(long partitionId, Isolation isolation) {
        return begin(partitionId, isolation, "");
    }

    /**
     * Begins a transaction on a partition at the current snapshot.
     *
     * @param clientId who opens it, for the per-client limit on open transactions
     * @return the transaction id, for the other calls
     * @throws TransactionException NOT_OWNER, or LIMIT_EXCEEDED if too many transactions are open
     */
    public long begin(long partitionId, Isolation isolation, String clientId) {
        return begin(partitionId, isolation, clientId, null);
    }

    /**
     * Begins a transaction that carries the client's commit id {@code tag}: if it commits writes, a
     * commit marker goes with them, so {@link #resolve} can say later whether it committed.
     *
     * @throws TransactionException UNKNOWN_TRANSACTION if a transaction with this tag is open, or
     *     the tag was resolved as not committed (it may never commit now)
     */
    public long begin(long partitionId, Isolation isolation, String clientId, CommitTag tag) {
        return begin(partitionId, isolation, clientId, tag, false);
    }

    /**
     * Begins a transaction as {@link #begin(long, Isolation, String, CommitTag)}; {@code
     * procedureCall} marks a stored procedure call's, which a live move's pause aborts at once
     * rather than waiting for it (the call runs again at the next owner; see {@link #stopAdmitting}).
     */
    public long begin(long partitionId, Isolation isolation, String clientId, CommitTag tag, boolean procedureCall) {
        if (isolation == null || clientId == null) {
            throw new IllegalArgumentException("isolation and client id are required");
        }
        while (true) {
            Long id = tryBegin(partitionId, isolation, clientId, tag, procedureCall);
            if (id != null) {
                return id;
            }
            // The snapshot read fell below a horizon handed out meanwhile (this thread stalled
            // between reading it and registering): the current snapshot is above every horizon.
        }
    }

    /** One attempt of {@link #begin}: null if its snapshot fell below the GC floor (nothing held then). */
    private Long tryBegin(long partitionId, Isolation isolation, String clientId, CommitTag tag, boolean procedureCall) {
        PartitionSlot slot = admittingSlot(partitionId);
        reserveOpenSlot(clientId);
        Transaction t = new Transaction(nextId.getAndIncrement(), slot, isolation, clientId, snapshots.snapshot(),
                clockMs.getAsLong(), tag, null, procedureCall);
        if (tag != null) {
            // Atomic with resolve's "mark resolved, then look for an open one".
            synchronized (resolvedTags) {
                if (resolvedTags.contains(tag)) {
                    releaseOpenSlot(clientId);
                    throw new TransactionException(Reason.UNKNOWN_TRANSACTION, false, "commit id " + tag
                            + " was already resolved as not committed; begin with a new one");
                }
                if (tagged.putIfAbsent(tag, t) != null) {
                    releaseOpenSlot(clientId);
                    throw new TransactionException(Reason.UNKNOWN_TRANSACTION, false, "a transaction with commit id "
                            + tag + " is open already; commit ids are unique per transaction");
                }
            }
        }
        transactions.put(t.id, t);
        if (belowGcFloor(t.snapshot)) {
            transactions.remove(t.id);
            if (tag != null) {
                tagged.remove(tag, t);
            }
            releaseOpenSlot(clientId);
            return null;
        }
        slot.begins.increment();
        if (!slot.serving) {
            // removePartition may have scanned the transactions before this one was registered.
            transactions.remove(t.id);
            if (tag != null) {
                tagged.remove(tag, t);
            }
            releaseOpenSlot(clientId);
            throw notOwner(partitionId);
        }
        return t.id;
    }

    /**
     * Begins a read-only transaction at a given {@code snapshot} (REQUIRES: this OTM's snapshot
     * reached it): one part of a read that spans partitions at one snapshot. It should write
     * nothing; it validates nothing (one snapshot is a prefix of the commit order everywhere).
     */
    public long beginAt(long partitionId, String clientId, long snapshot) {
        if (snapshot > snapshots.snapshot() || snapshot < 0) {
            throw new TransactionException(Reason.OVERLOADED, false, "snapshot " + snapshot + " is not readable here yet"
                    + " (this OTM's snapshot is " + snapshots.snapshot() + "); retry");
        }
        PartitionSlot slot = admittingSlot(partitionId);
        reserveOpenSlot(clientId);
        Transaction t = new Transaction(nextId.getAndIncrement(), slot, Isolation.SNAPSHOT, clientId, snapshot,
                clockMs.getAsLong(), null, null);
        transactions.put(t.id, t);
        if (belowGcFloor(snapshot)) {
            transactions.remove(t.id);
            releaseOpenSlot(clientId);
            throw snapshotTooOld(snapshot);
        }
        if (!slot.serving) {
            transactions.remove(t.id);
            releaseOpenSlot(clientId);
            throw notOwner(partitionId);
        }
        return t.id;
    }

    /** Whether a tagged transaction committed: the answer to a client whose commit answer was lost. */
    public record Resolution(boolean committed, long cts, byte[] markerValue) {
    }

    /**
     * Says whether the transaction with {@code tag} committed on {@code partitionId}, finally: one
     * still open is aborted, one committing is waited for (bounded), and a tag found neither open
     * nor committed is remembered as resolved, so that it can never begin (and commit) afterwards.
     * A committed one is found by its marker, also after the partition moved or was recovered.
     *
     * @throws TransactionException NOT_OWNER if the partition is not served here; OVERLOADED if a
     *     commit in progress did not end within {@code waitMs}
     */
    public Resolution resolve(long partitionId, CommitTag tag, long waitMs) throws InterruptedException {
        PartitionSlot slot = servingSlot(partitionId);
        refuseIfLogFailed(tag);
        Transaction t;
        synchronized (resolvedTags) {
            resolvedTags.add(tag);
            if (resolvedTags.size() > RESOLVED_TAGS_MAX) {
                Iterator<CommitTag> oldest = resolvedTags.iterator();
                oldest.next();
                oldest.remove();
            }
            t = tagged.get(tag);
        }
        if (t != null) {
            t.lock.lock();
            try {
                if (t.state == Transaction.State.ACTIVE) {
                    abortLocked(t, Reason.UNKNOWN_TRANSACTION, "its client asked whether it committed (its commit"
                            + " answer was lost); it had not");
                    return new Resolution(false, 0, null);
                }
            } finally {
                t.lock.unlock();
            }
            try {
                long cts = t.outcome.get(waitMs, TimeUnit.MILLISECONDS);
                refuseIfLogFailed(tag);
                if (cts > 0 || t.state != Transaction.State.COMMITTED) {
                    return cts > 0 ? new Resolution(true, cts, t.markerValue) : new Resolution(false, 0, null);
                }
            } catch (ExecutionException e) {
                return new Resolution(false, 0, null);
            } catch (TimeoutException e) {
                throw new TransactionException(Reason.OVERLOADED, false, "the commit of " + tag + " is still in progress"
                        + " after " + waitMs + " ms; ask again");
            }
        }
        Version marker;
        try {
            marker = slot.store.getVersion(tag.markerKey(), Long.MAX_VALUE);
        } catch (IOException e) {
            throw new TransactionException(Reason.STORAGE_FAILED, false, "cannot read the commit marker of " + tag
                    + ": " + e, e);
        }
        if (marker == null || marker.isTombstone()) {
            return new Resolution(false, 0, null);
        }
        return new Resolution(true, marker.cts(), marker.value());
    }

    /**
     * Once a commit failed while its record was being logged, this OTM cannot tell whether a commit
     * id committed: the record may be durable and replayed by the partition's next owner, which
     * alone can answer. So it refuses, as a non-owner, and the client asks again elsewhere.
     */
    private void refuseIfLogFailed(CommitTag tag) {
        if (logFailed) {
            throw new TransactionException(Reason.NOT_OWNER, false, "this OTM's log failed, so whether " + tag
                    + " committed is decided by the recovery of the partition's next owner; ask it");
        }
    }

    /**
     * The transaction's commit id, giving it a new one if it has none: a transaction that becomes
     * a cross-partition coordinator needs one (its branches ask for its outcome by it).
     */
    public CommitTag ensureTag(long txnId) {
        Transaction t = enter(txnId);
        try {
            if (t.tag == null) {
                CommitTag tag = new CommitTag(System.currentTimeMillis(), java.util.concurrent.ThreadLocalRandom.current().nextLong());
                synchronized (resolvedTags) {
                    if (tagged.putIfAbsent(tag, t) != null) {
                        throw new IllegalStateException("a generated commit id collided: " + tag);
                    }
                }
                t.tag = tag;
            }
            return t.tag;
        } finally {
            leave(t);
        }
    }

    /** Sets the value the commit marker of {@code txnId} will hold (a procedure's encoded result). */
    public void setMarkerValue(long txnId, byte[] value) {
        Transaction t = transactions.get(txnId);
        if (t != null) {
            t.markerValue = value;
        }
    }

    /** The snapshot a transaction reads at. */
    public long snapshotOf(long txnId) {
        return inspect(txnId, t -> t.snapshot);
    }

    /** Reads something of an open transaction under its lock. */
    private <T> T inspect(long txnId, java.util.function.Function<Transaction, T> what) {
        Transaction t = enter(txnId);
        try {
            return what.apply(t);
        } finally {
            leave(t);
        }
    }

    /**
     * Sets what a call on {@code txnId} runs before it waits on another transaction's outcome (see
     * {@link RowTransaction#beforeBlocking}).
     */
    public void beforeBlocking(long txnId, Runnable hook) {
        inspect(txnId, t -> t.beforeBlocking = hook);
    }

    /** Whether a transaction has written nothing (so far). */
    public boolean writesNothing(long txnId) {
        return inspect(txnId, t -> t.writes.isEmpty() && t.adds.isEmpty());
    }

    /** The isolation level of a transaction. */
    public Isolation isolationOf(long txnId) {
        return inspect(txnId, t -> t.isolation);
    }

    /** Who opened a transaction (for the per-client limit of its branches). */
    public String clientOf(long txnId) {
        return inspect(txnId, t -> t.clientId);
    }

    /** The partition a transaction runs on. */
    public long partitionOf(long txnId) {
        return inspect(txnId, t -> t.slot.partitionId);
    }

    /**
     * The value of {@code key} as this transaction sees it: its own write if it wrote the key, else
     * the snapshot's value; null if absent or deleted.
     */
    public byte[] get(long txnId, byte[] key) {
        return get(txnId, key, null);
    }

    /**
     * {@link #get} of a part of the row: SERIALIZABLE validation then checks the key by value,
     * failing only if the newest value before this transaction's CTS does not pass
     * {@code stillSeen} (it changed what was read), instead of whenever the key was committed
     * again after the snapshot. A full read of the same key makes it a full read again.
     *
     * @param stillSeen null for a full read; else whether a newer value (null: deleted) still
     *     shows what this read returned
     */
    public byte[] get(long txnId, byte[] key, Predicate<byte[]> stillSeen) {
        Transaction t = enter(txnId);
        try {
            checkKey(key);
            if (t.writes.containsKey(key)) {
                byte[] own = t.writes.get(key);
                return own == null ? null : own.clone();
            }
            UnaryOperator<byte[]> added = t.adds.get(key);
            if (t.validatesReads() && !t.readKeys.contains(key) && t.readSetSize() >= limits.readSetKeysMax()) {
                throw limit(t, "read set", t.readSetSize() + 1, limits.readSetKeysMax(), "readSetKeysMax");
            }
            if (t.slot.branchesPending.get() > 0) {
                awaitBranch(t, t.slot.intents.get(key));
            }
            byte[] value;
            try {
                value = t.slot.store.get(key, t.snapshot);
                value = value == null ? null : value.clone();
            } catch (IOException | UncheckedIOException e) {
                throw storageFailed(t, e);
            }
            if (t.validatesReads()) {
                boolean first = t.readKeys.add(key.clone());
                if (stillSeen == null || added != null) {
                    t.readChecks.remove(key);
                } else if (first) {
                    t.readChecks.put(key.clone(), stillSeen);
                } else {
                    Predicate<byte[]> before = t.readChecks.get(key);
                    if (before != null) {
                        t.readChecks.put(key, before.and(stillSeen));
                    }
                }
            }
            return added == null || value == null ? value : added.apply(value);
        } finally {
            leave(t);
        }
    }

    /**
     * Buffers a write of {@code key} privately. The first write of a key takes its write intent:
     * if another transaction holds it, or a version newer than this transaction's snapshot is
     * committed, this transaction is aborted now with CONFLICT (first updater wins).
     */
    public void put(long txnId, byte[] key, byte[] value) {
        if (value == null) {
            throw new IllegalArgumentException("put needs a value; use delete to remove a key");
        }
        write(txnId, key, value);
    }

    /** Buffers a delete of {@code key}; conflicts as {@link #put}. */
    public void delete(long txnId, byte[] key) {
        write(txnId, key, null);
    }

    private void write(long txnId, byte[] key, byte[] value) {
        Transaction t = enter(txnId);
        try {
            checkKey(key);
            if (value != null && value.length > limits.valueBytesMax()) {
                throw limit(t, "value size", value.length, limits.valueBytesMax(), "valueBytesMax");
            }
            boolean had = t.writes.containsKey(key);
            long oldBytes = had ? key.length + lengthOf(t.writes.get(key)) : 0;
            long newBytes = t.writeBytes - oldBytes + key.length + lengthOf(value);
            if (newBytes > limits.writeSetBytesMax()) {
                throw limit(t, "write set bytes", newBytes, limits.writeSetBytesMax(), "writeSetBytesMax");
            }
            if (!had && !t.adds.containsKey(key)) {
                checkRoomForAnotherKey(t);
            }
            byte[] ownValue = value == null ? null : value.clone();
            if (had) {
                t.writes.put(key, ownValue);
            } else {
                byte[] ownKey = key.clone();
                acquireIntent(t, ownKey);
                // A write after this transaction's own add replaces it (its value includes the add
                // if the caller read the row first): the key is now written, not added to.
                if (t.adds.remove(ownKey) != null) {
                    t.slot.removeAdder(ownKey, t);
                }
                t.writes.put(ownKey, ownValue);
            }
            t.writeBytes = newBytes;
        } finally {
            leave(t);
        }
    }

    /** First updater wins. REQUIRES: t.lock, t does not hold the intent yet. */
    private void acquireIntent(Transaction t, byte[] key) {
        PartitionSlot slot = t.slot;
        Transaction holder = slot.intents.putIfAbsent(key, t);
        if (holder != null) {
            abortLocked(t, Reason.CONFLICT, "it wrote a key " + holder + " had written first");
            throw new TransactionException(Reason.CONFLICT, true, holder.id, 0, t + " aborted: " + holder.describe()
                    + " is writing the same key (first updater wins); run the transaction again", null);
        }
        // Intent first, then adders (see PartitionSlot#adders): an adder that registered before
        // is seen here, one that registers after sees this intent.
        if (slot.addedByOther(key, t)) {
            slot.intents.remove(key, t);
            Transaction adder = firstOtherAdder(slot, key, t);
            abortLocked(t, Reason.CONFLICT, "it wrote a key other transactions are adding to");
            throw new TransactionException(Reason.CONFLICT, true, adder == null ? 0 : adder.id, 0, t
                    + " aborted: " + (adder == null ? "another transaction" : adder.describe()) + " is adding to the same"
                    + " row (first updater wins); run the transaction again", null);
        }
        // The intent is ours from here on; a committer that released it before us has applied.
        // Only a version newer than the snapshot matters: tables holding none are not searched.
        Version latest;
        try {
            latest = slot.store.getVersionNewerThan(key, t.snapshot, Long.MAX_VALUE);
        } catch (IOException | UncheckedIOException e) {
            slot.intents.remove(key, t);
            throw storageFailed(t, e);
        }
        if (latest != null) {
            slot.intents.remove(key, t);
            abortLocked(t, Reason.CONFLICT, "it wrote a key committed at CTS " + latest.cts() + " after its snapshot");
            throw new TransactionException(Reason.CONFLICT, true, 0, latest.cts(), t + " aborted: the key was written by a"
                    + " transaction that committed at CTS " + latest.cts() + ", after this transaction's snapshot "
                    + t.snapshot + " (first updater wins); run the transaction again", null);
        }
    }

    private static Transaction firstOtherAdder(PartitionSlot slot, byte[] key, Transaction t) {
        List<Transaction> now = slot.adders.get(key);
        if (now != null) {
            for (Transaction a : now) {
                if (a != t) {
                    return a;
                }
            }
        }
        return null;
    }

    /**
     * Adds to a row without reading it: {@code add} maps the row's value to the value with the
     * addition made (a sum on a numeric column, say), and is applied at commit to the newest
     * committed value, not to this transaction's snapshot. Adds to one row therefore commute:
     * any number of transactions may hold an adder's intent on a key at once, and none of them
     * conflicts with the others or with versions committed after its snapshot; a writer of the key
     * (put, delete) conflicts with them as with another writer (first updater wins). Reads of the
     * key by this transaction see its snapshot's value with its own adds made. A key this
     * transaction already wrote gets the add at once (its value is its own).
     *
     * <p>At commit the values are computed in CTS order under the partition's commit lock and the
     * record is given to the log there, so that the log holds them in the order they build on each
     * other. A cross-partition coordinator's adds become writes when it prepares (it conflicts
     * then with other adders of the key); a participant's branch writes at once.
     *
     * <p>The row must exist: the add is tried on the snapshot's row now, and a missing row or an
     * add that does not fit ({@code add} throws) is a TYPE_MISMATCH that changed nothing. If the
     * row was deleted by the time of the commit, the commit aborts with CONFLICT.
     */
    public void add(long txnId, byte[] key, UnaryOperator<byte[]> add) {
        Transaction t = enter(txnId);
        try {
            checkKey(key);
            if (t.writes.containsKey(key)) {
                byte[] own = t.writes.get(key);
                if (own == null) {
                    throw noRowToAddTo(t, key, "this transaction deleted it");
                }
                byte[] next = tryAdd(t, add, own);
                long newBytes = t.writeBytes + next.length - own.length;
                if (newBytes > limits.writeSetBytesMax()) {
                    throw limit(t, "write set bytes", newBytes, limits.writeSetBytesMax(), "writeSetBytesMax");
                }
                t.writes.put(key, next);
                t.writeBytes = newBytes;
                return;
            }
            UnaryOperator<byte[]> before = t.adds.get(key);
            UnaryOperator<byte[]> composed = before == null ? add : v -> add.apply(before.apply(v));
            byte[] base;
            try {
                base = t.slot.store.get(key, t.snapshot);
            } catch (IOException | UncheckedIOException e) {
                throw storageFailed(t, e);
            }
            if (base == null) {
                throw noRowToAddTo(t, key, "its snapshot has no such row");
            }
            byte[] tried = tryAdd(t, composed, base);
            if (t.branch != null) {
                // A participant's branch commits when its coordinator says, at a CTS chosen then:
                // it writes the row as of its snapshot, conflicting with anyone else's change.
                byte[] ownKey = key.clone();
                checkRoomForAnotherKey(t);
                acquireIntent(t, ownKey);
                t.writes.put(ownKey, tried);
                t.writeBytes += ownKey.length + tried.length;
                return;
            }
            if (before == null) {
                checkRoomForAnotherKey(t);
                byte[] ownKey = key.clone();
                acquireAdderIntent(t, ownKey);
                t.adds.put(ownKey, composed);
            } else {
                t.adds.put(key, composed);
            }
        } finally {
            leave(t);
        }
    }

    /** A key more to write or add to must fit the write set. REQUIRES: t.lock. */
    private void checkRoomForAnotherKey(Transaction t) {
        if (t.writes.size() + t.adds.size() >= limits.writeSetKeysMax()) {
            throw limit(t, "write set", t.writes.size() + t.adds.size() + 1, limits.writeSetKeysMax(), "writeSetKeysMax");
        }
    }

    private static byte[] tryAdd(Transaction t, UnaryOperator<byte[]> add, byte[] value) {
        try {
            byte[] next = add.apply(value.clone());
            if (next == null) {
                throw new IllegalArgumentException("the add removed the row");
            }
            return next;
        } catch (TransactionException e) {
            throw e;
        } catch (RuntimeException e) {
            throw new TransactionException(Reason.TYPE_MISMATCH, false, "the add does not apply to the row: "
                    + e.getMessage() + "; nothing was changed and " + t + " is still open", e);
        }
    }

    private static TransactionException noRowToAddTo(Transaction t, byte[] key, String why) {
        return new TransactionException(Reason.TYPE_MISMATCH, false, "an add needs an existing row, and " + why
                + "; nothing was changed and " + t + " is still open");
    }

    /** Shares the key with other adders; conflicts with a writer. REQUIRES: t.lock, no intent of t on the key. */
    private void acquireAdderIntent(Transaction t, byte[] key) {
        PartitionSlot slot = t.slot;
        slot.addAdder(key, t);
        Transaction holder = slot.intents.get(key);
        if (holder != null && holder != t) {
            slot.removeAdder(key, t);
            abortLocked(t, Reason.CONFLICT, "it added to a key " + holder + " had written first");
            throw new TransactionException(Reason.CONFLICT, true, holder.id, 0, t + " aborted: " + holder.describe()
                    + " is writing the row it adds to (first updater wins); run the transaction again", null);
        }
    }

    /**
     * The rows with keys in [{@code fromKey}, {@code toKeyExclusive}) as this transaction sees
     * them (the snapshot merged with its own writes and deletes), in key order, at most
     * {@code limit}.
     *
     * @param fromKey null or empty: from the first key
     * @param toKeyExclusive null: to the last key
     */
    public List<KeyValue> scan(long txnId, byte[] fromKey, byte[] toKeyExclusive, int limit) {
        Transaction t = enter(txnId);
        try {
            if (limit < 0 || limit > limits.scanRowsMax()) {
                throw limit(t, "scan limit", limit, limits.scanRowsMax(), "scanRowsMax");
            }
            byte[] from = fromKey == null ? new byte[0] : fromKey;
            checkKey(from);
            if (toKeyExclusive != null) {
                checkKey(toKeyExclusive);
            }
            if (limit == 0 || (toKeyExclusive != null && Version.compareKeys(from, toKeyExclusive) >= 0)) {
                return List.of();
            }
            if (t.validatesReads() && t.readSetSize() + limit + 1L > limits.readSetKeysMax()) {
                throw limit(t, "read set after a scan of up to " + limit + " rows", t.readSetSize() + limit + 1L,
                        limits.readSetKeysMax(), "readSetKeysMax");
            }
            if (t.slot.branchesPending.get() > 0) {
                awaitBranches(t, from, toKeyExclusive);
            }
            NavigableMap<byte[], byte[]> own = toKeyExclusive == null
                    ? t.writes.tailMap(from, true) : t.writes.subMap(from, true, toKeyExclusive, false);
            int ownDeletes = 0;
            for (byte[] v : own.values()) {
                if (v == null) {
                    ownDeletes++;
                }
            }
            // Each own delete hides at most one stored row, so this many stored rows fill the limit.
            int storeLimit = (int) Math.min(Integer.MAX_VALUE, (long) limit + ownDeletes);
            List<KeyValue> rows = new ArrayList<>(Math.min(limit, 1024));
            List<byte[]> storedKeys = new ArrayList<>();
            try (CloseableIterator<Version> stored = t.slot.store.scan(from, toKeyExclusive, t.snapshot, storeLimit)) {
                Iterator<Map.Entry<byte[], byte[]>> mine = own.entrySet().iterator();
                Version s = stored.hasNext() ? stored.next() : null;
                Map.Entry<byte[], byte[]> m = mine.hasNext() ? mine.next() : null;
                while (rows.size() < limit && (s != null || m != null)) {
                    int c = s == null ? 1 : m == null ? -1 : Version.compareKeys(s.key(), m.getKey());
                    if (c < 0) {
                        UnaryOperator<byte[]> added = t.adds.get(s.key());
                        rows.add(new KeyValue(s.key().clone(), added == null ? s.value().clone() : added.apply(s.value().clone())));
                        storedKeys.add(s.key());
                        s = stored.hasNext() ? stored.next() : null;
                    } else {
                        if (m.getValue() != null) {
                            rows.add(new KeyValue(m.getKey().clone(), m.getValue().clone()));
                        }
                        if (c == 0) {
                            s = stored.hasNext() ? stored.next() : null;
                        }
                        m = mine.hasNext() ? mine.next() : null;
                    }
                }
            } catch (UncheckedIOException e) {
                throw storageFailed(t, e);
            }
            if (t.validatesReads()) {
                byte[] readEnd = rows.size() == limit
                        ? successor(rows.get(rows.size() - 1).key()) : toKeyExclusive;
                t.readRanges.add(new byte[][] {from.clone(), readEnd == null ? null : readEnd.clone()});
                for (byte[] k : storedKeys) {
                    if (readEnd == null || Version.compareKeys(k, readEnd) < 0) {
                        t.readKeys.add(k);
                    }
                }
            }
            return rows;
        } finally {
            leave(t);
        }
    }

    // ---------------------------------------------------------------- commit, abort

    /**
     * Commits: a transaction that wrote nothing just ends; otherwise it takes a CTS, validates its
     * read set (SERIALIZABLE), appends its write set to the WAL as one record, waits for the
     * group-commit sync (only then is the commit acknowledged), applies the versions to the store,
     * reports the CTS readable and releases its intents.
     *
     * @throws TransactionException with the transaction aborted: SERIALIZATION_FAILURE, NOT_OWNER,
     *     LIMIT_EXCEEDED (the record is too large to log), OVERLOADED, LOG_FAILED (the outcome is
     *     unknown: the log died while syncing)
     */
    public CommitResult commit(long txnId) {
        PendingCommit pending = prepareCommit(txnId);
        log(List.of(pending));
        return finishCommit(pending);
    }

    /**
     * The first half of {@link #commit}: a transaction that wrote nothing ends here; otherwise it
     * takes a CTS, validates its read set (SERIALIZABLE) and builds its log record, and stays
     * COMMITTING and locked by the calling thread. REQUIRES: the caller then calls {@link #log} and
     * {@link #finishCommit} on this thread, whatever happens in between (the lock is what a
     * partition's close waits for).
     *
     * @throws TransactionException with the transaction aborted (nothing held): as {@link #commit}
     */
    public PendingCommit prepareCommit(long txnId) {
        return prepare(txnId, false, 0);
    }

    /**
     * {@link #prepareCommit} for the coordinator of a cross-partition transaction: its record is
     * logged even if it wrote nothing here, since its commit marker is the transaction's outcome,
     * and its CTS is above {@code above} (the largest bound the participants' prepares returned).
     * After it, the caller collects the participants' votes and then either logs and finishes the
     * commit as usual or calls {@link #abandon}.
     *
     * @throws TransactionException with the transaction aborted: as {@link #commit}, and
     *     UNKNOWN_TRANSACTION if it carries no commit id
     */
    public PendingCommit prepareCoordinatedCommit(long txnId, long above) {
        return prepare(txnId, true, above);
    }

    /**
     * The first step of a cross-partition coordinator's commit, before any participant prepares:
     * its adds become writes now ({@link #addsBecomeWrites}), while its branches are still
     * active. Done after they prepared (as {@link #prepareCoordinatedCommit} still does for a
     * caller that skips this step), its wait for this partition's other adders could close a
     * cycle: a reader of a prepared branch's key waits for the transaction's outcome, and that
     * reader may be one of the adders waited for (a TPC-C Payment for another warehouse's customer
     * who was just paid by this one). Both then stalled until the wait's 2 s bound (session 22).
     * With the adds converted first, no branch of this transaction is prepared while it waits, and
     * an adder that comes later meets the writer's intent and steps back at once.
     *
     * @throws TransactionException with the transaction aborted: CONFLICT or SERIALIZATION_FAILURE
     *     as {@link #prepareCoordinatedCommit}; UNKNOWN_TRANSACTION if it is not open or is a branch
     */
    public void prepareCoordinatorsAdds(long txnId) {
        Transaction t = enter(txnId);
        try {
            if (t.branch != null) {
                throw branchIsNotCommittedHere(t);
            }
            if (!t.adds.isEmpty()) {
                addsBecomeWrites(t);
            }
        } finally {
            leave(t);
        }
    }

    private static TransactionException branchIsNotCommittedHere(Transaction t) {
        return new TransactionException(Reason.UNKNOWN_TRANSACTION, false, t + " is a participant's branch; its coordinator"
                + " commits it");
    }

    private PendingCommit prepare(long txnId, boolean coordinated, long above) {
        Transaction t = enter(txnId);
        boolean prepared = false;
        try {
            if (coordinated && t.tag == null) {
                abortLocked(t, Reason.UNKNOWN_TRANSACTION, "it spans partitions but carries no commit id");
                throw new TransactionException(Reason.UNKNOWN_TRANSACTION, false, t + " spans partitions and so needs a"
                        + " commit id (the outcome its participants ask for); begin it with one");
            }
            if (t.branch != null) {
                throw branchIsNotCommittedHere(t);
            }
            if (t.writes.isEmpty() && t.adds.isEmpty() && !coordinated) {
                end(t, Transaction.State.COMMITTED, null, "committed (read-only)");
                commits.incrementAndGet();
                return PendingCommit.readOnly(new CommitResult(t.snapshot, true));
            }
            if (coordinated && !liftAbove(above)) {
                abortLocked(t, Reason.OVERLOADED, "no commit timestamp above " + above + " in time");
                throw new TransactionException(Reason.OVERLOADED, true, t + " aborted: no commit timestamp above "
                        + above + " arrived in time; run it again");
            }
            if (coordinated && !t.adds.isEmpty()) {
                addsBecomeWrites(t);
            }
            if (!t.adds.isEmpty()) {
                PendingCommit pending = prepareAdder(t);
                prepared = true;
                return pending;
            }
            PartitionSlot slot = t.slot;
            long cts;
            lockCommits(slot);
            try {
                cts = takeCts(t);
            } finally {
                slot.commitLock.unlock();
            }
            if (t.validatesReads()) {
                validateReads(t, cts);
            }
            awaitWriteCapacity(t, cts);
            PendingCommit pending = buildRecord(t, cts);
            prepared = true;
            return pending;
        } finally {
            if (!prepared) {
                leave(t);
            }
        }
    }

    /**
     * The commit of a transaction that adds to rows ({@link #add}): in one critical section under
     * the partition's commit lock it takes its CTS, validates its reads (SERIALIZABLE), computes
     * each added row from the newest value committed before it (applied, or computed by an
     * earlier adder and not applied yet) and gives its record to the log. Adders of a row thus
     * compute and log in CTS order, each on top of the one before; nothing that can fail comes
     * after a computed value is published except the log itself, and a record lost with the log
     * takes every later one with it. Returns the commit logged (or refused: finishing it aborts).
     * REQUIRES: t.lock, t not a branch, not coordinated.
     */
    private PendingCommit prepareAdder(Transaction t) {
        PartitionSlot slot = t.slot;
        awaitWriteCapacity(t, 0);
        lockCommits(slot);
        try {
            long cts = takeCts(t);
            if (t.validatesReads()) {
                validateReads(t, cts);
            }
            List<PartitionSlot.Computed> values = new ArrayList<>(t.adds.size());
            for (Map.Entry<byte[], UnaryOperator<byte[]>> a : t.adds.entrySet()) {
                byte[] key = a.getKey();
                PartitionSlot.Computed before = slot.computed.get(key);
                byte[] base;
                try {
                    base = before != null ? before.value() : slot.store.get(key, Long.MAX_VALUE);
                } catch (IOException | UncheckedIOException e) {
                    giveUpCts(t, cts);
                    throw storageFailed(t, e);
                }
                values.add(new PartitionSlot.Computed(cts, addedRow(t, base, a.getValue(), () -> giveUpCts(t, cts))));
            }
            int i = 0;
            for (byte[] key : t.adds.keySet()) {
                byte[] value = values.get(i++).value();
                t.writes.put(key, value);
                t.writeBytes += key.length + value.length;
            }
            PendingCommit pending = buildRecord(t, cts);
            log(List.of(pending));
            pending.loggedAtPrepare = true;
            if (pending.logged != null) {
                i = 0;
                for (byte[] key : t.adds.keySet()) {
                    slot.computed.put(key, values.get(i++));
                }
            }
            return pending;
        } finally {
            slot.commitLock.unlock();
        }
    }

    /**
     * A coordinator's adds become writes before it prepares: its CTS is chosen after its
     * participants vote and it may still be given up, so nothing may build on its values. It takes
     * each key's writer's intent (CONFLICT if another transaction adds to or writes the key) and
     * computes the row from the newest committed value, which nobody can change while it holds the
     * intent. REQUIRES: t.lock, t ACTIVE with adds.
     */
    private void addsBecomeWrites(Transaction t) {
        PartitionSlot slot = t.slot;
        stepAsideForWriters(t);
        for (Map.Entry<byte[], UnaryOperator<byte[]>> a : List.copyOf(t.adds.entrySet())) {
            byte[] key = a.getKey();
            Transaction holder = slot.intents.putIfAbsent(key, t);
            if (holder != null) {
                abortLocked(t, Reason.CONFLICT, "another transaction writes a row it adds to");
                throw new TransactionException(Reason.CONFLICT, true, holder.id, 0, t + " aborted: " + holder.describe()
                        + " writes a row it adds to (first updater wins); run the transaction again", null);
            }
            // The writer's intent is ours: adders that come now see it and step back; the ones
            // already adding are this partition's own commits, which end soon. Waiting for them
            // (rather than giving up) keeps a steady stream of adders from starving this commit.
            Transaction stillAdding = awaitOtherAdders(t, key);
            if (stillAdding != null) {
                slot.intents.remove(key, t);
                abortLocked(t, Reason.CONFLICT, "another transaction kept adding to a row it adds to");
                throw new TransactionException(Reason.CONFLICT, true, stillAdding.id, 0, t + " aborted: "
                        + stillAdding.describe() + " was still adding to a row it adds to after " + ADDERS_WAIT_MS
                        + " ms; run the transaction"
                        + " again", null);
            }
            Version latest;
            try {
                latest = slot.store.getVersion(key, Long.MAX_VALUE);
            } catch (IOException | UncheckedIOException e) {
                slot.intents.remove(key, t);
                throw storageFailed(t, e);
            }
            byte[] base = latest == null || latest.isTombstone() ? null : latest.value();
            if (base != null && t.validatesReads() && t.readKeys.contains(key) && latest.cts() > t.snapshot
                    && !stillSeenIn(t, key, base)) {
                // Validated here, not at commit: the key becomes a write, which validation
                // passes by (nobody can commit it while this transaction holds its intent).
                slot.intents.remove(key, t);
                abortLocked(t, Reason.SERIALIZATION_FAILURE, "a row it read and adds to was committed again");
                throw new TransactionException(Reason.SERIALIZATION_FAILURE, true, 0, latest.cts(), t
                        + " aborted at commit: a row it read and adds to was committed again at CTS "
                        + latest.cts() + " (SERIALIZABLE); run the transaction again", null);
            }
            byte[] value = addedRow(t, base, a.getValue(), () -> slot.intents.remove(key, t));
            t.adds.remove(key);
            slot.removeAdder(key, t);
            t.writes.put(key, value);
            t.writeBytes += key.length + value.length;
        }
    }

    /**
     * Takes t's CTS and publishes it COMMITTING; aborts t if its partition stopped serving or no
     * CTS came. REQUIRES: t.lock and its partition's commit lock.
     */
    private long takeCts(Transaction t) {
        requireServingToCommit(t);
        long cts;
        try {
            cts = timestamps.next();
        } catch (TransactionException e) {
            abortLocked(t, e.reason(), "no commit timestamp: " + e.getMessage());
            throw new TransactionException(e.reason(), true, t + " aborted: " + e.getMessage(), e);
        }
        t.cts = cts;
        t.state = Transaction.State.COMMITTING;
        t.slot.maxCtsSeen = Math.max(t.slot.maxCtsSeen, cts);
        return cts;
    }

    /**
     * The row value with t's {@code add} made on {@code base} (null: the row is gone). If there is
     * none (the row was deleted, the add no longer applies to it or removes it), runs
     * {@code undo} and aborts t with CONFLICT. REQUIRES: t.lock.
     */
    private byte[] addedRow(Transaction t, byte[] base, UnaryOperator<byte[]> add, Runnable undo) {
        String why;
        if (base == null) {
            why = "the row it adds to was deleted";
        } else {
            try {
                byte[] value = add.apply(base.clone());
                if (value != null) {
                    return value;
                }
                why = "its add removed the row";
            } catch (RuntimeException e) {
                why = "its add no longer applies to the row (" + e.getMessage() + ")";
            }
        }
        undo.run();
        abortLocked(t, Reason.CONFLICT, why);
        throw new TransactionException(Reason.CONFLICT, true, t + " aborted at commit: " + why
                + "; run the transaction again", null);
    }

    /** Whether t's read of part of {@code key}'s row still holds for {@code value}; false for a full read. */
    private static boolean stillSeenIn(Transaction t, byte[] key, byte[] value) {
        Predicate<byte[]> stillSeen = t.readChecks.get(key);
        return stillSeen != null && stillSeen.test(value);
    }

    /**
     * Before a coordinator's adds become writes: while another transaction holds the writer's
     * intent on a row it adds to (most often another coordinator whose adds became writes first,
     * and which waits for this one's adds to end), it takes its adds off their rows, waits for that
     * transaction to end and puts them back, instead of aborting after its body and its branches
     * ran (in TPC-C a Payment for another warehouse's customer ran again on both OTMs so, ~12 times
     * a second per OTM in session 29's first run). No wait cycle: off the rows, nothing of it is
     * waited for by the holder (its branches are not prepared yet; readers and validations do not
     * wait for an active transaction), and a writer that comes while it is off simply goes first.
     * Bounded by {@link #ADDERS_WAIT_MS}; past it the conversion meets the intent and aborts as
     * before. REQUIRES: t.lock, t ACTIVE with adds.
     */
    private void stepAsideForWriters(Transaction t) {
        PartitionSlot slot = t.slot;
        Transaction holder = writerOfAnAdd(t);
        if (holder == null) {
            return;
        }
        if (t.beforeBlocking != null) {
            t.beforeBlocking.run();
        }
        long began = System.nanoTime();
        long deadline = began + TimeUnit.MILLISECONDS.toNanos(ADDERS_WAIT_MS);
        try {
            while (holder != null) {
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    return;
                }
                for (byte[] key : t.adds.keySet()) {
                    slot.removeAdder(key, t);
                }
                try {
                    holder.outcome.get(left, TimeUnit.NANOSECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    holder = null;
                } catch (ExecutionException | TimeoutException e) {
                    // looked at again below
                } finally {
                    // Back on the rows, adder first and then a look for an intent, as acquireAdderIntent.
                    for (byte[] key : t.adds.keySet()) {
                        slot.addAdder(key, t);
                    }
                }
                if (holder != null) {
                    holder = writerOfAnAdd(t);
                }
            }
        } finally {
            CallWaits.since(CallWaits.Cause.ROW_WRITERS, began);
        }
    }

    /** Another transaction holding the writer's intent on a row t adds to, or null. */
    private static Transaction writerOfAnAdd(Transaction t) {
        for (byte[] key : t.adds.keySet()) {
            Transaction holder = t.slot.intents.get(key);
            if (holder != null && holder != t) {
                return holder;
            }
        }
        return null;
    }

    /**
     * Waits up to {@link #ADDERS_WAIT_MS} for every other adder of {@code key} to end or step aside
     * ({@link #stepAsideForWriters}). REQUIRES: t.lock, t holds the key's writer's intent (so no
     * new adder stays).
     *
     * @return null once none is left, else one still adding
     */
    private Transaction awaitOtherAdders(Transaction t, byte[] key) {
        if (!t.slot.addedByOther(key, t)) {
            return null;
        }
        if (t.beforeBlocking != null) {
            t.beforeBlocking.run();
        }
        long began = System.nanoTime();
        long deadline = began + TimeUnit.MILLISECONDS.toNanos(ADDERS_WAIT_MS);
        try {
            while (true) {
                Transaction other = firstOtherAdder(t.slot, key, t);
                if (other == null) {
                    return null;
                }
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    return other;
                }
                try {
                    // At most ADDER_LOOK_NANOS at a time: a coordinator adding to the row may step
                    // aside (stepAsideForWriters) without ending.
                    other.outcome.get(Math.min(left, ADDER_LOOK_NANOS), TimeUnit.NANOSECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return other;
                } catch (ExecutionException | TimeoutException e) {
                    // looked at again above
                }
                // An adder leaves the list before its outcome completes (end) or when it steps aside.
            }
        } finally {
            CallWaits.since(CallWaits.Cause.OTHER_ADDERS, began);
        }
    }

    /**
     * Gives up a prepared, not yet logged commit (a participant voted no): its CTS is unused and the
     * transaction aborted and unlocked. REQUIRES: prepared on this thread, not logged.
     */
    public void abandon(PendingCommit pending, String why) {
        if (pending.finished || pending.logged != null) {
            throw new IllegalStateException("commit of transaction " + pending.transactionId() + " was logged or finished");
        }
        pending.finished = true;
        if (!pending.needsLog()) {
            return;
        }
        Transaction t = pending.transaction;
        try {
            pending.ticket.close();
            timestamps.unused(pending.cts);
            abortLocked(t, Reason.CONFLICT, why);
        } finally {
            leave(t);
        }
    }

    private boolean liftAbove(long cts) {
        try {
            return timestamps.liftAbove(cts, BRANCH_WAIT_MS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    /**
     * Queues the records of prepared commits in the log, together, so that one group-commit sync
     * covers them; returns at once. A record that cannot be queued (too large, log full or dead)
     * fails its own commit in {@link #finishCommit}. REQUIRES: the commits were prepared on this
     * thread and not logged yet.
     */
    public void log(List<PendingCommit> prepared) {
        List<PendingCommit> toLog = new ArrayList<>(prepared.size());
        for (PendingCommit p : prepared) {
            if (p.loggedAtPrepare && !p.finished) {
                continue;
            }
            if (p.finished || p.logged != null || p.logRefused != null) {
                throw new IllegalStateException("commit of transaction " + p.transactionId() + " was logged or finished already");
            }
            if (p.needsLog()) {
                toLog.add(p);
            }
        }
        if (toLog.isEmpty()) {
            return;
        }
        if (toLog.size() > 1) {
            List<WalRecord> records = new ArrayList<>(toLog.size());
            for (PendingCommit p : toLog) {
                records.add(p.record);
            }
            try {
                List<java.util.concurrent.CompletableFuture<WalPosition>> futures = wal.appendAll(records);
                for (int i = 0; i < toLog.size(); i++) {
                    toLog.get(i).logged = futures.get(i);
                }
                return;
            } catch (LimitExceededException e) {
                // One record is too large: log the others one by one, so that only it fails.
            } catch (RejectedExecutionException | IllegalStateException e) {
                for (PendingCommit p : toLog) {
                    p.logRefused = e;
                }
                return;
            }
        }
        for (PendingCommit p : toLog) {
            try {
                p.logged = wal.append(p.record);
            } catch (LimitExceededException | RejectedExecutionException | IllegalStateException e) {
                p.logRefused = e;
            }
        }
    }

    /**
     * The second half of {@link #commit}: waits for the record's group-commit sync (only then is
     * the commit acknowledged), applies the versions to the store, reports the CTS readable,
     * releases the intents and unlocks the transaction. REQUIRES: {@code pending} was prepared and
     * logged on this thread; called exactly once.
     *
     * @throws TransactionException as {@link #commit}
     */
    public CommitResult finishCommit(PendingCommit pending) {
        if (pending.finished) {
            throw new IllegalStateException("commit of transaction " + pending.transactionId() + " finished twice");
        }
        pending.finished = true;
        if (!pending.needsLog()) {
            return pending.readOnlyResult;
        }
        Transaction t = pending.transaction;
        try {
            if (pending.logged == null && pending.logRefused == null) {
                pending.logRefused = new IllegalStateException("the commit was never given to the log");
            }
            return applyLogged(t, pending);
        } finally {
            leave(t);
        }
    }

    /** Aborts t if its partition stopped serving. REQUIRES: t.lock and its partition's commit lock. */
    private void requireServingToCommit(Transaction t) {
        if (!t.slot.serving) {
            abortLocked(t, Reason.NOT_OWNER, "its partition was closed before it committed");
            throw new TransactionException(Reason.NOT_OWNER, true, t + " aborted: partition " + t.slot.partitionId
                    + " is no longer served here; ask the catalog for its owner");
        }
    }

    /** SERIALIZABLE validation; aborts (CTS unused) on failure. REQUIRES: t.lock, t COMMITTING at cts. */
    private void validateReads(Transaction t, long cts) {
        PartitionSlot slot = t.slot;
        try {
            for (byte[] key : t.readKeys) {
                if (t.writes.containsKey(key)) {
                    // t holds this key's intent, and when it took it no version newer than its
                    // snapshot existed (acquireIntent); nobody can commit the key without the
                    // intent, so the read is still the latest: nothing to check.
                    continue;
                }
                Predicate<byte[]> stillSeen = t.readChecks.get(key);
                if (stillSeen != null) {
                    validateByValue(t, cts, key, stillSeen);
                    continue;
                }
                // Intent first, then version: a committer applies before it releases its intent.
                Transaction holder = slot.intents.get(key);
                if (holder != null && holder != t && holder.committedBefore(cts)) {
                    failValidation(t, cts, holder.id, holder.cts, holder + " committed a write to a key it read");
                }
                List<Transaction> adders = slot.adders.get(key);
                if (adders != null) {
                    for (Transaction a : adders) {
                        if (a != t && a.committedBefore(cts)) {
                            failValidation(t, cts, a.id, a.cts, a + " committed an add to a row it read");
                        }
                    }
                }
                Version v = slot.store.getVersionNewerThan(key, t.snapshot, cts - 1);
                if (v != null) {
                    failValidation(t, cts, 0, v.cts(), "a key it read was committed again at CTS " + v.cts());
                }
            }
            for (byte[][] range : t.readRanges) {
                NavigableMap<byte[], Transaction> inRange = range[1] == null
                        ? slot.intents.tailMap(range[0], true) : slot.intents.subMap(range[0], true, range[1], false);
                for (Transaction holder : inRange.values()) {
                    if (holder != t && holder.committedBefore(cts)) {
                        failValidation(t, cts, holder.id, holder.cts, holder + " committed a write into a range it scanned");
                    }
                }
                NavigableMap<byte[], List<Transaction>> addedInRange = range[1] == null
                        ? slot.adders.tailMap(range[0], true) : slot.adders.subMap(range[0], true, range[1], false);
                for (List<Transaction> adders : addedInRange.values()) {
                    for (Transaction a : adders) {
                        if (a != t && a.committedBefore(cts)) {
                            failValidation(t, cts, a.id, a.cts, a + " committed an add into a range it scanned");
                        }
                    }
                }
                try (CloseableIterator<Version> it = slot.store.scan(range[0], range[1], cts - 1, Integer.MAX_VALUE)) {
                    while (it.hasNext()) {
                        Version v = it.next();
                        if (v.cts() > t.snapshot) {
                            failValidation(t, cts, 0, v.cts(), "a row was written at CTS " + v.cts()
                                    + " into a range it scanned");
                        }
                    }
                }
            }
        } catch (IOException | UncheckedIOException e) {
            giveUpCts(t, cts);
            throw storageFailed(t, e);
        }
    }

    /**
     * A commit at {@code cts} will not happen: an own CTS is reported unused; a branch's CTS is its
     * coordinator's to report (the branch's hold goes when it ends).
     */
    private void giveUpCts(Transaction t, long cts) {
        if (t.branch == null) {
            timestamps.unused(cts);
        }
    }

    /**
     * Validates a read of part of a row by value: the newest value before {@code cts} must still
     * show what was read. That value is an adder's computed one not applied yet (adders compute in
     * CTS order, so the newest computed below {@code cts} includes every earlier add), else the
     * newest applied version. A writer that may commit below {@code cts} and is not applied yet
     * (a coordinator whose adds became writes, a prepared branch) fails it only if the row it
     * writes no longer shows what was read, and then the versions before it are checked too; a
     * newer adder's value hiding an earlier one's fails it as a full read would. REQUIRES: t.lock,
     * t COMMITTING at cts.
     */
    private void validateByValue(Transaction t, long cts, byte[] key, Predicate<byte[]> stillSeen) throws IOException {
        PartitionSlot slot = t.slot;
        Transaction holder = slot.intents.get(key);
        if (holder != null && holder != t && holder.committedBefore(cts) && !stillSeen.test(frozenWrite(holder, key))) {
            failValidation(t, cts, holder.id, holder.cts, holder + " committed a write to a row it read");
        }
        // Past a holder whose row still shows what was read, the versions before it must too: the
        // holder may yet be given up (a coordinator whose participant votes no, a branch).
        PartitionSlot.Computed computed = slot.computed.get(key);
        if (computed != null) {
            if (computed.cts() > cts) {
                List<Transaction> adders = slot.adders.get(key);
                if (adders != null) {
                    for (Transaction a : adders) {
                        if (a != t && a.committedBefore(cts)) {
                            failValidation(t, cts, a.id, a.cts, a + " committed an add to a row it read");
                        }
                    }
                }
            } else if (computed.cts() > t.snapshot && !stillSeen.test(computed.value())) {
                failValidation(t, cts, 0, computed.cts(), "a row it read was changed at CTS " + computed.cts());
            } else {
                return;
            }
        }
        Version v = slot.store.getVersionNewerThan(key, t.snapshot, cts - 1);
        if (v != null && !stillSeen.test(v.isTombstone() ? null : v.value())) {
            failValidation(t, cts, 0, v.cts(), "a row it read was changed at CTS " + v.cts());
        }
    }

    /**
     * The value a committing or prepared {@code holder} writes to {@code key}, a key it holds the
     * intent on; null for a delete or if it cannot be told. That entry no longer changes once the
     * holder may commit ({@link Transaction#committedBefore}; a coordinator's adds became writes
     * before that). The map itself may still change, unsynchronized: a local adder puts its
     * computed rows in at commit (under other keys), and an ending holder clears it after its
     * intents went. A read racing either can only miss the entry, which reads as null and fails
     * the validation as the holder's write alone once did; it never yields another key's value.
     */
    private static byte[] frozenWrite(Transaction holder, byte[] key) {
        try {
            return holder.writes.get(key);
        } catch (RuntimeException e) {
            return null;
        }
    }

    private void failValidation(Transaction t, long cts, long blockingId, long conflictCts, String why) {
        giveUpCts(t, cts);
        abortLocked(t, Reason.SERIALIZATION_FAILURE, why);
        throw new TransactionException(Reason.SERIALIZATION_FAILURE, true, blockingId, conflictCts, t
                + " aborted at commit: " + why + " after its snapshot " + t.snapshot
                + " (SERIALIZABLE); run the transaction again", null);
    }

    private void awaitWriteCapacity(Transaction t, long cts) {
        boolean ready = t.slot.store.hasWriteCapacity();
        if (!ready) { // only a wait is timed: the common path costs no clock read
            long began = System.nanoTime();
            try {
                ready = t.slot.store.awaitWriteCapacity(limits.writeCapacityWaitMs());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } finally {
                CallWaits.since(CallWaits.Cause.WRITE_CAPACITY, began);
            }
        }
        if (!ready) {
            if (cts > 0) {
                giveUpCts(t, cts);
            }
            abortLocked(t, Reason.OVERLOADED, "its partition store could not take more writes");
            throw new TransactionException(Reason.OVERLOADED, true, t + " aborted: partition " + t.slot.partitionId
                    + " is flushing slower than it is written, or this OTM's memtables hold their whole budget"
                    + " (waited " + limits.writeCapacityWaitMs() + " ms); retry later");
        }
    }

    /** Builds the log record and the versions of a commit. REQUIRES: t.lock, t COMMITTING at cts and validated. */
    private PendingCommit buildRecord(Transaction t, long cts) {
        PartitionSlot slot = t.slot;
        List<WalRecord.Mutation> mutations = new ArrayList<>(t.writes.size() + 1);
        List<Version> versions = new ArrayList<>(t.writes.size() + 1);
        for (Map.Entry<byte[], byte[]> w : t.writes.entrySet()) {
            mutations.add(new WalRecord.Mutation(slot.partitionId, w.getKey(), w.getValue()));
            versions.add(new Version(w.getKey(), cts, w.getValue()));
        }
        if (t.branch != null) {
            // The branch marker: this record is a prepare record, applied only once the coordinator
            // decided (a replay asks the coordinator's partition).
            mutations.add(new WalRecord.Mutation(slot.partitionId, t.tag.branchMarkerKey(), t.branch.coordinator.encode()));
        } else if (t.tag != null) {
            // The commit marker: durable in the same record, so it exists exactly if the commit does.
            byte[] key = t.tag.markerKey();
            mutations.add(new WalRecord.Mutation(slot.partitionId, key, t.markerValue));
            versions.add(new Version(key, cts, t.markerValue));
        }
        // Registered before the record reaches the log: the store's replay point never passes it.
        return PendingCommit.toLog(t, cts, new WalRecord(cts, mutations), versions, unapplied.begin());
    }

    /** Steps 2-4 of the commit. REQUIRES: t.lock, t COMMITTING at its CTS, its record given to the log. */
    private CommitResult applyLogged(Transaction t, PendingCommit pending) {
        PartitionSlot slot = t.slot;
        long cts = pending.cts;
        UnappliedCommits.Ticket ticket = pending.ticket;
        WalPosition position;
        RuntimeException refused = pending.logRefused;
        if (refused instanceof LimitExceededException e) {
            throw notLogged(t, cts, ticket, Reason.LIMIT_EXCEEDED, "its write set is too large to log: " + e.getMessage(), e);
        } else if (refused instanceof RejectedExecutionException e) {
            throw notLogged(t, cts, ticket, Reason.OVERLOADED, e.getMessage(), e);
        } else if (refused != null) {
            throw notLogged(t, cts, ticket, Reason.LOG_FAILED, "the log takes no records: " + refused.getMessage(), refused);
        }
        try {
            position = pending.logged.join();
        } catch (CompletionException e) {
            // The log died while this record was queued or syncing: whether it is durable is
            // unknown. This OTM can log nothing more and must stop serving; a recovery decides.
            throw notLogged(t, cts, ticket, Reason.LOG_FAILED, "the log failed while syncing the commit, which may or"
                    + " may not be durable: " + e.getCause(), e.getCause());
        }
        // Durable: from here on the commit must become readable.
        try {
            slot.apply(unapplied.walId(), position, cts, pending.versions);
        } catch (RuntimeException e) {
            // The ticket stays open and the intents stay held: the store's replay point cannot pass
            // this record and nobody can overwrite these keys unseen; reopening the partition
            // replays the commit from the log.
            throw new TransactionException(Reason.STORAGE_FAILED, false, t + " is durable at CTS " + cts
                    + " but could not be applied to partition " + slot.partitionId + " (" + e
                    + "); the partition must be reopened, which replays it", e);
        }
        if (!t.adds.isEmpty()) {
            forgetComputed(t, cts);
        }
        ticket.close();
        timestamps.applied(cts);
        end(t, Transaction.State.COMMITTED, null, "committed at CTS " + cts);
        commits.incrementAndGet();
        return new CommitResult(cts, false);
    }

    /** The adder's values are applied: later adders read them from the store. REQUIRES: t.lock. */
    private static void forgetComputed(Transaction t, long cts) {
        PartitionSlot slot = t.slot;
        slot.commitLock.lock();
        try {
            for (byte[] key : t.adds.keySet()) {
                PartitionSlot.Computed c = slot.computed.get(key);
                if (c != null && c.cts() == cts) {
                    slot.computed.remove(key);
                }
            }
        } finally {
            slot.commitLock.unlock();
        }
    }

    private TransactionException notLogged(Transaction t, long cts, UnappliedCommits.Ticket ticket, Reason reason,
            String why, Throwable cause) {
        if (reason == Reason.LOG_FAILED) {
            logFailed = true; // before the outcome completes: a resolution waiting for it sees the flag
        }
        ticket.close();
        giveUpCts(t, cts);
        abortLocked(t, reason, why);
        return new TransactionException(reason, true, t + " aborted: " + why, cause);
    }

    /**
     * Aborts an open transaction: its private writes are dropped and its intents released.
     *
     * @return false if there was no open transaction with this id (already ended, or unknown)
     */
    public boolean abort(long txnId) {
        Transaction t = transactions.get(txnId);
        if (t == null) {
            return false;
        }
        t.lock.lock();
        try {
            if (t.state != Transaction.State.ACTIVE) {
                return false;
            }
            abortLocked(t, null, "aborted by its client");
            return true;
        } finally {
            t.lock.unlock();
        }
    }

    /**
     * Aborts every transaction idle for at least the idle timeout at {@code nowMs} (by the same
     * clock as the one given to the constructor), freeing its intents and state. Called by the
     * server's timer. Transactions busy in a call are not idle and are skipped.
     *
     * @return the number of transactions aborted
     */
    public int reap(long nowMs) {
        int reaped = 0;
        for (Transaction t : transactions.values()) {
            if (!reapable(t) || nowMs - t.lastActivityMs < limits.idleTimeoutMs()) {
                continue;
            }
            if (!t.lock.tryLock()) {
                continue;
            }
            try {
                if (reapable(t) && nowMs - t.lastActivityMs >= limits.idleTimeoutMs()) {
                    abortLocked(t, Reason.TIMEOUT, "idle for " + (nowMs - t.lastActivityMs) + " ms (idleTimeoutMs="
                            + limits.idleTimeoutMs() + ")");
                    reaped++;
                }
            } finally {
                t.lock.unlock();
            }
        }
        return reaped;
    }

    /** Open, or a branch prepared whose coordinator never sent its commit timestamp. */
    private static boolean reapable(Transaction t) {
        Transaction.State state = t.state;
        return state == Transaction.State.ACTIVE || state == Transaction.State.PREPARED;
    }

    /**
     * Waits for a transaction to end (for a retry that ran into its intent).
     *
     * @return its CTS if it committed, 0 if it aborted, is unknown, or did not end in time
     */
    public long awaitOutcome(long txnId, long timeoutMs) throws InterruptedException {
        Transaction t = transactions.get(txnId);
        if (t == null) {
            synchronized (recentEndings) {
                Ending ending = recentEndings.get(txnId);
                return ending == null ? 0 : ending.cts();
            }
        }
        try {
            return t.outcome.get(timeoutMs, TimeUnit.MILLISECONDS);
        } catch (ExecutionException | TimeoutException e) {
            return 0;
        }
    }

    // ---------------------------------------------------------------- cross-partition branches

    /**
     * Begins a participant's branch of a cross-partition transaction: reads at the coordinator's
     * {@code snapshot} (REQUIRES: this OTM's snapshot reached it, see
     * {@link TimestampSource#liftAbove}), writes take intents here as any transaction's, and the
     * coordinator commits it in two steps, {@link #prepareBranch} and {@link #voteBranch}, and then
     * tells the outcome ({@link #decideBranch}).
     *
     * @param tag the transaction's commit id (the same on every partition it touches)
     * @param coordinator where its outcome is decided
     */
    public long beginBranch(long partitionId, Isolation isolation, String clientId, CommitTag tag, long snapshot,
            BranchCoordinator coordinator) {
        if (isolation == null || clientId == null || tag == null || coordinator == null) {
            throw new IllegalArgumentException("isolation, client id, commit id and coordinator are required");
        }
        if (snapshot > snapshots.snapshot() || snapshot < 0) {
            throw new TransactionException(Reason.OVERLOADED, false, "snapshot " + snapshot + " is not readable here yet"
                    + " (this OTM's snapshot is " + snapshots.snapshot() + "); retry");
        }
        PartitionSlot slot = admittingSlot(partitionId);
        reserveOpenSlot(clientId);
        Transaction t = new Transaction(nextId.getAndIncrement(), slot, isolation, clientId, snapshot,
                clockMs.getAsLong(), tag, new Branch(coordinator));
        transactions.put(t.id, t);
        if (belowGcFloor(snapshot)) {
            transactions.remove(t.id);
            releaseOpenSlot(clientId);
            throw snapshotTooOld(snapshot);
        }
        slot.begins.increment();
        if (!slot.serving) {
            transactions.remove(t.id);
            releaseOpenSlot(clientId);
            throw notOwner(partitionId);
        }
        return t.id;
    }

    /**
     * What a branch's prepare answers: the bound its commit timestamp must be above, or that it is
     * done; and whether it wrote nothing (a transaction that wrote nothing anywhere commits at its
     * snapshot without validation, see {@link #decideBranch}).
     */
    public record BranchPrepared(long ctsAbove, boolean done, boolean readOnly) {
    }

    /**
     * The first step of a branch's commit: it takes no more calls, and this OTM's snapshot is held
     * where it is, so that the coordinator can choose a commit timestamp above every snapshot read
     * here so far and above every commit of the partition so far ({@link BranchPrepared#ctsAbove}).
     * A branch that wrote nothing and validates nothing (SNAPSHOT) is done here.
     *
     * @throws TransactionException with the branch aborted: NOT_OWNER; UNKNOWN_TRANSACTION if it ended
     */
    public BranchPrepared prepareBranch(long txnId) {
        Transaction t = enter(txnId);
        try {
            if (t.branch == null) {
                throw new TransactionException(Reason.UNKNOWN_TRANSACTION, false, t + " is not a participant's branch");
            }
            PartitionSlot slot = t.slot;
            slot.commitLock.lock();
            try {
                requireServingToCommit(t);
                if (t.writes.isEmpty() && !t.validatesReads()) {
                    end(t, Transaction.State.COMMITTED, null, "committed (read-only branch)");
                    commits.incrementAndGet();
                    return new BranchPrepared(0, true, true);
                }
                // Every snapshot handed out here so far is at or below this OTM's snapshot now, and
                // every commit of this partition so far at or below maxCtsSeen: the CTS will be above.
                long above = Math.max(snapshots.snapshot(), slot.maxCtsSeen);
                t.branch.preparedAtMs = clockMs.getAsLong();
                t.branch.pending = true;
                slot.branchesPending.incrementAndGet();
                t.state = Transaction.State.PREPARED;
                t.cts = above; // a lower bound until the vote: readers at or below it need not wait
                return new BranchPrepared(above, false, t.writes.isEmpty());
            } finally {
                slot.commitLock.unlock();
            }
        } finally {
            leave(t);
        }
    }

    /**
     * The second step: the branch commits at {@code cts} if the coordinator decides so. It is
     * published as committing at {@code cts}, its reads are validated (SERIALIZABLE; this OTM's
     * own commit timestamps are first lifted above {@code cts}, so none later goes below it), and
     * its writes go to the log as a prepare record, durable when this returns. The intents stay
     * held and the snapshot stays below {@code cts} until {@link #decideBranch}.
     *
     * @throws TransactionException with the branch aborted (a "no" vote): SERIALIZATION_FAILURE,
     *     NOT_OWNER, OVERLOADED, LIMIT_EXCEEDED, LOG_FAILED; UNKNOWN_TRANSACTION if not prepared
     */
    public void voteBranch(long txnId, long cts) {
        Transaction t = transactions.get(txnId);
        if (t == null) {
            throw ended(txnId);
        }
        t.lock.lock();
        try {
            if (t.branch == null || t.state != Transaction.State.PREPARED) {
                throw new TransactionException(Reason.UNKNOWN_TRANSACTION, false, t + " is not a prepared branch ("
                        + t.state + ")");
            }
            if (cts <= t.cts) {
                long bound = t.cts;
                abortLocked(t, Reason.CONFLICT, "its coordinator chose CTS " + cts + ", not above " + bound);
                throw new TransactionException(Reason.CONFLICT, true, t + " aborted: commit timestamp " + cts
                        + " is not above " + bound + ", the bound its prepare gave");
            }
            PartitionSlot slot = t.slot;
            slot.commitLock.lock();
            try {
                requireServingToCommit(t);
                t.cts = cts;
                t.state = Transaction.State.COMMITTING;
                slot.maxCtsSeen = Math.max(slot.maxCtsSeen, cts);
            } finally {
                slot.commitLock.unlock();
            }
            if (t.validatesReads() && t.readSetSize() > 0) {
                if (!liftAbove(cts)) {
                    abortLocked(t, Reason.OVERLOADED, "no commit timestamp above " + cts + " arrived in time");
                    throw new TransactionException(Reason.OVERLOADED, true, t + " aborted: this OTM could not lift its"
                            + " commit timestamps above " + cts + " in time");
                }
                validateReads(t, cts);
            }
            if (t.writes.isEmpty()) {
                end(t, Transaction.State.COMMITTED, null, "committed (read-only branch, validated at CTS " + cts + ")");
                commits.incrementAndGet();
                return;
            }
            awaitWriteCapacity(t, cts);
            PendingCommit pending = buildRecord(t, cts);
            log(List.of(pending));
            RuntimeException refused = pending.logRefused;
            if (refused != null) {
                throw notLogged(t, cts, pending.ticket, refused instanceof LimitExceededException ? Reason.LIMIT_EXCEEDED
                        : refused instanceof RejectedExecutionException ? Reason.OVERLOADED : Reason.LOG_FAILED,
                        "its prepare record was not logged: " + refused.getMessage(), refused);
            }
            try {
                t.branch.votedAt = pending.logged.join();
            } catch (CompletionException e) {
                throw notLogged(t, cts, pending.ticket, Reason.LOG_FAILED, "the log failed while syncing its prepare"
                        + " record: " + e.getCause(), e.getCause());
            }
            pending.finished = true;
            t.branch.voted = pending;
            t.branch.votedAtMs = clockMs.getAsLong();
        } finally {
            t.lock.unlock();
        }
    }

    /**
     * The coordinator's outcome for a branch: commit applies its versions at {@code cts} (the CTS
     * it voted for) and releases its intents and hold; abort drops it. Idempotent: a branch that
     * ended already is not found.
     *
     * @return whether there was such a branch
     * @throws TransactionException STORAGE_FAILED if applying failed (the partition must be
     *     reopened, which replays the prepare record and asks again)
     * @throws IllegalArgumentException a commit of a branch that did not vote, or at another CTS
     */
    public boolean decideBranch(long txnId, boolean commit, long cts) {
        Transaction t = transactions.get(txnId);
        if (t == null) {
            return false;
        }
        t.lock.lock();
        try {
            if (t.branch == null) {
                throw new IllegalArgumentException(t + " is not a participant's branch");
            }
            Transaction.State state = t.state;
            if (state == Transaction.State.COMMITTED || state == Transaction.State.ABORTED) {
                return false;
            }
            if (!commit) {
                if (t.branch.voted != null) {
                    t.branch.voted.ticket.close();
                }
                abortLocked(t, Reason.CONFLICT, "its coordinator aborted the transaction");
                return true;
            }
            if (cts == 0 && state == Transaction.State.PREPARED && t.writes.isEmpty()) {
                // The whole transaction wrote nothing: it read one snapshot, a prefix of the commit
                // order on every partition, so it is serializable there without validation.
                end(t, Transaction.State.COMMITTED, null, "committed (read-only transaction, at its snapshot)");
                commits.incrementAndGet();
                return true;
            }
            if (state != Transaction.State.COMMITTING || t.branch.voted == null || cts != t.cts) {
                throw new IllegalArgumentException(t + " cannot commit at CTS " + cts + ": it is " + state
                        + (t.branch.voted == null ? " and did not vote" : " and voted for CTS " + t.cts));
            }
            PendingCommit voted = t.branch.voted;
            try {
                t.slot.apply(unapplied.walId(), t.branch.votedAt, cts, voted.versions);
            } catch (RuntimeException e) {
                throw new TransactionException(Reason.STORAGE_FAILED, false, t + " is decided at CTS " + cts
                        + " but could not be applied to partition " + t.slot.partitionId + " (" + e
                        + "); the partition must be reopened, which replays it", e);
            }
            voted.ticket.close();
            logOutcome(t, voted.record);
            end(t, Transaction.State.COMMITTED, null, "committed at CTS " + cts + " (its coordinator decided)");
            commits.incrementAndGet();
            return true;
        } finally {
            t.lock.unlock();
        }
    }

    /**
     * Logs a committed branch's writes again, as an ordinary commit record, without waiting: a
     * replay then applies them without asking the coordinator, whose commit marker expires
     * ({@code CommitId.RETENTION_MS}) long before an idle partition's log may be replayed. If this
     * record is lost, the prepare record is still there and the coordinator is asked.
     */
    private void logOutcome(Transaction t, WalRecord prepare) {
        List<WalRecord.Mutation> writes = new ArrayList<>(prepare.mutations().size());
        for (WalRecord.Mutation m : prepare.mutations()) {
            if (CommitTag.ofBranchMarkerKey(m.key()) == null) {
                writes.add(m);
            }
        }
        if (writes.isEmpty()) {
            return;
        }
        try {
            wal.append(new WalRecord(prepare.cts(), writes));
        } catch (LimitExceededException | RejectedExecutionException | IllegalStateException e) {
            // The prepare record and the coordinator's marker still tell a replay.
        }
    }

    /** A branch that voted and has waited for its outcome: to be asked of its coordinator. */
    public record InDoubtBranch(long txnId, long partitionId, CommitTag tag, long cts, BranchCoordinator coordinator) {
    }

    /**
     * Branches that voted at least {@code waitedMs} ago (by the manager's clock) and have no outcome
     * yet, and branches prepared that long ago and never given a CTS (their hold stalls this OTM's
     * snapshot; {@link InDoubtBranch#cts()} is 0 for them: only an abort can be their outcome).
     */
    public List<InDoubtBranch> inDoubtBranches(long nowMs, long waitedMs) {
        List<InDoubtBranch> out = new ArrayList<>();
        for (Transaction t : transactions.values()) {
            Branch b = t.branch;
            Transaction.State seen = t.state;
            if (b == null || (seen != Transaction.State.COMMITTING && seen != Transaction.State.PREPARED)
                    || !t.lock.tryLock()) {
                continue;
            }
            try {
                if (t.state == Transaction.State.COMMITTING && b.voted != null
                        && (b.restored || nowMs - b.votedAtMs >= waitedMs)) {
                    out.add(new InDoubtBranch(t.id, t.slot.partitionId, t.tag, t.cts, b.coordinator));
                } else if (t.state == Transaction.State.PREPARED && nowMs - b.preparedAtMs >= waitedMs) {
                    out.add(new InDoubtBranch(t.id, t.slot.partitionId, t.tag, 0, b.coordinator));
                }
            } finally {
                t.lock.unlock();
            }
        }
        return out;
    }

    // ---------------------------------------------------------------- observation

    /**
     * The load of one served partition: transactions committed, aborted and begun since it was
     * added, its store's size, and the commit latency since the previous {@link #takePartitionLoads}
     * (null if nothing committed).
     */
    public record PartitionLoadSample(long partitionId, long commits, long aborts, long begins, long storeBytes,
            LatencyHistogram commitLatency) {
    }

    /**
     * The load of every partition served now; takes each one's latency interval, so call it from
     * one thread (the heartbeat's) only.
     */
    public List<PartitionLoadSample> takePartitionLoads() {
        List<PartitionLoadSample> out = new ArrayList<>(partitions.size());
        for (PartitionSlot slot : partitions.values()) {
            StoreStats stats = slot.store.stats();
            out.add(new PartitionLoadSample(slot.partitionId, slot.commits.sum(), slot.aborts.sum(), slot.begins.sum(),
                    stats.memtableBytes() + stats.tableBytes(), slot.commitLatency.takeInterval()));
        }
        return out;
    }

    /** The snapshot counter every transaction begins at. */
    public SnapshotTracker snapshots() {
        return snapshots;
    }

    /** Transactions open now. */
    public int openTransactions() {
        return open.get();
    }

    /** Transactions open (active or committing) on one partition; counts by a scan, for status pages. */
    public int openTransactions(long partitionId) {
        int n = 0;
        for (Transaction t : transactions.values()) {
            if (t.slot.partitionId == partitionId && (t.state == Transaction.State.ACTIVE || t.state == Transaction.State.COMMITTING)) {
                n++;
            }
        }
        return n;
    }

    /** Write intents held now on a partition (0 if not served). */
    public int intentsHeld(long partitionId) {
        PartitionSlot slot = partitions.get(partitionId);
        return slot == null ? 0 : slot.intents.size();
    }

    /**
     * Whether a transaction at {@code snapshot}, registered in {@link #transactions} just before,
     * must not read: a horizon above it may have been handed to garbage collection. The fence
     * pairs with the one in {@link #gcHorizon}: either that scan sees the registration, or this
     * read sees the floor it published before scanning.
     */
    private boolean belowGcFloor(long snapshot) {
        VarHandle.fullFence();
        return snapshot < gcFloor.get();
    }

    private TransactionException snapshotTooOld(long snapshot) {
        return new TransactionException(Reason.OVERLOADED, false, "snapshot " + snapshot
                + " is older than the versions this OTM keeps (it keeps what snapshots from " + gcFloor.get()
                + " on can see); begin again with a newer snapshot");
    }

    /**
     * A horizon for garbage collection (flushes and compactions drop versions that no snapshot at
     * or after it can see): no open transaction reads below it, and none that begins later will,
     * since every begin below the highest horizon handed out (the floor) is refused
     * ({@link #beginAt} and {@link #beginBranch} fail OVERLOADED, {@link #begin} takes a fresh
     * snapshot). So that a cross-partition transaction's branch, begun at its coordinator's
     * snapshot a little later, is not refused, the horizon trails the snapshot by {@link
     * #GC_HORIZON_LAG_MS}: it is at most the snapshot of at least that long ago.
     */
    public long gcHorizon() {
        long lagged;
        synchronized (snapshotSamples) {
            long now = clockMs.getAsLong();
            long[] last = snapshotSamples.peekLast();
            if (last == null || now - last[0] >= GC_HORIZON_LAG_MS / 8) {
                snapshotSamples.addLast(new long[] {now, snapshots.snapshot()});
            }
            // Keep the newest sample at least the lag old, and the ones after it.
            while (snapshotSamples.size() >= 2) {
                Iterator<long[]> oldest = snapshotSamples.iterator();
                oldest.next();
                if (now - oldest.next()[0] < GC_HORIZON_LAG_MS) {
                    break;
                }
                snapshotSamples.removeFirst();
            }
            long[] first = snapshotSamples.peekFirst();
            lagged = now - first[0] >= GC_HORIZON_LAG_MS ? first[1] : -1;
        }
        long horizon = Math.min(lagged, oldestActiveSnapshot());
        gcFloor.accumulateAndGet(horizon, Math::max);
        VarHandle.fullFence();
        // A transaction registered before the floor was published and missed by the first scan.
        return Math.min(horizon, oldestActiveSnapshot());
    }

    /**
     * The oldest snapshot any open transaction reads at, or the current snapshot if none is open.
     * Not a horizon for garbage collection by itself: see {@link #gcHorizon}.
     */
    public long oldestActiveSnapshot() {
        long oldest = snapshots.snapshot();
        for (Transaction t : transactions.values()) {
            oldest = Math.min(oldest, t.snapshot);
        }
        return oldest;
    }

    /** Commits since start (read-only ones included). */
    public long commitCount() {
        return commits.get();
    }

    /** Aborts since start, for any reason. */
    public long abortCount() {
        return aborts.get();
    }

    /** The log's counters since this OTM opened it: batches (each one sync), records, sync latency. */
    public WalMetrics walMetrics() {
        return wal.metrics();
    }

    // ---------------------------------------------------------------- internals

    private PartitionSlot servingSlot(long partitionId) {
        PartitionSlot slot = partitions.get(partitionId);
        if (slot == null || !slot.serving) {
            throw notOwner(partitionId);
        }
        return slot;
    }

    /** The slot if it serves and admits new transactions (not paused by a live move), else NOT_OWNER. */
    private PartitionSlot admittingSlot(long partitionId) {
        PartitionSlot slot = servingSlot(partitionId);
        if (!slot.admitting) {
            throw new TransactionException(Reason.NOT_OWNER, false, "partition " + partitionId
                    + " is being handed over to another OTM; ask the catalog for its owner");
        }
        return slot;
    }

    private static TransactionException notOwner(long partitionId) {
        return new TransactionException(Reason.NOT_OWNER, false, "partition " + partitionId
                + " is not served by this OTM; ask the catalog for its owner");
    }

    private void reserveOpenSlot(String clientId) {
        while (true) {
            int n = open.get();
            if (n >= limits.openTransactionsMax()) {
                throw new TransactionException(Reason.LIMIT_EXCEEDED, false, n + " transactions are open, the limit"
                        + " (openTransactionsMax) is " + limits.openTransactionsMax() + "; commit or abort some first");
            }
            if (open.compareAndSet(n, n + 1)) {
                break;
            }
        }
        try {
            openPerClient.compute(clientId, (client, n) -> {
                int count = n == null ? 0 : n;
                if (count >= limits.openTransactionsPerClientMax()) {
                    throw new TransactionException(Reason.LIMIT_EXCEEDED, false, "client '" + client + "' has " + count
                            + " transactions open, the limit (openTransactionsPerClientMax) is "
                            + limits.openTransactionsPerClientMax() + "; commit or abort some first");
                }
                return count + 1;
            });
        } catch (TransactionException e) {
            open.decrementAndGet();
            throw e;
        }
    }

    private void releaseOpenSlot(String clientId) {
        openPerClient.computeIfPresent(clientId, (client, n) -> n <= 1 ? null : n - 1);
        open.decrementAndGet();
    }

    /** Looks up an open transaction, locks it and checks it may take a call. Pair with {@link #leave}. */
    private Transaction enter(long txnId) {
        Transaction t = transactions.get(txnId);
        if (t == null) {
            throw ended(txnId);
        }
        if (t.state == Transaction.State.COMMITTING || t.state == Transaction.State.PREPARED) {
            throw new TransactionException(Reason.UNKNOWN_TRANSACTION, false, t + " is committing; no more calls on it");
        }
        t.lock.lock();
        if (t.state != Transaction.State.ACTIVE) {
            t.lock.unlock();
            throw ended(txnId);
        }
        if (!t.slot.serving) {
            try {
                abortLocked(t, Reason.NOT_OWNER, "its partition was closed on this OTM");
            } finally {
                t.lock.unlock();
            }
            throw new TransactionException(Reason.NOT_OWNER, true, t + " aborted: partition " + t.slot.partitionId
                    + " is no longer served here; ask the catalog for its owner");
        }
        if (t.procedureCall && !t.slot.admitting) {
            // A live move's pause began: the call runs again at the next owner (see stopAdmitting).
            try {
                abortLocked(t, Reason.NOT_OWNER, "its partition " + t.slot.partitionId + " is being handed over to another"
                        + " OTM; the call runs again there");
            } finally {
                t.lock.unlock();
            }
            throw new TransactionException(Reason.NOT_OWNER, false, t + " aborted: partition " + t.slot.partitionId
                    + " is being handed over to another OTM; the call runs again there");
        }
        t.lastActivityMs = clockMs.getAsLong();
        return t;
    }

    private void leave(Transaction t) {
        t.lastActivityMs = clockMs.getAsLong();
        t.lock.unlock();
    }

    private TransactionException ended(long txnId) {
        Ending ending;
        synchronized (recentEndings) {
            ending = recentEndings.get(txnId);
        }
        if (ending == null) {
            return new TransactionException(Reason.UNKNOWN_TRANSACTION, false, "transaction " + txnId
                    + " is not open here (it never existed, or ended long ago); begin a new one");
        }
        Reason reason = ending.reason() == Reason.TIMEOUT || ending.reason() == Reason.NOT_OWNER
                ? ending.reason() : Reason.UNKNOWN_TRANSACTION;
        return new TransactionException(reason, false, "transaction " + txnId + " is no longer open: " + ending.what());
    }

    /** Aborts t, releasing everything. REQUIRES: t.lock, t ACTIVE or COMMITTING. */
    private void abortLocked(Transaction t, Reason reason, String why) {
        end(t, Transaction.State.ABORTED, reason, "aborted: " + why);
        aborts.incrementAndGet();
    }

    /** Ends t: releases its intents, forgets it, completes its outcome. REQUIRES: t.lock. */
    private void end(Transaction t, Transaction.State state, Reason reason, String what) {
        if (t.state == Transaction.State.COMMITTED || t.state == Transaction.State.ABORTED) {
            throw new IllegalStateException(t + " ended twice (" + t.state + ", then " + state + ")");
        }
        for (byte[] key : t.writes.keySet()) {
            t.slot.intents.remove(key, t);
        }
        for (byte[] key : t.adds.keySet()) {
            t.slot.removeAdder(key, t);
        }
        t.adds.clear();
        if (t.branch != null && t.branch.pending) {
            t.branch.pending = false;
            t.slot.branchesPending.decrementAndGet();
        }
        t.state = state;
        if (state == Transaction.State.COMMITTED) {
            t.slot.commits.increment();
            t.slot.commitLatency.record((System.nanoTime() - t.begunNanos) / 1_000);
        } else {
            t.slot.aborts.increment();
        }
        t.writes.clear();
        t.readKeys.clear();
        t.readRanges.clear();
        transactions.remove(t.id, t);
        if (t.tag != null) {
            tagged.remove(t.tag, t);
        }
        releaseOpenSlot(t.clientId);
        synchronized (recentEndings) {
            recentEndings.put(t.id, new Ending(reason, state == Transaction.State.COMMITTED ? t.cts : 0, what));
            if (recentEndings.size() > RECENT_ENDINGS_MAX) {
                Iterator<Long> oldest = recentEndings.keySet().iterator();
                oldest.next();
                oldest.remove();
            }
        }
        t.outcome.complete(state == Transaction.State.COMMITTED ? t.cts : 0L);
    }

    private void checkKey(byte[] key) {
        if (key == null) {
            throw new IllegalArgumentException("key is null");
        }
        if (key.length > limits.keyBytesMax()) {
            throw new TransactionException(Reason.LIMIT_EXCEEDED, false, "key size is " + key.length
                    + " which exceeds the limit of " + limits.keyBytesMax() + " (keyBytesMax); nothing was changed");
        }
    }

    private static TransactionException limit(Transaction t, String what, long seen, long max, String setting) {
        return new TransactionException(Reason.LIMIT_EXCEEDED, false, what + " of " + t + " would be " + seen
                + " which exceeds the limit of " + max + " (" + setting + "); the call changed nothing and the"
                + " transaction is still open");
    }

    private TransactionException storageFailed(Transaction t, Exception e) {
        Throwable cause = e instanceof UncheckedIOException u ? u.getCause() : e;
        if (t.state == Transaction.State.ACTIVE || t.state == Transaction.State.COMMITTING) {
            abortLocked(t, Reason.STORAGE_FAILED, "reading partition " + t.slot.partitionId + " failed: " + cause);
        }
        return new TransactionException(Reason.STORAGE_FAILED, true, t + " aborted: reading partition "
                + t.slot.partitionId + " failed: " + cause, cause);
    }

    private static long lengthOf(byte[] value) {
        return value == null ? 0 : value.length;
    }

    private static byte[] successor(byte[] key) {
        return java.util.Arrays.copyOf(key, key.length + 1);
    }
}
