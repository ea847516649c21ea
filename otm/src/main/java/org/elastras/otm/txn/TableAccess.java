package org.elastras.otm.txn;

import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.elastras.catalog.key.KeyBytes;
import org.elastras.catalog.key.KeyCodec;
import org.elastras.catalog.key.KeyRange;
import org.elastras.catalog.partition.PartitionDescriptor;
import org.elastras.catalog.row.RowCodec;
import org.elastras.catalog.schema.DatabaseSchema;
import org.elastras.catalog.schema.Names;
import org.elastras.catalog.schema.PartitioningKind;
import org.elastras.catalog.schema.TableKind;
import org.elastras.catalog.schema.TableSchema;
import org.elastras.otm.txn.TransactionException.Reason;

/**
 * The typed view of one partition: which tables its database has, how their rows map to storage
 * keys and values ({@link StorageKeys}, {@code RowCodec}), which root keys the partition covers,
 * and where the database's global tables are. Opens {@link RowTransaction}s on the partition.
 *
 * <p>Immutable and thread-safe; one per served partition.
 */
public final class TableAccess {

    /** A table of the database, resolved once. */
    record Table(int id, TableSchema schema, RowCodec codec) {
        KeyCodec keyCodec() {
            return codec.keyCodec();
        }

        boolean global() {
            return schema.kind() == TableKind.GLOBAL;
        }
    }

    private final DatabaseSchema schema;
    private final PartitionDescriptor partition;
    private final GlobalTables globals;
    /** Canonical table name -> table. */
    private final Map<String, Table> tables;
    private final int rootKeyColumns;

    public TableAccess(DatabaseSchema schema, PartitionDescriptor partition, GlobalTables globals) {
        if (schema == null || partition == null || globals == null) {
            throw new IllegalArgumentException("schema, partition and global tables are required");
        }
        if (!Names.same(schema.name(), partition.database())) {
            throw new IllegalArgumentException("partition " + partition.id() + " belongs to database "
                    + partition.database() + ", not " + schema.name());
        }
        if (schema.tables().size() > StorageKeys.TABLE_ID_MAX) {
            throw new IllegalArgumentException("database " + schema.name() + " has more tables than table ids");
        }
        Map<String, Table> byName = new HashMap<>();
        for (int i = 0; i < schema.tables().size(); i++) {
            TableSchema t = schema.tables().get(i);
            byName.put(Names.canonical(t.name()), new Table(i + 1, t, new RowCodec(t)));
        }
        this.schema = schema;
        this.partition = partition;
        this.globals = globals;
        this.tables = Map.copyOf(byName);
        this.rootKeyColumns = schema.partitionKeyColumns().size();
    }

    public DatabaseSchema schema() {
        return schema;
    }

    public PartitionDescriptor partition() {
        return partition;
    }

    public long partitionId() {
        return partition.id().value();
    }

    /** Begins a transaction on this partition. */
    public RowTransaction begin(TransactionManager manager, Isolation isolation, String clientId) {
        return begin(manager, isolation, clientId, null);
    }

    /** Begins a transaction carrying the client's commit id {@code tag} (null for none). */
    public RowTransaction begin(TransactionManager manager, Isolation isolation, String clientId, CommitTag tag) {
        return begin(manager, isolation, clientId, tag, null);
    }

    /**
     * Begins a transaction that may also reach rows of other partitions through {@code cross}
     * (null: it may not).
     */
    public RowTransaction begin(TransactionManager manager, Isolation isolation, String clientId, CommitTag tag,
            CrossPartitionAccess cross) {
        long id = manager.begin(partitionId(), isolation, clientId, tag);
        return new RowTransaction(manager, this, id, cross);
    }

    /**
     * Begins a stored procedure call's transaction: as {@link #begin(TransactionManager, Isolation,
     * String, CommitTag, CrossPartitionAccess)}, but a live move's pause aborts it rather than wait
     * for it (the call runs again at the next owner).
     */
    public RowTransaction beginCall(TransactionManager manager, Isolation isolation, String clientId, CommitTag tag,
            CrossPartitionAccess cross) {
        long id = manager.begin(partitionId(), isolation, clientId, tag, true);
        return new RowTransaction(manager, this, id, cross);
    }

