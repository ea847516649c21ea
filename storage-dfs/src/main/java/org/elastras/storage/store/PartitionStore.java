package org.elastras.storage.store;

import java.io.Closeable;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.elastras.storage.dfs.Dfs;
import org.elastras.storage.dfs.DfsOutput;
import org.elastras.storage.sstable.SsTableInfo;
import org.elastras.storage.sstable.SsTableReader;
import org.elastras.storage.sstable.SsTableWriter;
import org.elastras.storage.util.CloseableIterator;
import org.elastras.storage.wal.WalPosition;

/**
 * The multi-version store of one partition: a memtable over immutable SSTables on the DFS,
 * described by a MANIFEST. Every version carries its commit timestamp (CTS); reads at a snapshot
 * see, per key, the newest version with a CTS at or below it. Applying a version that is already
 * there changes nothing, so recovery and moves may replay freely.
 *
 * <p>Life cycle: {@link #open} reads the manifest and its tables and returns a store in recovery;
 * the owner replays every WAL named by {@link #replayPoints()} through {@link #apply}, then calls
 * {@link #finishRecovery} (which records the owner's own WAL in the manifest) before serving.
 * Flushes write the frozen memtable as an SSTable and a new manifest without blocking writers;
 * compaction merges all SSTables into one and drops versions no snapshot at or after the GC
 * horizon can see. A compaction is due when the SSTables reach a count, or when range scans keep
 * walking past dead entries in them ({@link DeadEntryCompactionPolicy}).
 *
 * <p>Thread-safe: any number of threads may apply and read at once; flush and compaction may run
 * on other threads at the same time (each serialises with itself).
 */
public final class PartitionStore implements Closeable {

    private static final Logger LOG = Logger.getLogger(PartitionStore.class.getName());

    private enum State { RECOVERING, OPEN, CLOSED }

    /** What made a background compaction due. */
    private enum CompactionCause { TABLE_COUNT, DEAD_ENTRIES }

    private final Dfs dfs;
    private final String directory;
    private final StoreOptions options;
    private final StoreEnvironment environment;
    private final Map<String, WalPosition> inheritedReplayPoints;

    /** Held shared by appliers, exclusively by a freeze: no apply straddles a memtable switch. */
    private final ReentrantReadWriteLock applyLock = new ReentrantReadWriteLock();
    /** Serialises flushes with each other, so memtables are flushed oldest first. */
    private final ReentrantLock flushLock = new ReentrantLock();
    /** Serialises compactions with each other. */
    private final ReentrantLock compactionLock = new ReentrantLock();
    /** Serialises manifest writes and view installs; guards manifest, nextFileNumber, owner, state. */
    private final ReentrantLock installLock = new ReentrantLock();
    private final Condition flushed = installLock.newCondition();

    private volatile StoreView view;
    private Manifest manifest;
    private long nextFileNumber;
    private WalCursor owner;
    private volatile State state = State.RECOVERING;

    /**
     * Set while a live move copies this partition to another OTM: flushes and compactions do
     * nothing, so no table the copy opened is deleted and no manifest is written under it.
     */
    private volatile boolean maintenancePaused;
    private final AtomicBoolean flushScheduled = new AtomicBoolean();
    private final AtomicBoolean compactionScheduled = new AtomicBoolean();
    /**
     * Set by {@link #closeAfterFlush} for its final flush (guarded by flushLock): a manifest
     * written while every memtable is empty then names no log. The owner admits no commits then.
     */
    private boolean handingOver;
    private final AtomicLong flushCount = new AtomicLong();
    private final AtomicLong compactionCount = new AtomicLong();
    private final AtomicLong versionsDroppedByCompaction = new AtomicLong();
    private final AtomicLong versionsDroppedByFlush = new AtomicLong();

    private final DeadEntryCompactionPolicy deadEntryCompaction;
    /**
     * Entries range scans read from SSTables, and of those the dead ones they walked past. Each
     * scan tallies its own and adds them once as it closes, so no shared line is written per entry.
     */
    private final LongAdder scanTableEntriesRead = new LongAdder();
    private final LongAdder scanDeadEntriesSkipped = new LongAdder();
    /** The two sums above when the last compaction ended: the dead-entry trigger counts from there. */
    private volatile long scanTableEntriesReadAtLastCompaction;
    private volatile long scanDeadEntriesSkippedAtLastCompaction;
    /**
     * When ({@link StoreEnvironment#nowMs}) the store opened, last compacted, or scans last made a
     * compaction due; a scan claims the trigger by moving it, so one burst schedules one compaction.
     */
    private final AtomicLong lastCompactionMs;
    private final AtomicLong compactionsForDeadEntries = new AtomicLong();
    private volatile IOException lastMaintenanceError;
    /** This store's part of the process's memtable budget: every memtable's bytes are charged to it. */
    private final MemtableBudget.Account budgetAccount;

