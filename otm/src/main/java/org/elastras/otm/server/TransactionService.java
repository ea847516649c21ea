package org.elastras.otm.server;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.function.Function;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.elastras.catalog.schema.Column;
import org.elastras.catalog.schema.DatabaseSchema;
import org.elastras.catalog.schema.Names;
import org.elastras.catalog.schema.TableSchema;
import org.elastras.client.protocol.AbortRequest;
import org.elastras.client.protocol.AbortResponse;
import org.elastras.client.protocol.AddRequest;
import org.elastras.client.protocol.AddResponse;
import org.elastras.client.protocol.BeginRequest;
import org.elastras.client.protocol.BeginResponse;
import org.elastras.client.protocol.CallBatchRequest;
import org.elastras.client.protocol.CallBatchResponse;
import org.elastras.client.protocol.CallOutcome;
import org.elastras.client.protocol.AggregateRequest;
import org.elastras.client.protocol.AggregateResponse;
import org.elastras.client.protocol.BranchOf;
import org.elastras.client.protocol.CallRequest;
import org.elastras.client.protocol.CallResponse;
import org.elastras.client.protocol.CatalogHandOver;
import org.elastras.client.protocol.ClosePartitionRequest;
import org.elastras.client.protocol.DropIncomingRequest;
import org.elastras.client.protocol.DropIncomingResponse;
import org.elastras.client.protocol.FinishIncomingRequest;
import org.elastras.client.protocol.FinishIncomingResponse;
import org.elastras.client.protocol.MoveDestination;
import org.elastras.client.protocol.ReceivePartitionRequest;
import org.elastras.client.protocol.ReceivePartitionResponse;
import org.elastras.client.protocol.ShipVersionsRequest;
import org.elastras.client.protocol.ShipVersionsResponse;
import org.elastras.client.protocol.ClosePartitionResponse;
import org.elastras.client.protocol.CloseReport;
import org.elastras.client.protocol.CommitId;
import org.elastras.client.protocol.CommitRequest;
import org.elastras.client.protocol.CommitResponse;
import org.elastras.client.protocol.DecideBranchRequest;
import org.elastras.client.protocol.DecideBranchResponse;
import org.elastras.client.protocol.DeleteRequest;
import org.elastras.client.protocol.DeleteResponse;
import org.elastras.client.protocol.ElasTrasException;
import org.elastras.client.protocol.ErrorCode;
import org.elastras.client.protocol.FlushPartitionRequest;
import org.elastras.client.protocol.FlushPartitionResponse;
import org.elastras.client.protocol.GetRequest;
import org.elastras.client.protocol.GetResponse;
import org.elastras.client.protocol.LoadGlobalTableRequest;
import org.elastras.client.protocol.LoadGlobalTableResponse;
import org.elastras.client.protocol.OpenPartitionRequest;
import org.elastras.client.protocol.OpenPartitionResponse;
import org.elastras.client.protocol.PartitionStatus;
import org.elastras.client.protocol.PrepareBranchRequest;
import org.elastras.client.protocol.PrepareBranchResponse;
import org.elastras.client.protocol.PutRequest;
import org.elastras.client.protocol.PutResponse;
import org.elastras.client.protocol.RegisterDatabaseRequest;
import org.elastras.client.protocol.RegisterDatabaseResponse;
import org.elastras.client.protocol.ResolveCommitRequest;
import org.elastras.client.protocol.ResolveCommitResponse;
import org.elastras.client.protocol.ScanRequest;
import org.elastras.client.protocol.ScanResponse;
import org.elastras.client.protocol.StatusRequest;
import org.elastras.client.protocol.StatusResponse;
import org.elastras.client.protocol.VoteBranchRequest;
import org.elastras.client.protocol.VoteBranchResponse;
import org.elastras.client.protocol.WireFormat;
import org.elastras.client.protocol.ProtocolCodec;
import org.elastras.otm.http.OtmService;
import org.elastras.otm.http.PrometheusLabels;
import org.elastras.storage.store.MemtableBudget;
import org.elastras.storage.wal.WalMetrics;
import org.elastras.otm.txn.BranchCoordinator;
import org.elastras.otm.txn.CommitResult;
import org.elastras.otm.txn.CommitTag;
import org.elastras.otm.txn.GlobalTables;
import org.elastras.otm.txn.Isolation;
import org.elastras.otm.txn.TimestampSource;
import org.elastras.otm.txn.ProcedureResult;
import org.elastras.otm.txn.ProcedureRunner;
import org.elastras.otm.txn.RangeTimestampSource;
import org.elastras.otm.txn.RowTransaction;
import org.elastras.otm.txn.SnapshotTracker;
import org.elastras.otm.txn.TableAccess;
import org.elastras.otm.txn.TransactionException;
import org.elastras.otm.txn.TransactionManager;

/**
 * The OTM's protocol operations over its transaction manager and partitions: converts wire rows
 * and keys to typed values with the database schema, maps transaction errors to error codes, and
 * refuses everything while the lease is not held.
 *
 * <p>Thread-safe; called concurrently by the HTTP server's worker threads.
 */
final class TransactionService implements OtmService {

