package org.elastras.otm.server;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.elastras.client.protocol.BranchRef;
import org.elastras.client.protocol.DecideBranchRequest;
import org.elastras.client.protocol.ElasTrasException;
import org.elastras.client.protocol.ErrorCode;
import org.elastras.client.protocol.PrepareBranchRequest;
import org.elastras.client.protocol.PrepareBranchResponse;
import org.elastras.client.protocol.VoteBranchRequest;
import org.elastras.otm.txn.CommitResult;
import org.elastras.otm.txn.PendingCommit;
import org.elastras.otm.txn.TransactionException;
import org.elastras.otm.txn.TransactionManager;

/**
 * The coordinator's side of a cross-partition commit (ARCHITECTURE section 7, "Cross-partition
 * transactions"): the OTM owning the partition a transaction began on commits it together with its
 * participants' branches on other partitions.
 * <ol>
 * <li>Turn the coordinator's adds into writes ({@link TransactionManager#prepareCoordinatorsAdds}),
 *     before any branch is prepared.</li>
 * <li>Prepare every branch: each holds its OTM's snapshot and answers a bound its commit timestamp
 *     must be above.</li>
 * <li>Take the CTS here, above every bound, and validate the coordinator's own part
 *     ({@link TransactionManager#prepareCoordinatedCommit}).</li>
 * <li>Vote: each branch validates its reads at the CTS and logs its writes as a prepare record.
 *     Any "no" (or no answer) aborts everything.</li>
 * <li>Log the coordinator's record, which holds the transaction's commit marker: once durable,
 *     this record is the decision, and the client is answered.</li>
 * <li>Tell the branches, in the background. A branch that hears nothing asks the coordinator
 *     partition's owner, whoever that is by then, with {@code resolveCommit}: the marker decides.</li>
 * </ol>
 * Thread-safe; {@link #commit} runs on the caller's thread.
 */
final class CrossPartitionCommitter implements AutoCloseable {

    private static final Logger LOG = Logger.getLogger(CrossPartitionCommitter.class.getName());
    /** Outcomes waiting to be sent; beyond, they are left to the branches' own resolution. */
    static final int DECISIONS_QUEUED_MAX = 10_000;

    private final TransactionManager transactions;
    private final ThreadPoolExecutor decisions;
    private final CommitFaults faults;

    CrossPartitionCommitter(TransactionManager transactions, CommitFaults faults) {
        this.transactions = transactions;
        this.faults = faults;
        this.decisions = new ThreadPoolExecutor(2, 2, 0, TimeUnit.MILLISECONDS,
                new ArrayBlockingQueue<>(DECISIONS_QUEUED_MAX), r -> {
                    Thread t = new Thread(r, "otm-branch-decisions");
                    t.setDaemon(true);
                    return t;
                });
    }

    /**
     * A branch as the coordinator drives it: on another OTM (through the protocol) or on this one.
     * Failures are the protocol's errors.
     */
    interface Participant {
        long partitionId();

        PrepareBranchResponse prepare();

        void vote(long cts);

        void decide(boolean commit, long cts);
    }

    /** A branch on the OTM at a {@link BranchRef}'s address. */
    static Participant remote(PeerOtms peers, BranchRef ref) {
        return new Participant() {
            @Override
            public long partitionId() {
                return ref.partitionId();
            }

            @Override
            public PrepareBranchResponse prepare() {
                return peers.of(ref.host(), ref.port()).prepareBranch(new PrepareBranchRequest(ref.txnId()));
            }

            @Override
            public void vote(long cts) {
                peers.of(ref.host(), ref.port()).voteBranch(new VoteBranchRequest(ref.txnId(), cts));
            }

            @Override
            public void decide(boolean commit, long cts) {
                peers.of(ref.host(), ref.port()).decideBranch(new DecideBranchRequest(ref.txnId(), commit, cts));
            }
        };
    }

    /** A branch on this OTM's own partition {@code partitionId}. */
    static Participant local(TransactionManager transactions, long partitionId, long txnId) {
        return new Participant() {
            @Override
            public long partitionId() {
                return partitionId;
            }

            @Override
            public PrepareBranchResponse prepare() {
                try {
                    TransactionManager.BranchPrepared p = transactions.prepareBranch(txnId);
                    return new PrepareBranchResponse(p.ctsAbove(), p.done(), p.readOnly());
                } catch (TransactionException e) {
                    throw TransactionService.translate(e);
                }
            }

            @Override
            public void vote(long cts) {
                try {
                    transactions.voteBranch(txnId, cts);
                } catch (TransactionException e) {
                    throw TransactionService.translate(e);
                }
            }

            @Override
            public void decide(boolean commit, long cts) {
                try {
                    transactions.decideBranch(txnId, commit, cts);
                } catch (TransactionException e) {
                    throw TransactionService.translate(e);
                }
            }
        };
    }

