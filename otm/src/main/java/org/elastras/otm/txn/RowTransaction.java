package org.elastras.otm.txn;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import org.elastras.catalog.key.CorruptEncodingException;
import org.elastras.catalog.key.KeyBytes;
import org.elastras.catalog.row.RowCodec;
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
    /** How rows of other partitions are reached; null: they are refused (KEY_OUTSIDE_PARTITION). */
    private final CrossPartitionAccess cross;
    /** Branches on other partitions, in the order begun. */
    private final List<CrossPartitionAccess.RemoteRows> branches = new ArrayList<>();
    /** The first error that aborted this transaction, if any (for retry decisions). */
    private TransactionException abortCause;
    /** See {@link #beforeBlocking}; null: nothing to do. */
    private Runnable beforeBlocking;

    RowTransaction(TransactionManager manager, TableAccess access, long id) {
        this(manager, access, id, null);
    }

    RowTransaction(TransactionManager manager, TableAccess access, long id, CrossPartitionAccess cross) {
        this.manager = manager;
        this.access = access;
        this.id = id;
        this.cross = cross;
    }

    /**
     * What this transaction's thread must do before it waits on anything outside this OTM's
     * control: another OTM (a branch begun, read or written there, the cross-partition commit) or
     * a branch's outcome here. A batch of calls holds the prepared commits of its earlier calls
     * until it logs them together; their CTSs hold this OTM's snapshot, and so every OTM's
     * session that waits to see them, and every branch begun here, which waits for this OTM's
     * snapshot. A batch that kept them while one of its procedures waited for another OTM stalled
     * the whole cluster for seconds when that OTM's partition was moving. The hook finishes them.
     */
    public void beforeBlocking(Runnable hook) {
        this.beforeBlocking = hook;
        manager.beforeBlocking(id, hook);
    }

    /** Whether the transaction touched other partitions (it then commits as a coordinator). */
    public boolean spansPartitions() {
        return !branches.isEmpty();
    }

    /**
     * The branch for a row whose root key lies outside this partition, begun on first use; null
     * if the row is in this partition.
     *
     * @throws TransactionException KEY_OUTSIDE_PARTITION without cross-partition access
     */
    private CrossPartitionAccess.RemoteRows branchFor(TableAccess.Table t, byte[] encodedKey, List<?> keyValues) {
        byte[] root = access.rootKeyOutside(t, encodedKey);
        if (root == null) {
            return null;
        }
        if (cross == null) {
            access.checkInPartition(t, encodedKey); // throws KEY_OUTSIDE_PARTITION
        }
        for (CrossPartitionAccess.RemoteRows b : branches) {
            if (b.covers(root)) {
                return b;
            }
        }
        if (branches.size() >= MAX_BRANCHES) {
            throw new TransactionException(Reason.LIMIT_EXCEEDED, false, "transaction " + id + " already spans "
                    + (branches.size() + 1) + " partitions, the most one transaction may touch");
        }
        List<Object> rootValues = new ArrayList<>(keyValues.subList(0, access.rootKeyColumns()));
        CommitTag tag = call(() -> manager.ensureTag(id));
        long snapshot = manager.snapshotOf(id);
        if (beforeBlocking != null) {
            beforeBlocking.run();
        }
        CrossPartitionAccess.RemoteRows branch = remote(() -> cross.begin(access, root, rootValues,
                manager.isolationOf(id), manager.clientOf(id), tag, snapshot));
        branches.add(branch);
        return branch;
    }

    /** Most branches one transaction may have (the protocol's participant bound). */
    static final int MAX_BRANCHES = 64;

    /** The transaction id in the manager. */
    public long id() {
        return id;
    }

    /** The isolation the transaction runs at (a procedure's: the call's). */
    public Isolation isolation() {
        return manager.isolationOf(id);
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
            return access.globals().get(access.schema(), t.schema(), key);
        }
        CrossPartitionAccess.RemoteRows branch = branchFor(t, key, keyValues);
        if (branch != null) {
            return remote(() -> branch.get(t.schema().name(), keyValues));
        }
        byte[] value = call(() -> manager.get(id, StorageKeys.rowKey(t.id(), key)));
        return value == null ? null : decode(t, key, value);
    }

    /**
     * Some columns of the row with these primary key values, in the order named, or null if there
     * is no row: a read of part of the row. Under SERIALIZABLE the commit then fails only if one of
     * these columns changed after the snapshot (a Payment adding to W_YTD does not fail a
     * New-Order that read only W_TAX), where a full {@link #get} fails on any change of the row.
     *
     * @throws TransactionException UNKNOWN_TABLE, TYPE_MISMATCH for a column the table lacks
     */
    public List<Object> get(String table, List<?> keyValues, List<String> columns) {
        TableAccess.Table t = access.table(table);
        int[] indexes = columnIndexes(t, columns);
        byte[] key = access.encodeKey(t, keyValues);
        if (t.global()) {
            return project(access.globals().get(access.schema(), t.schema(), key), indexes);
        }
        CrossPartitionAccess.RemoteRows branch = branchFor(t, key, keyValues);
        if (branch != null) {
            return project(remote(() -> branch.get(t.schema().name(), keyValues)), indexes);
        }
        var seen = new java.util.concurrent.atomic.AtomicReference<List<Object>>();
        byte[] value = call(() -> manager.get(id, StorageKeys.rowKey(t.id(), key), newer -> {
            List<Object> was = seen.get();
            return newer == null ? was == null
                    : was != null && java.util.Arrays.deepEquals(decode(t, key, newer, indexes).toArray(), was.toArray());
        }));
        seen.set(value == null ? null : decode(t, key, value, indexes));
        return seen.get();
    }

    private static int[] columnIndexes(TableAccess.Table t, List<String> columns) {
        int[] indexes = new int[columns.size()];
        for (int i = 0; i < indexes.length; i++) {
            indexes[i] = t.schema().columnIndex(columns.get(i));
            if (indexes[i] < 0) {
                throw new TransactionException(Reason.TYPE_MISMATCH, false, "table " + t.schema().name()
                        + " has no column " + columns.get(i) + "; nothing was changed");
            }
        }
        return indexes;
    }

    /**
     * Changes some columns of an existing row and leaves the others as they are: reads the row as
     * {@link #get(String, List)} does (under SERIALIZABLE the commit fails if any of it changed
     * after the snapshot, as with a get and a put of the whole row), hands the values of
     * {@code readColumns} to {@code change}, which returns the new values of {@code changedColumns}
     * in that order, and writes the row. Only the columns read are decoded and only the changed
     * ones encoded; the rest of the stored row is copied ({@link RowCodec#patchValue}): a
     * read-modify-write of a few numbers in a wide row (TPC-C's STOCK and CUSTOMER) without
     * decoding and encoding its strings.
     *
     * @return the values of {@code readColumns} as read, before the change; null if there is no
     *     such row (nothing is written and {@code change} is not called)
     * @throws TransactionException UNKNOWN_TABLE; READ_ONLY_TABLE for a global table; TYPE_MISMATCH,
     *     changing nothing, for a column the table lacks, a key column among those changed, or new
     *     values that do not fit their columns
     */
    public List<Object> update(String table, List<?> keyValues, List<String> readColumns, List<String> changedColumns,
            Function<List<Object>, List<?>> change) {
        TableAccess.Table t = writable(table);
        int[] reads = columnIndexes(t, readColumns);
        int[] changes = columnIndexes(t, changedColumns);
        for (int c : changes) {
            if (t.schema().isKeyColumn(c)) {
                throw new TransactionException(Reason.TYPE_MISMATCH, false, "column " + t.schema().columns().get(c).name()
                        + " of table " + t.schema().name() + " is part of its primary key; an update changes only the"
                        + " others; nothing was changed");
            }
        }
        byte[] key = access.encodeKey(t, keyValues);
        CrossPartitionAccess.RemoteRows branch = branchFor(t, key, keyValues);
        if (branch != null) {
            List<Object> row = remote(() -> branch.get(t.schema().name(), keyValues));
            if (row == null) {
                return null;
            }
            List<Object> read = project(row, reads);
            List<?> values = changedValues(t, changes, change.apply(read));
            List<Object> next = new ArrayList<>(row);
            for (int i = 0; i < changes.length; i++) {
                next.set(changes[i], values.get(i));
            }
            call(() -> {
                branch.put(t.schema().name(), next);
                return null;
            });
            return read;
        }
        byte[] storageKey = StorageKeys.rowKey(t.id(), key);
        byte[] value = call(() -> manager.get(id, storageKey));
        if (value == null) {
            return null;
        }
        List<Object> read = decode(t, key, value, reads);
        byte[] patched;
        try {
            patched = t.codec().patchValue(value, changes, changedValues(t, changes, change.apply(read)));
        } catch (IllegalArgumentException e) {
            throw new TransactionException(Reason.TYPE_MISMATCH, false, e.getMessage() + "; nothing was changed", e);
        } catch (CorruptEncodingException e) {
            throw new TransactionException(Reason.STORAGE_FAILED, false, "a stored row of table " + t.schema().name()
                    + " does not decode: " + e.getMessage(), e);
        }
        call(() -> {
            manager.put(id, storageKey, patched);
            return null;
        });
        return read;
    }

    private static List<?> changedValues(TableAccess.Table t, int[] changes, List<?> values) {
        if (values == null || values.size() != changes.length) {
            throw new TransactionException(Reason.TYPE_MISMATCH, false, "an update of " + changes.length + " columns of table "
                    + t.schema().name() + " got " + (values == null ? "no" : values.size()) + " new values; nothing was changed");
        }
        return values;
    }

    private static List<Object> project(List<Object> row, int[] indexes) {
        if (row == null) {
            return null;
        }
        List<Object> out = new ArrayList<>(indexes.length);
        for (int i : indexes) {
            out.add(row.get(i));
        }
        return java.util.Collections.unmodifiableList(out);
    }

    /** Inserts or replaces a full row (values in column order; null for NULL). */
    public void put(String table, List<?> row) {
        TableAccess.Table t = writable(table);
        RowCodec.EncodedRow encoded;
        try {
            encoded = t.codec().encode(row);
        } catch (IllegalArgumentException e) {
            throw new TransactionException(Reason.TYPE_MISMATCH, false, e.getMessage(), e);
        }
        CrossPartitionAccess.RemoteRows branch = branchFor(t, encoded.key(), encoded.keyValues());
        call(() -> {
            if (branch != null) {
                branch.put(t.schema().name(), encoded.row());
            } else {
                manager.put(id, StorageKeys.rowKey(t.id(), encoded.key()), encoded.value());
            }
            return null;
        });
    }

    /**
     * Adds {@code amount} to a numeric column (INT, BIGINT or DECIMAL, not a key column) of an
     * existing row without reading it: the sum is made at commit on the newest committed row, so
     * transactions adding to the same row do not conflict with one another (a TPC-C Payment's
     * W_YTD). See {@link TransactionManager#add} for the rules; a row of another partition is read
     * and written in its branch instead. Reads of the row by this transaction see the addition.
     *
     * @throws TransactionException TYPE_MISMATCH, changing nothing, if the row does not exist, the
     *     column is not a numeric non-key column, or the amount does not fit it (an INT or BIGINT
     *     overflow, a DECIMAL precision or scale exceeded)
     */
    public void add(String table, List<?> keyValues, String column, Number amount) {
        TableAccess.Table t = writable(table);
        int index = t.schema().columnIndex(column);
        if (index < 0) {
            throw new TransactionException(Reason.TYPE_MISMATCH, false, "table " + t.schema().name() + " has no column "
                    + column + "; nothing was changed");
        }
        requireAddable(t.schema(), t.schema().columns().get(index));
        if (amount == null) {
            throw new TransactionException(Reason.TYPE_MISMATCH, false, "add needs an amount, got null");
        }
        byte[] key = access.encodeKey(t, keyValues);
        CrossPartitionAccess.RemoteRows branch = branchFor(t, key, keyValues);
        if (branch != null) {
            List<Object> row = remote(() -> branch.get(t.schema().name(), keyValues));
            if (row == null) {
                throw new TransactionException(Reason.TYPE_MISMATCH, false, "an add needs an existing row, and table "
                        + t.schema().name() + " has no row " + keyValues + "; nothing was changed");
            }
            List<Object> next = sum(t, row, index, amount);
            call(() -> {
                branch.put(t.schema().name(), next);
                return null;
            });
            return;
        }
        sum(t, null, index, amount); // checks the amount's type against the column now
        call(() -> {
            manager.add(id, StorageKeys.rowKey(t.id(), key), value -> {
                List<Object> next = sum(t, decode(t, key, value), index, amount);
                try {
                    return t.codec().encodeValue(next);
                } catch (IllegalArgumentException e) {
                    throw new TransactionException(Reason.TYPE_MISMATCH, false, e.getMessage(), e);
                }
            });
            return null;
        });
    }

    /**
     * Checks that {@link #add} works on {@code column} of {@code table}: an INT, BIGINT or DECIMAL
     * column outside the primary key.
     *
     * @throws TransactionException TYPE_MISMATCH otherwise
     */
    public static void requireAddable(org.elastras.catalog.schema.TableSchema table, org.elastras.catalog.schema.Column column) {
        var type = column.type().kind();
        if (type != org.elastras.catalog.schema.TypeKind.INT && type != org.elastras.catalog.schema.TypeKind.BIGINT
                && type != org.elastras.catalog.schema.TypeKind.DECIMAL) {
            throw new TransactionException(Reason.TYPE_MISMATCH, false, "column " + column.name() + " of table "
                    + table.name() + " is " + column.type() + "; add works on INT, BIGINT and DECIMAL columns only");
        }
        if (table.primaryKey().stream().anyMatch(k -> org.elastras.catalog.schema.Names.same(k, column.name()))) {
            throw new TransactionException(Reason.TYPE_MISMATCH, false, "column " + column.name() + " is part of the"
                    + " primary key of table " + table.name() + "; add changes non-key columns only");
        }
    }

    /**
     * The row with {@code amount} added to column {@code index}, normalized; with a null row only
     * checks that the amount suits the column.
     */
    private static List<Object> sum(TableAccess.Table t, List<Object> row, int index, Number amount) {
        var column = t.schema().columns().get(index);
        Object current = row == null ? null : row.get(index);
        Object next;
        try {
            switch (column.type().kind()) {
                case INT -> {
                    if (!(amount instanceof Integer || amount instanceof Short || amount instanceof Byte)) {
                        throw new IllegalArgumentException("an INT column takes an Integer amount, got "
                                + amount.getClass().getSimpleName());
                    }
                    next = current == null ? null : Math.addExact((Integer) current, amount.intValue());
                }
                case BIGINT -> {
                    if (!(amount instanceof Long || amount instanceof Integer || amount instanceof Short
                            || amount instanceof Byte)) {
                        throw new IllegalArgumentException("a BIGINT column takes a Long amount, got "
                                + amount.getClass().getSimpleName());
                    }
                    next = current == null ? null : Math.addExact((Long) current, amount.longValue());
                }
                default -> {
                    if (!(amount instanceof java.math.BigDecimal d)) {
                        throw new IllegalArgumentException("a DECIMAL column takes a BigDecimal amount, got "
                                + amount.getClass().getSimpleName());
                    }
                    if (d.scale() > column.type().scale()) {
                        throw new IllegalArgumentException("the amount " + d.toPlainString() + " has more than the "
                                + column.type().scale() + " fractional digits of column " + column.name());
                    }
                    next = current == null ? null : ((java.math.BigDecimal) current).add(d);
                }
            }
        } catch (ArithmeticException | IllegalArgumentException e) {
            throw new TransactionException(Reason.TYPE_MISMATCH, false, "cannot add " + amount + " to column "
                    + column.name() + " of table " + t.schema().name() + ": " + e.getMessage() + "; nothing was changed", e);
        }
        if (row == null) {
            return null;
        }
        if (current == null) {
            throw new TransactionException(Reason.TYPE_MISMATCH, false, "column " + column.name() + " of table "
                    + t.schema().name() + " is NULL in this row; add needs a number to add to");
        }
        List<Object> out = new ArrayList<>(row);
        out.set(index, next);
        try {
            return t.codec().normalize(out);
        } catch (IllegalArgumentException e) {
            throw new TransactionException(Reason.TYPE_MISMATCH, false, "cannot add " + amount + " to column "
                    + column.name() + " of table " + t.schema().name() + ": " + e.getMessage() + "; nothing was changed", e);
        }
    }

    /** Deletes the row with these primary key values (a no-op write if there is none). */
    public void delete(String table, List<?> keyValues) {
        TableAccess.Table t = writable(table);
        byte[] key = access.encodeKey(t, keyValues);
        CrossPartitionAccess.RemoteRows branch = branchFor(t, key, keyValues);
        call(() -> {
            if (branch != null) {
                branch.delete(t.schema().name(), keyValues);
            } else {
                manager.delete(id, StorageKeys.rowKey(t.id(), key));
            }
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
            return access.globals().scan(access.schema(), t.schema(), from, to, limit);
        }
        int rootColumns = access.rootKeyColumns();
        if (cross != null && rootColumns > 0 && fromKeyPrefix != null && toKeyPrefix != null
                && fromKeyPrefix.size() >= rootColumns && toKeyPrefix.size() >= rootColumns) {
            // Both bounds name root keys: the scan goes to the partition holding the lower one,
            // which must hold the upper one too (a scan reads one partition).
            CrossPartitionAccess.RemoteRows branch = branchFor(t, from, fromKeyPrefix);
            byte[] upper = access.encodeKeyPrefix(t, toKeyPrefix.subList(0, rootColumns));
            boolean upperHere = branch == null ? access.rootKeyOutside(t, upper) == null : branch.covers(upper);
            if (!upperHere) {
                throw new TransactionException(Reason.KEY_OUTSIDE_PARTITION, false, "a scan of " + t.schema().name()
                        + " from " + fromKeyPrefix + " to " + toKeyPrefix + " spans partitions; a scan reads one partition");
            }
            if (branch != null) {
                return remote(() -> branch.scan(t.schema().name(), fromKeyPrefix, toKeyPrefix, limit));
            }
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

    /**
     * Calls {@code each} with every row of this partition whose key lies between two key prefixes
     * (inclusive, as {@link #scan}), in key order, reading page by page.
     *
     * @return the rows read
     * @throws TransactionException LIMIT_EXCEEDED past {@code rowsMax} rows (nothing is returned)
     */
    public long forEach(String table, List<?> fromKeyPrefix, List<?> toKeyPrefix, long rowsMax,
            java.util.function.Consumer<List<Object>> each) {
        TableAccess.Table t = access.table(table);
        if (t.global()) {
            throw new TransactionException(Reason.READ_ONLY_TABLE, false, "table " + t.schema().name()
                    + " is a global table, a copy on every OTM; read it with get or scan");
        }
        byte[] from = access.encodeKeyPrefix(t, fromKeyPrefix);
        byte[] to = null;
        if (toKeyPrefix != null && !toKeyPrefix.isEmpty()) {
            byte[] end = KeyBytes.prefixEnd(access.encodeKeyPrefix(t, toKeyPrefix));
            to = end.length == 0 ? null : end;
        }
        byte[][] bounds = access.clampToPartition(t, from, to);
        if (bounds == null) {
            return 0;
        }
        byte[] cursor = StorageKeys.rowKey(t.id(), bounds[0]);
        byte[] storageTo = bounds[1] == null ? StorageKeys.tableEnd(t.id()) : StorageKeys.rowKey(t.id(), bounds[1]);
        long rows = 0;
        int page = 1_000;
        while (true) {
            byte[] start = cursor;
            List<KeyValue> stored = call(() -> manager.scan(id, start, storageTo, page));
            for (KeyValue kv : stored) {
                if (++rows > rowsMax) {
                    throw new TransactionException(Reason.LIMIT_EXCEEDED, false, "more than " + rowsMax + " rows of "
                            + t.schema().name() + " in the range; narrow it");
                }
                each.accept(decode(t, StorageKeys.encodedKey(t.id(), kv.key()), kv.value()));
            }
            if (stored.size() < page) {
                return rows;
            }
            byte[] last = stored.get(stored.size() - 1).key();
            cursor = java.util.Arrays.copyOf(last, last.length + 1);
        }
    }

    /** Commits (with its branches, if it has any); see {@link TransactionManager#commit}. */
    public CommitResult commit() {
        if (!branches.isEmpty()) {
            return remote(() -> cross.commit(id, List.copyOf(branches)));
        }
        return call(() -> manager.commit(id));
    }

    /**
     * The first half of {@link #commit}; see {@link TransactionManager#prepareCommit}. The caller
     * logs and finishes it on this thread.
     */
    public PendingCommit prepareCommit() {
        if (!branches.isEmpty()) {
            // A coordinator commits at once (its branches wait for it); nothing is left to log.
            return PendingCommit.readOnly(commit());
        }
        return call(() -> manager.prepareCommit(id));
    }

    /** Aborts if still open, with its branches; returns whether it was. */
    public boolean abort() {
        for (CrossPartitionAccess.RemoteRows b : branches) {
            b.abort();
        }
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
        return decode(t, encodedKey, value, null);
    }

    /** Some columns of a stored row, the others not decoded ({@link RowCodec#decodeColumns}); null: all. */
    private List<Object> decode(TableAccess.Table t, byte[] encodedKey, byte[] value, int[] columns) {
        try {
            return columns == null ? t.codec().decode(encodedKey, value) : t.codec().decodeColumns(encodedKey, value, columns);
        } catch (CorruptEncodingException e) {
            throw new TransactionException(Reason.STORAGE_FAILED, false, "a stored row of table " + t.schema().name()
                    + " does not decode: " + e.getMessage(), e);
        }
    }

    private interface Call<T> {
        T run();
    }

    /** {@link #call} of a branch or of the commit across partitions, its time accounted to {@link CallWaits}. */
    private <T> T remote(Call<T> call) {
        long began = System.nanoTime();
        try {
            return call(call);
        } finally {
            CallWaits.since(CallWaits.Cause.OTHER_PARTITIONS, began);
        }
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