    private static final Logger LOG = Logger.getLogger(TransactionService.class.getName());
    /** Longest wait of a commit-id resolution for a commit in progress to end. */
    private static final long RESOLVE_WAIT_MS = 10_000;
    /** Encodes and decodes procedure results kept in commit markers. */
    private final ProtocolCodec codec = new ProtocolCodec();
    /** Longest wait of a begin for the snapshot to reach the client's last commit. */
    private static final long SESSION_WAIT_MS = 5_000;
    /** Bound on one scan's answer, whatever the client asks. */
    private static final int SCAN_ROWS_MAX = 10_000;
    /** Longest wait of a call batch for an execution slot before it executes without one. */
    private static final long BATCH_SLOT_WAIT_MS_MAX = 200;

    private final String otmId;
    private final BooleanSupplier leaseHeld;
    private final TransactionManager transactions;
    private final ProcedureRunner procedures;
    private final PartitionHost partitions;
    private final TimestampSource timestamps;
    private final SnapshotTracker snapshots;
    private final GlobalTables globals;
    private final Runnable onLogFailure;
    private final CrossPartitionCommitter committer;
    private final PeerOtms peers;
    private final BranchOutcomes outcomes;
    /** How many call batches execute at once: the OTM's cores; the rest wait for their syncs or a slot. */
    private final ExecutionSlots executing;

    /**
     * @param onLogFailure called (possibly more than once) when the write-ahead log died under a
     *     commit: the OTM must give up its partitions so that a recovery decides those commits
     * @param batchSlots how many call batches may execute at once (see {@link ExecutionSlots})
     */
    TransactionService(String otmId, BooleanSupplier leaseHeld, TransactionManager transactions, ProcedureRunner procedures,
            PartitionHost partitions, TimestampSource timestamps, SnapshotTracker snapshots, GlobalTables globals,
            Runnable onLogFailure, CrossPartitionCommitter committer, PeerOtms peers, BranchOutcomes outcomes,
            int batchSlots) {
        this.otmId = otmId;
        this.executing = new ExecutionSlots(batchSlots, BATCH_SLOT_WAIT_MS_MAX);
        this.leaseHeld = leaseHeld;
        this.transactions = transactions;
        this.procedures = procedures;
        this.partitions = partitions;
        this.timestamps = timestamps;
        this.snapshots = snapshots;
        this.globals = globals;
        this.onLogFailure = onLogFailure;
        this.committer = committer;
        this.peers = peers;
        this.outcomes = outcomes;
    }

    @Override
    public boolean serving() {
        return leaseHeld.getAsBoolean();
    }

    private void checkServing() {
        if (!leaseHeld.getAsBoolean()) {
            throw new ElasTrasException(ErrorCode.NOT_SERVING, "OTM " + otmId
                    + " does not hold its lease and serves nothing; ask the catalog where the partition is now");
        }
    }

    // ------------------------------------------------------------------ transactions

    @Override
    public BeginResponse begin(BeginRequest request, String client) {
        checkServing();
        return admitted(request.partitionId(), null, access -> begin(request, client, access));
    }

    private BeginResponse begin(BeginRequest request, String client, TableAccess access) {
        checkDatabase(access, request.database(), request.partitionId());
        BranchOf branch = request.branch();
        if (branch != null) {
            // The branch reads at the coordinator's snapshot: this OTM's snapshot must reach it, and
            // no commit here may take a CTS at or below it from now on.
            awaitSession(Math.max(request.afterCts(), branch.snapshotCts()));
            BranchCoordinator coordinator = new BranchCoordinator(access.schema().name(),
                    branch.coordinatorPartitionId(), branch.coordinatorRootKey());
            long txnId = run(() -> transactions.beginBranch(request.partitionId(), isolation(request.isolation()),
                    client, tag(request.commitId()), branch.snapshotCts(), coordinator));
            return new BeginResponse(txnId, branch.snapshotCts());
        }
        awaitSession(request.afterCts());
        try {
            long txnId = transactions.begin(request.partitionId(), isolation(request.isolation()), client,
                    tag(request.commitId()));
            return new BeginResponse(txnId, transactions.snapshotOf(txnId));
        } catch (TransactionException e) {
            throw translate(e);
        }
    }

    @Override
    public GetResponse get(GetRequest request) {
        checkServing();
        return run(() -> {
            RowTransaction txn = attach(request.txnId());
            TableSchema table = table(txn.access(), request.table());
            List<Object> key = WireRows.keyValues(table, request.key());
            if (request.columns() == null) {
                List<Object> row = txn.get(table.name(), key);
                return row == null ? GetResponse.notFound() : GetResponse.of(WireRows.rowMap(table, row));
            }
            // A read of some columns, validated (SERIALIZABLE) on those columns only.
            List<Column> columns = WireRows.columns(table, request.columns());
            List<Object> values = txn.get(table.name(), key, columns.stream().map(Column::name).toList());
            return values == null ? GetResponse.notFound() : GetResponse.of(WireRows.rowMap(columns, values));
        });
    }

    @Override
    public PutResponse put(PutRequest request) {
        checkServing();
        return run(() -> {
            RowTransaction txn = attach(request.txnId());
            TableSchema table = table(txn.access(), request.table());
            txn.put(table.name(), WireRows.rowValues(table, request.row()));
            return new PutResponse();
        });
    }

    @Override
    public DeleteResponse delete(DeleteRequest request) {
        checkServing();
        return run(() -> {
            RowTransaction txn = attach(request.txnId());
            TableSchema table = table(txn.access(), request.table());
            txn.delete(table.name(), WireRows.keyValues(table, request.key()));
            return new DeleteResponse();
        });
    }

