package org.elastras.experiments.history;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.LongSupplier;

/**
 * Records the transactions of a workload run as they happen, up to a bound, and hands out the
 * {@link History} so far. Thread-safe: any number of workload threads may call {@link #invoke}
 * and {@link #complete} concurrently; each process (client session) must run one transaction at
 * a time. Use:
 *
 * <pre>{@code
 * long id = recorder.invoke(process, ops);           // before sending the transaction
 * ... run it ...
 * recorder.complete(id, Outcome.OK, opsAsExecuted, snapshot, cts);  // reads carrying what they saw
 * // on an abort: Outcome.FAIL; on a timeout or lost connection: Outcome.UNKNOWN (with every
 * // write that was attempted), never FAIL: an unknown outcome may have committed.
 * }</pre>
 *
 * Past {@code transactionsMax} invocations it stops recording, returns {@link #NOT_RECORDED} from
 * {@link #invoke}, and marks the history truncated; {@link #complete} of {@link #NOT_RECORDED} does
 * nothing, so the workload can run on without checking.
 */
public final class HistoryRecorder {

    /** What {@link #invoke} returns once the bound is reached. */
    public static final long NOT_RECORDED = -1;

    /** Largest bound accepted: the checker is meant for histories of about this size and below. */
    public static final int TRANSACTIONS_MAX_LIMIT = 10_000_000;

    private final IsolationLevel isolation;
    private final int transactionsMax;
    private final LongSupplier nanoClock;

    private final Object lock = new Object();
    /** Guarded by lock: every recorded transaction, by id (ids are 0, 1, 2, ... in invocation order). */
    private final List<Entry> entries = new ArrayList<>();
    /** Guarded by lock: the transaction each process has in flight. */
    private final Map<Integer, Long> inFlightByProcess = new HashMap<>();
    /** Guarded by lock: invocations refused because the bound was reached. */
    private long invocationsDropped;

    /**
     * @param isolation       the level the system under test promises
     * @param transactionsMax most transactions to record, 1 to {@link #TRANSACTIONS_MAX_LIMIT}
     * @param nanoClock       a monotonic clock in nanoseconds ({@code System::nanoTime} in a real run)
     */
    public HistoryRecorder(IsolationLevel isolation, int transactionsMax, LongSupplier nanoClock) {
        this.isolation = Objects.requireNonNull(isolation, "isolation");
        if (transactionsMax < 1 || transactionsMax > TRANSACTIONS_MAX_LIMIT) {
            throw new IllegalArgumentException("transactionsMax must be 1 to " + TRANSACTIONS_MAX_LIMIT + ", got " + transactionsMax);
        }
        this.transactionsMax = transactionsMax;
        this.nanoClock = Objects.requireNonNull(nanoClock, "nanoClock");
    }

    /**
     * Records that {@code process} starts a transaction that intends {@code ops} (reads may be
     * unobserved). Returns the transaction's id, or {@link #NOT_RECORDED} once the bound is reached.
     *
     * @throws IllegalStateException if the process already has a transaction in flight
     */
    public long invoke(int process, List<MicroOp> ops) {
        Objects.requireNonNull(ops, "ops");
        synchronized (lock) {
            Long inFlight = inFlightByProcess.get(process);
            if (inFlight != null) {
                throw new IllegalStateException("process " + process + " invokes a transaction while transaction " + inFlight
                        + " is in flight; a process runs one transaction at a time");
            }
            if (entries.size() >= transactionsMax) {
                invocationsDropped++;
                return NOT_RECORDED;
            }
            long id = entries.size();
            // Validate now, at the caller's mistake, rather than when the history is taken.
            Transaction.of(id, process, Outcome.UNKNOWN, 0, 0, ops);
            entries.add(new Entry(id, process, List.copyOf(ops), nanoClock.getAsLong()));
            inFlightByProcess.put(process, id);
            return id;
        }
    }

    /**
     * Records how transaction {@code id} ended. {@code ops} are the operations as executed, reads
     * carrying what they returned (all of them for OK); null keeps the invoked ops. The timestamps
     * are what the server reported, or null.
     *
     * @throws IllegalStateException if {@code id} was not invoked or is already complete
     */
    public void complete(long id, Outcome outcome, List<MicroOp> ops, Long snapshotTimestamp, Long commitTimestamp) {
        Objects.requireNonNull(outcome, "outcome");
        if (id == NOT_RECORDED) {
            return;
        }
        synchronized (lock) {
            if (id < 0 || id >= entries.size()) {
                throw new IllegalStateException("transaction " + id + " was never invoked");
            }
            Entry entry = entries.get((int) id);
            if (entry.completed != null) {
                throw new IllegalStateException("transaction " + id + " is already complete (" + entry.completed.outcome() + ")");
            }
            long now = nanoClock.getAsLong();
            entry.completed = new Transaction(id, entry.process, ops == null ? entry.invokedOps : ops, outcome, entry.invokeNanos,
                    Math.max(now, entry.invokeNanos), snapshotTimestamp, commitTimestamp);
            inFlightByProcess.remove(entry.process);
        }
    }

    /** Shorthand for {@code complete(id, outcome, ops, null, null)}. */
    public void complete(long id, Outcome outcome, List<MicroOp> ops) {
        complete(id, outcome, ops, null, null);
    }

    /** True once an invocation was refused because the bound was reached. */
    public boolean truncated() {
        synchronized (lock) {
            return invocationsDropped > 0;
        }
    }

    public long invocationsDropped() {
        synchronized (lock) {
            return invocationsDropped;
        }
    }

    /**
     * The history so far. Transactions still in flight appear as UNKNOWN with their invoked ops,
     * completed now: their outcome is not known yet.
     *
     * @throws IllegalArgumentException if the workload wrote a value twice to one key or used a key
     *                                  both as a list and as a register (see {@link History})
     */
    public History history() {
        synchronized (lock) {
            long now = nanoClock.getAsLong();
            List<Transaction> transactions = new ArrayList<>(entries.size());
            for (Entry entry : entries) {
                transactions.add(entry.completed != null ? entry.completed
                        : Transaction.of(entry.id, entry.process, Outcome.UNKNOWN, entry.invokeNanos, Math.max(now, entry.invokeNanos),
                                entry.invokedOps));
            }
            return new History(isolation, transactions, invocationsDropped > 0);
        }
    }

    /** One recorded transaction; mutable only under the recorder's lock. */
    private static final class Entry {
        final long id;
        final int process;
        final List<MicroOp> invokedOps;
        final long invokeNanos;
        Transaction completed;

        Entry(long id, int process, List<MicroOp> invokedOps, long invokeNanos) {
            this.id = id;
            this.process = process;
            this.invokedOps = invokedOps;
            this.invokeNanos = invokeNanos;
        }
    }
}