    /** Commits {@code txnId} with the branches a client named ({@code commit} with participants). */
    CommitResult commit(long txnId, List<BranchRef> participants, PeerOtms peers) {
        List<Participant> all = new ArrayList<>(participants.size());
        for (BranchRef ref : participants) {
            all.add(remote(peers, ref));
        }
        return commitAll(txnId, all);
    }

    /**
     * Commits transaction {@code txnId} of this OTM with its branches.
     *
     * @throws ElasTrasException a branch could not prepare or voted no (CONFLICT or
     *     SERIALIZATION_FAILURE, retryable; nothing committed)
     * @throws TransactionException the coordinator's own part failed, as in a single-partition commit
     */
    CommitResult commitAll(long txnId, List<Participant> participants) {
        List<Participant> voting = new ArrayList<>(participants.size());
        long above = 0;
        boolean wroteNothing = true;
        try {
            transactions.prepareCoordinatorsAdds(txnId); // before any branch prepares: see there
        } catch (TransactionException e) {
            decideLater(participants, false, 0);
            throw e;
        }
        for (Participant p : participants) {
            PrepareBranchResponse prepared;
            try {
                prepared = p.prepare();
            } catch (ElasTrasException e) {
                transactions.abort(txnId);
                decideLater(participants, false, 0);
                throw refused(p, "could not prepare", e);
            }
            if (!prepared.done()) {
                voting.add(p);
                above = Math.max(above, prepared.ctsAbove());
                wroteNothing &= prepared.readOnly();
            }
        }
        if (wroteNothing && transactions.writesNothing(txnId)) {
            // Read-only everywhere: one snapshot, consistent on every partition, needs no vote.
            CommitResult result = transactions.commit(txnId);
            decideLater(voting, true, 0);
            return result;
        }
        PendingCommit pending;
        try {
            pending = transactions.prepareCoordinatedCommit(txnId, above);
        } catch (TransactionException e) {
            decideLater(voting, false, 0);
            throw e;
        }
        long cts = pending.cts();
        for (Participant p : voting) {
            try {
                p.vote(cts);
            } catch (ElasTrasException e) {
                transactions.abandon(pending, "participant partition " + p.partitionId() + " voted no: " + e.getMessage());
                decideLater(voting, false, 0);
                throw refused(p, "voted no", e);
            }
        }
        faults.beforeDecision();
        transactions.log(List.of(pending));
        CommitResult result;
        try {
            result = transactions.finishCommit(pending);
        } catch (TransactionException e) {
            if (e.reason() != TransactionException.Reason.LOG_FAILED) {
                decideLater(voting, false, 0); // refused before logging: surely not committed
            }
            // LOG_FAILED: the record may be durable; the branches ask the partition's next owner.
            throw e;
        }
        if (!faults.decisionsLost()) {
            decideLater(voting, true, cts);
        }
        return result;
    }

    /** Sends the outcome to the branches in the background; a branch that misses it asks by itself. */
    private void decideLater(List<Participant> branches, boolean commit, long cts) {
        if (branches.isEmpty()) {
            return;
        }
        List<Participant> copy = List.copyOf(branches);
        try {
            decisions.execute(() -> {
                for (Participant p : copy) {
                    try {
                        p.decide(commit, cts);
                    } catch (ElasTrasException | IllegalStateException e) {
                        LOG.log(Level.FINE, "outcome of the branch on partition " + p.partitionId()
                                + " not delivered (it will ask): " + e.getMessage());
                    }
                }
            });
        } catch (RejectedExecutionException e) {
            LOG.warning(DECISIONS_QUEUED_MAX + " branch outcomes wait to be sent; these branches will ask for theirs");
        }
    }

    private static ElasTrasException refused(Participant p, String what, ElasTrasException e) {
        ErrorCode code = e.code() == ErrorCode.SERIALIZATION_FAILURE ? ErrorCode.SERIALIZATION_FAILURE : ErrorCode.CONFLICT;
        return new ElasTrasException(code, "the transaction was aborted: its branch on partition " + p.partitionId()
                + " " + what + " (" + e.code() + ": " + e.getMessage() + "); nothing was committed, run it again", e);
    }

    @Override
    public void close() {
        decisions.shutdown();
        try {
            decisions.awaitTermination(2, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        decisions.shutdownNow();
    }
}
