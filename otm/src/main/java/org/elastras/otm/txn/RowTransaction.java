package org.elastras.otm.txn;

import java.util.ArrayList;
import java.util.List;
import org.elastras.catalog.key.CorruptEncodingException;
import org.elastras.catalog.key.KeyBytes;
import org.elastras.otm.txn.TransactionException.Reason;

/**
 * A transaction on one partition seen through its database's schema: rows are lists of values in
 * column order, keys are lists of primary key values. Stored procedures receive one; the server
 * uses one per interactive request.
 *
 * <p>Global tables are read from the OTM's in-memory copy (no validation, no snapshot: they are
 * read-mostly and updated only by admin reloads) and cannot be written here.
 *
 * <p>An unknown table, a value that does not fit its column, or a key outside the partition is a
 * {@link TransactionException} (UNKNOWN_TABLE, TYPE_MISMATCH, KEY_OUTSIDE_PARTITION) that changed
 * nothing and leaves the transaction open. Not thread-safe: one thread at a time (calls on the same
 * transaction are serialised by the manager anyway).
 */
public final class RowTransaction {

    private final TransactionManager manager;
    private final TableAccess access;
    private final long id;
    /** The first error that aborted this transaction, if any (for retry decisions). */
    private TransactionException abortCause;

    RowTransaction(TransactionManager manager, TableAccess access, long id) {
        this.manager = manager;
        this.access = access;
        this.id = id;
    }

    /** The transaction id in the manager. */
    public long id() {
        return id;
    }

    /** The partition's typed view. */
    public TableAccess access() {
        return access;
    }

    /** The row with these primary key values, or null. */
    public List<Object> get(String table, List<?> keyValues) {
        TableAccess.Table t = access.table(table);
        byte[] key = access.encodeKey(t, keyValues);
        if (t.global()) {
            return access.globals().get(access.schema().name(), t.schema().name(), key);
        }
        access.checkInPartition(t, key);
        byte[] value = call(() -> manager.get(id, StorageKeys.rowKey(t.id(), key)));
        return value == null ? null : decode(t, key, value);
    }

    /** Inserts or replaces a full row (values in column order; null for NULL). */
    public void put(String table, List<?> row) {
        TableAccess.Table t = writable(table);
        byte[] key;
        byte[] value;
        try {
            List<Object> normalized = t.codec().normalize(row);
            key = t.codec().encodeKey(normalized);
            value = t.codec().encodeValue(normalized);
        } catch (IllegalArgumentException e) {
            throw new TransactionException(Reason.TYPE_MISMATCH, false, e.getMessage(), e);
        }
        access.checkInPartition(t, key);
        call(() -> {
            manager.put(id, StorageKeys.rowKey(t.id(), key), value);
            return null;
        });
    }

    /** Deletes the row with these primary key values (a no-op write if there is none). */
    public void delete(String table, List<?> keyValues) {
        TableAccess.Table t = writable(table);
        byte[] key = access.encodeKey(t, keyValues);
        access.checkInPartition(t, key);
        call(() -> {
            manager.delete(id, StorageKeys.rowKey(t.id(), key));
            return null;
        });
    }

    /**
     * Rows of a table in primary key order whose keys lie between two key prefixes, both
     * inclusive: from the first key starting with (or above) {@code fromKeyPrefix} to the last key
     * starting with (or below) {@code toKeyPrefix}; an empty or null prefix leaves that side
     * open. {@code scan(t, List.of(w, d), List.of(w, d), n)} is every row whose key starts with
     * (w, d). Only rows of this partition are seen.
     */
    public List<List<Object>> scan(String table, List<?> fromKeyPrefix, List<?> toKeyPrefix, int limit) {
        TableAccess.Table t = access.table(table);
        byte[] from = access.encodeKeyPrefix(t, fromKeyPrefix);
        byte[] to = null;
        if (toKeyPrefix != null && !toKeyPrefix.isEmpty()) {
            byte[] end = KeyBytes.prefixEnd(access.encodeKeyPrefix(t, toKeyPrefix));
            to = end.length == 0 ? null : end;
        }
        if (limit < 0) {
            throw new TransactionException(Reason.LIMIT_EXCEEDED, false, "scan limit must be >= 0, got " + limit);
        }
        if (t.global()) {
            return access.globals().scan(access.schema().name(), t.schema().name(), from, to, limit);
        }
        byte[][] bounds = access.clampToPartition(t, from, to);
        if (bounds == null) {
            return List.of();
        }
        byte[] storageFrom = StorageKeys.rowKey(t.id(), bounds[0]);
        byte[] storageTo = bounds[1] == null ? StorageKeys.tableEnd(t.id()) : StorageKeys.rowKey(t.id(), bounds[1]);
        List<KeyValue> stored = call(() -> manager.scan(id, storageFrom, storageTo, limit));
        List<List<Object>> rows = new ArrayList<>(stored.size());
        for (KeyValue kv : stored) {
            rows.add(decode(t, StorageKeys.encodedKey(t.id(), kv.key()), kv.value()));
        }
        return rows;
    }

    /** Commits; see {@link TransactionManager#commit}. */
    public CommitResult commit() {
        return call(() -> manager.commit(id));
    }

    /**
     * The first half of {@link #commit}; see {@link TransactionManager#prepareCommit}. The caller
     * logs and finishes it on this thread.
     */
    public PendingCommit prepareCommit() {
        return call(() -> manager.prepareCommit(id));
    }

    /** Aborts if still open; returns whether it was. */
    public boolean abort() {
        return manager.abort(id);
    }

    /** The error that aborted this transaction during one of its calls, or null. */
    public TransactionException abortCause() {
        return abortCause;
    }

    private TableAccess.Table writable(String table) {
        TableAccess.Table t = access.table(table);
        if (t.global()) {
            throw new TransactionException(Reason.READ_ONLY_TABLE, false, "table " + t.schema().name()
                    + " is a global table: transactions read it, an admin reload changes it");
        }
        return t;
    }

    private List<Object> decode(TableAccess.Table t, byte[] encodedKey, byte[] value) {
        try {
            return t.codec().decode(encodedKey, value);
        } catch (CorruptEncodingException e) {
            throw new TransactionException(Reason.STORAGE_FAILED, false, "a stored row of table " + t.schema().name()
                    + " does not decode: " + e.getMessage(), e);
        }
    }

    private interface Call<T> {
        T run();
    }

    private <T> T call(Call<T> call) {
        try {
            return call.run();
        } catch (TransactionException e) {
            if (e.transactionAborted() && abortCause == null) {
                abortCause = e;
            }
            throw e;
        }
    }
}
