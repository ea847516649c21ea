package org.elastras.otm.txn;

import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Function;
import java.util.logging.Logger;
import org.elastras.otm.txn.TransactionException.Reason;

/**
 * Runs stored procedures as transactions: begins on the partition, runs the procedure, commits,
 * and when the transaction aborts on CONFLICT or SERIALIZATION_FAILURE runs it again on a newer
 * snapshot, up to a bounded number of attempts. Before a retry it waits (bounded) for the
 * transaction it ran into to end and for the snapshot to reach that commit, so the next attempt
 * does not hit the same version again.
 *
 * <p>Thread-safe; holds no per-call state.
 */
public final class ProcedureRunner {

    /**
     * A call that runs this long or longer up to its commit's record (re-runs and their waits
     * included) is logged with where its time went: the OTM's slow-call log.
     */
    static final long SLOW_CALL_MS = 1_000;
    private static final Logger LOG = Logger.getLogger(ProcedureRunner.class.getName());

    /** Most distinct (database, procedure, reason) keys {@link #retriesByCause} counts apart. */
    static final int RETRY_CAUSES_MAX = 1_000;
    /** The database and procedure name of re-runs counted beyond {@link #RETRY_CAUSES_MAX} keys. */
    public static final String OTHER_PROCEDURES = "(other)";

    /** What made a procedure run again: its database, its name and the abort's reason. */
    public record RetryCause(String database, String procedure, Reason reason) implements Comparable<RetryCause> {
        @Override
        public int compareTo(RetryCause o) {
            int c = database.compareTo(o.database);
            if (c == 0) {
                c = procedure.compareTo(o.procedure);
            }
            return c != 0 ? c : reason.compareTo(o.reason);
        }
    }

    private final TransactionManager manager;
    private final ProcedureRegistry registry;
    private final int attemptsMax;
    private final long retryWaitMs;
    /**
     * Re-runs by what caused them: about {@link #RETRY_CAUSES_MAX} keys (racing threads may pass it
     * by a few), then per reason under database and procedure {@link #OTHER_PROCEDURES}.
     */
    private final Map<RetryCause, LongAdder> retriesByCause = new ConcurrentHashMap<>();
    /** How procedures reach rows of other partitions; null until the server sets it (then refused). */
    private volatile CrossPartitionAccess cross;

    /**
     * @param attemptsMax most runs of one call (1: no retry)
     * @param retryWaitMs longest wait before one retry for the conflicting commit to become visible
     */
    public ProcedureRunner(TransactionManager manager, ProcedureRegistry registry, int attemptsMax, long retryWaitMs) {
        if (manager == null || registry == null) {
            throw new IllegalArgumentException("manager and registry are required");
        }
        if (attemptsMax < 1 || attemptsMax > 1000) {
            throw new IllegalArgumentException("attemptsMax must be in [1, 1000], got " + attemptsMax);
        }
        if (retryWaitMs < 0 || retryWaitMs > 60_000) {
            throw new IllegalArgumentException("retryWaitMs must be in [0, 60000], got " + retryWaitMs);
        }
        this.manager = manager;
        this.registry = registry;
        this.attemptsMax = attemptsMax;
        this.retryWaitMs = retryWaitMs;
    }

    /**
     * Runs the procedure {@code name} of the partition's database.
     *
     * @throws TransactionException for errors a retry cannot fix (UNKNOWN_PROCEDURE, NOT_OWNER,
     *     TYPE_MISMATCH, LIMIT_EXCEEDED, ..., PROCEDURE_FAILED if the procedure threw); its
     *     transaction was aborted and nothing was written
     */
    public ProcedureResult run(TableAccess partition, String name, List<Object> args, Isolation isolation,
            String clientId) {
        return run(partition, name, args, isolation, clientId, null, value -> new byte[] {CommitTag.NO_RESULT});
    }

    /**
     * Runs the procedure as {@link #run(TableAccess, String, List, Isolation, String)}, each attempt's
     * transaction carrying the client's commit id {@code tag}; the attempt that commits keeps its
     * result, as {@code encodeMarker} makes it, in the commit marker.
     */
    public ProcedureResult run(TableAccess partition, String name, List<Object> args, Isolation isolation,
            String clientId, CommitTag tag, Function<Object, byte[]> encodeMarker) {
        Prepared prepared = prepare(partition, name, args, isolation, clientId, tag, encodeMarker, null);
        if (prepared.commit() == null) {
            return prepared.result();
        }
        manager.log(List.of(prepared.commit()));
        return finish(prepared);
    }

