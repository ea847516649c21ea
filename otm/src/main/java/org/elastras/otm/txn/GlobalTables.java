package org.elastras.otm.txn;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.Iterator;
import java.util.LinkedHashMap;
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
import org.elastras.storage.sstable.SsTableReader;

/**
 * The global (read-mostly, replicated) tables of the databases one OTM serves, such as TPC-C's
 * ITEM: read by transactions from a read-only in-memory sorted map, without validation, never
 * logged by them.
 *
 * <p>How a table gets here: a loader sends its rows in chunks to one OTM serving a partition of
 * the database ({@link #loadChunk}: chunks 0, 1, 2, ... of one load id are staged, checked as they
 * come, and the last one publishes). Publishing writes the whole table once to the DFS
 * ({@link GlobalTableFiles}) and then installs it here; any other OTM reads the published file the
 * first time a transaction of that database reads the table, so a partition's new owner (after a
 * move or a failover) finds it. A table is published once per database: a second publish is
 * refused ({@link LoadRefused.Why#ALREADY_PUBLISHED}). Without a DFS (tests), publishing installs
 * the table here only and replaces an earlier copy. Updating a global table is an admin operation,
 * not a transaction; readers see the whole table or none of it, never part of a load.
 *
 * <p>Bounds: a table holds at most {@code rowsPerTableMax} rows (staged or published); at most
 * {@link #STAGED_LOADS_MAX} loads are staged at once, and starting another drops the oldest (whose
 * next chunk is then refused, so its loader starts again). Any refused chunk changes nothing.
 *
 * <p>Thread-safe: published tables are immutable maps in a concurrent map; staging is guarded by
 * its own lock; reading a published file is done once per table under a per-table lock.
 */
public final class GlobalTables {

    /** Loads staged at once on one OTM. */
    public static final int STAGED_LOADS_MAX = 4;

    private final long rowsPerTableMax;
    /** Null: tables live in this OTM's memory only. */
    private final GlobalTableFiles files;
    /** (canonical database, canonical table) -> the published table. Values are immutable. */
    private final ConcurrentHashMap<String, Published> tables = new ConcurrentHashMap<>();
    /** One lock per table name, held while its published file is read. */
    private final ConcurrentHashMap<String, Object> reading = new ConcurrentHashMap<>();
    /** Numbers the load ids of {@link #load}. */
    private final java.util.concurrent.atomic.AtomicLong wholeLoads = new java.util.concurrent.atomic.AtomicLong();
    /** Load id -> its staged chunks, oldest first. Guarded by itself. */
    private final LinkedHashMap<String, StagedLoad> staged = new LinkedHashMap<>();

    /** Tables in memory only (no DFS): for tests and single-OTM tools. */
    public GlobalTables(long rowsPerTableMax) {
        this(rowsPerTableMax, null);
    }

    /**
     * @param rowsPerTableMax most rows one global table may hold
     * @param files where tables are published and read back; null for memory only
     */
    public GlobalTables(long rowsPerTableMax, GlobalTableFiles files) {
        if (rowsPerTableMax < 1 || rowsPerTableMax > 1_000_000_000L) {
            throw new IllegalArgumentException("rowsPerTableMax must be in [1, 10^9], got " + rowsPerTableMax);
        }
        this.rowsPerTableMax = rowsPerTableMax;
        this.files = files;
    }

    /** A chunk or a publish the OTM refuses; nothing was changed. */
    public static final class LoadRefused extends RuntimeException {

        /** Why. */
        public enum Why {
            /** The chunk is not the next one of its load, or its load is not staged (never begun, or dropped). */
            OUT_OF_SEQUENCE,
            /** The table is published already; a global table is published once per database. */
            ALREADY_PUBLISHED
        }

        private final Why why;

        LoadRefused(Why why, String message) {
            super(message);
            this.why = why;
        }

        public Why why() {
            return why;
        }
    }

