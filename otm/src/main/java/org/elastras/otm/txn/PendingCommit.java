package org.elastras.otm.txn;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.elastras.storage.store.UnappliedCommits;
import org.elastras.storage.store.Version;
import org.elastras.storage.wal.WalPosition;
import org.elastras.storage.wal.WalRecord;

/**
 * A commit between its two halves in {@link TransactionManager}: prepared (CTS taken, reads
 * validated, the log record built, the transaction still locked and COMMITTING, nothing logged)
 * and then logged and finished. Splitting the commit lets a caller prepare several transactions,
 * log their records together so that one group-commit sync covers them, and only then wait.
 *
 * <p>Owned by the thread that prepared it: {@link TransactionManager#log} and
 * {@link TransactionManager#finishCommit} must be called on that thread (it holds the
 * transaction's lock), and {@code finishCommit} exactly once, whatever happened in between.
 */
public final class PendingCommit {

    /** Null for a read-only commit, which {@link #readOnlyResult} already ended. */
    final Transaction transaction;
    final long cts;
    final WalRecord record;
    final List<Version> versions;
    final UnappliedCommits.Ticket ticket;
    /** The read-only transaction's result, or null when there is a record to log. */
    final CommitResult readOnlyResult;
    /** Set by {@link TransactionManager#log}: completes once the record is durable. */
    CompletableFuture<WalPosition> logged;
    /** Set by {@link TransactionManager#log} instead of {@link #logged} when the record was refused. */
    RuntimeException logRefused;
    /**
     * Given to the log when it was prepared (a commit that adds to rows logs in CTS order under its
     * partition's commit lock); {@link TransactionManager#log} passes it by.
     */
    boolean loggedAtPrepare;
    /** Set by {@link TransactionManager#finishCommit}. */
    boolean finished;

    private PendingCommit(Transaction transaction, long cts, WalRecord record, List<Version> versions,
            UnappliedCommits.Ticket ticket, CommitResult readOnlyResult) {
        this.transaction = transaction;
        this.cts = cts;
        this.record = record;
        this.versions = versions;
        this.ticket = ticket;
        this.readOnlyResult = readOnlyResult;
    }

    static PendingCommit readOnly(CommitResult result) {
        return new PendingCommit(null, 0, null, null, null, result);
    }

    static PendingCommit toLog(Transaction t, long cts, WalRecord record, List<Version> versions,
            UnappliedCommits.Ticket ticket) {
        return new PendingCommit(t, cts, record, versions, ticket, null);
    }

    /** Whether the commit has a record to log (it wrote something). */
    public boolean needsLog() {
        return readOnlyResult == null;
    }

    /** Whether it was given to the log ({@link TransactionManager#log}), which took or refused it. */
    public boolean logged() {
        return logged != null || logRefused != null;
    }

    /**
     * Whether {@link TransactionManager#finishCommit} would find the log's answer ready: the record
     * is durable, the log refused it or failed. False before it was logged.
     */
    public boolean logAnswered() {
        return logRefused != null || (logged != null && logged.isDone());
    }

    /** The commit timestamp taken, 0 for a read-only commit. */
    public long cts() {
        return cts;
    }

    /** The id of the transaction, 0 for a read-only commit (already ended). */
    public long transactionId() {
        return transaction == null ? 0 : transaction.id;
    }
}