    @Override
    public AddResponse add(AddRequest request) {
        checkServing();
        return run(() -> {
            RowTransaction txn = attach(request.txnId());
            TableSchema table = table(txn.access(), request.table());
            Column column = WireRows.column(table, request.column());
            Number amount = WireRows.amount(table, column, request.amount());
            txn.add(table.name(), WireRows.keyValues(table, request.key()), column.name(), amount);
            return new AddResponse();
        });
    }

    @Override
    public ScanResponse scan(ScanRequest request) {
        checkServing();
        return run(() -> {
            RowTransaction txn = attach(request.txnId());
            TableSchema table = table(txn.access(), request.table());
            int limit = Math.min(request.limit(), SCAN_ROWS_MAX);
            List<List<Object>> rows = txn.scan(table.name(), WireRows.prefixValues(table, request.fromKey()),
                    WireRows.prefixValues(table, request.toKey()), limit + 1);
            boolean more = rows.size() > limit;
            List<Map<String, Object>> out = new ArrayList<>(Math.min(rows.size(), limit));
            for (int i = 0; i < rows.size() && i < limit; i++) {
                out.add(WireRows.rowMap(table, rows.get(i)));
            }
            return new ScanResponse(out, more);
        });
    }

    @Override
    public CommitResponse commit(CommitRequest request) {
        checkServing();
        CommitResult result = request.participants().isEmpty() ? run(() -> transactions.commit(request.txnId()))
                : run(() -> committer.commit(request.txnId(), request.participants(), peers));
        if (!result.readOnly() && !leaseHeld.getAsBoolean()) {
            // Durable in our log, but the lease lapsed before we could tell the client: the next
            // owner's recovery decides whether it counts.
            throw new ElasTrasException(ErrorCode.OUTCOME_UNKNOWN, "transaction " + request.txnId()
                    + " was logged but OTM " + otmId + " lost its lease before acknowledging; read to find out");
        }
        return new CommitResponse(result.cts());
    }

    /** Most rows one aggregate reads on one partition. */
    private static final long AGGREGATE_ROWS_MAX = 10_000_000;

    @Override
    public AggregateResponse aggregate(AggregateRequest request, String client) {
        checkServing();
        TableAccess access = partitions.served(request.partitionId()).access();
        checkDatabase(access, request.database(), request.partitionId());
        TableSchema table = table(access, request.table());
        Aggregation aggregation = new Aggregation(table, request.where(), request.select());
        long snapshot = request.snapshotCts() == 0 ? snapshots.snapshot() : request.snapshotCts();
        awaitSession(snapshot); // every partition of the query reads the same snapshot
        return run(() -> {
            long txnId = transactions.beginAt(request.partitionId(), client, snapshot);
            try {
                RowTransaction txn = access.attach(transactions, txnId);
                long rows = txn.forEach(table.name(), WireRows.prefixValues(table, request.fromKey()),
                        WireRows.prefixValues(table, request.toKey()), AGGREGATE_ROWS_MAX, aggregation::accept);
                transactions.commit(txnId);
                return new AggregateResponse(snapshot, rows, aggregation.result());
            } finally {
                transactions.abort(txnId);
            }
        });
    }

    @Override
    public PrepareBranchResponse prepareBranch(PrepareBranchRequest request) {
        checkServing();
        TransactionManager.BranchPrepared p = run(() -> transactions.prepareBranch(request.txnId()));
        return new PrepareBranchResponse(p.ctsAbove(), p.done(), p.readOnly());
    }

    @Override
    public VoteBranchResponse voteBranch(VoteBranchRequest request) {
        checkServing();
        run(() -> {
            transactions.voteBranch(request.txnId(), request.cts());
            return null;
        });
        if (!leaseHeld.getAsBoolean()) {
            throw new ElasTrasException(ErrorCode.OUTCOME_UNKNOWN, "branch " + request.txnId() + " logged its prepare"
                    + " record but OTM " + otmId + " lost its lease before answering");
        }
        return new VoteBranchResponse();
    }

    @Override
    public DecideBranchResponse decideBranch(DecideBranchRequest request) {
        checkServing();
        return new DecideBranchResponse(run(() -> transactions.decideBranch(request.txnId(), request.commit(),
                request.cts())));
    }

    /**
     * Asks the coordinators of branches that voted at least {@code waitedMs} ago and heard no
     * outcome, and applies the answers. Called by the OTM's timer.
     *
     * @return how many branches were decided
     */
    int resolveInDoubt(long nowMs, long waitedMs) {
        int decided = 0;
        for (TransactionManager.InDoubtBranch b : transactions.inDoubtBranches(nowMs, waitedMs)) {
            TransactionManager.Resolution r = outcomes.ask(b.coordinator(), b.tag());
            if (r == null) {
                continue;
            }
            if (r.committed() && r.cts() != b.cts()) {
                LOG.severe("branch " + b.txnId() + " of " + b.tag() + (b.cts() == 0 ? " never voted" : " voted for CTS "
                        + b.cts()) + " but its coordinator says it committed at " + r.cts() + "; left in doubt");
                continue;
            }
            try {
                if (transactions.decideBranch(b.txnId(), r.committed(), r.committed() ? r.cts() : 0)) {
                    decided++;
                }
            } catch (TransactionException e) {
                LOG.log(Level.WARNING, "applying the outcome of branch " + b.txnId() + " failed", e);
            }
        }
        return decided;
    }

    @Override
    public AbortResponse abort(AbortRequest request) {
        checkServing();
        run(() -> transactions.abort(request.txnId()));
        return new AbortResponse();
    }