    /**
     * Loads a whole table in one go: {@link #loadChunk} with one chunk that publishes; returns its rows.
     *
     * @throws TransactionException UNKNOWN_TABLE (no such table, or not GLOBAL), TYPE_MISMATCH, LIMIT_EXCEEDED
     */
    public long load(DatabaseSchema database, String tableName, List<? extends List<?>> rows) {
        return loadChunk(database, tableName, "whole-" + wholeLoads.incrementAndGet(), 0, rows, true);
    }

    /**
     * Stages chunk {@code chunk} of load {@code loadId} of a global table and, when {@code publish}
     * is set, publishes the table made of every staged chunk. Chunk 0 begins the load (again, if
     * the id was staged before: the earlier chunks are dropped); every later chunk must be the next
     * one. Every row is checked first (types, no key twice within the load, the row bound); on any
     * error nothing changes.
     *
     * @return rows staged so far in this load, or the published table's rows when {@code publish}
     * @throws TransactionException UNKNOWN_TABLE, TYPE_MISMATCH, LIMIT_EXCEEDED, STORAGE_FAILED (the
     *     DFS write failed; the chunk is not staged, so sending it again retries the publish)
     * @throws LoadRefused out of sequence, or already published
     */
    public long loadChunk(DatabaseSchema database, String tableName, String loadId, int chunk, List<? extends List<?>> rows,
            boolean publish) {
        if (loadId == null || loadId.isEmpty() || loadId.length() > 64) {
            throw new IllegalArgumentException("a load id is 1..64 characters, got " + loadId);
        }
        if (chunk < 0) {
            throw new IllegalArgumentException("chunk numbers start at 0, got " + chunk);
        }
        TableSchema table = globalTable(database, tableName);
        String name = name(database.name(), table.name());
        if (rows.size() > rowsPerTableMax) {
            throw tooMany(table, rows.size());
        }
        TreeMap<byte[], List<Object>> incoming = normalized(table, rows);
        synchronized (staged) {
            StagedLoad load = staged.get(loadId);
            if (chunk == 0) {
                load = new StagedLoad(name, 0, new TreeMap<>(KeyBytes::compare));
            } else if (load == null) {
                throw new LoadRefused(LoadRefused.Why.OUT_OF_SEQUENCE, "load " + loadId + " of " + table.name()
                        + " is not staged here (chunk 0 never came, it was published, or it was dropped when more than "
                        + STAGED_LOADS_MAX + " loads were staged); send it again from chunk 0");
            } else if (!load.table.equals(name) || chunk != load.nextChunk) {
                throw new LoadRefused(LoadRefused.Why.OUT_OF_SEQUENCE, "load " + loadId + " is of " + load.table
                        + " and expects chunk " + load.nextChunk + ", got chunk " + chunk + " of " + name + "; nothing was staged");
            }
            if (load.rows.size() + incoming.size() > rowsPerTableMax) {
                throw tooMany(table, load.rows.size() + incoming.size());
            }
            for (byte[] key : incoming.keySet()) {
                if (load.rows.containsKey(key)) {
                    throw new TransactionException(Reason.TYPE_MISMATCH, false, "global table " + table.name() + " got two rows with the key "
                            + KeyBytes.toHex(key) + " in load " + loadId + " (chunk " + chunk + " repeats an earlier chunk's row);"
                            + " nothing was staged");
                }
            }
            TreeMap<byte[], List<Object>> merged = new TreeMap<>(load.rows);
            merged.putAll(incoming);
            if (publish) {
                publish(database, table, loadId, merged);
                staged.remove(loadId);
                return merged.size();
            }
            staged.remove(loadId);
            while (staged.size() >= STAGED_LOADS_MAX) {
                Iterator<String> oldest = staged.keySet().iterator();
                oldest.next();
                oldest.remove();
            }
            staged.put(loadId, new StagedLoad(name, chunk + 1, merged));
            return merged.size();
        }
    }

