package org.elastras.otm.server;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import java.util.logging.Logger;
import org.elastras.catalog.key.KeyCodec;
import org.elastras.catalog.key.KeyRange;
import org.elastras.catalog.partition.PartitionDescriptor;
import org.elastras.catalog.partition.PartitionId;
import org.elastras.catalog.schema.DatabaseSchema;
import org.elastras.catalog.schema.Names;
import org.elastras.catalog.schema.PartitioningKind;
import org.elastras.client.protocol.ElasTrasException;
import org.elastras.client.protocol.ErrorCode;
import org.elastras.otm.txn.GlobalTables;
import org.elastras.otm.txn.TimestampSource;
import org.elastras.otm.txn.SnapshotTracker;
import org.elastras.otm.txn.TableAccess;
import org.elastras.otm.txn.TransactionManager;
import org.elastras.storage.dfs.Dfs;
import org.elastras.storage.store.PartitionRecovery;
import org.elastras.storage.store.PartitionStore;
import org.elastras.storage.store.StoreEnvironment;
import org.elastras.storage.store.StoreOptions;
import org.elastras.storage.store.UnappliedCommits;
import org.elastras.storage.wal.WalPosition;
import org.elastras.storage.wal.WalRetention;
import org.elastras.storage.wal.WalWriter;

/**
 * The partitions one OTM serves and the schemas of their databases: opening a partition
 * recovers it from the DFS (manifest, then REDO of every log the manifest names) before it
 * serves; closing drains its commits, flushes and leaves a manifest that needs no log; flushing
 * also lets the OTM delete WAL segments no partition needs any more.
 *
 * <p>Thread-safe. Opening and closing one partition are serialised; different partitions open
 * and close in parallel (several moves may be under way at once). Reads of the served set are
 * lock-free.
 */
final class PartitionHost {

    /** How long opening a partition waits for a commit timestamp above its recovered ones. */
    static final long OPEN_TIMESTAMP_WAIT_MS = 10_000;

    private static final Logger LOG = Logger.getLogger(PartitionHost.class.getName());
    /**
     * Smallest memtable a close flushes while the partition still serves. A flush costs about five
     * syncs (the table, its directory, the manifest written and renamed) whatever its size, and
     * the close flushes again after it stops admitting; below this size writing the table costs
     * less than those syncs, so the first flush would only lengthen the move. Above it, the table
     * is written while clients are still served.
     */
    static final long PRE_FLUSH_BYTES_MIN = 1 << 20;
    /** Locks serialising opens and closes by partition id (a power of two). */
    private static final int LIFECYCLE_STRIPES = 64;

    /** One served partition. */
    record Served(PartitionDescriptor descriptor, TableAccess access, PartitionStore store, List<Object> startKey,
            List<Object> endKey) {
    }

    private final String otmId;
    private final Dfs dfs;
    private final WalWriter wal;
    private final UnappliedCommits unapplied;
    private final WalRetention retention = new WalRetention();
    private final StoreOptions storeOptions;
    private final StoreEnvironment environment;
    private final TransactionManager transactions;
    private final TimestampSource timestamps;
    private final SnapshotTracker snapshots;
    private final GlobalTables globals;
    private final long drainTimeoutMs;
    private final int databasesMax;

    private final Map<String, DatabaseSchema> databases = new ConcurrentHashMap<>();
    private final Map<Long, Served> served = new ConcurrentHashMap<>();
    /** Guards registering schemas (the check and the bound on {@link #databases}). */
    private final Object schemaLock = new Object();
    /**
     * Opens and closes hold the read lock; {@link #abandonAll} the write lock, so it waits for
     * them and none starts after it.
     */
    private final ReentrantReadWriteLock hostLock = new ReentrantReadWriteLock();
    /**
     * Serialise the opens and closes of one partition (by id, striped: a fixed number of locks
     * however many partitions come and go); different partitions open and close in parallel, so
     * moves under way at once do not queue behind each other's flushes.
     */
    private final Object[] lifecycleStripes = new Object[LIFECYCLE_STRIPES];