    private PartitionStore(Dfs dfs, String directory, StoreOptions options, StoreEnvironment environment,
            Manifest manifest, List<TableHandle> tables) {
        this.dfs = dfs;
        this.directory = directory;
        this.options = options;
        this.environment = environment;
        this.manifest = manifest;
        this.nextFileNumber = manifest.nextFileNumber();
        this.inheritedReplayPoints = manifest.replayPoints();
        this.budgetAccount = environment.memtableBudget().join(new MemtableBudget.Member() {
            @Override
            public long activeBytes() {
                // Other stores' writers may ask before this constructor has set the view.
                StoreView v = view;
                return v == null ? 0 : v.active.sizeBytes();
            }

            @Override
            public boolean canFlush() {
                return state == State.OPEN && !maintenancePaused && environment.maintenance() != null;
            }

            @Override
            public boolean requestFlush() {
                if (!canFlush()) {
                    return false;
                }
                scheduleFlush();
                return true;
            }
        });
        this.view = new StoreView(new MemTable(budgetAccount), List.of(), tables);
        this.deadEntryCompaction = new DeadEntryCompactionPolicy(options);
        this.lastCompactionMs = new AtomicLong(environment.nowMs());
    }

    /**
     * Opens the store in {@code directory} (creating an empty one if there is none) in recovery
     * state, and removes files no manifest names (leftovers of a crash mid-flush).
     *
     * @throws org.elastras.storage.util.CorruptionException if the manifest or a table is corrupt
     */
    public static PartitionStore open(Dfs dfs, String directory, StoreOptions options, StoreEnvironment environment)
            throws IOException {
        dfs.mkdirs(directory);
        Manifest manifest = ManifestFiles.readLatest(dfs, directory);
        for (String orphan : ManifestFiles.orphans(dfs, directory, manifest)) {
            LOG.info(() -> "deleting orphan file " + directory + "/" + orphan);
            dfs.delete(Dfs.join(directory, orphan));
        }
        List<TableHandle> tables = new ArrayList<>();
        try {
            for (SsTableInfo info : manifest.tables()) {
                String path = Dfs.join(directory, info.fileName());
                tables.add(new TableHandle(SsTableReader.open(dfs, path, environment.newCacheId(), environment.blockCache()), dfs, path));
            }
        } catch (IOException | RuntimeException e) {
            for (TableHandle t : tables) {
                t.reader().close();
            }
            throw e;
        }
        PartitionStore store = new PartitionStore(dfs, directory, options, environment, manifest, tables);
        // The view retained every table; the handles start owned by the view alone.
        return store;
    }

    /** Per WAL id, the position from which a recovery must replay that log for this partition. */
    public Map<String, WalPosition> replayPoints() {
        return inheritedReplayPoints;
    }

    /**
     * Ends recovery: records the owner's WAL in a new manifest (so a later recovery replays it)
     * and starts serving flushes. Call after replaying every log of {@link #replayPoints()}.
     */
    public void finishRecovery(WalCursor ownerWal) throws IOException {
        installLock.lock();
        try {
            if (state != State.RECOVERING) {
                throw new IllegalStateException("finishRecovery in state " + state);
            }
            Map<String, WalPosition> replay = new TreeMap<>(manifest.replayPoints());
            replay.merge(ownerWal.walId(), ownerWal.replayPoint(), WalPosition::min);
            Manifest next = new Manifest(manifest.sequence() + 1, nextFileNumber, manifest.tables(), replay);
            ManifestFiles.write(dfs, directory, next);
            manifest = next;
            owner = ownerWal;
            state = State.OPEN;
        } finally {
            installLock.unlock();
        }
    }

    /**
     * Starts a live copy: this store, opened (in recovery) from the manifest its current owner
     * wrote, will be given every version that owner applies from now on, each logged first in
     * {@code copierWal}'s log and applied with its position there. Writes a manifest that names
     * that log too (from its current replay point, before any such record), besides the logs the
     * opened manifest names, so that a recovery from now on replays both: whichever of the two
     * OTMs stops, nothing either logged for the partition is missed.
     *
     * <p>REQUIRES: the owner paused its maintenance before this store opened.
     *
     * @return the manifest written
     * @throws IllegalStateException if the partition's latest manifest on the DFS is no longer the
     *     one this store opened (another OTM wrote one since: the copy is stale; nothing is written)
     */
    public Manifest beginLiveCopy(WalCursor copierWal) throws IOException {
        installLock.lock();
        try {
            if (state != State.RECOVERING || owner != null) {
                throw new IllegalStateException("beginLiveCopy in state " + state + (owner != null ? ", begun already" : ""));
            }
            requireLatestOnDfs();
            Map<String, WalPosition> replay = new TreeMap<>(manifest.replayPoints());
            replay.merge(copierWal.walId(), copierWal.replayPoint(), WalPosition::min);
            Manifest next = new Manifest(manifest.sequence() + 1, nextFileNumber, manifest.tables(), replay);
            ManifestFiles.write(dfs, directory, next);
            manifest = next;
            owner = copierWal;
            return next;
        } finally {
            installLock.unlock();
        }
    }