    /** Writes the table to the DFS (once per database) and installs it; REQUIRES: the staging lock. */
    private void publish(DatabaseSchema database, TableSchema table, String loadId, TreeMap<byte[], List<Object>> rows) {
        NavigableMap<byte[], List<Object>> frozen = Collections.unmodifiableNavigableMap(rows);
        if (files != null) {
            boolean written;
            try {
                written = files.publish(database.name(), table, loadId, frozen);
            } catch (IOException e) {
                throw new TransactionException(Reason.STORAGE_FAILED, false, "publishing global table " + table.name()
                        + " to the DFS failed: " + e.getMessage() + "; nothing was published, send the last chunk again", e);
            }
            if (!written) {
                throw new LoadRefused(LoadRefused.Why.ALREADY_PUBLISHED, "global table " + table.name() + " of database "
                        + database.name() + " is published already; a global table is published once per database");
            }
        }
        tables.put(name(database.name(), table.name()), new Published(frozen));
    }

    /** Whether a table is in this OTM's memory (published here, or read from the DFS already). */
    public boolean isLoaded(String database, String table) {
        return tables.containsKey(name(database, table));
    }

    /** The row with encoded primary key {@code key}, or null. */
    List<Object> get(DatabaseSchema database, TableSchema table, byte[] key) {
        return loaded(database, table).get(key);
    }

