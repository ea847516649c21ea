package org.elastras.client;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.elastras.catalog.schema.Column;
import org.elastras.catalog.schema.DatabaseSchema;
import org.elastras.catalog.schema.PartitioningKind;
import org.elastras.catalog.schema.TableKind;
import org.elastras.catalog.schema.TableSchema;
import org.elastras.client.protocol.AbortRequest;
import org.elastras.client.protocol.AddRequest;
import org.elastras.client.protocol.BeginRequest;
import org.elastras.client.protocol.BeginResponse;
import org.elastras.client.protocol.BranchOf;
import org.elastras.client.protocol.BranchRef;
import org.elastras.client.protocol.CommitId;
import org.elastras.client.protocol.CommitRequest;
import org.elastras.client.protocol.DeleteRequest;
import org.elastras.client.protocol.ElasTrasException;
import org.elastras.client.protocol.ErrorCode;
import org.elastras.client.protocol.GetRequest;
import org.elastras.client.protocol.GetResponse;
import org.elastras.client.protocol.Isolation;
import org.elastras.client.protocol.ProtocolLimits;
import org.elastras.client.protocol.PutRequest;
import org.elastras.client.protocol.ScanRequest;
import org.elastras.client.protocol.ScanResponse;
import org.elastras.client.protocol.WireValues;

/**
 * An interactive transaction begun on the partition that holds a root key, which may read and
 * write rows of any partition of its database: reads see a snapshot
 * (at least the session's last commit) plus the transaction's own writes; writes are buffered at
 * the OTM until {@link #commit}. Rows are maps of column name to value; keys are lists of the
 * primary key values in key order. Values read are of their column's Java type (BIGINT a
 * {@code Long}, INT an {@code Integer}, DECIMAL a {@code BigDecimal}, ...; see docs/catalog.md),
 * whatever form the wire carried them in. Every table touched must be of the partition's database.
 *
 * <p>Rows of other partitions: a request whose key (a CHILD key starts with its root key) falls in
 * another partition goes to that partition's owner as a <em>branch</em> of this transaction, begun
 * there at the same snapshot; the commit then goes to the first partition's owner, which commits
 * every branch with it atomically (ARCHITECTURE section 7). A scan whose bounds both name root keys
 * goes to the partition holding them (bounds in different partitions are refused: a scan reads one
 * partition); one without them reads the first partition.
 *
 * <p>Not thread-safe: one thread uses it, from {@code transaction(...)} to commit, abort or close.
 * Close it (try-with-resources): an open transaction is aborted.
 *
 * <p>Failures: if a request of the transaction fails because of a conflict, the OTM's failure or a
 * move, the transaction is over and a {@link TransactionAbortedException} says whether running it
 * again may succeed ({@link ElasTrasClient#runInTransaction} does so). A commit whose answer was
 * lost throws {@link OutcomeUnknownException} and is never re-sent. Bad input (unknown table, a
 * value of the wrong type) throws the server's {@link ElasTrasException} and leaves the
 * transaction open.
 */
public final class ClientTransaction implements AutoCloseable {

    private enum State { OPEN, COMMITTED, ABORTED }

    private final Router router;
    private final Session session;
    private final PartitionLocation location;
    private final DatabaseSchema schema;
    private final long txnId;
    private final long snapshotCts;
    /** The encoded root key it was begun for, to find the partition's owner again. */
    private final byte[] rootKey;
    private final CommitId commitId;
    private State state = State.OPEN;
    /** The first partition's part of the transaction. */
    private final Part home;
    /** Branches on other partitions, by partition id, in the order begun. */
    private final Map<Long, Part> branches = new LinkedHashMap<>();

    /** Where one part of the transaction runs: a partition's location and the transaction's id there. */
    private record Part(PartitionLocation location, long txnId) {
    }

    ClientTransaction(Router router, Session session, PartitionLocation location, byte[] rootKey, DatabaseSchema schema,
            long txnId, long snapshotCts, CommitId commitId) {
        this.router = router;
        this.session = session;
        this.location = location;
        this.rootKey = rootKey;
        this.commitId = commitId;
        this.schema = schema;
        this.txnId = txnId;
        this.snapshotCts = snapshotCts;
        this.home = new Part(location, txnId);
    }

    /** Where the transaction runs. */
    public PartitionLocation location() {
        return location;
    }

    /** The commit timestamp of the snapshot it reads. */
    public long snapshotCts() {
        return snapshotCts;
    }

    /** The row of {@code table} with primary key {@code key}, if it exists in this transaction's view. */
    public Optional<Map<String, Object>> get(String table, List<?> key) {
        return read(table, key, null);
    }

