package org.elastras.otm.server;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;
import org.elastras.catalog.schema.Names;
import org.elastras.catalog.schema.TableSchema;
import org.elastras.client.ElasTrasClient;
import org.elastras.client.PartitionLocation;
import org.elastras.client.protocol.AbortRequest;
import org.elastras.client.protocol.BranchOf;
import org.elastras.client.protocol.BranchRef;
import org.elastras.client.protocol.CommitId;
import org.elastras.client.protocol.DecideBranchRequest;
import org.elastras.client.protocol.DeleteRequest;
import org.elastras.client.protocol.ElasTrasException;
import org.elastras.client.protocol.GetRequest;
import org.elastras.client.protocol.GetResponse;
import org.elastras.client.protocol.ProtocolLimits;
import org.elastras.client.protocol.PutRequest;
import org.elastras.client.protocol.ScanRequest;
import org.elastras.client.OtmClient;
import org.elastras.otm.txn.BranchCoordinator;
import org.elastras.otm.txn.CommitResult;
import org.elastras.otm.txn.CommitTag;
import org.elastras.otm.txn.CrossPartitionAccess;
import org.elastras.otm.txn.Isolation;
import org.elastras.otm.txn.RowTransaction;
import org.elastras.otm.txn.TableAccess;
import org.elastras.otm.txn.TransactionException;
import org.elastras.otm.txn.TransactionException.Reason;
import org.elastras.otm.txn.TransactionManager;

/**
 * Stored procedures' access to other partitions: a branch on a partition this OTM serves is a
 * local transaction driven directly; one elsewhere is begun on its owner, found through the
 * catalog, and driven over the protocol. The commit is the coordinator's
 * ({@link CrossPartitionCommitter}). Thread-safe; the branches it returns belong to one procedure
 * run (one thread).
 */
final class ProcedureBranches implements CrossPartitionAccess {

    private final TransactionManager transactions;
    private final PartitionHost partitions;
    private final CrossPartitionCommitter committer;
    private final PeerOtms peers;
    /** The catalog client, or null for a standalone OTM (no catalog: only its own partitions). */
    private final Supplier<ElasTrasClient> catalog;

    ProcedureBranches(TransactionManager transactions, PartitionHost partitions, CrossPartitionCommitter committer,
            PeerOtms peers, Supplier<ElasTrasClient> catalog) {
        this.transactions = transactions;
        this.partitions = partitions;
        this.committer = committer;
        this.peers = peers;
        this.catalog = catalog;
    }

    @Override
    public RemoteRows begin(TableAccess home, byte[] rootKey, List<Object> rootKeyValues, Isolation isolation,
            String clientId, CommitTag tag, long snapshot) {
        String database = home.schema().name();
        BranchCoordinator coordinator = new BranchCoordinator(database, home.partitionId(), home.partition().range().start());
        for (PartitionHost.Served s : partitions.all()) {
            long id = s.descriptor().id().value();
            if (Names.same(s.descriptor().database(), database) && s.descriptor().range().contains(rootKey)
                    && transactions.serves(id)) {
                try {
                    long txnId = transactions.beginBranch(id, isolation, clientId, tag, snapshot, coordinator);
                    return new LocalBranch(s, s.access().attach(transactions, txnId), txnId);
                } catch (TransactionException e) {
                    if (e.reason() != Reason.NOT_OWNER) {
                        throw e;
                    }
                    // A live move's pause: begun as any other OTM's branch would be, held here
                    // until the hand-over and sent on to the next owner.
                }
                break;
            }
        }
        if (catalog == null) {
            throw new TransactionException(Reason.KEY_OUTSIDE_PARTITION, false, "this standalone OTM does not serve the"
                    + " partition of " + database + " holding root key " + rootKeyValues + ", and has no catalog to find it");
        }
        try {
            ElasTrasClient.BranchStart b = catalog.get().beginBranch(database, rootKey,
                    org.elastras.client.protocol.Isolation.valueOf(isolation.name()), new CommitId(tag.issuedMs(), tag.nonce()),
                    new BranchOf(snapshot, home.partitionId(), home.partition().range().start()));
            return new RemoteBranch(home, b.location(), b.txnId());
        } catch (ElasTrasException e) {
            throw failed("could not begin its branch on the partition holding root key " + rootKeyValues, e);
        }
    }

    @Override
    public CommitResult commit(long homeTxnId, List<RemoteRows> branches) {
        List<CrossPartitionCommitter.Participant> participants = new ArrayList<>(branches.size());
        for (RemoteRows b : branches) {
            participants.add(((Branch) b).participant());
        }
        try {
            return committer.commitAll(homeTxnId, participants);
        } catch (ElasTrasException e) {
            throw failed("its commit failed", e);
        }
    }

    /** A protocol error of a branch as the procedure's transaction sees it: retryable unless bad input. */
    private static TransactionException failed(String what, ElasTrasException e) {
        Reason reason = switch (e.code()) {
            case SERIALIZATION_FAILURE -> Reason.SERIALIZATION_FAILURE;
            case TYPE_MISMATCH, MALFORMED_REQUEST -> Reason.TYPE_MISMATCH;
            case UNKNOWN_TABLE -> Reason.UNKNOWN_TABLE;
            case LIMIT_EXCEEDED -> Reason.LIMIT_EXCEEDED;
            // A conflict, or the branch's OTM failed, moved or was overloaded: run it all again.
            default -> Reason.CONFLICT;
        };
        boolean aborted = reason == Reason.CONFLICT || reason == Reason.SERIALIZATION_FAILURE;
        return new TransactionException(reason, aborted, "the transaction " + what + ": " + e.getMessage(), e);
    }