    @Override
    public CallResponse call(CallRequest request, String client) {
        checkServing();
        ProcedureResult result = admitted(request.partitionId(), null, access -> {
            checkDatabase(access, request.database(), request.partitionId());
            awaitSession(request.afterCts());
            return run(() -> procedures.run(access, request.procedure(), request.args(),
                    isolation(request.isolation()), client, tag(request.commitId()), this::markerOf));
        });
        return answer(request, result);
    }

    /**
     * Runs new work (a begin, a call) on a partition admitted by {@link PartitionHost#admit}: held
     * while the partition's live move settles. Work refused NOT_OWNER because the move's pause
     * began after it was admitted (nothing of it ran to a commit) is admitted again once, so it
     * too waits for the outcome, and learns the next owner if the partition was handed over.
     */
    private <T> T admitted(long partitionId, Runnable beforeHold, Function<TableAccess, T> work) {
        TableAccess access = partitions.admit(partitionId, beforeHold).access();
        try {
            return work.apply(access);
        } catch (ElasTrasException e) {
            if (e.code() != ErrorCode.NOT_OWNER || e.movedTo() != null || !partitions.settlingOrMoved(partitionId)) {
                throw e;
            }
            return work.apply(partitions.admit(partitionId, beforeHold).access());
        }
    }

    /**
     * Runs the calls one after the other on this thread, each up to its prepared commit, whose
     * record goes to the log at once: the log's group commit syncs it with whatever else is queued
     * while this thread runs the next calls. Before each call, the calls whose records are durable
     * are finished (applied, their intents released), in order; the rest after the last call, or
     * earlier when a call must wait for them (a re-run after a conflict, a session's
     * {@code afterCts}). Each call gets the outcome it would have got alone.
     *
     * <p>(Until session 11 the prepared commits were logged together after the last call: one sync
     * per batch, but each commit's CTS held the OTM's snapshot, and its intents every writer of the
     * same keys, for the rest of the batch.)
     */
    @Override
    public CallBatchResponse callBatch(CallBatchRequest request, String client) {
        checkServing();
        List<CallRequest> calls = request.calls();
        CallOutcome[] outcomes = new CallOutcome[calls.size()];
        PreparedCalls prepared = new PreparedCalls(calls, outcomes);
        prepared.takeSlot();
        try {
            for (int i = 0; i < calls.size(); i++) {
                CallRequest call = calls.get(i);
                prepared.finishDurable();
                try {
                    prepared.retakeSlotAfterHold();
                    ProcedureRunner.Prepared p = admitted(call.partitionId(), prepared::beforeHold, access -> {
                        prepared.retakeSlotAfterHold();
                        checkDatabase(access, call.database(), call.partitionId());
                        if (call.afterCts() > snapshots.snapshot()) {
                            prepared.finishAll(); // the session may wait for one of them
                            prepared.awaitSession(call.afterCts());
                        }
                        checkServing();
                        return run(() -> procedures.prepare(access, call.procedure(), call.args(),
                                isolation(call.isolation()), client, tag(call.commitId()), this::markerOf,
                                prepared.holdsAny() ? prepared::finishAll : null));
                    });
                    if (p.commit() == null) {
                        outcomes[i] = CallOutcome.of(answer(call, p.result()));
                    } else {
                        prepared.add(i, p);
                    }
                } catch (ElasTrasException e) {
                    outcomes[i] = CallOutcome.failed(e);
                } catch (RuntimeException | StackOverflowError e) {
                    outcomes[i] = CallOutcome.failed(unexpected(call, e));
                }
            }
        } finally {
            // Executed: the next batch may run while this one waits for its sync. Also after a bug
            // above: every prepared commit holds its transaction's lock.
            prepared.leaveSlot();
            prepared.finishAll();
        }
        return new CallBatchResponse(Arrays.asList(outcomes));
    }

    /** The prepared calls of one batch: logged together, then finished in order. Owned by the batch's thread. */
    private final class PreparedCalls {
        private final List<CallRequest> calls;
        private final CallOutcome[] outcomes;
        private final List<Integer> indexes = new ArrayList<>();
        private final List<ProcedureRunner.Prepared> prepared = new ArrayList<>();
        /** Whether this batch holds one of the OTM's {@link ExecutionSlots}. */
        private boolean holdsSlot;
        /** Whether the batch gave its slot up while a call was held, to take it back before the call runs. */
        private boolean leftForHold;

        PreparedCalls(List<CallRequest> calls, CallOutcome[] outcomes) {
            this.calls = calls;
            this.outcomes = outcomes;
        }

        /** Waits for an execution slot (or its bound); nothing of the batch has run yet. */
        void takeSlot() {
            try {
                holdsSlot = executing.enter();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new ElasTrasException(ErrorCode.OVERLOADED, "OTM " + otmId
                        + " was interrupted while this call batch waited to execute; none of its calls ran");
            }
        }

        void leaveSlot() {
            if (holdsSlot) {
                holdsSlot = false;
                executing.leave();
            }
        }

        /**
         * Before a call of the batch is held while its partition's move settles: finishes the
         * prepared commits, whose CTSs would hold the snapshot, and gives the slot up meanwhile.
         */
        void beforeHold() {
            finishAll();
            if (holdsSlot) {
                leaveSlot();
                leftForHold = true;
            }
        }

        /** Waits for the OTM's snapshot to reach a session's last commit, without the slot meanwhile. */
        void awaitSession(long afterCts) {
            withoutSlot(() -> TransactionService.this.awaitSession(afterCts));
        }