    PartitionHost(String otmId, Dfs dfs, WalWriter wal, UnappliedCommits unapplied, StoreOptions storeOptions,
            StoreEnvironment environment, TransactionManager transactions, TimestampSource timestamps,
            SnapshotTracker snapshots, GlobalTables globals, long drainTimeoutMs, int databasesMax) {
        this.otmId = otmId;
        this.dfs = dfs;
        this.wal = wal;
        this.unapplied = unapplied;
        this.storeOptions = storeOptions;
        this.environment = environment;
        this.transactions = transactions;
        this.timestamps = timestamps;
        this.snapshots = snapshots;
        this.globals = globals;
        this.drainTimeoutMs = drainTimeoutMs;
        this.databasesMax = databasesMax;
        for (int i = 0; i < lifecycleStripes.length; i++) {
            lifecycleStripes[i] = new Object();
        }
    }

    /** The lock that serialises opening and closing {@code partitionId}. */
    private Object lifecycle(long partitionId) {
        return lifecycleStripes[(int) (partitionId ^ (partitionId >>> 32)) & (LIFECYCLE_STRIPES - 1)];
    }

    /** The DFS directory of the log of the OTM named {@code walId}. */
    static String walDirectory(String walId) {
        return Dfs.join("wal", walId);
    }

    /**
     * The DFS directory a master moves the log of a failed OTM to, to fence it (the master's
     * {@code WalFence} uses the same names).
     */
    static String fencedWalDirectory(String walId) {
        return Dfs.join("wal-fenced", walId);
    }

    /** The directory recovery reads the log {@code walId} from: the fenced one once the master moved it. */
    static String recoveryWalDirectory(Dfs dfs, String walId) {
        String fenced = fencedWalDirectory(walId);
        try {
            return dfs.exists(fenced) ? fenced : walDirectory(walId);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot check whether the log of OTM " + walId + " was fenced at " + fenced, e);
        }
    }

    static String partitionDirectory(String database, long partitionId) {
        return Dfs.join("data", Names.canonical(database), Long.toString(partitionId));
    }

    /**
     * Registers a database schema. Registering the same schema again is a no-op; a different
     * schema under a registered name is refused.
     */
    void registerDatabase(DatabaseSchema schema) {
        String name = Names.canonical(schema.name());
        synchronized (schemaLock) {
            DatabaseSchema existing = databases.get(name);
            if (existing != null) {
                if (!existing.equals(schema)) {
                    throw new ElasTrasException(ErrorCode.MALFORMED_REQUEST, "database " + schema.name()
                            + " is already registered with a different schema; changing a schema is not supported");
                }
                return;
            }
            if (databases.size() >= databasesMax) {
                throw new ElasTrasException(ErrorCode.LIMIT_EXCEEDED, "this OTM already has " + databasesMax
                        + " databases registered");
            }
            databases.put(name, schema);
        }
    }

    DatabaseSchema database(String name) {
        DatabaseSchema schema = name == null ? null : databases.get(Names.canonical(name));
        if (schema == null) {
            throw new ElasTrasException(ErrorCode.UNKNOWN_DATABASE, "no database named " + name
                    + " is registered on this OTM; register its schema first");
        }
        return schema;
    }

    /** Opens, recovers and starts serving a partition. Opening a partition already served is a no-op. */
    void open(String database, long partitionId, List<Object> startKey, List<Object> endKey) throws IOException {
        DatabaseSchema schema = database(database);
        KeyRange range = range(schema, startKey, endKey);
        hostLock.readLock().lock();
        try {
            openLocked(schema, range, partitionId, startKey, endKey);
        } finally {
            hostLock.readLock().unlock();
        }
    }