    private interface Branch extends RemoteRows {
        CrossPartitionCommitter.Participant participant();
    }

    /** A branch on a partition this OTM serves. */
    private final class LocalBranch implements Branch {
        private final PartitionHost.Served partition;
        private final RowTransaction rows;
        private final long txnId;

        LocalBranch(PartitionHost.Served partition, RowTransaction rows, long txnId) {
            this.partition = partition;
            this.rows = rows;
            this.txnId = txnId;
        }

        @Override
        public boolean covers(byte[] rootKey) {
            return partition.descriptor().range().contains(rootKey);
        }

        @Override
        public List<Object> get(String table, List<?> keyValues) {
            return local(() -> rows.get(table, keyValues));
        }

        @Override
        public void put(String table, List<?> row) {
            local(() -> {
                rows.put(table, row);
                return null;
            });
        }

        @Override
        public void delete(String table, List<?> keyValues) {
            local(() -> {
                rows.delete(table, keyValues);
                return null;
            });
        }

        @Override
        public List<List<Object>> scan(String table, List<?> fromKeyPrefix, List<?> toKeyPrefix, int limit) {
            return local(() -> rows.scan(table, fromKeyPrefix, toKeyPrefix, limit));
        }

        /** Runs one of the branch's requests, its end mapped by {@link #ended}. */
        private <T> T local(Supplier<T> request) {
            try {
                return request.get();
            } catch (TransactionException e) {
                throw ended(e);
            }
        }

        /**
         * A branch that ended under its coordinator (a live move's pause aborted it, its partition
         * closed, it timed out) is a conflict for the procedure, which runs again, as for a branch
         * on another OTM ({@link #failed}); other errors stay as they are.
         */
        private TransactionException ended(TransactionException e) {
            return switch (e.reason()) {
                case NOT_OWNER, UNKNOWN_TRANSACTION, TIMEOUT -> new TransactionException(Reason.CONFLICT, true,
                        "the transaction's branch on partition " + partition.descriptor().id().value() + " ended: "
                        + e.getMessage(), e);
                default -> e;
            };
        }

        @Override
        public void abort() {
            try {
                transactions.decideBranch(txnId, false, 0);
            } catch (RuntimeException e) {
                // ended already
            }
        }

        @Override
        public CrossPartitionCommitter.Participant participant() {
            return CrossPartitionCommitter.local(transactions, partition.descriptor().id().value(), txnId);
        }
    }

    /** A branch on another OTM, driven over the protocol. */
    private final class RemoteBranch implements Branch {
        private final TableAccess home;
        private final PartitionLocation location;
        private final long txnId;

        RemoteBranch(TableAccess home, PartitionLocation location, long txnId) {
            this.home = home;
            this.location = location;
            this.txnId = txnId;
        }

        private OtmClient otm() {
            return peers.of(location.host(), location.port());
        }

        private TableSchema table(String name) {
            return home.schema().findTable(name).orElseThrow(() -> new TransactionException(Reason.UNKNOWN_TABLE, false,
                    "database " + home.schema().name() + " has no table " + name));
        }

        @Override
        public boolean covers(byte[] rootKey) {
            return location.covers(rootKey);
        }

        @Override
        public List<Object> get(String table, List<?> keyValues) {
            TableSchema t = table(table);
            try {
                GetResponse r = otm().get(new GetRequest(txnId, t.name(), new ArrayList<>(keyValues)));
                return r.found() ? WireRows.rowValues(t, r.row()) : null;
            } catch (ElasTrasException e) {
                throw failed("failed reading partition " + location.partitionId(), e);
            }
        }

        @Override
        public void put(String table, List<?> row) {
            TableSchema t = table(table);
            try {
                otm().put(new PutRequest(txnId, t.name(), WireRows.rowMap(t, new ArrayList<>(row))));
            } catch (ElasTrasException e) {
                throw failed("failed writing partition " + location.partitionId(), e);
            }
        }

        @Override
        public void delete(String table, List<?> keyValues) {
            try {
                otm().delete(new DeleteRequest(txnId, table(table).name(), new ArrayList<>(keyValues)));
            } catch (ElasTrasException e) {
                throw failed("failed deleting on partition " + location.partitionId(), e);
            }
        }

        @Override
        public List<List<Object>> scan(String table, List<?> fromKeyPrefix, List<?> toKeyPrefix, int limit) {
            if (limit == 0) {
                return List.of();
            }
            TableSchema t = table(table);
            try {
                var r = otm().scan(new ScanRequest(txnId, t.name(), new ArrayList<>(fromKeyPrefix), new ArrayList<>(toKeyPrefix),
                        Math.min(limit, ProtocolLimits.SCAN_ROWS_MAX)));
                List<List<Object>> out = new ArrayList<>(r.rows().size());
                for (var row : r.rows()) {
                    out.add(WireRows.rowValues(t, row));
                }
                return out;
            } catch (ElasTrasException e) {
                throw failed("failed scanning partition " + location.partitionId(), e);
            }
        }

        @Override
        public void abort() {
            try {
                otm().decideBranch(new DecideBranchRequest(txnId, false, 0));
            } catch (ElasTrasException | IllegalStateException e) {
                try {
                    otm().abort(new AbortRequest(txnId));
                } catch (ElasTrasException | IllegalStateException ignored) {
                    // gone: its OTM drops it by itself
                }
            }
        }

        @Override
        public CrossPartitionCommitter.Participant participant() {
            return CrossPartitionCommitter.remote(peers, new BranchRef(location.host(), location.port(),
                    location.partitionId(), txnId));
        }
    }
}