    /** Rows with encoded keys in [from, toExclusive or +infinity), at most limit. */
    List<List<Object>> scan(DatabaseSchema database, TableSchema table, byte[] from, byte[] toExclusive, int limit) {
        NavigableMap<byte[], List<Object>> t = loaded(database, table).rows;
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

    /** The table in memory, read from its published file the first time if there is one. */
    private Published loaded(DatabaseSchema database, TableSchema table) {
        String name = name(database.name(), table.name());
        Published t = tables.get(name);
        if (t != null) {
            return t;
        }
        if (files != null) {
            synchronized (reading.computeIfAbsent(name, k -> new Object())) {
                t = tables.get(name);
                if (t != null) {
                    return t;
                }
                NavigableMap<byte[], List<Object>> rows;
                try {
                    rows = files.read(database.name(), table, rowsPerTableMax);
                } catch (IOException e) {
                    throw new TransactionException(Reason.STORAGE_FAILED, false, "reading global table " + table.name()
                            + " of database " + database.name() + " from the DFS failed: " + e.getMessage(), e);
                }
                if (rows != null) {
                    t = new Published(rows);
                    tables.put(name, t);
                    return t;
                }
            }
        }
        throw new TransactionException(Reason.UNKNOWN_TABLE, false, "global table " + table.name() + " of database "
                + database.name() + " is not loaded yet (load it with loadGlobalTable); retry once it is");
    }

    private static TableSchema globalTable(DatabaseSchema database, String tableName) {
        TableSchema table = database.findTable(tableName).orElseThrow(() -> new TransactionException(
                Reason.UNKNOWN_TABLE, false, "database " + database.name() + " has no table " + tableName));
        if (table.kind() != TableKind.GLOBAL) {
            throw new TransactionException(Reason.UNKNOWN_TABLE, false, "table " + table.name() + " of database "
                    + database.name() + " is " + table.kind() + ", not GLOBAL; only global tables are loaded whole");
        }
        return table;
    }

    /** Every row checked and keyed; the first bad row or repeated key refuses them all. */
    private static TreeMap<byte[], List<Object>> normalized(TableSchema table, List<? extends List<?>> rows) {
        RowCodec codec = new RowCodec(table);
        TreeMap<byte[], List<Object>> out = new TreeMap<>(KeyBytes::compare);
        for (List<?> row : rows) {
            List<Object> normalized;
            byte[] key;
            try {
                normalized = Collections.unmodifiableList(codec.normalize(row));
                key = codec.encodeKey(normalized);
            } catch (IllegalArgumentException e) {
                throw new TransactionException(Reason.TYPE_MISMATCH, false, e.getMessage() + "; nothing was loaded", e);
            }
            if (out.put(key, normalized) != null) {
                throw new TransactionException(Reason.TYPE_MISMATCH, false, "global table " + table.name()
                        + " got two rows with the key " + KeyBytes.toHex(key) + "; nothing was loaded");
            }
        }
        return out;
    }

    private TransactionException tooMany(TableSchema table, long rows) {
        return new TransactionException(Reason.LIMIT_EXCEEDED, false, "global table " + table.name() + " would have "
                + rows + " rows, the limit (rowsPerTableMax) is " + rowsPerTableMax + "; nothing was loaded");
    }

    private static String name(String database, String table) {
        return Names.canonical(database) + "." + Names.canonical(table);
    }

    /**
     * A published table: its rows in key order (for scans) and an open-addressing hash index over
     * the same rows (for point reads, which TPC-C's New-Order makes ten of per call: a tree lookup
     * in 100,000 items compared ~17 keys byte by byte, 6 % of an OTM's CPU). Immutable.
     */
    static final class Published {

        /** Tables larger than this are read through the tree alone (an index would not fit an array). */
        static final int INDEXED_ROWS_MAX = 1 << 28;

        final NavigableMap<byte[], List<Object>> rows;
        /** Slot -> the key's hash, compared before the key itself; capacity a power of two, 2-4x the rows. */
        private final int[] hashes;
        /** Slot -> key, or null for an empty slot. Null: not indexed. */
        private final byte[][] keys;
        private final List<Object>[] values;
        private final int mask;
        /** Most slots any present key's probe visits. */
        private final int longestProbe;

        @SuppressWarnings("unchecked")
        Published(NavigableMap<byte[], List<Object>> rows) {
            this.rows = rows;
            int n = rows.size();
            if (n > INDEXED_ROWS_MAX) {
                hashes = null;
                keys = null;
                values = null;
                mask = 0;
                longestProbe = 0;
                return;
            }
            int capacity = Integer.highestOneBit(Math.max(n, 1)) << 2;
            hashes = new int[capacity];
            keys = new byte[capacity][];
            values = new List[capacity];
            mask = capacity - 1;
            int longest = 0;
            for (Map.Entry<byte[], List<Object>> e : rows.entrySet()) {
                int h = hash(e.getKey());
                int i = h & mask;
                int probe = 1;
                while (keys[i] != null) {
                    i = (i + 1) & mask;
                    probe++;
                }
                hashes[i] = h;
                keys[i] = e.getKey();
                values[i] = e.getValue();
                longest = Math.max(longest, probe);
            }
            longestProbe = longest;
        }

        /** The row with encoded key {@code key}, or null. */
        List<Object> get(byte[] key) {
            if (keys == null) {
                return rows.get(key);
            }
            int h = hash(key);
            for (int i = h & mask; ; i = (i + 1) & mask) {
                byte[] k = keys[i];
                if (k == null) {
                    return null;
                }
                if (hashes[i] == h && Arrays.equals(k, key)) {
                    return values[i];
                }
            }
        }

        int longestProbe() {
            return longestProbe;
        }

        /**
         * The store's key hash (every memtable's table and bloom filter uses it). Not
         * {@link Arrays#hashCode(byte[])}: its base 31 maps byte pairs (b, c) and (b + 1, c - 31) to
         * one value, so TPC-C's 100,000 item keys fell on ~10,000 hashes and every read probed a
         * run of colliding keys.
         */
        static int hash(byte[] key) {
            long h = SsTableReader.keyHash(key);
            return (int) (h ^ (h >>> 32));
        }
    }

    /** The chunks of one load staged so far. Immutable; replaced as chunks arrive. */
    private record StagedLoad(String table, int nextChunk, TreeMap<byte[], List<Object>> rows) {
    }
}