    /**
     * The typed view of an open transaction begun on this partition (for interactive requests that
     * carry the transaction id).
     *
     * @throws TransactionException UNKNOWN_TRANSACTION, or NOT_OWNER if it runs on another partition
     */
    public RowTransaction attach(TransactionManager manager, long txnId) {
        long p = manager.partitionOf(txnId);
        if (p != partitionId()) {
            throw new TransactionException(Reason.NOT_OWNER, false, "transaction " + txnId + " runs on partition " + p
                    + ", not on partition " + partitionId());
        }
        return new RowTransaction(manager, this, txnId);
    }

    GlobalTables globals() {
        return globals;
    }

    /** @throws TransactionException UNKNOWN_TABLE */
    Table table(String name) {
        Table t = name == null ? null : tables.get(Names.canonical(name));
        if (t == null) {
            throw new TransactionException(Reason.UNKNOWN_TABLE, false, "database " + schema.name() + " has no table "
                    + name + "; its tables are " + schema.tables().stream().map(TableSchema::name).toList());
        }
        return t;
    }

    /** The encoded primary key of full key values. @throws TransactionException TYPE_MISMATCH */
    byte[] encodeKey(Table table, List<?> keyValues) {
        if (keyValues == null) {
            throw new TransactionException(Reason.TYPE_MISMATCH, false, "table " + table.schema().name()
                    + " needs key values " + table.schema().primaryKey() + ", got none");
        }
        try {
            return table.keyCodec().encode(keyValues);
        } catch (IllegalArgumentException e) {
            throw new TransactionException(Reason.TYPE_MISMATCH, false, e.getMessage(), e);
        }
    }

    /** The encoding of leading key values (none: empty). @throws TransactionException TYPE_MISMATCH */
    byte[] encodeKeyPrefix(Table table, List<?> prefix) {
        if (prefix == null || prefix.isEmpty()) {
            return new byte[0];
        }
        try {
            return table.keyCodec().encodePrefix(prefix);
        } catch (IllegalArgumentException e) {
            throw new TransactionException(Reason.TYPE_MISMATCH, false, e.getMessage(), e);
        }
    }

    /**
     * Checks that a row of a partitioned table belongs to this partition: its root key (the
     * leading root-key columns of its encoded key) lies in the partition's range.
     *
     * @throws TransactionException KEY_OUTSIDE_PARTITION
     */
    void checkInPartition(Table table, byte[] encodedKey) {
        if (table.global() || schema.partitioning() != PartitioningKind.TREE) {
            return;
        }
        KeyRange range = partition.range();
        byte[] rootKey = Arrays.copyOf(encodedKey, table.keyCodec().prefixLength(encodedKey, rootKeyColumns));
        if (!range.contains(rootKey)) {
            throw new TransactionException(Reason.KEY_OUTSIDE_PARTITION, false, "the root key " + KeyBytes.toHex(rootKey)
                    + " of this " + table.schema().name() + " row is outside partition " + partition.id() + " " + range
                    + " of database " + schema.name() + "; send it to the partition that holds it");
        }
    }

    /**
     * The root key of a row of a partitioned table if it lies outside this partition, else null
     * (inside, a global table, or a single-partition database).
     */
    byte[] rootKeyOutside(Table table, byte[] encodedKey) {
        if (table.global() || schema.partitioning() != PartitioningKind.TREE) {
            return null;
        }
        byte[] rootKey = Arrays.copyOf(encodedKey, table.keyCodec().prefixLength(encodedKey, rootKeyColumns));
        return partition.range().contains(rootKey) ? null : rootKey;
    }

    /** How many leading key values make the root key (0 for a single-partition database). */
    int rootKeyColumns() {
        return schema.partitioning() == PartitioningKind.TREE ? rootKeyColumns : 0;
    }

    /**
     * Clamps encoded-key bounds [from, toExclusive or null = +infinity) of a partitioned table to
     * this partition's range.
     *
     * @return {from, toExclusive-or-null}, or null if nothing of the range is in this partition
     */
    byte[][] clampToPartition(Table table, byte[] from, byte[] toExclusive) {
        if (table.global() || schema.partitioning() != PartitioningKind.TREE) {
            return new byte[][] {from, toExclusive};
        }
        KeyRange range = partition.range();
        byte[] start = range.start();
        byte[] lower = KeyBytes.compare(from, start) >= 0 ? from : start;
        byte[] upper = toExclusive;
        if (!range.endUnbounded() && (upper == null || KeyBytes.compare(range.end(), upper) < 0)) {
            upper = range.end();
        }
        if (upper != null && KeyBytes.compare(lower, upper) >= 0) {
            return null;
        }
        return new byte[][] {lower, upper};
    }
}