    private void openLocked(DatabaseSchema schema, KeyRange range, long partitionId, List<Object> startKey,
            List<Object> endKey) throws IOException {
        synchronized (lifecycle(partitionId)) {
            Served existing = served.get(partitionId);
            if (existing != null) {
                if (!Names.same(existing.descriptor().database(), schema.name())) {
                    throw new ElasTrasException(ErrorCode.MALFORMED_REQUEST, "partition " + partitionId
                            + " is already served here for database " + existing.descriptor().database());
                }
                return;
            }
            PartitionDescriptor descriptor = new PartitionDescriptor(schema.name(), new PartitionId(partitionId), range, 0);
            TableAccess access = new TableAccess(schema, descriptor, globals);
            long started = System.nanoTime();
            PartitionStore store = PartitionStore.open(dfs, partitionDirectory(schema.name(), partitionId), storeOptions,
                    environment);
            try {
                InDoubtReplay inDoubt = new InDoubtReplay(partitionId);
                WalPosition ownToReplay = store.manifest().replayPoints().get(otmId);
                if (ownToReplay != null) {
                    // Replay reads this OTM's own log from there: keep a concurrent close or flush
                    // of another partition from deleting those segments meanwhile. Never past what
                    // finishRecovery records below (the older of this and the oldest unapplied
                    // commit, which only moves forward), so the retention only moves forward.
                    retention.retain(partitionId, WalPosition.min(ownToReplay, unapplied.replayPoint()));
                }
                PartitionRecovery.Result replayed = PartitionRecovery.replay(store, partitionId, dfs,
                        walId -> recoveryWalDirectory(dfs, walId), inDoubt);
                // New commits must order after every recovered one, and transactions must read at a
                // snapshot that includes them all.
                long recoveredCts = Math.max(0, store.maxCts());
                if (!timestamps.liftAbove(recoveredCts, OPEN_TIMESTAMP_WAIT_MS)
                        || !snapshots.awaitFinished(recoveredCts, OPEN_TIMESTAMP_WAIT_MS)) {
                    throw new ElasTrasException(ErrorCode.OVERLOADED, "partition " + partitionId + " was recovered up to CTS "
                            + recoveredCts + " but no commit timestamp above it arrived within " + OPEN_TIMESTAMP_WAIT_MS
                            + " ms (is the master reachable?); open it again");
                }
                store.finishRecovery(unapplied);
                WalPosition own = store.manifest().replayPoints().get(otmId);
                retention.retain(partitionId, own == null ? wal.endPosition() : own);
                transactions.addPartition(partitionId, store, inDoubt.inDoubt(store));
                served.put(partitionId, new Served(descriptor, access, store, startKey, endKey));
                long ms = (System.nanoTime() - started) / 1_000_000;
                LOG.info(() -> "opened partition " + partitionId + " of " + schema.name() + " in " + ms + " ms; replayed "
                        + replayed.versionsApplied() + " versions from " + replayed.logsRead() + " logs");
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                store.close();
                retention.release(partitionId);
                throw new ElasTrasException(ErrorCode.INTERNAL, "interrupted while opening partition " + partitionId);
            } catch (IOException | RuntimeException e) {
                store.close();
                retention.release(partitionId);
                throw e;
            }
        }
    }

    /**
     * Stops serving a partition: drains its commits, flushes, leaves a manifest needing no log. A
     * memtable of at least {@link #PRE_FLUSH_BYTES_MIN} is flushed first while the partition still
     * serves, so that only what came in meanwhile is flushed while it serves nobody.
     */
    void close(long partitionId) throws IOException, InterruptedException {
        hostLock.readLock().lock();
        try {
            closeLocked(partitionId);
        } finally {
            hostLock.readLock().unlock();
        }
    }