    /**
     * A call run up to its commit's log record: either its final result (it rolled back, ran out
     * of attempts, or committed without writing), or a prepared commit with the procedure's value,
     * which the caller must log ({@link TransactionManager#log}) and {@link #finish} on this thread.
     */
    public record Prepared(ProcedureResult result, PendingCommit commit, Object value, int attempt) {
    }

    /**
     * Runs the procedure as {@link #run(TableAccess, String, List, Isolation, String, CommitTag, Function)}
     * but stops once its commit is prepared, so that a caller running several calls can log their
     * records together and wait for one sync. The transaction stays locked by this thread until
     * {@link #finish}.
     *
     * @param beforeWaiting for a caller holding prepared commits of earlier calls (null if it holds
     *     none): finishes them. Called before a re-run waits for the transaction it ran into (it
     *     may be one of them), and before the procedure waits on another OTM or on a branch's
     *     outcome ({@link RowTransaction#beforeBlocking}): their CTSs hold this OTM's snapshot
     * @throws TransactionException as {@code run}
     */
    public Prepared prepare(TableAccess partition, String name, List<Object> args, Isolation isolation,
            String clientId, CommitTag tag, Function<Object, byte[]> encodeMarker, Runnable beforeWaiting) {
        Procedure procedure = registry.find(partition.schema().name(), name);
        List<Object> arguments = args == null ? List.of() : args;
        TransactionException last = null;
        // Where the call's time went, for the slow-call log (locals: nothing allocated per call).
        long began = System.nanoTime();
        long[] waitsInside = CallWaits.start();
        long waitedNanos = 0;
        long longestAbortedNanos = 0;
        TransactionException longestAbortedBy = null;
        int attempt = 1;
        try {
            for (; attempt <= attemptsMax; attempt++) {
                if (attempt > 1) {
                    countRetry(partition.schema().name(), name, last.reason());
                    long waitBegan = System.nanoTime();
                    if (beforeWaiting != null) {
                        beforeWaiting.run();
                    }
                    awaitBlocker(last);
                    waitedNanos += System.nanoTime() - waitBegan;
                }
                long attemptBegan = System.nanoTime();
                RowTransaction txn = partition.beginCall(manager, isolation, clientId, tag, cross);
                try {
                    if (beforeWaiting != null) {
                        txn.beforeBlocking(beforeWaiting);
                    }
                    Object value = procedure.run(txn, arguments);
                    if (txn.abortCause() != null) {
                        // The procedure caught the error that aborted its transaction and went on.
                        throw txn.abortCause();
                    }
                    if (tag != null) {
                        manager.setMarkerValue(txn.id(), encodeMarker.apply(value));
                    }
                    PendingCommit commit = txn.prepareCommit();
                    if (!commit.needsLog()) {
                        CommitResult readOnly = manager.finishCommit(commit);
                        return new Prepared(new ProcedureResult(ProcedureResult.Outcome.COMMITTED, value, readOnly.cts(),
                                attempt, null), null, value, attempt);
                    }
                    return new Prepared(null, commit, value, attempt);
                } catch (ProcedureAbort rollback) {
                    txn.abort();
                    return new Prepared(new ProcedureResult(ProcedureResult.Outcome.ROLLED_BACK, null, 0, attempt,
                            rollback.getMessage()), null, null, attempt);
                } catch (TransactionException e) {
                    txn.abort();
                    TransactionException cause = txn.abortCause() != null ? txn.abortCause() : e;
                    long attemptNanos = System.nanoTime() - attemptBegan;
                    if (attemptNanos >= longestAbortedNanos) {
                        longestAbortedNanos = attemptNanos;
                        longestAbortedBy = cause;
                    }
                    if (!cause.retryable()) {
                        throw cause;
                    }
                    last = cause;
                } catch (RuntimeException e) {
                    txn.abort();
                    throw new TransactionException(Reason.PROCEDURE_FAILED, true, "procedure '" + name + "' of database "
                            + partition.schema().name() + " failed: " + e + "; its transaction was aborted", e);
                }
            }
        } finally {
            reportIfSlow(partition.schema().name(), name, began, Math.min(attempt, attemptsMax), waitedNanos,
                    longestAbortedNanos, longestAbortedBy, waitsInside);
        }
        return new Prepared(new ProcedureResult(ProcedureResult.Outcome.RETRIES_EXHAUSTED, null, 0, attemptsMax,
                "aborted " + attemptsMax + " times; last: " + last.getMessage()), null, null, attemptsMax);
    }