    /**
     * Some columns of the row of {@code table} with primary key {@code key}, in the order named, if
     * the row exists in this transaction's view. Under SERIALIZABLE the commit then fails only if
     * one of these columns changed after the snapshot, not on a change to the row's other columns
     * (another transaction's {@link #add} to one, say), where {@link #get(String, List)} fails on any
     * change. An empty list reads only whether the row exists. A column the table lacks throws
     * TYPE_MISMATCH and leaves the transaction open.
     */
    public Optional<Map<String, Object>> get(String table, List<?> key, List<String> columns) {
        return read(table, key, List.copyOf(columns));
    }

    /** A get of the whole row ({@code columns} null) or of some columns. */
    private Optional<Map<String, Object>> read(String table, List<?> key, List<String> columns) {
        Part part = partFor(table, key);
        GetResponse r = send("get", part, otm -> otm.get(new GetRequest(part.txnId(), table, List.copyOf(key), columns)));
        return r.found() ? Optional.of(typed(table, r.row())) : Optional.empty();
    }

    /** Inserts or replaces a whole row (the primary key columns are required). */
    public void put(String table, Map<String, Object> row) {
        Part part = partFor(table, keyOf(table, row));
        send("put", part, otm -> otm.put(new PutRequest(part.txnId(), table, row)));
    }

    /** Deletes the row with primary key {@code key} (nothing if there is none). */
    public void delete(String table, List<?> key) {
        Part part = partFor(table, key);
        send("delete", part, otm -> otm.delete(new DeleteRequest(part.txnId(), table, List.copyOf(key))));
    }

    /**
     * Adds {@code amount} to column {@code column} of the existing row of {@code table} with primary
     * key {@code key}, without reading it: the sum is made at commit on the newest committed row, so
     * transactions adding to one row do not conflict with one another, and a SERIALIZABLE
     * transaction that read only other columns of the row is not failed by it. Reads of the row by
     * this transaction see the addition. (On a row of another partition, in a branch, the add is a
     * write made on the snapshot's row, and conflicts like one.) The column must be an INT, BIGINT
     * or DECIMAL column outside the key, and the amount must fit it as a value put there would (an
     * integer for INT and BIGINT; at most the column's scale for DECIMAL). A missing row, an
     * unknown or unsuitable column, or an amount that does not fit throws TYPE_MISMATCH, changes
     * nothing and leaves the transaction open.
     */
    public void add(String table, List<?> key, String column, Number amount) {
        Part part = partFor(table, key);
        send("add", part, otm -> otm.add(new AddRequest(part.txnId(), table, List.copyOf(key), column, amount)));
    }

    /**
     * Rows of {@code table} in key order from key prefix {@code fromKey} to key prefix {@code toKey}
     * (both inclusive, either null for unbounded), at most {@code limit} (1 to 10,000); see
     * {@link ScanRequest} for prefixes and for continuing a scan.
     */
    public List<Map<String, Object>> scan(String table, List<?> fromKey, List<?> toKey, int limit) {
        Part part = scanPart(table, fromKey, toKey);
        ScanResponse r = send("scan", part, otm -> otm.scan(new ScanRequest(part.txnId(), table,
                fromKey == null ? null : List.copyOf(fromKey), toKey == null ? null : List.copyOf(toKey), limit)));
        return r.rows().stream().map(row -> typed(table, row)).toList();
    }

    /** A row as read from the wire, with each value converted to its column's Java type. */
    private Map<String, Object> typed(String table, Map<String, Object> row) {
        TableSchema t = schema.findTable(table).orElse(null);
        if (t == null) {
            return row; // The OTM knew the table, the cached schema does not: pass it on as it came.
        }
        Map<String, Object> out = new LinkedHashMap<>();
        for (Map.Entry<String, Object> e : row.entrySet()) {
            Object value = e.getValue();
            int index = t.columnIndex(e.getKey());
            if (index >= 0 && value != null) {
                Column c = t.columns().get(index);
                value = WireValues.toColumnValue("table " + t.name(), c, value);
            }
            out.put(e.getKey(), value);
        }
        return java.util.Collections.unmodifiableMap(out);
    }

    /**
     * Commits; returns the commit timestamp (the snapshot's for a read-only transaction), which the
     * session remembers so that its next transaction, on any OTM, reads what this one wrote.
     *
     * @throws TransactionAbortedException it did not commit (retryable or not, see the exception)
     * @throws OutcomeUnknownException the answer was lost: it may or may not have committed
     */
    public long commit() {
        requireOpen("commit");
        List<BranchRef> participants = new ArrayList<>(branches.size());
        for (Part b : branches.values()) {
            PartitionLocation l = b.location();
            participants.add(new BranchRef(l.host(), l.port(), l.partitionId(), b.txnId()));
        }
        OtmConnections.Lease lease = router.connections().acquire(location);
        try {
            long cts = lease.client().commit(new CommitRequest(txnId, participants)).cts();
            state = State.COMMITTED;
            session.committed(cts);
            return cts;
        } catch (ElasTrasException e) {
            state = State.ABORTED;
            if (e.code() == ErrorCode.OUTCOME_UNKNOWN || e.code() == ErrorCode.INTERNAL) {
                router.dropRoute(location, e.code() == ErrorCode.OUTCOME_UNKNOWN ? lease : null);
                return resolveLostCommit(e);
            }
            TransactionAbortedException aborted = aborted("commit", home, e, lease);
            abortBranches();
            throw aborted;
        } finally {
            router.connections().release(lease);
        }
    }