    /**
     * Ends a live copy: the previous owner stopped committing and every version it applied was
     * applied here; this store now serves, flushes and compacts. The manifest is the one
     * {@link #beginLiveCopy} wrote (it names both logs); the first flush writes one that names
     * only the copier's log.
     *
     * @throws IllegalStateException if the live copy was not begun, or another OTM wrote the
     *     partition's manifest since (the copy is stale)
     */
    public void finishLiveCopy() throws IOException {
        installLock.lock();
        try {
            if (state != State.RECOVERING || owner == null) {
                throw new IllegalStateException("finishLiveCopy in state " + state + (owner == null ? ", not begun" : ""));
            }
            requireLatestOnDfs();
            state = State.OPEN;
        } finally {
            installLock.unlock();
        }
        compactIfDue();
    }

    /**
     * Schedules the compaction that a flush asks for once the tables reach the trigger, if they
     * have: one asked for while maintenance was paused (the origin's flush as a live move began)
     * or before this store served was dropped, and with no flush to come soon the tables would
     * otherwise wait for the next one.
     */
    private void compactIfDue() {
        if (view.tables.size() >= options.compactionTablesTrigger()) {
            scheduleCompaction(CompactionCause.TABLE_COUNT);
        }
    }

    /** REQUIRES: installLock. */
    private void requireLatestOnDfs() throws IOException {
        Manifest onDfs = ManifestFiles.readLatest(dfs, directory);
        if (!Arrays.equals(onDfs.encode(), manifest.encode())) {
            throw new IllegalStateException("partition store " + directory + " holds manifest " + manifest.sequence()
                    + " but the DFS now holds manifest " + onDfs.sequence() + ": another owner wrote it; this copy is stale");
        }
    }

    /**
     * Asks for a flush on the maintenance executor (none without one): after a live copy starts
     * serving, its first flush writes a manifest that no longer names the previous owner's log,
     * which that owner may then delete, even if the partition takes few writes.
     */
    public void flushSoon() {
        scheduleFlush();
    }

    /**
     * Asks for the manifest to be written again, without a flush, on the maintenance executor
     * (none without one): once a live copy serves and its log has synced every version it was
     * shipped, each version it holds outside its tables is in that log, so the manifest written
     * then names no other log and the previous owner may delete its segments, without the table
     * that {@link #flushSoon} would add (and the compaction it brings forward).
     */
    public void dropOtherLogsSoon() {
        var executor = environment.maintenance();
        if (executor == null || state != State.OPEN) {
            return;
        }
        executor.execute(() -> {
            flushLock.lock();
            try {
                if (state == State.OPEN && !maintenancePaused) {
                    dropUnneededLogs();
                }
            } catch (IOException e) {
                lastMaintenanceError = e;
                LOG.log(Level.WARNING, "rewriting the manifest of " + directory + " without other logs failed;"
                        + " its next flush writes one", e);
            } catch (IllegalStateException e) {
                if (state == State.OPEN) {
                    throw e;
                }
            } finally {
                flushLock.unlock();
            }
        });
    }

    /** The latest manifest of the store in {@code directory} on the DFS (an empty one if there is none). */
    public static Manifest readManifest(Dfs dfs, String directory) throws IOException {
        return ManifestFiles.readLatest(dfs, directory);
    }

    /**
     * Stops flushes and compactions (waiting for one under way to end) until
     * {@link #resumeMaintenance}: while another OTM copies this partition live, no table it opened
     * may be deleted and no manifest written. Writers keep applying; the memtable grows meanwhile.
     */
    public void pauseMaintenance() {
        maintenancePaused = true;
        flushLock.lock();
        flushLock.unlock();
        compactionLock.lock();
        compactionLock.unlock();
    }

    /**
     * Undoes {@link #pauseMaintenance} (the live move was given up). A copy may have begun
     * meanwhile and written a manifest naming its log too: the next manifest written here takes a
     * sequence above it (and names only this owner's logs again).
     */
    public void resumeMaintenance() throws IOException {
        installLock.lock();
        try {
            Manifest onDfs = ManifestFiles.readLatest(dfs, directory);
            if (onDfs.sequence() > manifest.sequence()) {
                manifest = new Manifest(onDfs.sequence(), nextFileNumber, manifest.tables(), manifest.replayPoints());
            }
        } finally {
            installLock.unlock();
            // Even if the manifest could not be read: a flush that then collides fails and is
            // retried, a store that never flushes again would grow without bound.
            maintenancePaused = false;
        }
        if (view.active.sizeBytes() >= options.memtableBytesMax()) {
            scheduleFlush();
        }
        compactIfDue();
    }

    /**
     * Applies the versions of one WAL record (this partition's part of it). Versions already
     * present are left as they are. All versions are validated against the limits before any is
     * applied.
     *
     * <p>One caveat on idempotence: a version that compaction garbage-collected (superseded at
     * or below a past horizon) comes back if re-applied alone. WAL replay never does that: the
     * versions that superseded it were committed after it became visible, so they follow it in
     * the log and are replayed with it.
     *
     * @param walId the log the record is in (the owner's, or a previous owner's during recovery)
     * @param position where the record starts in that log
     * @throws org.elastras.storage.util.LimitExceededException if a key or value is too large
     * @return the number of versions that were new
     */
    public int apply(String walId, WalPosition position, List<Version> versions) {
        if (walId == null || position == null) {
            throw new IllegalArgumentException("apply needs the WAL id and position of the record");
        }
        for (Version v : versions) {
            options.limits().checkKey(v.key());
            options.limits().checkValue(v.value());
        }
        int added = 0;
        MemTable active;
        applyLock.readLock().lock();
        try {
            if (state == State.CLOSED) {
                throw new IllegalStateException("partition store " + directory + " is closed");
            }
            active = view.active;
            added = active.addAll(versions);
            active.noteWalPosition(walId, position);
        } finally {
            applyLock.readLock().unlock();
        }
        if (active.sizeBytes() >= options.memtableBytesMax()) {
            scheduleFlush();
        }
        return added;
    }