        /** Runs a wait with the slot given to the next batch meanwhile (if this batch holds one). */
        private void withoutSlot(Runnable wait) {
            boolean held = holdsSlot;
            leaveSlot();
            wait.run();
            if (held) {
                takeSlot();
            }
        }

        /** Takes the slot back that {@link #beforeHold} gave up, if it did. */
        void retakeSlotAfterHold() {
            if (leftForHold) {
                leftForHold = false;
                takeSlot();
            }
        }

        /** Takes a prepared call and gives its commit to the log at once. */
        void add(int index, ProcedureRunner.Prepared call) {
            indexes.add(index);
            prepared.add(call);
            transactions.log(List.of(call.commit()));
        }

        boolean holdsAny() {
            return !prepared.isEmpty();
        }

        /** Finishes, in order, the leading prepared calls whose records the log has answered for; never waits. */
        void finishDurable() {
            int ready = 0;
            while (ready < prepared.size() && prepared.get(ready).commit().logAnswered()) {
                ready++;
            }
            finishFirst(ready);
        }

        /**
         * Waits for the log's answer for every prepared commit and finishes them, in order. A
         * batch that must wait for a sync gives its execution slot to the next batch meanwhile.
         */
        void finishAll() {
            if (holdsSlot && !allLogAnswered()) {
                withoutSlot(() -> finishFirst(prepared.size()));
            } else {
                finishFirst(prepared.size());
            }
        }

        private boolean allLogAnswered() {
            for (int k = prepared.size() - 1; k >= 0; k--) {
                if (!prepared.get(k).commit().logAnswered()) {
                    return false;
                }
            }
            return true;
        }

        private void finishFirst(int count) {
            if (count == 0) {
                return;
            }
            for (int k = 0; k < count; k++) {
                int i = indexes.get(k);
                CallRequest call = calls.get(i);
                ProcedureRunner.Prepared p = prepared.get(k);
                try {
                    outcomes[i] = CallOutcome.of(answer(call, run(() -> procedures.finish(p))));
                } catch (ElasTrasException e) {
                    outcomes[i] = CallOutcome.failed(e);
                } catch (RuntimeException | StackOverflowError e) {
                    outcomes[i] = CallOutcome.failed(unexpected(call, e));
                }
            }
            indexes.subList(0, count).clear();
            prepared.subList(0, count).clear();
        }
    }

    /** A call's failure that no client can cause: logged, and answered INTERNAL for that call alone. */
    private ElasTrasException unexpected(CallRequest call, Throwable e) {
        LOG.log(Level.SEVERE, "call of procedure " + call.procedure() + " in a batch failed unexpectedly", e);
        return new ElasTrasException(ErrorCode.INTERNAL, "call of " + call.procedure() + " failed inside OTM " + otmId
                + " (" + e.getClass().getSimpleName() + ": " + e.getMessage() + "); the outcome is unknown, see the OTM's log");
    }

    /** The answer to a call whose procedure ran: its response, or the error its outcome means. */
    private CallResponse answer(CallRequest request, ProcedureResult result) {
        switch (result.outcome()) {
            case COMMITTED -> {
                if (result.cts() > 0 && !leaseHeld.getAsBoolean()) {
                    throw new ElasTrasException(ErrorCode.OUTCOME_UNKNOWN, "procedure " + request.procedure()
                            + " was logged but OTM " + otmId + " lost its lease before acknowledging");
                }
                return new CallResponse(result.value(), result.cts(), result.attempts());
            }
            case ROLLED_BACK -> throw new ElasTrasException(ErrorCode.PROCEDURE_ABORTED, "procedure "
                    + request.procedure() + " rolled back: " + result.message());
            case RETRIES_EXHAUSTED -> throw new ElasTrasException(ErrorCode.CONFLICT, "procedure " + request.procedure()
                    + " conflicted on every attempt: " + result.message());
            default -> throw new IllegalStateException("unknown procedure outcome " + result.outcome());
        }
    }