    /**
     * The commit's answer was lost: asks the partition's owner (after a failover, the new one)
     * whether it committed. Returns its CTS if it did; throws a retryable abort if it did not.
     */
    private long resolveLostCommit(ElasTrasException lost) {
        String what = "commit of transaction " + txnId + " on " + location;
        if (commitId == null) {
            throw new OutcomeUnknownException(what + " got no answer (" + lost + "); it may or may not have committed", lost);
        }
        Router.Resolution r = router.resolve(what, location.database(), rootKey, commitId, router.clock().nanoTime());
        if (r.committed()) {
            state = State.COMMITTED;
            session.committed(r.cts());
            return r.cts();
        }
        throw new TransactionAbortedException(ErrorCode.OUTCOME_UNKNOWN, what + " got no answer (" + lost
                + "), and its partition's owner says it did not commit (and now never will); run it again", true, lost);
    }

    /** Aborts (best effort: if the OTM cannot be reached, it drops the transaction itself). Idempotent. */
    public void abort() {
        if (state != State.OPEN) {
            return;
        }
        state = State.ABORTED;
        abortPart(home);
        abortBranches();
    }

    private void abortBranches() {
        for (Part b : branches.values()) {
            abortPart(b);
        }
    }

    /** Best effort: if the OTM cannot be reached, it drops the transaction itself (idle timeout). */
    private void abortPart(Part part) {
        OtmConnections.Lease lease = router.connections().acquire(part.location());
        try {
            lease.client().abort(new AbortRequest(part.txnId()));
        } catch (ElasTrasException | IllegalStateException e) {
            // Gone already (its OTM failed, or it expired): nothing to undo, nothing was committed.
        } finally {
            router.connections().release(lease);
        }
    }

    /** The part of the transaction a row of {@code table} with primary key {@code key} belongs to. */
    private Part partFor(String table, List<?> key) {
        requireOpen("a request");
        byte[] root = rootKeyOf(table, key);
        if (root == null || location.covers(root)) {
            return home;
        }
        for (Part b : branches.values()) {
            if (b.location().covers(root)) {
                return b;
            }
        }
        return beginBranch(root);
    }

    /** A scan's part: the partition of its bounds' root key when both bounds name the same one. */
    private Part scanPart(String table, List<?> fromKey, List<?> toKey) {
        byte[] from = fromKey == null ? null : rootKeyOf(table, fromKey);
        byte[] to = toKey == null ? null : rootKeyOf(table, toKey);
        if (from == null || to == null) {
            return home; // unbounded, or not under root keys: the first partition's rows, as documented
        }
        Part part = partFor(table, fromKey);
        if (!part.location().covers(to)) {
            throw new ElasTrasException(ErrorCode.MALFORMED_REQUEST, "a scan in a transaction reads one partition, but "
                    + table + " from " + fromKey + " to " + toKey + " spans partitions (partition "
                    + part.location().partitionId() + " ends before the upper bound); scan each partition's range, or"
                    + " use aggregate; the transaction is still open");
        }
        return part;
    }

    /**
     * The encoded root key of a row key of a tree database's ROOT or CHILD table (its first
     * values), or null when the request goes to the first partition anyway: a single-partition
     * database, a global or unknown table, too few values, or values the OTM will refuse.
     */
    private byte[] rootKeyOf(String table, List<?> key) {
        if (key == null || schema.partitioning() != PartitioningKind.TREE) {
            return null;
        }
        TableSchema t = schema.findTable(table).orElse(null);
        if (t == null || (t.kind() != TableKind.ROOT && t.kind() != TableKind.CHILD)) {
            return null;
        }
        int n = schema.partitionKeyColumns().size();
        if (key.size() < n) {
            return null;
        }
        try {
            return RootKeys.encode(schema, key.subList(0, n));
        } catch (ElasTrasException e) {
            return null;
        }
    }

    /** The primary key values of a row given as a map (null if one is missing: the OTM will say so). */
    private List<Object> keyOf(String table, Map<String, Object> row) {
        TableSchema t = schema.findTable(table).orElse(null);
        if (t == null || row == null) {
            return null;
        }
        List<Object> key = new ArrayList<>(t.primaryKey().size());
        for (String column : t.primaryKey()) {
            if (!row.containsKey(column)) {
                return null;
            }
            key.add(row.get(column));
        }
        return key;
    }