    /**
     * Logs a warning if the call ran {@link #SLOW_CALL_MS} or longer up to its commit's record:
     * its attempts, the waits before its re-runs, what its attempts waited for inside them
     * ({@link CallWaits}) and its longest aborted attempt (if one aborted).
     */
    private static void reportIfSlow(String database, String procedure, long began, int attempts, long waitedNanos,
            long longestAbortedNanos, TransactionException longestAbortedBy, long[] waitsInside) {
        long ms = (System.nanoTime() - began) / 1_000_000;
        if (ms < SLOW_CALL_MS) {
            return;
        }
        LOG.warning(() -> "slow call: procedure '" + procedure + "' of database " + database + " ran " + ms
                + " ms up to its commit's record, in " + attempts + (attempts == 1 ? " attempt" : " attempts")
                + ", " + waitedNanos / 1_000_000 + " ms of it waiting before re-runs" + CallWaits.describe(waitsInside)
                + (longestAbortedBy == null ? "" : "; its longest aborted attempt took " + longestAbortedNanos / 1_000_000
                + " ms and ended " + longestAbortedBy.reason() + ": " + longestAbortedBy.getMessage()));
    }

    /**
     * Finishes a prepared call whose commit was given to the log: waits for its sync and applies
     * it. REQUIRES: on the thread that prepared it, exactly once.
     *
     * @throws TransactionException as {@link TransactionManager#finishCommit} (never a retryable one:
     *     conflicts are found while preparing)
     */
    public ProcedureResult finish(Prepared prepared) {
        if (prepared.commit() == null) {
            throw new IllegalArgumentException("the call has no commit to finish; its result is final");
        }
        CommitResult committed = manager.finishCommit(prepared.commit());
        return new ProcedureResult(ProcedureResult.Outcome.COMMITTED, prepared.value(), committed.cts(),
                prepared.attempt(), null);
    }

    /** Lets procedures read and write rows of other partitions through {@code access}. */
    public void allowCrossPartition(CrossPartitionAccess access) {
        this.cross = access;
    }

    /** Retries since start (runs beyond the first of a call). */
    public long retryCount() {
        long sum = 0;
        for (LongAdder count : retriesByCause.values()) {
            sum += count.sum();
        }
        return sum;
    }

    /** Retries since start by what caused them, in order; they add up to {@link #retryCount()}. */
    public Map<RetryCause, Long> retriesByCause() {
        Map<RetryCause, Long> out = new TreeMap<>();
        retriesByCause.forEach((cause, count) -> out.put(cause, count.sum()));
        return out;
    }

    private void countRetry(String database, String procedure, Reason reason) {
        RetryCause cause = new RetryCause(database, procedure, reason);
        LongAdder count = retriesByCause.get(cause);
        if (count == null) {
            if (retriesByCause.size() >= RETRY_CAUSES_MAX) {
                cause = new RetryCause(OTHER_PROCEDURES, OTHER_PROCEDURES, reason);
            }
            count = retriesByCause.computeIfAbsent(cause, c -> new LongAdder());
        }
        count.increment();
    }

    private void awaitBlocker(TransactionException conflict) {
        try {
            long cts = conflict.conflictCts();
            if (conflict.blockingTransactionId() != 0) {
                cts = Math.max(cts, manager.awaitOutcome(conflict.blockingTransactionId(), retryWaitMs));
            }
            if (cts > 0) {
                manager.snapshots().awaitSnapshot(cts, retryWaitMs);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new TransactionException(Reason.OVERLOADED, false, "interrupted while waiting to retry", e);
        }
    }
}