    @Override
    public String metrics() {
        StringBuilder out = new StringBuilder();
        String otm = "{otm=\"" + otmId + "\"}";
        sample(out, "elastras_otm_serving", "gauge", "1 while the OTM holds its lease and serves", otm,
                serving() ? 1 : 0);
        sample(out, "elastras_otm_commits_total", "counter", "transactions committed", otm, transactions.commitCount());
        sample(out, "elastras_otm_aborts_total", "counter", "transactions aborted", otm, transactions.abortCount());
        sample(out, "elastras_otm_open_transactions", "gauge", "transactions open now", otm, transactions.openTransactions());
        sample(out, "elastras_otm_procedure_retries_total", "counter", "procedure runs beyond the first of a call", otm,
                procedures.retryCount());
        Map<ProcedureRunner.RetryCause, Long> byCause = procedures.retriesByCause();
        if (!byCause.isEmpty()) {
            String name = "elastras_otm_procedure_retries_by_cause_total";
            out.append("# HELP ").append(name).append(" procedure runs beyond the first of a call, by database, procedure")
                    .append(" and the reason the run before aborted\n");
            out.append("# TYPE ").append(name).append(" counter\n");
            byCause.forEach((cause, count) -> out.append(name).append("{otm=\"").append(PrometheusLabels.escape(otmId))
                    .append("\",database=\"").append(PrometheusLabels.escape(cause.database()))
                    .append("\",procedure=\"").append(PrometheusLabels.escape(cause.procedure()))
                    .append("\",reason=\"").append(cause.reason()).append("\"} ").append(count).append('\n'));
        }
        sample(out, "elastras_otm_batch_slots_waited_out_total", "counter", "call batches that waited "
                + BATCH_SLOT_WAIT_MS_MAX + " ms for one of the " + executing.slotCount() + " execution slots and ran without one",
                otm, executing.waitedOut());
        // Group commit: records per batch is how many commits one sync serves.
        WalMetrics wal = transactions.walMetrics();
        sample(out, "elastras_otm_wal_batches_total", "counter", "log batches written, each ended by one sync", otm, wal.batches());
        sample(out, "elastras_otm_wal_records_total", "counter", "log records acknowledged", otm, wal.records());
        sample(out, "elastras_otm_wal_bytes_total", "counter", "log record bytes written", otm, wal.bytes());
        sample(out, "elastras_otm_wal_sync_p50_micros", "gauge", "median sync of a batch since the log opened", otm,
                wal.syncLatencyMicrosP50());
        sample(out, "elastras_otm_wal_sync_p99_micros", "gauge", "99th percentile sync of a batch since the log opened", otm,
                wal.syncLatencyMicrosP99());
        sample(out, "elastras_otm_snapshot_cts", "gauge", "the CTS transactions begin at", otm, snapshots.snapshot());
        if (timestamps instanceof RangeTimestampSource range) {
            // Far below the OTM's own snapshot: some OTM holds a CTS unfinished (sessions and
            // branches that change OTM wait for it).
            sample(out, "elastras_otm_global_snapshot_cts", "gauge", "the cluster's snapshot, as the master last announced it",
                    otm, range.globalSnapshot());
            RangeTimestampSource.ExchangeCounts counts = range.exchangeCounts();
            sample(out, "elastras_otm_timestamp_exchanges_total", "counter",
                    "timestamp reports the master accepted (one a heartbeat period, more when a range is wanted sooner)",
                    otm, counts.exchanges());
            sample(out, "elastras_otm_cts_range_waits_total", "counter",
                    "commits that found this OTM's CTS range used up and waited for the next", otm, counts.rangeWaits());
            sample(out, "elastras_otm_cts_lift_waits_total", "counter",
                    "waits for a CTS range above a given CTS (branches, sessions, opens)", otm, counts.liftWaits());
        }
        sample(out, "elastras_otm_admission_held", "gauge",
                "requests held while their partition's live move settles", otm, partitions.heldRequests());
        sample(out, "elastras_otm_snapshot_pending_ranges", "gauge",
                "finished CTS ranges waiting behind an unfinished CTS of this OTM", otm, snapshots.pendingRanges());
        sample(out, "elastras_otm_partitions_served", "gauge", "partitions served", otm, partitions.all().size());
        MemtableBudget budget = partitions.memtableBudget();
        sample(out, "elastras_otm_memtable_budget_bytes", "gauge", "what all partitions' memtables may hold together",
                otm, budget.capacityBytes());
        sample(out, "elastras_otm_memtable_active_bytes", "gauge", "bytes in the partitions' active memtables", otm,
                budget.activeBytes());
        sample(out, "elastras_otm_memtable_frozen_bytes", "gauge", "bytes in frozen memtables being flushed", otm,
                budget.frozenBytes());
        sample(out, "elastras_otm_memtable_budget_flushes_total", "counter",
                "flushes of the largest memtable because the active ones held half the budget", otm, budget.flushesRequested());
        sample(out, "elastras_otm_memtable_budget_waits_total", "counter",
                "commits that waited because the memtables held the whole budget", otm, budget.writerWaits());
        return out.toString();
    }

    private static void sample(StringBuilder out, String name, String type, String help, String labels, long value) {
        out.append("# HELP ").append(name).append(' ').append(help).append('\n');
        out.append("# TYPE ").append(name).append(' ').append(type).append('\n');
        out.append(name).append(labels).append(' ').append(value).append('\n');
    }