    /** The value of {@code key} at {@code snapshotCts}, or null if absent or deleted. */
    public byte[] get(byte[] key, long snapshotCts) throws IOException {
        Version v = getVersion(key, snapshotCts);
        return v == null || v.isTombstone() ? null : v.value();
    }

    /**
     * The newest version of {@code key} with CTS at or below {@code snapshotCts}, tombstones
     * included, or null. {@code getVersion(key, Long.MAX_VALUE)} is the latest committed version.
     */
    public Version getVersion(byte[] key, long snapshotCts) throws IOException {
        return newest(key, -1, snapshotCts);
    }

    /**
     * The newest version of {@code key} with {@code afterCts < cts <= snapshotCts}, tombstones
     * included, or null: whether the key was written between two timestamps, as SERIALIZABLE
     * validation asks. Cheaper than {@link #getVersion}: memtables and tables holding nothing newer
     * than {@code afterCts} are not searched, so a key not written recently costs one index probe
     * per memtable and no table read.
     */
    public Version getVersionNewerThan(byte[] key, long afterCts, long snapshotCts) throws IOException {
        if (afterCts >= snapshotCts) {
            return null;
        }
        return newest(key, afterCts, snapshotCts);
    }

    /**
     * The newest version of {@code key} with {@code afterCts < cts <= snapshotCts}, or null. The
     * hot path of every read: sources are skipped by their CTS bounds before any key work, the key
     * is hashed once for every memtable's table and every SSTable's bloom filter, and nothing is
     * allocated beyond the answer.
     */
    private Version newest(byte[] key, long afterCts, long snapshotCts) throws IOException {
        StoreView v;
        int readSlot;
        do {
            v = view;
            if (state == State.CLOSED) {
                throw new IllegalStateException("partition store " + directory + " is closed");
            }
            readSlot = v.enterRead();
        } while (readSlot < 0);
        try {
            Version best = null;
            long keyHash = SsTableReader.keyHash(key);
            List<MemTable> memtables = v.memtables();
            for (int i = 0; i < memtables.size(); i++) {
                MemTable m = memtables.get(i);
                // A plain read (afterCts -1) looks into the first memtable without reading its
                // newest CTS, a counter every commit writes from another core.
                if (best == null ? afterCts < 0 || m.maxCts() > afterCts : m.maxCts() > best.cts()) {
                    best = newer(best, m.get(key, keyHash, afterCts, snapshotCts));
                }
            }
            for (int i = v.tables.size() - 1; i >= 0; i--) {
                TableHandle t = v.tables.get(i);
                SsTableInfo info = t.info();
                if (info.maxCts() <= afterCts || (best != null && info.maxCts() <= best.cts())) {
                    continue;
                }
                if (info.entryCount() == 0 || info.minCts() > snapshotCts
                        || Version.compareKeys(key, info.smallestKey()) < 0 || Version.compareKeys(key, info.largestKey()) > 0) {
                    continue;
                }
                best = newer(best, t.reader().get(key, snapshotCts, keyHash));
            }
            return best != null && best.cts() > afterCts ? best : null;
        } finally {
            v.exitRead(readSlot);
        }
    }

    private static Version newer(Version a, Version b) {
        if (a == null) {
            return b;
        }
        return b == null || a.cts() >= b.cts() ? a : b;
    }

    /**
     * The visible versions (no tombstones) of keys in [{@code fromKey}, {@code toKeyExclusive})
     * at {@code snapshotCts}, in key order, at most {@code limit} of them. The iterator holds the
     * sources it reads open until closed; IO errors surface as {@link UncheckedIOException}.
     *
     * @param fromKey null: from the first key
     * @param toKeyExclusive null: to the last key
     */
    public CloseableIterator<Version> scan(byte[] fromKey, byte[] toKeyExclusive, long snapshotCts, int limit) {
        if (limit < 0) {
            throw new IllegalArgumentException("scan limit must be >= 0, got " + limit);
        }
        StoreView v = acquire();
        List<CloseableIterator<Version>> sources = new ArrayList<>();
        try {
            for (MemTable m : v.memtables()) {
                sources.add(m.scan(fromKey, toKeyExclusive));
            }
            for (TableHandle t : v.tables) {
                sources.add(t.reader().scan(fromKey));
            }
        } catch (RuntimeException e) {
            sources.forEach(CloseableIterator::close);
            v.release();
            throw e;
        }
        return new SnapshotIterator(new MergingIterator(sources), v, v.memtables().size(), toKeyExclusive, snapshotCts, limit);
    }