    /** Begins this transaction's branch on the partition holding {@code root}, at the same snapshot. */
    private Part beginBranch(byte[] root) {
        if (branches.size() >= ProtocolLimits.PARTICIPANTS_MAX) {
            throw new ElasTrasException(ErrorCode.LIMIT_EXCEEDED, "transaction " + txnId + " already spans "
                    + (branches.size() + 1) + " partitions, the most one transaction may touch; nothing was changed");
        }
        long started = router.clock().nanoTime();
        Part branch;
        try {
            branch = router.run("branch of transaction " + txnId + " on " + location.database(), location.database(),
                    root, Router.Resend.SAFE, started, (l, otm) -> {
                        if (l.partitionId() == location.partitionId()) {
                            return home; // the cached range of the first partition was stale
                        }
                        BeginResponse r = otm.begin(new BeginRequest(l.database(), l.partitionId(), Isolation.SERIALIZABLE,
                                0, commitId, new BranchOf(snapshotCts, location.partitionId(), rootKey)));
                        return new Part(l, r.txnId());
                    });
        } catch (ElasTrasException e) {
            state = State.ABORTED;
            abortPart(home);
            abortBranches();
            boolean retryable = FailureKind.of(e.code()) != FailureKind.PERMANENT;
            throw new TransactionAbortedException(e.code(), "transaction " + txnId + " was aborted: it could not begin"
                    + " its branch on another partition (" + e + ")" + (retryable ? "; nothing was committed, run it again"
                    : ""), retryable, e);
        }
        if (branch != home) {
            branches.put(branch.location().partitionId(), branch);
        }
        return branch;
    }

    /** Aborts the transaction if it is still open. */
    @Override
    public void close() {
        abort();
    }

    /** Whether the transaction is neither committed nor aborted. */
    public boolean isOpen() {
        return state == State.OPEN;
    }

    private interface Request<T> {
        T send(OtmClient otm);
    }

    private <T> T send(String op, Part part, Request<T> request) {
        requireOpen(op);
        OtmConnections.Lease lease = router.connections().acquire(part.location());
        try {
            return request.send(lease.client());
        } catch (ElasTrasException e) {
            if (FailureKind.of(e.code()) == FailureKind.PERMANENT && e.code() != ErrorCode.UNKNOWN_TRANSACTION
                    && e.code() != ErrorCode.INTERNAL) {
                throw e; // Bad input: the transaction is still open.
            }
            state = State.ABORTED;
            ElasTrasException aborted = aborted(op, part, e, lease);
            if (e.code() != ErrorCode.UNREACHABLE && e.code() != ErrorCode.NOT_OWNER) {
                bestEffortAbort(part, lease);
            }
            for (Part other : parts()) {
                if (other != part) {
                    abortPart(other);
                }
            }
            throw aborted;
        } finally {
            router.connections().release(lease);
        }
    }

    private List<Part> parts() {
        List<Part> all = new ArrayList<>(branches.size() + 1);
        all.add(home);
        all.addAll(branches.values());
        return all;
    }

    /** The exception for a request that ended the transaction, having dropped what the failure made stale. */
    private TransactionAbortedException aborted(String op, Part part, ElasTrasException e, OtmConnections.Lease lease) {
        FailureKind kind = FailureKind.of(e.code());
        if (kind == FailureKind.REROUTE || kind == FailureKind.OUTCOME_UNKNOWN) {
            router.locator().invalidate(part.location());
        }
        if (e.code() == ErrorCode.UNREACHABLE || kind == FailureKind.OUTCOME_UNKNOWN) {
            router.connections().retire(lease);
        }
        // Not committed for sure: running it again is safe unless the failure would repeat.
        boolean retryable = kind != FailureKind.PERMANENT || e.code() == ErrorCode.UNKNOWN_TRANSACTION;
        return new TransactionAbortedException(e.code(), "transaction " + txnId + " on " + part.location() + " was aborted: "
                + op + " failed with " + e + (retryable ? "; nothing was committed, run it again" : ""), retryable, e);
    }

    private void bestEffortAbort(Part part, OtmConnections.Lease lease) {
        try {
            lease.client().abort(new AbortRequest(part.txnId()));
        } catch (ElasTrasException | IllegalStateException ignored) {
            // The OTM drops it on its own (idle timeout, or it is gone).
        }
    }

    private void requireOpen(String op) {
        if (state != State.OPEN) {
            throw new IllegalStateException(op + " on transaction " + txnId + ", which is " + state
                    + "; begin a new transaction");
        }
    }
}
