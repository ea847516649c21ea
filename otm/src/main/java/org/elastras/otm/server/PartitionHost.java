package org.elastras.otm.server;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import java.util.function.Supplier;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.elastras.catalog.key.KeyCodec;
import org.elastras.catalog.key.KeyRange;
import org.elastras.catalog.partition.PartitionDescriptor;
import org.elastras.catalog.partition.PartitionId;
import org.elastras.catalog.schema.ColumnType;
import org.elastras.catalog.schema.DatabaseSchema;
import org.elastras.catalog.schema.Names;
import org.elastras.catalog.schema.PartitioningKind;
import org.elastras.client.OtmClient;
import org.elastras.client.protocol.CatalogHandOver;
import org.elastras.client.protocol.ClosePartitionResponse;
import org.elastras.client.protocol.CloseReport;
import org.elastras.client.protocol.DropIncomingRequest;
import org.elastras.client.protocol.ElasTrasException;
import org.elastras.client.protocol.ErrorCode;
import org.elastras.client.protocol.FinishIncomingRequest;
import org.elastras.client.protocol.FinishIncomingResponse;
import org.elastras.client.protocol.HandOverOutcome;
import org.elastras.client.protocol.LiveMoveReport;
import org.elastras.client.protocol.MoveDestination;
import org.elastras.client.protocol.ReceivePartitionRequest;
import org.elastras.client.protocol.RegisterDatabaseRequest;
import org.elastras.client.protocol.SchemaSpec;
import org.elastras.client.protocol.ShipVersionsRequest;
import org.elastras.client.protocol.ShippedCommit;
import org.elastras.client.protocol.WireValues;
import org.elastras.otm.catalog.PartitionRowSwap;
import org.elastras.otm.txn.GlobalTables;
import org.elastras.otm.txn.SnapshotTracker;
import org.elastras.otm.txn.TableAccess;
import org.elastras.otm.txn.TimestampSource;
import org.elastras.otm.txn.TransactionManager;
import org.elastras.storage.dfs.Dfs;
import org.elastras.storage.store.Manifest;
import org.elastras.storage.store.PartitionRecovery;
import org.elastras.storage.store.MemtableBudget;
import org.elastras.storage.store.PartitionStore;
import org.elastras.storage.store.StoreEnvironment;
import org.elastras.storage.store.StoreOptions;
import org.elastras.storage.store.StoreWarmup;
import org.elastras.storage.store.UnappliedCommits;
import org.elastras.storage.store.Version;
import org.elastras.storage.util.LimitExceededException;
import org.elastras.storage.wal.WalPosition;
import org.elastras.storage.wal.WalRecord;
import org.elastras.storage.wal.WalNames;
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
    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();
    /**
     * Smallest memtable a close flushes while the partition still serves, so that the flush after
     * it stops admitting writes only what came in meanwhile. The syncs of a flush are cheap here
     * (under a millisecond on an idle disk); what costs is writing the table, in proportion to its
     * bytes and far more on a busy OTM, the one a balancer moves partitions away from: a 115 KB
     * final flush took 80-160 ms at 450 txn/s on two cores, 5-7 ms for 1-4 KB (BENCHMARKS.md,
     * issue 8, session 14). Below this size a second table is not worth it.
     */
    static final long PRE_FLUSH_BYTES_MIN = 16 << 10;
    /** Flushes while serving at most this many times: a partition written faster than it flushes still closes. */
    static final int PRE_FLUSH_ROUNDS_MAX = 3;
    /** The scratch database of the open path's warm-up: registered only while it runs, before the lease. */
    static final String WARMUP_DATABASE = "ELASTRAS_WARMUP";
    /** Its one partition's id: no catalog allocates it (ids count up from the catalog's own). */
    static final long WARMUP_PARTITION_ID = Long.MAX_VALUE;
    /** Opens and closes of the scratch partition, and live copies of it received and served. */
    static final int WARMUP_ROUNDS = 3;
    /** The origin the warm-up's live copies name (and the host of the catalog write they cannot make). */
    static final String WARMUP_ORIGIN = "warm-up";
    /** A warm-up copy's batches: two shipped while it fills, the last with its finish. */
    static final int WARMUP_COPY_BATCHES = 3;
    /** Commits in each batch of a warm-up copy, and keys in each commit. */
    static final int WARMUP_COPY_COMMITS = 8;
    static final int WARMUP_COPY_KEYS = 2;
    /** Locks serialising opens and closes by partition id (a power of two). */
    private static final int LIFECYCLE_STRIPES = 64;

    /** Longest catch-up of a live move before it pauses the partition anyway ("forced", reported). */
    static final long LIVE_CATCH_UP_MS = 10_000;
    /** A live move pauses the partition once fewer bytes than this wait to be shipped. */
    static final long LIVE_PAUSE_BACKLOG_BYTES = 256 * 1024;
    /** Longest wait of a live move's pause for the partition's open transactions to end before they are aborted. */
    static final long LIVE_GRACE_MS = 100;
    /**
     * Longest wait of a live move's pause for a branch of a cross-partition transaction to vote
     * before it is aborted and its coordinator runs the transaction again: its coordinator may be
     * waiting for a transaction whose branch begin the pause holds (see
     * {@link TransactionManager#stopAdmitting}). Branches under load vote within about 10 ms.
     */
    static final long LIVE_BRANCH_GRACE_MS = 15;
    /** Bytes of commits a live move may have waiting to be shipped; past it the move fails and the origin serves on. */
    static final long LIVE_OUTBOX_BYTES_MAX = 64L << 20;
    /** About the most bytes of versions in one shipVersions request (well under the body limit). */
    static final long LIVE_BATCH_BYTES = 1 << 20;
    /** Copies being received at once. */
    static final int INCOMING_MAX = 16;
    /** A copy being filled that hears nothing from its origin for this long is dropped. */
    static final long INCOMING_IDLE_MS = 30_000;
    /** A complete copy the master does not open here within this long is closed (the partition went elsewhere). */
    static final long COMPLETE_COPY_IDLE_MS = 120_000;
    /**
     * Longest a request for new work (a begin, a call) is held while its partition's live move
     * settles: at the origin during the pause (then it is served here, or answered NOT_OWNER with
     * the next owner), at the destination while a complete copy waits for the master's open.
     */
    static final long ADMISSION_HOLD_MS = 1_000;
    /** Most requests held at once: most of the worker threads stay free for the move's own requests. */
    static final int ADMISSION_HELD_MAX = 16;
    /** How long NOT_OWNER answers name the OTM a partition was handed over to (the catalog says it by then). */
    static final long MOVED_HINT_MS = 10_000;

    /**
     * A partition a live move is copying here: opened from the DFS, filled with the origin's
     * commits (logged in this OTM's log first), not served until the master opens it here. Guarded
     * by itself.
     */
    private static final class Incoming {
        final DatabaseSchema schema;
        final KeyRange range;
        final long partitionId;
        final List<Object> startKey;
        final List<Object> endKey;
        final String fromOtm;
        final PartitionStore store;
        long batches;
        /** The manifest the copy wrote when it began (naming the origin's log and this OTM's). */
        Manifest begun;
        /**
         * Set (under this copy's lock) once the origin stopped committing and every batch arrived.
         * Volatile so that {@link #settling} reads it without this lock: it runs under the admission
         * monitor, and closing a copy notifies that monitor while holding this lock.
         */
        volatile boolean complete;
        volatile long touchedNanos = System.nanoTime();
        /**
         * Completes once this OTM's log synced the last versions, which were applied before it
         * (see {@link #ship(ShipVersionsRequest, boolean)}); null if no batch was applied so.
         */
        volatile CompletableFuture<Void> lastVersionsSynced;

        Incoming(DatabaseSchema schema, KeyRange range, long partitionId, List<Object> startKey, List<Object> endKey,
                String fromOtm, PartitionStore store) {
            this.schema = schema;
            this.range = range;
            this.partitionId = partitionId;
            this.startKey = startKey;
            this.endKey = endKey;
            this.fromOtm = fromOtm;
            this.store = store;
        }
    }

    /** Where a live move handed a partition over to, and when ({@link System#nanoTime}). */
    private record MovedAway(MoveDestination to, long atNanos) {
    }

    /** One served partition. */
    record Served(PartitionDescriptor descriptor, TableAccess access, PartitionStore store, List<Object> startKey,
            List<Object> endKey) {
    }

    private final String otmId;
    /** This OTM's own log (this run's), as partition manifests name it in their replay points. */
    private final String walId;
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
    private final MoveFaults moveFaults = new MoveFaults();

    private final Map<String, DatabaseSchema> databases = new ConcurrentHashMap<>();
    private final Map<Long, Served> served = new ConcurrentHashMap<>();
    /** Partitions being copied here by live moves. */
    private final Map<Long, Incoming> incoming = new ConcurrentHashMap<>();
    /**
     * Partitions this OTM no longer serves (or holds as a complete copy it closed) whose manifest
     * may still name this OTM's log -> their directory: their log retention is kept until the
     * manifest no longer does (checked when segments are deleted).
     */
    private final Map<Long, String> handedOff = new ConcurrentHashMap<>();
    /** Partitions whose live move out is in its pause here: new work waits for the outcome. */
    private final Set<Long> pausing = ConcurrentHashMap.newKeySet();
    /** Partitions handed over by a live move -> where to, and when (for NOT_OWNER's hint). */
    private final Map<Long, MovedAway> movedAway = new ConcurrentHashMap<>();
    /** Notified whenever a partition's admission may have changed (served, paused, handed over, copy dropped). */
    private final Object admission = new Object();
    private final Semaphore admissionHolds = new Semaphore(ADMISSION_HELD_MAX);
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
        this.walId = unapplied.walId();
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

    /** Where a run of an OTM (its wal id) warms its partition open path on scratch data; its own, deleted after use. */
    static String warmupDirectory(String walId) {
        return Dfs.join("warmup", walId);
    }

    /**
     * Runs the partition open path once on scratch data ({@link StoreWarmup}), then the open and
     * close above the store and the destination's side of a live move on a scratch partition, so
     * that the first partition opened or received here (often the first one moved into a freshly
     * started OTM) runs on warm code. A failure only costs that speed: it is logged and the OTM
     * starts anyway.
     *
     * @return the shipped versions the warm-up's live copies served (read back from each copy once
     *     it served), 0 if the warm-up failed
     */
    int warmUp() {
        long started = System.nanoTime();
        try {
            int versions = StoreWarmup.run(dfs, warmupDirectory(walId), environment);
            long storeWarm = System.nanoTime();
            long[] opened = new long[1];
            int copied = warmUpPartitionPaths(opened);
            long done = System.nanoTime();
            LOG.info(() -> "warmed the partition open path in " + (done - started) / 1_000_000 + " ms (the store on "
                    + versions + " scratch versions " + (storeWarm - started) / 1_000_000 + " ms, then "
                    + WARMUP_ROUNDS + " opens and closes of a scratch partition " + (opened[0] - storeWarm) / 1_000_000
                    + " ms and " + WARMUP_ROUNDS + " live copies of it received and served, " + copied
                    + " versions shipped, " + (done - opened[0]) / 1_000_000 + " ms)");
            return copied;
        } catch (IOException | RuntimeException e) {
            LOG.log(Level.WARNING, "warming the partition open path failed; the first open here will be slower", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            LOG.warning("interrupted while warming the partition open path");
        }
        return 0;
    }

    /**
     * The rest of the open path, above the store: a scratch database of this OTM's own, registered
     * only meanwhile, whose one partition (in this OTM's warm-up directory) is opened and closed as
     * a move opens and closes one: table access, recovery, the transaction manager's slot, serving,
     * the drain and the hand-over's flush. On a cold JVM under load these took 50-70 ms of a first
     * open's 120 ms (BENCHMARKS.md, "First moves into a new OTM"). Then live copies of the same
     * partition ({@link #warmUpLiveCopy}). REQUIRES: no lease yet (nothing else is opened here, and
     * no client knows this OTM).
     *
     * @param opened set to when the opens and closes were done ({@link System#nanoTime})
     * @return the shipped versions the live copies served
     */
    private int warmUpPartitionPaths(long[] opened) throws IOException, InterruptedException {
        DatabaseSchema schema = DatabaseSchema.tree(WARMUP_DATABASE)
                .root("SCRATCH", t -> t.column("ID", ColumnType.BIGINT).column("NAME", ColumnType.varchar(32)).key("ID"))
                .child("SCRATCH_LINE", t -> t.column("ID", ColumnType.BIGINT).column("LINE", ColumnType.INT)
                        .column("AMOUNT", ColumnType.decimal(12, 2)).key("ID", "LINE"))
                .build();
        String name = Names.canonical(WARMUP_DATABASE);
        String directory = Dfs.join(warmupDirectory(walId), "partition");
        if (databases.putIfAbsent(name, schema) != null) {
            throw new IllegalStateException("database " + WARMUP_DATABASE + " is registered already; no warm-up");
        }
        List<Object> startKey = List.of(0L);
        List<Object> endKey = List.of(1_000L);
        KeyRange range = range(schema, startKey, endKey);
        hostLock.readLock().lock();
        try {
            dfs.delete(directory);
            for (int round = 0; round < WARMUP_ROUNDS; round++) {
                openLocked(schema, range, WARMUP_PARTITION_ID, startKey, endKey, directory, System.nanoTime());
                closeLocked(WARMUP_PARTITION_ID, false);
            }
            opened[0] = System.nanoTime();
            int copied = 0;
            for (int round = 0; round < WARMUP_ROUNDS; round++) {
                copied += warmUpLiveCopy(schema, range, startKey, endKey, directory, round);
            }
            return copied;
        } finally {
            Incoming left = incoming.remove(WARMUP_PARTITION_ID);
            if (left != null) {
                left.store.close();
            }
            hostLock.readLock().unlock();
            databases.remove(name, schema);
            retention.release(WARMUP_PARTITION_ID);
            handedOff.remove(WARMUP_PARTITION_ID);
            dfs.delete(directory);
        }
    }

    /**
     * The destination's side of a live move, on the scratch partition: its copy received (opened
     * from the DFS), filled with two batches of made-up commits (logged in this OTM's log as a
     * move's are, under the scratch partition's id, which no catalog allocates and so no recovery
     * replays), finished with its last commits and a catalog write that finds no catalog, then
     * opened from the copy as the master would, read back and closed. The first live move into a
     * freshly started OTM ran all of this cold inside the move's pause: 40-85 ms, against 20-29 ms
     * from a run's third move on (BENCHMARKS.md, session 31). REQUIRES: as {@link
     * #warmUpPartitionPaths}, the host lock, and the scratch partition on the DFS, not served.
     *
     * @return the shipped versions read back from the served copy
     */
    private int warmUpLiveCopy(DatabaseSchema schema, KeyRange range, List<Object> startKey, List<Object> endKey,
            String directory, int round) throws IOException, InterruptedException {
        long id = WARMUP_PARTITION_ID;
        long sequence = PartitionStore.readManifest(dfs, directory).sequence();
        receive(schema, new ReceivePartitionRequest(schema.name(), id, startKey, endKey, WARMUP_ORIGIN, sequence), directory);
        Incoming in = incoming(id);
        List<List<ShippedCommit>> batches = new ArrayList<>(WARMUP_COPY_BATCHES);
        for (int b = 0; b < WARMUP_COPY_BATCHES; b++) {
            batches.add(warmUpCommits(round, b));
        }
        for (int b = 0; b < WARMUP_COPY_BATCHES - 1; b++) {
            ship(new ShipVersionsRequest(id, b + 1, batches.get(b)), true);
        }
        CatalogHandOver nowhere = new CatalogHandOver(WARMUP_ORIGIN, 1, WARMUP_DATABASE, id, List.of((long) round));
        FinishIncomingResponse finished = finishIncoming(new FinishIncomingRequest(id, WARMUP_COPY_BATCHES,
                batches.get(WARMUP_COPY_BATCHES - 1), nowhere), () -> {
                    throw new IllegalStateException("the warm-up has no catalog to write");
                });
        if (finished.handOver() == null || finished.handOver().recorded()) {
            throw new IllegalStateException("the warm-up's catalog write to nowhere was not refused: " + finished.handOver());
        }
        openLocked(schema, range, id, startKey, endKey, directory, System.nanoTime());
        Served s = served.get(id);
        if (s == null || s.store() != in.store) {
            throw new IllegalStateException("the warm-up's live copy of its scratch partition was not the one served");
        }
        int read = 0;
        for (List<ShippedCommit> batch : batches) {
            for (ShippedCommit c : batch) {
                for (int k = 0; k < c.keys().size(); k++) {
                    if (!Arrays.equals(c.values().get(k), s.store().get(c.keys().get(k), Long.MAX_VALUE))) {
                        throw new IllegalStateException("the warm-up's live copy lost a shipped version");
                    }
                    read++;
                }
            }
        }
        closeLocked(id, false);
        return read;
    }

    /** Batch {@code batch} of a warm-up copy: each round writes the same keys, at timestamps above the last round's. */
    private static List<ShippedCommit> warmUpCommits(int round, int batch) {
        List<ShippedCommit> commits = new ArrayList<>(WARMUP_COPY_COMMITS);
        for (int c = 0; c < WARMUP_COPY_COMMITS; c++) {
            List<byte[]> keys = new ArrayList<>(WARMUP_COPY_KEYS);
            List<byte[]> values = new ArrayList<>(WARMUP_COPY_KEYS);
            for (int k = 0; k < WARMUP_COPY_KEYS; k++) {
                keys.add(String.format("warm-up/%d/%d/%d", batch, c, k).getBytes(StandardCharsets.US_ASCII));
                byte[] value = new byte[40];
                value[0] = (byte) round;
                value[1] = (byte) batch;
                value[2] = (byte) c;
                value[3] = (byte) k;
                values.add(value);
            }
            long cts = 1 + round * (long) WARMUP_COPY_BATCHES * WARMUP_COPY_COMMITS + batch * (long) WARMUP_COPY_COMMITS + c;
            commits.add(new ShippedCommit(cts, keys, values));
        }
        return commits;
    }

    /** The directory recovery reads the log {@code log} from: the fenced one once the master moved it. */
    private String recoveryWalDirectory(String log) {
        try {
            return WalNames.recoveryDirectory(dfs, log);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot check whether the log " + log + " was fenced", e);
        }
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
        long requested = System.nanoTime();
        hostLock.readLock().lock();
        try {
            openLocked(schema, range, partitionId, startKey, endKey, PartitionDirectories.of(schema.name(), partitionId), requested);
        } finally {
            hostLock.readLock().unlock();
        }
    }

    /** @param requestedNanos when the open was asked for, before the host lock (for the log) */
    private void openLocked(DatabaseSchema schema, KeyRange range, long partitionId, List<Object> startKey,
            List<Object> endKey, String directory, long requestedNanos) throws IOException {
        long lifecycleRequested = System.nanoTime();
        synchronized (lifecycle(partitionId)) {
            Served existing = served.get(partitionId);
            if (existing != null) {
                if (!Names.same(existing.descriptor().database(), schema.name())) {
                    throw new ElasTrasException(ErrorCode.MALFORMED_REQUEST, "partition " + partitionId
                            + " is already served here for database " + existing.descriptor().database());
                }
                return;
            }
            long started = System.nanoTime();
            PartitionDescriptor descriptor = new PartitionDescriptor(schema.name(), new PartitionId(partitionId), range, 0);
            TableAccess access = new TableAccess(schema, descriptor, globals);
            long accessBuilt = System.nanoTime();
            long[] before = {lifecycleRequested - requestedNanos, started - lifecycleRequested, accessBuilt - started};
            if (activateCopy(schema, descriptor, access, partitionId, startKey, endKey, before)) {
                return;
            }
            PartitionStore store = PartitionStore.open(dfs, directory, storeOptions, environment);
            long storeOpened = System.nanoTime();
            try {
                InDoubtReplay inDoubt = new InDoubtReplay(partitionId);
                WalPosition ownToReplay = store.manifest().replayPoints().get(walId);
                if (ownToReplay != null) {
                    // Replay reads this OTM's own log from there: keep a concurrent close or flush
                    // of another partition from deleting those segments meanwhile. Never past what
                    // finishRecovery records below (the older of this and the oldest unapplied
                    // commit, which only moves forward), so the retention only moves forward.
                    retention.retain(partitionId, WalPosition.min(ownToReplay, unapplied.replayPoint()));
                }
                PartitionRecovery.Result replayed = PartitionRecovery.replay(store, partitionId, dfs,
                        this::recoveryWalDirectory, inDoubt);
                long replayDone = System.nanoTime();
                // New commits must order after every recovered one, and transactions must read at a
                // snapshot that includes them all.
                // (A partition that never committed anything needs neither: every CTS is above 0.)
                long recoveredCts = Math.max(0, store.maxCts());
                if (recoveredCts > 0 && !awaitTimestamps(partitionId, recoveredCts, "recovered")) {
                    throw new ElasTrasException(ErrorCode.OVERLOADED, "partition " + partitionId + " was recovered up to CTS "
                            + recoveredCts + " but no commit timestamp above it arrived within " + OPEN_TIMESTAMP_WAIT_MS
                            + " ms (is the master reachable?); open it again");
                }
                long timestampsDone = System.nanoTime();
                store.finishRecovery(unapplied);
                WalPosition own = store.manifest().replayPoints().get(walId);
                retention.retain(partitionId, own == null ? wal.endPosition() : own);
                transactions.addPartition(partitionId, store, inDoubt.inDoubt(store));
                serve(partitionId, new Served(descriptor, access, store, startKey, endKey));
                long done = System.nanoTime();
                LOG.info(() -> "opened partition " + partitionId + " of " + schema.name() + " in "
                        + (done - started) / 1_000_000 + " ms (table access " + (accessBuilt - started) / 1_000_000
                        + " ms, store and tables " + (storeOpened - accessBuilt) / 1_000_000
                        + " ms, replay " + (replayDone - storeOpened) / 1_000_000 + " ms, timestamps "
                        + (timestampsDone - replayDone) / 1_000_000 + " ms, recovery record and serve "
                        + (done - timestampsDone) / 1_000_000 + " ms); replayed " + replayed.versionsApplied()
                        + " versions from " + replayed.logsRead() + " logs");
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
     * An open's timestamp conditions: new commits here order after {@code cts} (a range above it)
     * and every CTS up to it finished (the snapshot includes the partition's versions). Logs where
     * the time went when they took over a second: the snapshot waits for every CTS below, the
     * whole cluster's, so a slow open here tells of a commit timestamp left unfinished elsewhere.
     *
     * @return false if either wait timed out
     */
    private boolean awaitTimestamps(long partitionId, long cts, String how) throws InterruptedException {
        if (partitionId == WARMUP_PARTITION_ID) {
            // The warm-up's live copies carry timestamps of its own, made up before this OTM has
            // a range (nor does it need one: nothing but the warm-up reads them).
            return true;
        }
        long started = System.nanoTime();
        boolean lifted = timestamps.liftAbove(cts, OPEN_TIMESTAMP_WAIT_MS);
        long liftedAt = System.nanoTime();
        boolean finished = lifted && snapshots.awaitFinished(cts, OPEN_TIMESTAMP_WAIT_MS);
        long done = System.nanoTime();
        if (done - started > 1_000_000_000L || !finished) {
            long snapshot = snapshots.snapshot();
            int pending = snapshots.pendingRanges();
            LOG.warning(() -> "partition " + partitionId + " (" + how + " up to CTS " + cts + "): a commit timestamp above it"
                    + (lifted ? " came in " : " did not come in ") + (liftedAt - started) / 1_000_000 + " ms, then every CTS"
                    + " up to it" + (finished ? " finished in " : " had not finished after ") + (done - liftedAt) / 1_000_000
                    + " ms; this OTM's snapshot is " + snapshot + ", " + pending + " finished ranges wait behind a gap");
        }
        return finished;
    }

    /**
     * Stops serving a partition: drains its commits, flushes, leaves a manifest needing no log. A
     * memtable of at least {@link #PRE_FLUSH_BYTES_MIN} is flushed first while the partition still
     * serves (again if as much came in meanwhile, up to {@link #PRE_FLUSH_ROUNDS_MAX} times), so
     * that only what came in meanwhile is flushed while it serves nobody.
     *
     * @return when it stopped admitting and where the time went
     */
    CloseReport close(long partitionId) throws IOException, InterruptedException {
        hostLock.readLock().lock();
        try {
            return closeLocked(partitionId, true);
        } finally {
            hostLock.readLock().unlock();
        }
    }

    /**
     * @param deleteSegments whether to delete the log segments no partition needs any more (the
     *     warm-up's scratch partition never does: before the lease, an old log of this OTM's id
     *     may still be waiting for the master to recover it)
     */
    private CloseReport closeLocked(long partitionId, boolean deleteSegments) throws IOException, InterruptedException {
        synchronized (lifecycle(partitionId)) {
            Served s = served.get(partitionId);
            if (s == null) {
                throw notServed(partitionId);
            }
            long preFlushStarted = System.nanoTime();
            long firstMemtableBytes = s.store().stats().memtableBytes();
            long memtableBytes = firstMemtableBytes;
            int preFlushes = 0;
            while (memtableBytes >= PRE_FLUSH_BYTES_MIN && preFlushes < PRE_FLUSH_ROUNDS_MAX && s.store().flush()) {
                preFlushes++;
                memtableBytes = s.store().stats().memtableBytes();
            }
            long finalBytes = memtableBytes;
            int rounds = preFlushes;
            long started = System.nanoTime();
            long stoppedAtEpochMs = System.currentTimeMillis();
            transactions.removePartition(partitionId, drainTimeoutMs);
            served.remove(partitionId);
            long drained = System.nanoTime();
            s.store().closeAfterFlush();
            long flushed = System.nanoTime();
            retention.release(partitionId);
            if (deleteSegments) {
                deleteObsoleteSegments();
            }
            long done = System.nanoTime();
            LOG.info(() -> "closed partition " + partitionId + " in " + (done - preFlushStarted) / 1_000_000
                    + " ms: memtable " + firstMemtableBytes + " bytes, flushed while serving in "
                    + (started - preFlushStarted) / 1_000_000 + " ms (" + rounds + " flushes, " + finalBytes
                    + " bytes left), then served nobody for " + (done - started) / 1_000_000 + " ms (drain "
                    + (drained - started) / 1_000_000 + " ms, flush and manifest " + (flushed - drained) / 1_000_000
                    + " ms, log segments " + (done - flushed) / 1_000_000 + " ms)");
            return new CloseReport((started - preFlushStarted) / 1_000_000, stoppedAtEpochMs, (done - started) / 1_000_000);
        }
    }

    // ---------------------------------------------------------------- live moves, origin side

    /**
     * Moves a partition live to {@code destinationId} (its client {@code destination}) and stops
     * serving it here. While the partition still serves: every version applied from now on is
     * mirrored to an outbox; the memtable is flushed and maintenance paused (so the manifest and
     * tables the destination opens stay as they are); the destination opens the tables and is
     * sent the outbox in batches until little is left. Then the pause: new transactions are
     * refused (clients retry at the next owner), open ones get {@link #LIVE_GRACE_MS} to end and
     * the rest are aborted, commits in flight finish, and the last versions go with the finish
     * ({@link #finishIncoming} there): from then on the destination holds everything and this OTM
     * nothing. The finish carries the master's {@code handOver}: the destination makes that catalog
     * write while it logs the last versions and, if the row swapped, serves at once; what it did not
     * do, the master does.
     *
     * <p>Failures: before the pause, the move is given up and the partition serves on here; after
     * the pause began but before the hand-over was asked for, it serves on here too (from memory:
     * nothing else wrote its manifest); if the hand-over's answer is lost, whether the destination
     * completed is unknown, so the partition is closed here without a manifest and must be opened
     * from the DFS (the latest manifest tells which log holds its last commits).
     */
    ClosePartitionResponse moveOut(long partitionId, MoveDestination to, OtmClient destination,
            CatalogHandOver handOver) throws IOException, InterruptedException {
        hostLock.readLock().lock();
        try {
            synchronized (lifecycle(partitionId)) {
                try {
                    return moveOutLocked(served(partitionId), to, destination, handOver);
                } finally {
                    if (pausing.remove(partitionId)) {
                        admissionChanged();
                    }
                }
            }
        } finally {
            hostLock.readLock().unlock();
        }
    }

    private ClosePartitionResponse moveOutLocked(Served s, MoveDestination to, OtmClient destination,
            CatalogHandOver handOver) throws IOException, InterruptedException {
        String destinationId = to.otmId();
        long partitionId = s.descriptor().id().value();
        LiveMoveOutbox outbox = new LiveMoveOutbox(LIVE_OUTBOX_BYTES_MAX);
        long started = System.nanoTime();
        if (!transactions.mirror(partitionId, outbox)) {
            throw notServed(partitionId);
        }
        boolean removed = false;
        boolean finishSent = false;
        long[] batches = {0};
        try {
            long memtableBytes = s.store().stats().memtableBytes();
            long cpuBefore = THREADS.getCurrentThreadCpuTime();
            s.store().flush();
            s.store().pauseMaintenance();
            long flushed = System.nanoTime();
            long flushCpuMs = (THREADS.getCurrentThreadCpuTime() - cpuBefore) / 1_000_000;
            // Naming the catalog holder lets the destination connect to it now, not in the pause.
            var receive = new ReceivePartitionRequest(s.descriptor().database(), partitionId,
                    s.startKey(), s.endKey(), otmId, s.store().manifest().sequence(),
                    handOver == null ? null : handOver.host(), handOver == null ? 0 : handOver.port());
            try {
                destination.receivePartition(receive);
            } catch (ElasTrasException e) {
                if (e.code() != ErrorCode.UNKNOWN_DATABASE) {
                    throw e;
                }
                // The destination never served this database: give it the schema, as an open would.
                destination.registerDatabase(new RegisterDatabaseRequest(
                        SchemaSpec.of(database(s.descriptor().database()))));
                destination.receivePartition(receive);
            }
            long opened = System.nanoTime();
            boolean forced = false;
            long catchUpDeadline = started + TimeUnit.MILLISECONDS.toNanos(LIVE_CATCH_UP_MS);
            while (true) {
                int shipped = shipSome(partitionId, outbox, destination, batches, 5);
                if (outbox.backlogBytes() < LIVE_PAUSE_BACKLOG_BYTES && shipped < LIVE_BATCH_BYTES) {
                    break;
                }
                if (System.nanoTime() >= catchUpDeadline) {
                    forced = true;
                    break;
                }
            }
            moveFaults.at(MoveFaults.Step.BEFORE_PAUSE);
            long pausedAtMs = System.currentTimeMillis();
            long paused = System.nanoTime();
            pausing.add(partitionId); // new work waits for the outcome (admit)
            TransactionManager.Stopped stopped = transactions.stopAdmitting(partitionId, LIVE_GRACE_MS, LIVE_BRANCH_GRACE_MS);
            long graced = System.nanoTime();
            moveFaults.at(MoveFaults.Step.IN_PAUSE);
            try {
                transactions.removePartition(partitionId, drainTimeoutMs);
            } catch (IllegalStateException e) {
                transactions.resumeAdmitting(partitionId);
                throw e;
            }
            served.remove(partitionId);
            removed = true;
            long drained = System.nanoTime();
            // Nothing commits here any more: what the pause left unshipped goes with the finish,
            // and so does the catalog write, which the destination makes while it logs the rest.
            List<ShippedCommit> last = take(partitionId, outbox, 0);
            while (!last.isEmpty() && outbox.backlogBytes() > 0) {
                ship(partitionId, destination, batches, last);
                last = take(partitionId, outbox, 0);
            }
            if (!last.isEmpty()) {
                batches[0]++;
            }
            long shipped = System.nanoTime();
            finishSent = true;
            FinishIncomingResponse finished = destination.finishIncoming(
                    new FinishIncomingRequest(partitionId, batches[0], last, handOver));
            long handedOver = System.nanoTime();
            long handedOverAtMs = System.currentTimeMillis();
            movedAway.put(partitionId, new MovedAway(to, handedOver));
            pausing.remove(partitionId);
            admissionChanged();
            HandOverOutcome outcome = passedOn(finished.handOver(), handOver != null, handedOverAtMs);
            String phases = "grace " + (graced - paused) / 1_000_000 + " ms (" + stopped.describe() + "), drain "
                    + (drained - graced) / 1_000_000 + " ms, last versions " + (shipped - drained) / 1_000_000
                    + " ms, hand-over " + (handedOver - shipped) / 1_000_000 + " ms (" + finished.handledMs()
                    + " ms of it in the destination's handler)";
            moveFaults.at(MoveFaults.Step.AFTER_HAND_OVER);
            s.store().close();
            // The manifest names this OTM's log until the destination's first flush.
            handedOff.put(partitionId, s.store().directory());
            long copyMs = (paused - started) / 1_000_000;
            String copyPhases = "flush of " + memtableBytes / 1024 + " KiB " + (flushed - started) / 1_000_000
                    + " ms (" + flushCpuMs + " ms of CPU), destination's open " + (opened - flushed) / 1_000_000 + " ms, catch-up "
                    + (paused - opened) / 1_000_000 + " ms";
            long pausedMs = (handedOver - paused) / 1_000_000;
            boolean wasForced = forced;
            LOG.info(() -> "handed partition " + partitionId + " over to " + destinationId + " live: copied for " + copyMs
                    + " ms (" + copyPhases + "), paused " + pausedMs + " ms (" + phases + "), " + outbox.commits() + " commits shipped in "
                    + batches[0] + " batches"
                    + (wasForced ? "; FORCED: the copy had not caught up within " + LIVE_CATCH_UP_MS + " ms" : "")
                    + (outcome == null ? "" : outcome.serving() ? "; it recorded itself in "
                            + outcome.recordMs() + " ms and serves, " + (outcome.servingAtEpochMs() - pausedAtMs)
                            + " ms after the pause began" : "; " + outcome.detail()));
            return new ClosePartitionResponse(new LiveMoveReport(copyMs, pausedMs, pausedAtMs, outbox.commits(),
                    outbox.versions(), batches[0], forced, phases), outcome);
        } catch (IOException | RuntimeException | InterruptedException e) {
            transactions.unmirror(partitionId, outbox);
            if (!removed) {
                transactions.resumeAdmitting(partitionId);
                resumeMaintenance(s.store(), e);
                dropCopyAt(destination, partitionId);
                LOG.warning(() -> "live move of partition " + partitionId + " to " + destinationId
                        + " given up before its pause; it serves on here: " + e);
            } else if (!finishSent) {
                // Nothing but this OTM wrote the partition's manifest: serve on from memory.
                transactions.addPartition(partitionId, s.store());
                serve(partitionId, s);
                resumeMaintenance(s.store(), e);
                dropCopyAt(destination, partitionId);
                LOG.warning(() -> "live move of partition " + partitionId + " to " + destinationId
                        + " failed during its pause; it serves on here: " + e);
            } else {
                // The destination may or may not have written its manifest, or the catalog may name
                // it already: only the DFS and the catalog can tell.
                s.store().close();
                handedOff.put(partitionId, s.store().directory());
                LOG.warning(() -> "live move of partition " + partitionId + " to " + destinationId
                        + ": the hand-over's answer was lost; closed here, to be opened from the DFS: " + e);
            }
            throw e;
        }
    }

    private static void resumeMaintenance(PartitionStore store, Exception cause) {
        try {
            store.resumeMaintenance();
        } catch (IOException io) {
            cause.addSuppressed(io);
            LOG.log(Level.WARNING, "resuming flushes of " + store.directory() + " after a live move"
                    + " could not read its manifest; the next flush may fail once and be retried", io);
        }
    }

    /**
     * Ships what the outbox holds (waiting up to {@code waitMs} for a first commit) in batches.
     *
     * @return the bytes shipped, about
     */
    private int shipSome(long partitionId, LiveMoveOutbox outbox, OtmClient destination,
            long[] batches, long waitMs) throws InterruptedException {
        long before = outbox.backlogBytes();
        List<ShippedCommit> batch = take(partitionId, outbox, waitMs);
        if (batch.isEmpty()) {
            return 0;
        }
        ship(partitionId, destination, batches, batch);
        return (int) Math.max(1, before - outbox.backlogBytes());
    }

    /** The outbox's next batch (waiting up to {@code waitMs} for a first commit); empty if none. */
    private static List<ShippedCommit> take(long partitionId, LiveMoveOutbox outbox, long waitMs)
            throws InterruptedException {
        List<ShippedCommit> batch = outbox.take(LIVE_BATCH_BYTES, ShipVersionsRequest.COMMITS_MAX, waitMs);
        if (outbox.overflowed()) {
            throw new ElasTrasException(ErrorCode.OVERLOADED, "the live move of partition " + partitionId + " fell more than "
                    + LIVE_OUTBOX_BYTES_MAX + " bytes behind its commits; given up");
        }
        return batch;
    }

    private static void ship(long partitionId, OtmClient destination, long[] batches, List<ShippedCommit> batch) {
        batches[0]++;
        destination.shipVersions(new ShipVersionsRequest(partitionId, batches[0], batch));
    }

    private void dropCopyAt(OtmClient destination, long partitionId) {
        try {
            destination.dropIncoming(new DropIncomingRequest(partitionId));
        } catch (RuntimeException e) {
            LOG.fine(() -> "could not tell the destination to drop its copy of partition " + partitionId
                    + " (it drops it after " + INCOMING_IDLE_MS + " ms idle): " + e);
        }
    }

    // ---------------------------------------------------------------- live moves, destination side

    /** Opens a copy of a partition that a live move will fill (see {@link #moveOut}). */
    void receive(ReceivePartitionRequest r) throws IOException {
        DatabaseSchema schema = database(r.database());
        receive(schema, r, PartitionDirectories.of(schema.name(), r.partitionId()));
    }

    /** @param directory where the partition's files are */
    private void receive(DatabaseSchema schema, ReceivePartitionRequest r, String directory) throws IOException {
        KeyRange range = range(schema, r.startKey(), r.endKey());
        long partitionId = r.partitionId();
        hostLock.readLock().lock();
        try {
            synchronized (lifecycle(partitionId)) {
                if (served.containsKey(partitionId)) {
                    throw new ElasTrasException(ErrorCode.MALFORMED_REQUEST, "partition " + partitionId
                            + " is served here already; it cannot be received");
                }
                Incoming stale = incoming.remove(partitionId);
                if (stale != null) {
                    closeCopy(stale);
                }
                if (incoming.size() >= INCOMING_MAX) {
                    throw new ElasTrasException(ErrorCode.OVERLOADED, "this OTM receives " + INCOMING_MAX
                            + " partitions already; retry the move later");
                }
                PartitionStore store = PartitionStore.open(dfs, directory, storeOptions, environment);
                if (store.manifest().sequence() != r.manifestSequence()) {
                    long found = store.manifest().sequence();
                    store.close();
                    throw new ElasTrasException(ErrorCode.CONFLICT, "partition " + partitionId + " has manifest " + found
                            + " on the DFS, not " + r.manifestSequence() + " as its origin " + r.fromOtm() + " says");
                }
                Incoming in = new Incoming(schema, range, partitionId, r.startKey(), r.endKey(), r.fromOtm(), store);
                try {
                    in.begun = store.beginLiveCopy(unapplied);
                } catch (IllegalStateException e) {
                    store.close();
                    throw new ElasTrasException(ErrorCode.CONFLICT, e.getMessage());
                } catch (IOException | RuntimeException e) {
                    store.close();
                    throw e;
                }
                // The manifest names this OTM's log from here: keep it until the manifest does not.
                retention.retain(partitionId, in.begun.replayPoints().get(walId));
                incoming.put(partitionId, in);
            }
        } finally {
            hostLock.readLock().unlock();
        }
    }

    private Incoming incoming(long partitionId) {
        Incoming in = incoming.get(partitionId);
        if (in == null) {
            throw new ElasTrasException(ErrorCode.NOT_OWNER, "OTM " + otmId + " is not receiving partition " + partitionId
                    + " (the copy was dropped or never opened); start the move again");
        }
        return in;
    }

    /**
     * Logs shipped commits in this OTM's log (one record each, one sync for all) and applies them
     * to the copy. Batches come in order; a batch sent again (its answer was lost) is applied again,
     * which changes nothing.
     *
     * @return how many versions were new to the copy
     */
    long ship(ShipVersionsRequest r) {
        return ship(r, true);
    }

    /**
     * Logs and applies shipped commits as {@link #ship(ShipVersionsRequest)}; without {@code
     * awaitLog}, applies them before their records are synced here, under a log position at or
     * before theirs, and keeps them unapplied for this OTM's log (no manifest's replay point passes
     * them) until the sync. For the origin's last versions, committed durably in its log, which the
     * partition's manifest names until this OTM's first flush: the copy may serve them at once, and
     * a commit here that follows them is synced after them.
     */
    private long ship(ShipVersionsRequest r, boolean awaitLog) {
        Incoming in = incoming(r.partitionId());
        synchronized (in) {
            if (in.complete) {
                throw new ElasTrasException(ErrorCode.MALFORMED_REQUEST, "the copy of partition " + r.partitionId()
                        + " is complete; it takes no more versions");
            }
            if (r.batch() > in.batches + 1) {
                throw new ElasTrasException(ErrorCode.MALFORMED_REQUEST, "batch " + r.batch() + " of partition "
                        + r.partitionId() + " came after batch " + in.batches + ": one is missing");
            }
            in.touchedNanos = System.nanoTime();
            List<WalRecord> records = new ArrayList<>(r.commits().size());
            List<List<Version>> versions = new ArrayList<>(r.commits().size());
            for (ShippedCommit c : r.commits()) {
                List<WalRecord.Mutation> mutations = new ArrayList<>(c.keys().size());
                List<Version> vs = new ArrayList<>(c.keys().size());
                for (int i = 0; i < c.keys().size(); i++) {
                    byte[] key = c.keys().get(i);
                    byte[] value = c.values().get(i);
                    try {
                        storeOptions.limits().checkKey(key);
                        storeOptions.limits().checkValue(value);
                    } catch (LimitExceededException e) {
                        throw new ElasTrasException(ErrorCode.LIMIT_EXCEEDED, "a shipped version of partition "
                                + r.partitionId() + " is over the store's limits: " + e.getMessage());
                    }
                    mutations.add(new WalRecord.Mutation(r.partitionId(), key, value));
                    vs.add(value == null ? Version.tombstone(key, c.cts())
                            : new Version(key, c.cts(), value));
                }
                records.add(new WalRecord(c.cts(), mutations));
                versions.add(vs);
            }
            List<UnappliedCommits.Ticket> tickets = new ArrayList<>(records.size());
            boolean ticketsHandedOn = false;
            try {
                for (int i = 0; i < records.size(); i++) {
                    tickets.add(unapplied.begin());
                }
                WalPosition notAfter = wal.endPosition();
                List<CompletableFuture<WalPosition>> logged = wal.appendAll(records);
                long added = 0;
                if (awaitLog) {
                    for (int i = 0; i < records.size(); i++) {
                        WalPosition position = logged.get(i).join();
                        added += in.store.apply(walId, position, versions.get(i));
                    }
                } else {
                    for (List<Version> vs : versions) {
                        added += in.store.apply(walId, notAfter, vs);
                    }
                }
                // The tickets close once the records are both applied and synced (at once when the
                // log was awaited). One path for both: the copy's batches run, off the pause, the
                // code the last versions run inside it (its first run links and deoptimizes).
                ticketsHandedOn = true;
                CompletableFuture<Void> synced = CompletableFuture.allOf(logged.toArray(CompletableFuture[]::new));
                if (!awaitLog) {
                    in.lastVersionsSynced = synced;
                }
                synced.whenComplete((ok, failed) -> {
                    tickets.forEach(UnappliedCommits.Ticket::close);
                    if (failed != null) {
                        LOG.warning(() -> "the last versions of partition " + r.partitionId() + " were not synced in this"
                                + " OTM's log (the origin's log, which the manifest names, holds them): " + failed);
                    }
                });
                in.batches = Math.max(in.batches, r.batch());
                return added;
            } catch (CompletionException e) {
                throw new ElasTrasException(ErrorCode.INTERNAL, "could not log the shipped versions of partition "
                        + r.partitionId() + ": " + e.getCause());
            } finally {
                if (!ticketsHandedOn) {
                    for (UnappliedCommits.Ticket t : tickets) {
                        t.close();
                    }
                }
            }
        }
    }

    /**
     * Completes a copy: the origin stopped committing; the request's last versions are applied
     * (and logged, without waiting for the sync: see {@link #ship(ShipVersionsRequest, boolean)}),
     * and every batch it shipped before arrived (each durable in this OTM's log, which the
     * partition's manifest names). With the master's catalog write ({@link
     * FinishIncomingRequest#handOver()}), makes it meanwhile and, if the row swapped, serves the
     * partition before answering; otherwise the copy serves once it is
     * opened here (by the master). A failure after the catalog write was sent leaves the copy
     * complete or not; the master's own write then learns whether this one landed, and an open here
     * serves the copy or, if it is not complete, recovers the partition from the DFS (whose
     * manifest names the origin's log too).
     *
     * @param catalogHolder the client of the OTM that serves the catalog partition the write goes to
     *     (unused without a hand-over)
     */
    FinishIncomingResponse finishIncoming(FinishIncomingRequest r, Supplier<OtmClient> catalogHolder) {
        long started = System.nanoTime();
        Incoming in = incoming(r.partitionId());
        long shippedBefore = r.lastCommits().isEmpty() ? r.batches() : r.batches() - 1;
        synchronized (in) {
            if (!in.complete && shippedBefore != in.batches) {
                throw new ElasTrasException(ErrorCode.MALFORMED_REQUEST, "partition " + r.partitionId() + ": the origin"
                        + " shipped " + shippedBefore + " batches before its last, " + in.batches + " arrived");
            }
        }
        // Nothing commits at the origin any more: the catalog may name this OTM while the last
        // versions are logged here (it serves only once both are done).
        CompletableFuture<Recorded> record = r.handOver() == null ? null
                : recordAsync(r.partitionId(), r.handOver(), catalogHolder);
        if (!r.lastCommits().isEmpty()) {
            ship(new ShipVersionsRequest(r.partitionId(), r.batches(), r.lastCommits()), false);
        }
        synchronized (in) {
            in.complete = true;
            in.touchedNanos = System.nanoTime();
        }
        // Serving the copy needs a commit timestamp above the copy's and every CTS up to it
        // finished here: ask for them now, so that the open finds them (it checks again). With a
        // catalog write in flight, wait for them meanwhile; else the open comes later anyway.
        long applied = System.nanoTime();
        long maxCts = Math.max(0, in.store.maxCts());
        try {
            if (record == null) {
                timestamps.liftAbove(maxCts, 0);
            } else {
                awaitTimestamps(r.partitionId(), maxCts, "received");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        long sequence = in.begun.sequence();
        long timestamped = System.nanoTime();
        HandOverOutcome outcome = record == null ? null : serveHandedOver(in, record);
        long done = System.nanoTime();
        infoInPause("finished the copy of partition " + r.partitionId() + " from " + in.fromOtm + " in "
                + (done - started) / 1_000_000 + " ms: " + r.lastCommits().size() + " last commits applied in "
                + (applied - started) / 1_000_000 + " ms, timestamps " + (timestamped - applied) / 1_000_000 + " ms"
                + (outcome == null ? "" : ", then the catalog write ("
                + outcome.recordMs() + " ms from its start) and " + (outcome.serving() ? "serving " + outcome.openMs() + " ms"
                : outcome.detail())));
        return new FinishIncomingResponse(sequence, outcome, (done - started) / 1_000_000);
    }

    /**
     * The destination's account of the hand-over's catalog write, as the origin passes it on: when
     * it serves, timed on this OTM's clock (the one the pause was timed with); null without a
     * hand-over.
     */
    private static HandOverOutcome passedOn(HandOverOutcome fromDestination, boolean handedOver, long answeredAtMs) {
        if (fromDestination == null) {
            return handedOver ? new HandOverOutcome(false, -1, false, -1, 0,
                    "the destination did not say what became of the catalog write") : null;
        }
        return fromDestination.serving() ? new HandOverOutcome(true, fromDestination.recordMs(), true,
                fromDestination.openMs(), answeredAtMs, null) : fromDestination;
    }

    /** What became of a live move's catalog write: whether the row swapped, how long it took, why not. */
    private record Recorded(boolean swapped, long ms, String detail) {
    }

    /**
     * Starts the master's catalog write of this OTM as a live move's destination (a compare-and-set
     * on the catalog partition that holds the record) on a thread of its own, so that it overlaps
     * the logging of the move's last versions. The result is never an exception.
     */
    private CompletableFuture<Recorded> recordAsync(long partitionId, CatalogHandOver h, Supplier<OtmClient> catalogHolder) {
        return CompletableFuture.supplyAsync(() -> {
            long started = System.nanoTime();
            try {
                PartitionRowSwap.Result result = PartitionRowSwap.Result.fromWire(catalogHolder.get().callAlone(
                        PartitionRowSwap.request(h.database(), h.partitionId(), h.swapArgs())).result());
                long ms = (System.nanoTime() - started) / 1_000_000;
                return result.outcome() == PartitionRowSwap.Outcome.SWAPPED ? new Recorded(true, ms, null)
                        : new Recorded(false, ms, "the catalog did not record the destination: " + result.outcome()
                                + (result.found() == null ? "" : " (the row holds epoch " + result.found().epoch() + " of "
                                + result.found().writer() + ")"));
            } catch (RuntimeException e) {
                return new Recorded(false, (System.nanoTime() - started) / 1_000_000,
                        "the catalog write failed or its answer was lost: " + e.getMessage());
            }
        }, task -> {
            // One short-lived thread per live move in: as many as the copies this OTM finishes at once.
            Thread t = new Thread(task, "live-move-record-" + partitionId);
            t.setDaemon(true);
            t.start();
        });
    }

    /**
     * Once the catalog names this OTM ({@link #recordAsync}), serves the complete copy. The
     * partition is then unavailable only for the origin's pause, the finish's trip and the longer
     * of the catalog write and the last versions' logging, not also for the close's answer reaching
     * the master and the master's own write and open. Never throws: the copy is complete whatever
     * happens here; the master finishes what this did not (its own catalog write learns whether
     * this one landed).
     */
    private HandOverOutcome serveHandedOver(Incoming in, CompletableFuture<Recorded> record) {
        Recorded r;
        try {
            r = record.get(OPEN_TIMESTAMP_WAIT_MS, TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return new HandOverOutcome(false, -1, false, -1, 0, "interrupted while the catalog write was in flight");
        } catch (ExecutionException | TimeoutException e) {
            return new HandOverOutcome(false, -1, false, -1, 0, "the catalog write did not finish: " + e);
        }
        if (!r.swapped()) {
            return new HandOverOutcome(false, r.ms(), false, -1, 0, r.detail());
        }
        moveFaults.at(MoveFaults.Step.AFTER_RECORD);
        long recorded = System.nanoTime();
        try {
            open(in.schema.name(), in.partitionId, in.startKey, in.endKey);
        } catch (IOException | RuntimeException e) {
            return new HandOverOutcome(true, r.ms(), false, (System.nanoTime() - recorded) / 1_000_000, 0,
                    "recorded; serving the copy failed: " + e.getMessage());
        }
        return new HandOverOutcome(true, r.ms(), true, (System.nanoTime() - recorded) / 1_000_000,
                System.currentTimeMillis(), null);
    }

    /**
     * Forgets a copy being filled. A complete copy is kept (only the master's open here, or its
     * idle limit, ends it): the partition's manifest names this OTM's log.
     *
     * @return whether a copy being filled was dropped
     */
    boolean dropIncoming(long partitionId) {
        synchronized (lifecycle(partitionId)) {
            Incoming in = incoming.get(partitionId);
            if (in == null) {
                return false;
            }
            synchronized (in) {
                if (in.complete) {
                    return false;
                }
                incoming.remove(partitionId, in);
                closeCopy(in);
                return true;
            }
        }
    }

    /** Closes copies idle past their limits. Called periodically. */
    void sweepIncoming() {
        long now = System.nanoTime();
        for (Incoming in : List.copyOf(incoming.values())) {
            long idleMs = (now - in.touchedNanos) / 1_000_000;
            synchronized (lifecycle(in.partitionId)) {
                boolean complete;
                synchronized (in) {
                    complete = in.complete;
                }
                if (idleMs > (complete ? COMPLETE_COPY_IDLE_MS : INCOMING_IDLE_MS) && incoming.remove(in.partitionId, in)) {
                    LOG.warning(() -> "closing the " + (complete ? "complete" : "unfinished") + " copy of partition "
                            + in.partitionId + " from " + in.fromOtm + ": idle for " + idleMs + " ms");
                    closeCopy(in);
                }
            }
        }
    }

    /** Closes a copy; its log retention is kept while the partition's manifest names this OTM's log. */
    private void closeCopy(Incoming in) {
        in.store.close();
        handedOff.put(in.partitionId, in.store.directory());
        admissionChanged();
    }

    /**
     * Serves a complete copy of the partition, if this OTM holds one and it is still the
     * partition's latest state on the DFS: no replay, only the timestamp conditions of an open.
     * A copy that is not complete or was superseded is closed and the open goes on from the DFS.
     * REQUIRES: the partition's lifecycle lock.
     *
     * @param beforeNanos for the log: how long the open waited for the host lock and the lifecycle
     *     lock, and built the table access, before this
     */
    private boolean activateCopy(DatabaseSchema schema, PartitionDescriptor descriptor, TableAccess access,
            long partitionId, List<Object> startKey, List<Object> endKey, long[] beforeNanos) throws IOException {
        Incoming in = incoming.remove(partitionId);
        if (in == null) {
            return false;
        }
        boolean complete;
        synchronized (in) {
            complete = in.complete;
        }
        if (!complete || !Names.same(in.schema.name(), schema.name())) {
            LOG.warning(() -> "partition " + partitionId + ": the copy received from " + in.fromOtm + " is not complete;"
                    + " opening it from the DFS instead");
            closeCopy(in);
            return false;
        }
        long started = System.nanoTime();
        long maxCts = Math.max(0, in.store.maxCts());
        try {
            if (!awaitTimestamps(partitionId, maxCts, "received")) {
                incoming.put(partitionId, in);
                throw new ElasTrasException(ErrorCode.OVERLOADED, "partition " + partitionId + " was received up to CTS "
                        + maxCts + " but no commit timestamp above it arrived within " + OPEN_TIMESTAMP_WAIT_MS
                        + " ms (is the master reachable?); open it again");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            incoming.put(partitionId, in);
            throw new ElasTrasException(ErrorCode.INTERNAL, "interrupted while opening partition " + partitionId);
        }
        long timestamped = System.nanoTime();
        try {
            in.store.finishLiveCopy();
        } catch (IllegalStateException e) {
            LOG.warning(() -> "partition " + partitionId + ": the copy received from " + in.fromOtm + " cannot serve ("
                    + e.getMessage() + "); opening it from the DFS instead");
            closeCopy(in);
            return false;
        }
        long copyFinished = System.nanoTime();
        WalPosition own = in.begun.replayPoints().get(walId);
        retention.retain(partitionId, own == null ? wal.endPosition() : own);
        handedOff.remove(partitionId);
        transactions.addPartition(partitionId, in.store, List.of());
        long added = System.nanoTime();
        serve(partitionId, new Served(descriptor, access, in.store, startKey, endKey));
        // Its manifest still names the previous owner's log, which that owner keeps until a manifest
        // written here names only this OTM's. Every version the copy holds outside its tables is in
        // this OTM's log once the last versions, applied before their sync, are synced: then a
        // manifest without a flush does (a flush added a table for every move and brought the
        // partition's next compaction forward); if that sync failed, a flush puts them in a table.
        CompletableFuture<Void> synced = in.lastVersionsSynced;
        if (synced == null) {
            in.store.dropOtherLogsSoon();
        } else {
            synced.whenComplete((ok, failed) -> {
                if (failed == null) {
                    in.store.dropOtherLogsSoon();
                } else {
                    in.store.flushSoon();
                }
            });
        }
        long done = System.nanoTime();
        infoInPause("serving partition " + partitionId + " of " + schema.name() + " from the live copy received from "
                + in.fromOtm + " (" + in.batches + " batches) in " + (done - started) / 1_000_000 + " ms (timestamps "
                + (timestamped - started) / 1_000_000 + " ms, finishing the copy " + (copyFinished - timestamped) / 1_000_000
                + " ms, the transaction manager's slot " + (added - copyFinished) / 1_000_000 + " ms, serving "
                + (done - added) / 1_000_000 + " ms; before it, the host lock " + beforeNanos[0] / 1_000_000
                + " ms, its lifecycle lock " + beforeNanos[1] / 1_000_000 + " ms, its table access "
                + beforeNanos[2] / 1_000_000 + " ms)");
        return true;
    }

    /**
     * Keeps the log retention of partitions handed off while their manifest names this OTM's log,
     * at the position it names; forgets the others.
     */
    private void checkHandedOff() throws IOException {
        for (Map.Entry<Long, String> e : List.copyOf(handedOff.entrySet())) {
            long partitionId = e.getKey();
            if (served.containsKey(partitionId) || incoming.containsKey(partitionId)) {
                handedOff.remove(partitionId, e.getValue());
                continue;
            }
            WalPosition named = PartitionStore.readManifest(dfs, e.getValue()).replayPoints().get(walId);
            if (named == null) {
                handedOff.remove(partitionId, e.getValue());
                retention.release(partitionId);
            } else {
                retention.retain(partitionId, named);
            }
        }
    }

    /** What the memtables of every partition here may hold together. */
    MemtableBudget memtableBudget() {
        return environment.memtableBudget();
    }

    /** Fault injection into live moves out (tests). */
    MoveFaults moveFaults() {
        return moveFaults;
    }

    /** Whether this OTM holds a copy of the partition that a live move is filling or filled. */
    boolean receiving(long partitionId) {
        return incoming.containsKey(partitionId);
    }

    /** Flushes a partition's memtable and deletes WAL segments no partition needs any more. */
    void flush(long partitionId) throws IOException {
        Served s = served(partitionId);
        s.store().flush();
        WalPosition own = s.store().manifest().replayPoints().get(walId);
        if (own != null) {
            retention.retain(partitionId, own);
        }
        deleteObsoleteSegments();
    }

    private void deleteObsoleteSegments() throws IOException {
        if (!handedOff.isEmpty()) {
            checkHandedOff();
        }
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

    /**
     * The partition, for new work (a begin, a call): as {@link #served}, but while the partition's
     * live move settles the request is held, up to {@link #ADMISSION_HOLD_MS}, instead of being
     * refused into the client's backoff. At the origin during the pause: then it is served here
     * (the move was given up) or answered NOT_OWNER naming the next owner; at the destination while
     * its complete copy waits for the master's open: then it is served. At most
     * {@link #ADMISSION_HELD_MAX} requests are held at once (the rest are answered at once).
     *
     * @param beforeHold run before the request is held (a batch finishes its prepared commits,
     *     whose CTSs would hold the snapshot), null if nothing is needed
     * @throws ElasTrasException NOT_OWNER, with {@code movedTo} when the partition was just handed over
     */
    Served admit(long partitionId, Runnable beforeHold) {
        Served s = served.get(partitionId);
        if (s != null && !pausing.contains(partitionId)) {
            return s;
        }
        if (!settling(partitionId)) {
            throw notServed(partitionId);
        }
        if (!admissionHolds.tryAcquire()) {
            throw notServed(partitionId);
        }
        try {
            if (beforeHold != null) {
                beforeHold.run();
            }
            long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(ADMISSION_HOLD_MS);
            synchronized (admission) {
                while (true) {
                    s = served.get(partitionId);
                    if (s != null && !pausing.contains(partitionId)) {
                        return s;
                    }
                    long left = deadline - System.nanoTime();
                    if (!settling(partitionId) || left <= 0) {
                        throw notServed(partitionId);
                    }
                    TimeUnit.NANOSECONDS.timedWait(admission, left);
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw notServed(partitionId);
        } finally {
            admissionHolds.release();
        }
    }

    /** Whether a request for the partition is worth holding: its move out pauses here, or a complete copy waits here. */
    private boolean settling(long partitionId) {
        if (pausing.contains(partitionId)) {
            return true;
        }
        if (served.containsKey(partitionId) || movedTo(partitionId) != null) {
            return false;
        }
        Incoming in = incoming.get(partitionId);
        return in != null && in.complete;
    }

    /** Whether the partition's live move is in its pause here or handed it over lately (NOT_OWNER may be answered by then). */
    boolean settlingOrMoved(long partitionId) {
        return pausing.contains(partitionId) || movedTo(partitionId) != null;
    }

    /** Where a live move lately handed the partition over to, or null. */
    private MoveDestination movedTo(long partitionId) {
        MovedAway m = movedAway.get(partitionId);
        if (m == null) {
            return null;
        }
        if (System.nanoTime() - m.atNanos() > TimeUnit.MILLISECONDS.toNanos(MOVED_HINT_MS)) {
            movedAway.remove(partitionId, m);
            return null;
        }
        return m.to();
    }

    /** Serves a partition here (it is no longer moved away from here). */
    private void serve(long partitionId, Served s) {
        movedAway.remove(partitionId);
        served.put(partitionId, s);
        admissionChanged();
    }

    /**
     * Logs a line written inside a live move's pause. A message, not a supplier: a lambda that
     * captures this many values links (spins method handles and classes) on its first run, which
     * took tens of milliseconds in the first move into an OTM on a loaded machine.
     */
    private static void infoInPause(String message) {
        LOG.info(message);
    }

    /** Requests held by {@link #admit} now. */
    int heldRequests() {
        return ADMISSION_HELD_MAX - admissionHolds.availablePermits();
    }

    private void admissionChanged() {
        synchronized (admission) {
            admission.notifyAll();
        }
    }

    List<Served> all() {
        return new ArrayList<>(served.values());
    }

    private ElasTrasException notServed(long partitionId) {
        MoveDestination to = movedTo(partitionId);
        if (to != null) {
            return new ElasTrasException(ErrorCode.NOT_OWNER, "partition " + partitionId + " is not served by OTM " + otmId
                    + ": a live move handed it over to " + to.otmId(), null, to);
        }
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
            out.add(WireValues.toColumnValue("root key of " + schema.name(), columns.get(i),
                    values.get(i)));
        }
        return out;
    }
}