    /**
     * Filters a merged stream down to what one snapshot sees; releases the view on close. Counts
     * the entries it read from SSTables and the dead ones among them (a tombstone the snapshot
     * sees, or a version under such a tombstone in a table too), and hands the counts to the
     * store on close.
     */
    private final class SnapshotIterator implements CloseableIterator<Version> {
        private final MergingIterator merged;
        private final StoreView view;
        /** Sources at this rank in the merge and above are SSTables; below, memtables. */
        private final int firstTableRank;
        private final byte[] toKeyExclusive;
        private final long snapshotCts;
        private int remaining;
        private byte[] doneKey;
        /** Whether the version the snapshot sees of doneKey is in an SSTable (not only a memtable). */
        private boolean doneKeyInTable;
        /**
         * Whether what the snapshot sees of doneKey is a deletion. Only deletions count as dead
         * entries: the versions an update shadows are the ordinary compaction's (counting them made
         * an update-heavy partition, TPC-C's CUSTOMER scanned by last name, compact in full every
         * interval).
         */
        private boolean doneKeyDeleted;
        private Version next;
        private boolean closed;
        private long tableEntriesRead;
        private long deadEntriesSkipped;

        SnapshotIterator(MergingIterator merged, StoreView view, int firstTableRank, byte[] toKeyExclusive, long snapshotCts,
                int limit) {
            this.merged = merged;
            this.view = view;
            this.firstTableRank = firstTableRank;
            this.toKeyExclusive = toKeyExclusive;
            this.snapshotCts = snapshotCts;
            this.remaining = limit;
        }

        @Override
        public boolean hasNext() {
            while (next == null && remaining > 0 && !closed && merged.hasNext()) {
                Version v = merged.next();
                if (toKeyExclusive != null && Version.compareKeys(v.key(), toKeyExclusive) >= 0) {
                    remaining = 0;
                    break;
                }
                boolean fromTable = merged.lastSourceRank() >= firstTableRank;
                if (fromTable) {
                    tableEntriesRead++;
                }
                if (v.cts() > snapshotCts) {
                    continue;
                }
                if (doneKey != null && Version.compareKeys(doneKey, v.key()) == 0) {
                    if (fromTable && doneKeyInTable && doneKeyDeleted) {
                        deadEntriesSkipped++; // under a deletion: a compaction of the tables alone can drop it
                    }
                    continue;
                }
                doneKey = v.key();
                doneKeyInTable = fromTable;
                doneKeyDeleted = v.isTombstone();
                if (!v.isTombstone()) {
                    next = v;
                } else if (fromTable) {
                    deadEntriesSkipped++;
                }
            }
            return next != null;
        }

        @Override
        public Version next() {
            if (!hasNext()) {
                throw new NoSuchElementException();
            }
            Version v = next;
            next = null;
            remaining--;
            return v;
        }

        @Override
        public void close() {
            if (!closed) {
                closed = true;
                merged.close();
                view.release();
                scanClosed(tableEntriesRead, deadEntriesSkipped);
            }
        }
    }

    /**
     * Adds one closed scan's counts to the store's, and schedules a compaction if the dead entries
     * scans met in the SSTables since the last one make it due. Called once per scan, after it
     * released its view; any thread.
     */
    private void scanClosed(long tableEntriesRead, long deadEntriesSkipped) {
        if (tableEntriesRead == 0) {
            return;
        }
        scanTableEntriesRead.add(tableEntriesRead);
        if (deadEntriesSkipped == 0) {
            return;
        }
        scanDeadEntriesSkipped.add(deadEntriesSkipped);
        if (state != State.OPEN || maintenancePaused || environment.maintenance() == null || compactionScheduled.get()) {
            return;
        }
        long last = lastCompactionMs.get();
        long now = environment.nowMs();
        // The sums are not taken atomically with each other or with the baselines: clamp.
        long dead = Math.max(0, scanDeadEntriesSkipped.sum() - scanDeadEntriesSkippedAtLastCompaction);
        long read = Math.max(dead, scanTableEntriesRead.sum() - scanTableEntriesReadAtLastCompaction);
        if (deadEntryCompaction.compactNow(dead, read, now - last) && lastCompactionMs.compareAndSet(last, now)) {
            scheduleCompaction(CompactionCause.DEAD_ENTRIES);
        }
    }

    private StoreView acquire() {
        while (true) {
            StoreView v = view;
            if (state == State.CLOSED) {
                throw new IllegalStateException("partition store " + directory + " is closed");
            }
            if (v.tryRetain()) {
                return v;
            }
        }
    }

    /** Whether a write may go on now, without waiting: what {@link #awaitWriteCapacity} checks first. */
    public boolean hasWriteCapacity() {
        return view.frozen.size() < options.frozenMemtablesMax() && environment.memtableBudget().hasRoom();
    }