    @Override
    public ResolveCommitResponse resolveCommit(ResolveCommitRequest request) {
        checkServing();
        TableAccess access = partitions.served(request.partitionId()).access();
        checkDatabase(access, request.database(), request.partitionId());
        TransactionManager.Resolution r = run(() -> {
            try {
                return transactions.resolve(request.partitionId(), tag(request.commitId()), RESOLVE_WAIT_MS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new TransactionException(TransactionException.Reason.OVERLOADED, false, "interrupted");
            }
        });
        if (!r.committed()) {
            return new ResolveCommitResponse(false, 0, null, false);
        }
        byte[] marker = r.markerValue();
        if (marker != null && marker.length > 0 && marker[0] == CommitTag.RESULT_KEPT) {
            Object result = codec.decode(java.util.Arrays.copyOfRange(marker, 1, marker.length), Object.class,
                    WireFormat.SMILE, "kept procedure result");
            return new ResolveCommitResponse(true, r.cts(), result, true);
        }
        return new ResolveCommitResponse(true, r.cts(), null, false);
    }

    private static CommitTag tag(CommitId id) {
        return id == null ? null : new CommitTag(id.issuedMs(), id.nonce());
    }

    /** A committed call's commit marker: its result, encoded, if small enough to keep. */
    private byte[] markerOf(Object value) {
        byte[] encoded;
        try {
            encoded = codec.encode(value, WireFormat.SMILE);
        } catch (RuntimeException e) {
            return new byte[] {CommitTag.RESULT_TOO_LARGE};
        }
        if (encoded.length > CommitId.RESULT_BYTES_MAX) {
            return new byte[] {CommitTag.RESULT_TOO_LARGE};
        }
        byte[] marker = new byte[encoded.length + 1];
        marker[0] = CommitTag.RESULT_KEPT;
        System.arraycopy(encoded, 0, marker, 1, encoded.length);
        return marker;
    }

    // ------------------------------------------------------------------ admin

    @Override
    public RegisterDatabaseResponse registerDatabase(RegisterDatabaseRequest request) {
        checkServing();
        partitions.registerDatabase(request.schema().toSchema());
        return new RegisterDatabaseResponse();
    }

    @Override
    public OpenPartitionResponse openPartition(OpenPartitionRequest request) {
        checkServing();
        try {
            partitions.open(request.database(), request.partitionId(), request.startKey(), request.endKey());
        } catch (IOException e) {
            LOG.log(Level.WARNING, "opening partition " + request.partitionId() + " failed", e);
            throw new ElasTrasException(ErrorCode.INTERNAL, "cannot open partition " + request.partitionId()
                    + " from the DFS: " + e.getMessage(), e);
        }
        return new OpenPartitionResponse();
    }

    @Override
    public ClosePartitionResponse closePartition(ClosePartitionRequest request) {
        checkServing();
        if (request.liveTo() != null) {
            return moveOut(request.partitionId(), request.liveTo(), request.handOver());
        }
        CloseReport closed;
        try {
            closed = partitions.close(request.partitionId());
        } catch (IOException e) {
            throw new ElasTrasException(ErrorCode.INTERNAL, "closing partition " + request.partitionId()
                    + " failed: " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new ElasTrasException(ErrorCode.INTERNAL, "interrupted while closing partition " + request.partitionId());
        } catch (IllegalStateException e) {
            throw new ElasTrasException(ErrorCode.OVERLOADED, "partition " + request.partitionId()
                    + " could not be drained: " + e.getMessage());
        }
        return new ClosePartitionResponse(closed);
    }

    private ClosePartitionResponse moveOut(long partitionId, MoveDestination to, CatalogHandOver handOver) {
        if (to.otmId().equals(otmId)) {
            throw new ElasTrasException(ErrorCode.MALFORMED_REQUEST, "a live move of partition " + partitionId
                    + " needs another OTM as its destination, not this one");
        }
        try {
            return partitions.moveOut(partitionId, to, peers.of(to.host(), to.port()), handOver);
        } catch (IOException e) {
            throw new ElasTrasException(ErrorCode.INTERNAL, "live move of partition " + partitionId + " to " + to.otmId()
                    + " failed: " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new ElasTrasException(ErrorCode.INTERNAL, "interrupted while moving partition " + partitionId);
        } catch (ElasTrasException e) {
            if (e.code() == ErrorCode.NOT_OWNER && !transactions.serves(partitionId)) {
                throw e;
            }
            throw new ElasTrasException(e.code() == ErrorCode.NOT_OWNER ? ErrorCode.OVERLOADED : e.code(),
                    "live move of partition " + partitionId + " to " + to.otmId() + " failed: " + e.getMessage(), e);
        } catch (IllegalStateException e) {
            throw new ElasTrasException(ErrorCode.OVERLOADED, "live move of partition " + partitionId + " to "
                    + to.otmId() + " failed: " + e.getMessage());
        }
    }

    @Override
    public ReceivePartitionResponse receivePartition(ReceivePartitionRequest request) {
        checkServing();
        try {
            partitions.receive(request);
        } catch (IOException e) {
            throw new ElasTrasException(ErrorCode.INTERNAL, "cannot open partition " + request.partitionId()
                    + " from the DFS to receive it: " + e.getMessage(), e);
        }
        if (request.catalogHost() != null) {
            // The hand-over's catalog write goes there while the partition is paused: connect now.
            peers.connectSoon(request.catalogHost(), request.catalogPort());
        }
        return new ReceivePartitionResponse();
    }

    @Override
    public ShipVersionsResponse shipVersions(ShipVersionsRequest request) {
        checkServing();
        return new ShipVersionsResponse(partitions.ship(request));
    }

    @Override
    public FinishIncomingResponse finishIncoming(FinishIncomingRequest request) {
        checkServing();
        CatalogHandOver h = request.handOver();
        return partitions.finishIncoming(request, () -> peers.of(h.host(), h.port()));
    }

    @Override
    public DropIncomingResponse dropIncoming(DropIncomingRequest request) {
        return new DropIncomingResponse(partitions.dropIncoming(request.partitionId()));
    }

    @Override
    public LoadGlobalTableResponse loadGlobalTable(LoadGlobalTableRequest request) {
        checkServing();
        DatabaseSchema schema = partitions.database(request.database());
        TableSchema table = schema.findTable(request.table()).orElseThrow(() -> new ElasTrasException(ErrorCode.UNKNOWN_TABLE,
                "database " + schema.name() + " has no table " + request.table()));
        List<List<Object>> rows = new ArrayList<>(request.rows().size());
        for (Map<String, Object> row : request.rows()) {
            rows.add(WireRows.rowValues(table, row));
        }
        try {
            long count = run(() -> request.loadId() == null
                    ? globals.load(schema, table.name(), rows)
                    : globals.loadChunk(schema, table.name(), request.loadId(), request.chunk(), rows, request.publish()));
            return new LoadGlobalTableResponse(count);
        } catch (GlobalTables.LoadRefused e) {
            throw new ElasTrasException(e.why() == GlobalTables.LoadRefused.Why.ALREADY_PUBLISHED ? ErrorCode.REFUSED
                    : ErrorCode.MALFORMED_REQUEST, e.getMessage());
        }
    }

    @Override
    public FlushPartitionResponse flushPartition(FlushPartitionRequest request) {
        checkServing();
        try {
            partitions.flush(request.partitionId());
        } catch (IOException e) {
            throw new ElasTrasException(ErrorCode.INTERNAL, "flushing partition " + request.partitionId()
                    + " failed: " + e.getMessage(), e);
        }
        return new FlushPartitionResponse();
    }

    @Override
    public StatusResponse status(StatusRequest request) {
        List<PartitionStatus> list = new ArrayList<>();
        for (PartitionHost.Served s : partitions.all()) {
            long id = s.descriptor().id().value();
            list.add(new PartitionStatus(s.descriptor().database(), id, s.startKey(), s.endKey(),
                    serving() ? "SERVING" : "NOT_SERVING", transactions.openTransactions(id)));
        }
        list.sort((a, b) -> Long.compare(a.partitionId(), b.partitionId()));
        return new StatusResponse(otmId, serving(), list);
    }

    // ------------------------------------------------------------------ helpers

    /**
     * Session consistency: a client that committed at {@code afterCts} (here or on another OTM)
     * starts its next transaction only at a snapshot that includes it. The timestamp source makes
     * every later CTS here larger (locally a Lamport step; in a cluster the next range from the
     * master), and the snapshot reaches it once the commits below it finish.
     */
    private void awaitSession(long afterCts) {
        if (afterCts <= snapshots.snapshot()) {
            return;
        }
        try {
            long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(SESSION_WAIT_MS);
            if (!timestamps.liftAbove(afterCts, SESSION_WAIT_MS)
                    || !snapshots.awaitSnapshot(afterCts, Math.max(0, TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime())))) {
                throw new ElasTrasException(ErrorCode.OVERLOADED, "the snapshot did not reach " + afterCts + " within "
                        + SESSION_WAIT_MS + " ms; retry");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new ElasTrasException(ErrorCode.INTERNAL, "interrupted while waiting for the snapshot");
        }
    }

    private interface Action<T> {
        T run();
    }

    private <T> T run(Action<T> action) {
        try {
            return action.run();
        } catch (TransactionException e) {
            if (e.reason() == TransactionException.Reason.LOG_FAILED) {
                // Commits whose durability is unknown must not be judged by this OTM's readers:
                // it gives up its partitions and the next owner's recovery decides them.
                onLogFailure.run();
            }
            throw translate(e);
        } catch (IllegalArgumentException e) {
            throw new ElasTrasException(ErrorCode.TYPE_MISMATCH, e.getMessage());
        }
    }

    private RowTransaction attach(long txnId) {
        long partitionId = transactions.partitionOf(txnId);
        return partitions.served(partitionId).access().attach(transactions, txnId);
    }

    private static void checkDatabase(TableAccess access, String database, long partitionId) {
        if (!Names.same(access.schema().name(), database)) {
            throw new ElasTrasException(ErrorCode.NOT_OWNER, "partition " + partitionId + " belongs to database "
                    + access.schema().name() + ", not " + database);
        }
    }

    private static TableSchema table(TableAccess access, String name) {
        DatabaseSchema schema = access.schema();
        return schema.findTable(name).orElseThrow(() -> new ElasTrasException(ErrorCode.UNKNOWN_TABLE, "database "
                + schema.name() + " has no table " + name + "; its tables are "
                + schema.tables().stream().map(TableSchema::name).toList()));
    }

    private static Isolation isolation(org.elastras.client.protocol.Isolation wire) {
        return wire == org.elastras.client.protocol.Isolation.SNAPSHOT ? Isolation.SNAPSHOT : Isolation.SERIALIZABLE;
    }

    static ElasTrasException translate(TransactionException e) {
        ErrorCode code = switch (e.reason()) {
            case CONFLICT -> ErrorCode.CONFLICT;
            case SERIALIZATION_FAILURE -> ErrorCode.SERIALIZATION_FAILURE;
            case UNKNOWN_TRANSACTION -> ErrorCode.UNKNOWN_TRANSACTION;
            case TIMEOUT -> ErrorCode.TRANSACTION_TIMEOUT;
            case LIMIT_EXCEEDED -> ErrorCode.LIMIT_EXCEEDED;
            case NOT_OWNER -> ErrorCode.NOT_OWNER;
            case UNKNOWN_TABLE -> ErrorCode.UNKNOWN_TABLE;
            case TYPE_MISMATCH -> ErrorCode.TYPE_MISMATCH;
            case KEY_OUTSIDE_PARTITION, READ_ONLY_TABLE -> ErrorCode.MALFORMED_REQUEST;
            case UNKNOWN_DATABASE -> ErrorCode.UNKNOWN_DATABASE;
            case UNKNOWN_PROCEDURE -> ErrorCode.UNKNOWN_PROCEDURE;
            case OVERLOADED -> ErrorCode.OVERLOADED;
            case LOG_FAILED -> ErrorCode.OUTCOME_UNKNOWN;
            case PROCEDURE_FAILED, STORAGE_FAILED -> ErrorCode.INTERNAL;
        };
        return new ElasTrasException(code, e.getMessage(), e);
    }
}
