package org.elastras.client;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.elastras.catalog.schema.Column;
import org.elastras.catalog.schema.DatabaseSchema;
import org.elastras.catalog.schema.TableSchema;
import org.elastras.client.protocol.AbortRequest;
import org.elastras.client.protocol.CommitId;
import org.elastras.client.protocol.CommitRequest;
import org.elastras.client.protocol.DeleteRequest;
import org.elastras.client.protocol.ElasTrasException;
import org.elastras.client.protocol.ErrorCode;
import org.elastras.client.protocol.GetRequest;
import org.elastras.client.protocol.GetResponse;
import org.elastras.client.protocol.PutRequest;
import org.elastras.client.protocol.ScanRequest;
import org.elastras.client.protocol.ScanResponse;
import org.elastras.client.protocol.WireValues;

/**
 * An interactive transaction on the one partition that holds a root key: reads see a snapshot
 * (at least the session's last commit) plus the transaction's own writes; writes are buffered at
 * the OTM until {@link #commit}. Rows are maps of column name to value; keys are lists of the
 * primary key values in key order. Values read are of their column's Java type (BIGINT a
 * {@code Long}, INT an {@code Integer}, DECIMAL a {@code BigDecimal}, ...; see docs/catalog.md),
 * whatever form the wire carried them in. Every table touched must be of the partition's database, and
 * every key must fall in the partition (a CHILD key starts with the root key).
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
        GetResponse r = send("get", otm -> otm.get(new GetRequest(txnId, table, List.copyOf(key))));
        return r.found() ? Optional.of(typed(table, r.row())) : Optional.empty();
    }

    /** Inserts or replaces a whole row (the primary key columns are required). */
    public void put(String table, Map<String, Object> row) {
        send("put", otm -> otm.put(new PutRequest(txnId, table, row)));
    }

    /** Deletes the row with primary key {@code key} (nothing if there is none). */
    public void delete(String table, List<?> key) {
        send("delete", otm -> otm.delete(new DeleteRequest(txnId, table, List.copyOf(key))));
    }

    /**
     * Rows of {@code table} in key order from key prefix {@code fromKey} to key prefix {@code toKey}
     * (both inclusive, either null for unbounded), at most {@code limit} (1 to 10,000); see
     * {@link ScanRequest} for prefixes and for continuing a scan.
     */
    public List<Map<String, Object>> scan(String table, List<?> fromKey, List<?> toKey, int limit) {
        ScanResponse r = send("scan", otm -> otm.scan(new ScanRequest(txnId, table,
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
        OtmConnections.Lease lease = router.connections().acquire(location);
        try {
            long cts = lease.client().commit(new CommitRequest(txnId)).cts();
            state = State.COMMITTED;
            session.committed(cts);
            return cts;
        } catch (ElasTrasException e) {
            state = State.ABORTED;
            if (e.code() == ErrorCode.OUTCOME_UNKNOWN || e.code() == ErrorCode.INTERNAL) {
                router.dropRoute(location, e.code() == ErrorCode.OUTCOME_UNKNOWN ? lease : null);
                return resolveLostCommit(e);
            }
            throw aborted("commit", e, lease);
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
        OtmConnections.Lease lease = router.connections().acquire(location);
        try {
            lease.client().abort(new AbortRequest(txnId));
        } catch (ElasTrasException e) {
            // Gone already (its OTM failed, or it expired): nothing to undo, nothing was committed.
        } finally {
            router.connections().release(lease);
        }
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

    private <T> T send(String op, Request<T> request) {
        requireOpen(op);
        OtmConnections.Lease lease = router.connections().acquire(location);
        try {
            return request.send(lease.client());
        } catch (ElasTrasException e) {
            if (FailureKind.of(e.code()) == FailureKind.PERMANENT && e.code() != ErrorCode.UNKNOWN_TRANSACTION
                    && e.code() != ErrorCode.INTERNAL) {
                throw e; // Bad input: the transaction is still open.
            }
            state = State.ABORTED;
            ElasTrasException aborted = aborted(op, e, lease);
            if (e.code() != ErrorCode.UNREACHABLE && e.code() != ErrorCode.NOT_OWNER) {
                bestEffortAbort(lease);
            }
            throw aborted;
        } finally {
            router.connections().release(lease);
        }
    }

    /** The exception for a request that ended the transaction, having dropped what the failure made stale. */
    private TransactionAbortedException aborted(String op, ElasTrasException e, OtmConnections.Lease lease) {
        FailureKind kind = FailureKind.of(e.code());
        if (kind == FailureKind.REROUTE || kind == FailureKind.OUTCOME_UNKNOWN) {
            router.locator().invalidate(location);
        }
        if (e.code() == ErrorCode.UNREACHABLE || kind == FailureKind.OUTCOME_UNKNOWN) {
            router.connections().retire(lease);
        }
        // Not committed for sure: running it again is safe unless the failure would repeat.
        boolean retryable = kind != FailureKind.PERMANENT || e.code() == ErrorCode.UNKNOWN_TRANSACTION;
        return new TransactionAbortedException(e.code(), "transaction " + txnId + " on " + location + " was aborted: "
                + op + " failed with " + e + (retryable ? "; nothing was committed, run it again" : ""), retryable, e);
    }

    private void bestEffortAbort(OtmConnections.Lease lease) {
        try {
            lease.client().abort(new AbortRequest(txnId));
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
