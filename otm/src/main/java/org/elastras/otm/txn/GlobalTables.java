package org.elastras.otm.txn;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import org.elastras.catalog.key.KeyBytes;
import org.elastras.catalog.row.RowCodec;
import org.elastras.catalog.schema.DatabaseSchema;
import org.elastras.catalog.schema.Names;
import org.elastras.catalog.schema.TableKind;
import org.elastras.catalog.schema.TableSchema;
import org.elastras.otm.txn.TransactionException.Reason;

/**
 * The global (read-mostly, replicated) tables of the databases one OTM serves, such as TPC-C's
 * ITEM: each loaded once per OTM per database into a read-only in-memory sorted map, read by
 * transactions without validation and never logged by them.
 *
 * <p>How they get loaded: when the OTM opens the first partition of a database, the server reads
 * each GLOBAL table's rows (for now from the loader or admin call that created the database;
 * later from the table's own single-partition store on the DFS) and calls {@link #load}. A later
 * load of the same table replaces it whole and atomically; readers see the old or the new table,
 * never a mix. Updating a global table is an admin operation, not a transaction.
 *
 * <p>Thread-safe: loaded tables are immutable maps published through a concurrent map.
 */
public final class GlobalTables {

    private final long rowsPerTableMax;
    /** (canonical database, canonical table) -> encoded primary key -> row. Values are immutable. */
    private final ConcurrentHashMap<String, NavigableMap<byte[], List<Object>>> tables = new ConcurrentHashMap<>();

    /** @param rowsPerTableMax most rows one global table may hold in memory */
    public GlobalTables(long rowsPerTableMax) {
        if (rowsPerTableMax < 1 || rowsPerTableMax > 1_000_000_000L) {
            throw new IllegalArgumentException("rowsPerTableMax must be in [1, 10^9], got " + rowsPerTableMax);
        }
        this.rowsPerTableMax = rowsPerTableMax;
    }

    /**
     * Loads (or replaces) a global table from full rows in column order. Every row is checked
     * first; on any error nothing is loaded.
     *
     * @throws TransactionException UNKNOWN_TABLE (no such table, or not GLOBAL), TYPE_MISMATCH,
     *     LIMIT_EXCEEDED
     */
    public void load(DatabaseSchema database, String tableName, List<? extends List<?>> rows) {
        TableSchema table = database.findTable(tableName).orElseThrow(() -> new TransactionException(
                Reason.UNKNOWN_TABLE, false, "database " + database.name() + " has no table " + tableName));
        if (table.kind() != TableKind.GLOBAL) {
            throw new TransactionException(Reason.UNKNOWN_TABLE, false, "table " + table.name() + " of database "
                    + database.name() + " is " + table.kind() + ", not GLOBAL; only global tables are loaded whole");
        }
        if (rows.size() > rowsPerTableMax) {
            throw new TransactionException(Reason.LIMIT_EXCEEDED, false, "global table " + table.name() + " has "
                    + rows.size() + " rows, the limit (rowsPerTableMax) is " + rowsPerTableMax + "; nothing was loaded");
        }
        RowCodec codec = new RowCodec(table);
        TreeMap<byte[], List<Object>> loaded = new TreeMap<>(KeyBytes::compare);
        for (List<?> row : rows) {
            List<Object> normalized;
            byte[] key;
            try {
                normalized = codec.normalize(row);
                key = codec.encodeKey(normalized);
            } catch (IllegalArgumentException e) {
                throw new TransactionException(Reason.TYPE_MISMATCH, false, e.getMessage() + "; nothing was loaded", e);
            }
            if (loaded.put(key, normalized) != null) {
                throw new TransactionException(Reason.TYPE_MISMATCH, false, "global table " + table.name()
                        + " got two rows with the key " + KeyBytes.toHex(key) + "; nothing was loaded");
            }
        }
        tables.put(name(database.name(), table.name()), Collections.unmodifiableNavigableMap(loaded));
    }

    /** Whether a table is loaded. */
    public boolean isLoaded(String database, String table) {
        return tables.containsKey(name(database, table));
    }

    /** The row with encoded primary key {@code key}, or null. */
    List<Object> get(String database, String table, byte[] key) {
        return loaded(database, table).get(key);
    }

    /** Rows with encoded keys in [from, toExclusive or +infinity), at most limit. */
    List<List<Object>> scan(String database, String table, byte[] from, byte[] toExclusive, int limit) {
        NavigableMap<byte[], List<Object>> t = loaded(database, table);
        NavigableMap<byte[], List<Object>> range = toExclusive == null ? t.tailMap(from, true)
                : KeyBytes.compare(from, toExclusive) >= 0 ? Collections.emptyNavigableMap()
                : t.subMap(from, true, toExclusive, false);
        List<List<Object>> rows = new ArrayList<>(Math.min(limit, range.size()));
        for (Map.Entry<byte[], List<Object>> e : range.entrySet()) {
            if (rows.size() >= limit) {
                break;
            }
            rows.add(e.getValue());
        }
        return rows;
    }

    private NavigableMap<byte[], List<Object>> loaded(String database, String table) {
        NavigableMap<byte[], List<Object>> t = tables.get(name(database, table));
        if (t == null) {
            throw new TransactionException(Reason.UNKNOWN_TABLE, false, "global table " + table + " of database "
                    + database + " is not loaded on this OTM yet; retry once the database's partitions are open");
        }
        return t;
    }

    private static String name(String database, String table) {
        return Names.canonical(database) + "." + Names.canonical(table);
    }
}