    /**
     * Waits until the store can take more writes: fewer frozen memtables than the limit, and room
     * in the process's memtable budget. The owner calls this before it logs a commit, so a slow
     * DFS pushes back on clients instead of growing memory without bound. Takes no lock when there
     * is room (the case of nearly every commit).
     *
     * @return false if the wait timed out
     */
    public boolean awaitWriteCapacity(long timeoutMillis) throws InterruptedException {
        MemtableBudget budget = environment.memtableBudget();
        if (hasWriteCapacity()) {
            return true;
        }
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMillis);
        installLock.lock();
        try {
            while (view.frozen.size() >= options.frozenMemtablesMax() && state != State.CLOSED) {
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    return false;
                }
                flushed.awaitNanos(left);
            }
        } finally {
            installLock.unlock();
        }
        return state == State.CLOSED || budget.awaitRoom(deadline);
    }

    /**
     * Freezes the active memtable and writes every frozen memtable as an SSTable, each followed
     * by a new manifest. Writers keep applying to a fresh memtable meanwhile.
     *
     * @return false if there was nothing to flush
     */
    public boolean flush() throws IOException {
        flushLock.lock();
        try {
            checkOpen("flush");
            if (maintenancePaused) {
                return false;
            }
            applyLock.writeLock().lock();
            try {
                installLock.lock();
                try {
                    StoreView current = view;
                    if (!current.active.isEmpty()) {
                        List<MemTable> frozen = new ArrayList<>();
                        frozen.add(current.active);
                        frozen.addAll(current.frozen);
                        install(new StoreView(new MemTable(budgetAccount), frozen, current.tables));
                        budgetAccount.froze(current.active.sizeBytes());
                    }
                } finally {
                    installLock.unlock();
                }
            } finally {
                applyLock.writeLock().unlock();
            }
            boolean any = false;
            while (true) {
                List<MemTable> frozen = view.frozen;
                if (frozen.isEmpty()) {
                    break;
                }
                flushOne(frozen.get(frozen.size() - 1));
                any = true;
            }
            if (!any) {
                dropUnneededLogs();
            }
            return any;
        } finally {
            flushLock.unlock();
        }
    }

    /**
     * Writes one frozen memtable (the oldest) as an SSTable and installs it. REQUIRES: flushLock.
     *
     * <p>Of each key's versions at or below the horizon only the newest is written: no snapshot at
     * or after the horizon can see the others, here or anywhere (a reader takes the newest version
     * at or below its snapshot over all sources, and this source's answer for such a snapshot is
     * that newest one or a version above the horizon). Tombstones are all kept: one may hide an
     * older version in another source. A partition whose keys are updated several times while a
     * memtable fills writes and later compacts a fraction of its versions.
     */
    private void flushOne(MemTable memtable) throws IOException {
        long fileNumber = allocateFileNumber();
        VersionGc gc = new VersionGc(environment.gcHorizonCts(), tombstone -> true);
        TableHandle table = writeTable(fileNumber, memtable.sortedScan(), gc);
        versionsDroppedByFlush.addAndGet(gc.droppedCount());
        StoreView next = null;
        installLock.lock();
        try {
            checkOpen("flush");
            StoreView current = view;
            List<MemTable> frozen = new ArrayList<>(current.frozen);
            if (!frozen.remove(memtable)) {
                throw new IllegalStateException("flushed memtable is no longer frozen in " + directory);
            }
            List<TableHandle> tables = new ArrayList<>(current.tables);
            tables.add(table);
            next = new StoreView(current.active, frozen, tables);
            writeManifest(next);
            install(next);
            budgetAccount.flushed(memtable.sizeBytes());
            flushCount.incrementAndGet();
            flushed.signalAll();
        } catch (IOException | RuntimeException e) {
            discard(table, next);
            throw e;
        } finally {
            installLock.unlock();
        }
        if (view.tables.size() >= options.compactionTablesTrigger()) {
            scheduleCompaction(CompactionCause.TABLE_COUNT);
        }
    }

    /**
     * Merges every SSTable into one, dropping versions that no snapshot at or after
     * {@code horizonCts} can see.
     *
     * <p>REQUIRES: no current or future reader uses a snapshot below {@code horizonCts}, and
     * every version with a CTS at or below it has been applied.
     *
     * @return false if there was nothing to compact
     */
    public boolean compact(long horizonCts) throws IOException {
        compactionLock.lock();
        try {
            checkOpen("compact");
            if (maintenancePaused) {
                return false;
            }
            StoreView input = acquire();
            try {
                if (input.tables.isEmpty()) {
                    return false;
                }
                long started = System.nanoTime();
                List<MemTable> memtables = input.memtables();
                VersionGc gc = new VersionGc(horizonCts, tombstone -> {
                    for (MemTable m : memtables) {
                        if (tombstone.cts() > 0 && m.get(tombstone.key(), tombstone.cts() - 1) != null) {
                            return true;
                        }
                    }
                    return false;
                }, environment::expired);
                List<CloseableIterator<Version>> sources = new ArrayList<>();
                for (TableHandle t : input.tables) {
                    sources.add(t.reader().scan(null));
                }
                long fileNumber = allocateFileNumber();
                TableHandle merged = writeTable(fileNumber, new MergingIterator(sources), gc);
                Set<TableHandle> replaced = new HashSet<>(input.tables);
                StoreView next = null;
                installLock.lock();
                try {
                    checkOpen("compact");
                    StoreView current = view;
                    List<TableHandle> tables = new ArrayList<>();
                    boolean placed = false;
                    for (TableHandle t : current.tables) {
                        if (replaced.contains(t)) {
                            if (!placed) {
                                tables.add(merged);
                                placed = true;
                            }
                        } else {
                            tables.add(t);
                        }
                    }
                    next = new StoreView(current.active, current.frozen, tables);
                    writeManifest(next);
                    replaced.forEach(TableHandle::markObsolete);
                    install(next);
                } catch (IOException | RuntimeException e) {
                    discard(merged, next);
                    throw e;
                } finally {
                    installLock.unlock();
                }
                compactionCount.incrementAndGet();
                versionsDroppedByCompaction.addAndGet(gc.droppedCount());
                long tookMs = (System.nanoTime() - started) / 1_000_000;
                long inBytes = 0;
                for (TableHandle t : input.tables) {
                    inBytes += t.info().fileBytes();
                }
                long in = inBytes;
                LOG.info(() -> "compacted " + directory + ": " + input.tables.size() + " tables of " + in / 1024 + " KiB into "
                        + merged.info().fileBytes() / 1024 + " KiB (" + gc.droppedCount() + " versions dropped) in " + tookMs + " ms");
                scanDeadEntriesSkippedAtLastCompaction = scanDeadEntriesSkipped.sum();
                scanTableEntriesReadAtLastCompaction = scanTableEntriesRead.sum();
                lastCompactionMs.set(environment.nowMs());
                return true;
            } finally {
                input.release();
            }
        } finally {
            compactionLock.unlock();
        }
    }

    /**
     * With nothing to flush, a manifest may still name a previous owner's log that recovery
     * replayed nothing from (everything was in the tables already): rewrite it without that log,
     * so the dead owner's log is not kept alive for nothing. REQUIRES: flushLock, state OPEN.
     */
    private void dropUnneededLogs() throws IOException {
        installLock.lock();
        try {
            checkOpen("flush");
            Set<String> needed = new HashSet<>();
            needed.add(owner.walId());
            for (MemTable m : view.memtables()) {
                needed.addAll(m.oldestPositionByWal().keySet());
            }
            if (!needed.containsAll(manifest.replayPoints().keySet())) {
                writeManifest(view);
            }
        } finally {
            installLock.unlock();
        }
    }

    private long allocateFileNumber() {
        installLock.lock();
        try {
            return nextFileNumber++;
        } finally {
            installLock.unlock();
        }
    }

    /** Writes versions (filtered by gc if given) to a new SSTable and opens it. */
    private TableHandle writeTable(long fileNumber, CloseableIterator<Version> versions, VersionGc gc) throws IOException {
        String name = Manifest.tableFileName(fileNumber);
        String path = Dfs.join(directory, name);
        try (CloseableIterator<Version> in = versions) {
            // Named durably by the manifest's rename into this directory: no table counts before.
            DfsOutput out = dfs.createNamedLater(path);
            SsTableWriter writer = new SsTableWriter(out, name, options.tables());
            try {
                while (in.hasNext()) {
                    Version v = in.next();
                    if (gc == null || gc.keep(v)) {
                        writer.add(v);
                    }
                }
                writer.finish();
            } catch (IOException | RuntimeException e) {
                writer.close();
                dfs.delete(path);
                throw e;
            }
        } catch (UncheckedIOException e) {
            throw e.getCause();
        }
        return new TableHandle(SsTableReader.open(dfs, path, environment.newCacheId(), environment.blockCache()), dfs, path);
    }

    /**
     * Writes the manifest that describes {@code next}: its tables, and replay points covering
     * every version not in them. REQUIRES: installLock held, state OPEN.
     */
    private void writeManifest(StoreView next) throws IOException {
        Map<String, WalPosition> replay = new TreeMap<>();
        if (!handingOver || !next.active.isEmpty() || !next.frozen.isEmpty()) {
            // Sample the owner's replay point before reading the memtables' positions: a record not
            // yet applied now is at or after the sample; one applied since is in a memtable read below.
            replay.put(owner.walId(), owner.replayPoint());
            for (MemTable m : next.memtables()) {
                m.oldestPositionByWal().forEach((wal, position) -> replay.merge(wal, position, WalPosition::min));
            }
        }
        // else: a clean hand-over with every version in the tables; the next owner replays nothing.
        List<SsTableInfo> infos = new ArrayList<>(next.tables.size());
        for (TableHandle t : next.tables) {
            infos.add(t.info());
        }
        Manifest m = new Manifest(manifest.sequence() + 1, nextFileNumber, infos, replay);
        ManifestFiles.write(dfs, directory, m);
        manifest = m;
    }

    /** Deletes a new table that did not make it into a manifest, with the view built around it. */
    private static void discard(TableHandle table, StoreView unusedView) {
        table.markObsolete();
        if (unusedView != null) {
            unusedView.release();
        } else {
            table.retain();
            table.release();
        }
    }

    /** REQUIRES: installLock held. */
    private void install(StoreView next) {
        StoreView old = view;
        view = next;
        old.release();
    }

    private void checkOpen(String operation) {
        State s = state;
        if (s != State.OPEN) {
            throw new IllegalStateException(operation + " of partition store " + directory + " in state " + s
                    + (s == State.RECOVERING ? ": call finishRecovery first" : ""));
        }
    }

    private void scheduleFlush() {
        var executor = environment.maintenance();
        if (executor == null || state != State.OPEN || !flushScheduled.compareAndSet(false, true)) {
            return;
        }
        executor.execute(() -> {
            flushScheduled.set(false);
            try {
                if (state == State.OPEN) {
                    flush();
                }
            } catch (IOException e) {
                lastMaintenanceError = e;
                LOG.log(Level.WARNING, "background flush of " + directory + " failed; will retry on the next trigger", e);
            } catch (IllegalStateException e) {
                if (state == State.OPEN) {
                    throw e;
                }
            } finally {
                budgetAccount.flushAttemptEnded();
            }
        });
    }

    private void scheduleCompaction(CompactionCause cause) {
        var executor = environment.maintenance();
        if (executor == null || state != State.OPEN || !compactionScheduled.compareAndSet(false, true)) {
            return;
        }
        executor.execute(() -> {
            compactionScheduled.set(false);
            try {
                if (state == State.OPEN && compact(environment.gcHorizonCts()) && cause == CompactionCause.DEAD_ENTRIES) {
                    compactionsForDeadEntries.incrementAndGet();
                }
            } catch (IOException e) {
                lastMaintenanceError = e;
                LOG.log(Level.WARNING, "background compaction of " + directory + " failed; will retry on the next trigger", e);
            } catch (IllegalStateException e) {
                if (state == State.OPEN) {
                    throw e;
                }
            }
        });
    }

    /** Counters and sizes of this store, for heartbeats and dashboards. */
    public StoreStats stats() {
        StoreView v = view;
        long tableBytes = 0;
        long tableEntries = 0;
        for (TableHandle t : v.tables) {
            tableBytes += t.info().fileBytes();
            tableEntries += t.info().entryCount();
        }
        long memBytes = 0;
        for (MemTable m : v.memtables()) {
            memBytes += m.sizeBytes();
        }
        IOException error = lastMaintenanceError;
        return new StoreStats(memBytes, v.frozen.size(), v.tables.size(), tableBytes, tableEntries, flushCount.get(),
                compactionCount.get(), versionsDroppedByCompaction.get(), versionsDroppedByFlush.get(), scanTableEntriesRead.sum(),
                scanDeadEntriesSkipped.sum(), compactionsForDeadEntries.get(), error == null ? null : error.toString());
    }

    /**
     * The largest commit timestamp of any version in the store (memtables and tables), or -1 if
     * it is empty. A new owner starts its timestamps above it, so new commits order after old ones.
     */
    public long maxCts() {
        StoreView v = acquire();
        try {
            long max = -1;
            for (MemTable m : v.memtables()) {
                max = Math.max(max, m.maxCts());
            }
            for (TableHandle t : v.tables) {
                max = Math.max(max, t.info().maxCts());
            }
            return max;
        } finally {
            v.release();
        }
    }

    /** The manifest as last written or read. */
    public Manifest manifest() {
        installLock.lock();
        try {
            return manifest;
        } finally {
            installLock.unlock();
        }
    }

    public String directory() {
        return directory;
    }

    /**
     * Clean hand-over: flushes everything, writes a manifest that names no write-ahead log (the
     * tables hold every version, so the next owner replays nothing and this owner's log segments
     * may be deleted), and closes.
     *
     * <p>REQUIRES: the owner stopped admitting commits to this partition and every commit it
     * logged for it has been applied.
     */
    public void closeAfterFlush() throws IOException {
        maintenancePaused = false;
        flushLock.lock();
        try {
            // The last flush's manifest is the hand-over's: it names no log once the memtables
            // are empty, so a hand-over that flushes writes one manifest, not two.
            handingOver = true;
            flush();
            installLock.lock();
            try {
                checkOpen("closeAfterFlush");
                StoreView current = view;
                if (!current.active.isEmpty() || !current.frozen.isEmpty()) {
                    throw new IllegalStateException("closeAfterFlush of " + directory
                            + ": versions were applied during the final flush; stop admitting commits first");
                }
                if (!manifest.replayPoints().isEmpty()) {
                    writeManifest(current);
                }
            } finally {
                installLock.unlock();
            }
            close();
        } finally {
            handingOver = false;
            flushLock.unlock();
        }
    }

    /**
     * Closes the store without flushing (the owner flushes first for a clean hand-over; after a
     * crash the WAL has everything). Readers holding a view finish with it first.
     */
    @Override
    public void close() {
        applyLock.writeLock().lock();
        installLock.lock();
        try {
            if (state == State.CLOSED) {
                return;
            }
            state = State.CLOSED;
            StoreView last = view;
            long frozenBytes = 0;
            for (MemTable m : last.frozen) {
                frozenBytes += m.sizeBytes();
            }
            budgetAccount.close(last.active.sizeBytes(), frozenBytes);
            last.release();
            flushed.signalAll();
        } finally {
            installLock.unlock();
            applyLock.writeLock().unlock();
        }
    }
}