    private void closeLocked(long partitionId) throws IOException, InterruptedException {
        synchronized (lifecycle(partitionId)) {
            Served s = served.get(partitionId);
            if (s == null) {
                throw notServed(partitionId);
            }
            long preFlushStarted = System.nanoTime();
            long memtableBytes = s.store().stats().memtableBytes();
            if (memtableBytes >= PRE_FLUSH_BYTES_MIN) {
                s.store().flush();
            }
            long started = System.nanoTime();
            transactions.removePartition(partitionId, drainTimeoutMs);
            served.remove(partitionId);
            long drained = System.nanoTime();
            s.store().closeAfterFlush();
            long flushed = System.nanoTime();
            retention.release(partitionId);
            deleteObsoleteSegments();
            long done = System.nanoTime();
            LOG.info(() -> "closed partition " + partitionId + " in " + (done - preFlushStarted) / 1_000_000
                    + " ms: memtable " + memtableBytes + " bytes, flushed while serving in "
                    + (started - preFlushStarted) / 1_000_000
                    + " ms, then served nobody for " + (done - started) / 1_000_000 + " ms (drain "
                    + (drained - started) / 1_000_000 + " ms, flush and manifest " + (flushed - drained) / 1_000_000
                    + " ms, log segments " + (done - flushed) / 1_000_000 + " ms)");
        }
    }

    /** Flushes a partition's memtable and deletes WAL segments no partition needs any more. */
    void flush(long partitionId) throws IOException {
        Served s = served(partitionId);
        s.store().flush();
        WalPosition own = s.store().manifest().replayPoints().get(otmId);
        if (own != null) {
            retention.retain(partitionId, own);
        }
        deleteObsoleteSegments();
    }

    private void deleteObsoleteSegments() throws IOException {
        wal.deleteSegmentsBefore(retention.oldestNeeded(wal.endPosition()));
    }

    /** The served partition, or NOT_OWNER. */
    Served served(long partitionId) {
        Served s = served.get(partitionId);
        if (s == null) {
            throw notServed(partitionId);
        }
        return s;
    }

    List<Served> all() {
        return new ArrayList<>(served.values());
    }

    private ElasTrasException notServed(long partitionId) {
        return new ElasTrasException(ErrorCode.NOT_OWNER, "partition " + partitionId + " is not served by OTM " + otmId);
    }

    /** Closes every store without flushing (the process is going away; the WAL has everything). */
    void abandonAll() {
        hostLock.writeLock().lock();
        try {
            for (Served s : served.values()) {
                s.store().close();
            }
            served.clear();
        } finally {
            hostLock.writeLock().unlock();
        }
    }

    private static KeyRange range(DatabaseSchema schema, List<Object> startKey, List<Object> endKey) {
        boolean unbounded = (startKey == null || startKey.isEmpty()) && (endKey == null || endKey.isEmpty());
        if (schema.partitioning() == PartitioningKind.SINGLE_PARTITION) {
            if (!unbounded) {
                throw new ElasTrasException(ErrorCode.MALFORMED_REQUEST, "database " + schema.name()
                        + " is single-partition: its one partition covers every key; send no startKey or endKey");
            }
            return KeyRange.ALL;
        }
        try {
            KeyCodec rootKey = KeyCodec.forPartitionKey(schema);
            byte[] start = startKey == null || startKey.isEmpty() ? new byte[0] : rootKey.encode(normalized(schema, startKey));
            byte[] end = endKey == null || endKey.isEmpty() ? new byte[0] : rootKey.encode(normalized(schema, endKey));
            return new KeyRange(start, end);
        } catch (IllegalArgumentException e) {
            throw new ElasTrasException(ErrorCode.TYPE_MISMATCH, "bad partition range for database " + schema.name()
                    + ": " + e.getMessage());
        }
    }

    private static List<Object> normalized(DatabaseSchema schema, List<Object> values) {
        var columns = schema.partitionKeyColumns();
        if (values.size() != columns.size()) {
            throw new IllegalArgumentException("a root key of database " + schema.name() + " has " + columns.size()
                    + " values " + columns.stream().map(c -> c.name()).toList() + ", got " + values.size());
        }
        List<Object> out = new ArrayList<>(values.size());
        for (int i = 0; i < values.size(); i++) {
            out.add(org.elastras.client.protocol.WireValues.toColumnValue("root key of " + schema.name(), columns.get(i),
                    values.get(i)));
        }
        return out;
    }
}
