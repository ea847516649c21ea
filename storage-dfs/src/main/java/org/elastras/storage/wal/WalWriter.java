package org.elastras.storage.wal;

import java.io.Closeable;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import org.HdrHistogram.Histogram;
import org.elastras.storage.dfs.Dfs;
import org.elastras.storage.dfs.DfsOutput;
import org.elastras.storage.util.LimitExceededException;

/**
 * The write-ahead log writer of one OTM, with group commit: callers {@link #append} records from
 * any thread; one writer thread takes everything queued, writes it, ends the batch with one
 * {@code sync} and only then completes the batch's futures. Thread-safe: every public method may
 * be called from any thread.
 *
 * <p>Each writer owns a new segment from {@link #open} on and rolls to further new segments; it
 * never appends to a segment an earlier writer left. The header of its first segment records where
 * the valid records of the previous segment end (its torn tail, if any, is ignored from then on).
 *
 * <p>If a write or sync fails the writer is dead: the durability of everything not yet
 * acknowledged is unknown, so every pending future fails with the cause and every later
 * {@code append} throws. The owner must then stop using this log (reopen elsewhere, recover).
 *
 * <p>Fencing: when the master fences a dead OTM's log it renames the directory and records the
 * fence point ({@link WalFenceMarker}). A zombie writer that does not know yet must not
 * acknowledge anything recovery will not see. With {@link WalFenceCheck#EVERY_BATCH} it checks,
 * after each batch's sync and before acknowledging, that its segment is still at its path; at
 * every roll it checks that the old segment is still there after the new one was created. If not,
 * the writer dies with an IOException saying the log was fenced (outcome of the batch unknown).
 * A writer refuses to open a directory that has a {@code FENCE} file.
 *
 * <p>Futures complete on the writer thread: dependent stages must be short or {@code *Async}.
 */
public final class WalWriter implements Closeable {

    /** Highest sync latency the histogram tracks exactly: one minute, in microseconds. */
    private static final long SYNC_LATENCY_MICROS_TRACKED_MAX = 60_000_000L;

    private final Dfs dfs;
    private final String walDirectory;
    private final WalOptions options;
    private final Thread thread;

    /** Guards the queue, the tail position and the lifecycle fields below. */
    private final ReentrantLock lock = new ReentrantLock();
    /** Signalled when a record is queued while the writer thread waits, and on close. */
    private final Condition queueNotEmpty = lock.newCondition();
    /** Signalled when the writer thread takes the queue or the writer stops. */
    private final Condition queueNotFull = lock.newCondition();

    /** Guarded by {@link #lock}: records waiting for the writer thread, in log order. */
    private ArrayList<Pending> queue = new ArrayList<>();
    /** Guarded by {@link #lock}: frame bytes in {@link #queue}. */
    private long queuedBytes;
    /** Guarded by {@link #lock}: segment of the next record to be queued. */
    private long tailSegment;
    /** Guarded by {@link #lock}: offset of the next record to be queued in {@link #tailSegment}. */
    private long tailOffset;
    /** Guarded by {@link #lock}: set by {@link #close}; no appends after it. */
    private boolean closing;
    /** Guarded by {@link #lock}: why the writer died, or null while it is healthy. */
    private Throwable failure;
    /** Guarded by {@link #lock}: the writer thread is waiting on {@link #queueNotEmpty}. */
    private boolean writerWaiting;
    /** Guarded by {@link #lock}: appenders waiting on {@link #queueNotFull}. */
    private int appendersWaiting;

    /** Writer thread only: the open segment and its number. */
    private DfsOutput out;
    private long outSegment;
    /** Read by any thread, written by the writer thread: the segment {@link #out} writes. */
    private volatile long currentSegment;

    /** Guards the metrics fields; held briefly by the writer thread once per batch. */
    private final Object metricsLock = new Object();
    private long batches;
    private long records;
    private long bytes;
    private long batchRecordsMax;
    private final Histogram syncLatencyMicros = new Histogram(SYNC_LATENCY_MICROS_TRACKED_MAX, 2);

    /** A queued record: its frame, the position it was given, and who waits for it. */
    private static final class Pending {
        final byte[] frame;
        final WalPosition position;
        final CompletableFuture<WalPosition> acknowledged = new CompletableFuture<>();

        Pending(byte[] frame, WalPosition position) {
            this.frame = frame;
            this.position = position;
        }
    }

    private WalWriter(Dfs dfs, String walDirectory, WalOptions options, DfsOutput out, long segment) {
        this.dfs = dfs;
        this.walDirectory = walDirectory;
        this.options = options;
        this.out = out;
        this.outSegment = segment;
        this.currentSegment = segment;
        this.tailSegment = segment;
        this.tailOffset = WalFormat.HEADER_BYTES;
        this.thread = new Thread(this::run, "wal-writer[" + walDirectory + "]");
        this.thread.setDaemon(true);
    }

    /**
     * Opens a writer on a WAL directory: reads the last existing segment to find where its valid
     * records end (so a torn tail is settled now, once), then creates and syncs the header of a
     * new segment numbered after the highest existing one. A last segment whose own creation was
     * torn (shorter than a header, or a zero header) holds no records and is deleted first.
     *
     * @throws org.elastras.storage.util.CorruptionException if the last segment is corrupt
     */
    public static WalWriter open(Dfs dfs, String walDirectory, WalOptions options) throws IOException {
        if (dfs == null || walDirectory == null || options == null) {
            throw new IllegalArgumentException("dfs, walDirectory and options are required");
        }
        if (WalFenceMarker.readOrNull(dfs, walDirectory) != null) {
            throw new IOException("WAL directory " + walDirectory + " is fenced (it has a " + WalFenceMarker.FILE_NAME
                    + " file): its owner was declared dead and its log is read-only; open a log of your own");
        }
        dfs.mkdirs(walDirectory);
        List<Long> segments = new ArrayList<>(WalReader.segments(dfs, walDirectory));
        while (!segments.isEmpty()) {
            long last = segments.get(segments.size() - 1);
            if (WalSegmentReader.readHeaderOrNull(dfs, walDirectory, last) != null) {
                break;
            }
            dfs.delete(Dfs.join(walDirectory, WalFormat.segmentFileName(last)));
            segments.remove(segments.size() - 1);
        }
        long segment = 1;
        long previousEnd = 0;
        if (!segments.isEmpty()) {
            long last = segments.get(segments.size() - 1);
            previousEnd = WalSegmentReader.validEndOfLast(dfs, walDirectory, last);
            segment = last + 1;
        }
        DfsOutput out = createSegment(dfs, walDirectory, segment, previousEnd);
        WalWriter writer = new WalWriter(dfs, walDirectory, options, out, segment);
        writer.thread.start();
        return writer;
    }

    /**
     * Creates a segment and makes its header durable, so a created segment is never torn later.
     * The segment is a log file ({@link Dfs#createLog}): where the DFS allocates its space ahead,
     * it ends in zeros after its records, which readers take for the end of the records.
     */
    private static DfsOutput createSegment(Dfs dfs, String walDirectory, long segment, long previousEnd)
            throws IOException {
        DfsOutput created = dfs.createLog(Dfs.join(walDirectory, WalFormat.segmentFileName(segment)));
        try {
            created.write(WalFormat.encodeHeader(segment, previousEnd));
            created.sync();
            return created;
        } catch (IOException | RuntimeException e) {
            try {
                created.close();
            } catch (IOException suppressed) {
                e.addSuppressed(suppressed);
            }
            throw e;
        }
    }

    /**
     * Queues a record for the log. Encoding and limit checks happen here, on the caller's thread;
     * if the queue is full this blocks up to {@code appendWaitMillisMax}.
     *
     * @return completes with the record's position once a sync covering it returned, or
     *     exceptionally (an {@link IOException} whose cause is the DFS error) if the writer died
     * @throws LimitExceededException if the record breaks a limit; nothing was queued
     * @throws IllegalStateException if the writer is closed or dead (the cause says why), or the
     *     calling thread was interrupted while waiting for queue space
     * @throws RejectedExecutionException if the queue stayed full for {@code appendWaitMillisMax}
     */
    public CompletableFuture<WalPosition> append(WalRecord record) {
        if (record == null) {
            throw new IllegalArgumentException("record is null");
        }
        byte[] frame = WalFormat.encodeFrame(record, options.limits());
        lock.lock();
        try {
            checkUsable();
            if (!fits(frame.length)) {
                awaitSpace(frame.length);
            }
            if (tailOffset > WalFormat.HEADER_BYTES && tailOffset + frame.length > options.segmentBytesMax()) {
                tailSegment++;
                tailOffset = WalFormat.HEADER_BYTES;
            }
            Pending pending = new Pending(frame, new WalPosition(tailSegment, tailOffset));
            tailOffset += frame.length;
            queue.add(pending);
            queuedBytes += frame.length;
            if (writerWaiting) {
                writerWaiting = false;
                queueNotEmpty.signal();
            }
            return pending.acknowledged;
        } finally {
            lock.unlock();
        }
    }

    /**
     * Queues several records at once, all or none, so that one writer batch (one sync) covers all
     * of them unless a segment roll or the queue limits split them. Encoding and limit checks
     * happen here, on the caller's thread, for every record before any is queued; if the queue
     * has no room for all of them this blocks up to {@code appendWaitMillisMax}.
     *
     * @return one future per record, in order, each as {@link #append}'s
     * @throws LimitExceededException if any record breaks a limit; nothing was queued
     * @throws IllegalStateException as {@link #append}; nothing was queued
     * @throws RejectedExecutionException as {@link #append}; nothing was queued
     */
    public List<CompletableFuture<WalPosition>> appendAll(List<WalRecord> records) {
        if (records == null || records.isEmpty()) {
            throw new IllegalArgumentException("records is null or empty");
        }
        byte[][] frames = new byte[records.size()][];
        long frameBytes = 0;
        for (int i = 0; i < frames.length; i++) {
            if (records.get(i) == null) {
                throw new IllegalArgumentException("record " + i + " is null");
            }
            frames[i] = WalFormat.encodeFrame(records.get(i), options.limits());
            frameBytes += frames[i].length;
        }
        List<CompletableFuture<WalPosition>> acknowledged = new ArrayList<>(frames.length);
        lock.lock();
        try {
            checkUsable();
            if (!fits(frames.length, frameBytes)) {
                awaitSpace(frames.length, frameBytes);
            }
            for (byte[] frame : frames) {
                if (tailOffset > WalFormat.HEADER_BYTES && tailOffset + frame.length > options.segmentBytesMax()) {
                    tailSegment++;
                    tailOffset = WalFormat.HEADER_BYTES;
                }
                Pending pending = new Pending(frame, new WalPosition(tailSegment, tailOffset));
                tailOffset += frame.length;
                queue.add(pending);
                queuedBytes += frame.length;
                acknowledged.add(pending.acknowledged);
            }
            if (writerWaiting) {
                writerWaiting = false;
                queueNotEmpty.signal();
            }
            return acknowledged;
        } finally {
            lock.unlock();
        }
    }

    /** Requires {@link #lock}. A record always fits an empty queue, so that no size can starve. */
    private boolean fits(int frameBytes) {
        return fits(1, frameBytes);
    }

    /** Requires {@link #lock}. Records added together always fit an empty queue, so that no size can starve. */
    private boolean fits(int records, long frameBytes) {
        return queue.isEmpty() || (queue.size() + records <= options.queueRecordsMax()
                && queuedBytes + frameBytes <= options.queueBytesMax());
    }

    /** Requires {@link #lock}. */
    private void checkUsable() {
        if (failure != null) {
            throw new IllegalStateException("WAL writer for " + walDirectory + " is dead after a DFS failure ("
                    + failure + "); nothing more can be logged: reopen the log", failure);
        }
        if (closing) {
            throw new IllegalStateException("WAL writer for " + walDirectory + " is closed");
        }
    }

    /** Requires {@link #lock}. Waits until the frame fits, bounded by appendWaitMillisMax. */
    private void awaitSpace(int frameBytes) {
        awaitSpace(1, frameBytes);
    }

    /** Requires {@link #lock}. Waits until the frames fit, bounded by appendWaitMillisMax. */
    private void awaitSpace(int records, long frameBytes) {
        long waitNanos = TimeUnit.MILLISECONDS.toNanos(options.appendWaitMillisMax());
        long deadline = System.nanoTime() + waitNanos;
        appendersWaiting++;
        try {
            while (!fits(records, frameBytes)) {
                long remainingNanos = deadline - System.nanoTime();
                if (remainingNanos <= 0) {
                    throw new RejectedExecutionException("WAL queue for " + walDirectory + " stayed full ("
                            + queue.size() + " records, " + queuedBytes + " bytes; limits queueRecordsMax="
                            + options.queueRecordsMax() + ", queueBytesMax=" + options.queueBytesMax() + ") for "
                            + options.appendWaitMillisMax() + " ms: the DFS is slower than the commit rate;"
                            + " the record was not logged, retry later");
                }
                try {
                    queueNotFull.awaitNanos(remainingNanos);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new IllegalStateException("interrupted while waiting for WAL queue space; the record"
                            + " was not logged", e);
                }
                checkUsable();
            }
        } finally {
            appendersWaiting--;
        }
    }

    /** Where the next record will start; at or before every record appended after this call. */
    public WalPosition endPosition() {
        lock.lock();
        try {
            return new WalPosition(tailSegment, tailOffset);
        } finally {
            lock.unlock();
        }
    }

    /** Counters since {@link #open}. */
    public WalMetrics metrics() {
        synchronized (metricsLock) {
            return new WalMetrics(batches, records, bytes, batches == 0 ? 0 : (double) records / batches,
                    batchRecordsMax, syncLatencyMicros.getValueAtPercentile(50),
                    syncLatencyMicros.getValueAtPercentile(99), syncLatencyMicros.getMaxValue(),
                    Math.round(syncLatencyMicros.getMean()));
        }
    }

    /**
     * Deletes the closed segments every record of which is before {@code position}: those numbered
     * below {@code position.segment()}. Never the segment being written. Oldest first, so that a
     * crash in the middle leaves the remaining segments contiguous.
     */
    public void deleteSegmentsBefore(WalPosition position) throws IOException {
        if (position == null) {
            throw new IllegalArgumentException("position is null");
        }
        long bound = Math.min(position.segment(), currentSegment);
        for (long segment : WalReader.segments(dfs, walDirectory)) {
            if (segment >= bound) {
                break;
            }
            dfs.delete(Dfs.join(walDirectory, WalFormat.segmentFileName(segment)));
        }
    }

    /**
     * Stops logging at once, from any thread: records still queued are not written and their
     * appends fail; every later append fails. A batch the writer thread is already writing
     * completes (those records may be durable). The owner calls this when its lease is lost, so a
     * zombie logs nothing more once it knows. Idempotent; {@link #close()} afterwards throws.
     */
    public void fence(String reason) {
        List<Pending> queued;
        IllegalStateException fenced = new IllegalStateException("WAL " + walDirectory + " fenced: " + reason);
        lock.lock();
        try {
            if (failure != null) {
                return;
            }
            failure = fenced;
            queued = queue;
            queue = new ArrayList<>();
            queuedBytes = 0;
            queueNotEmpty.signalAll();
            queueNotFull.signalAll();
        } finally {
            lock.unlock();
        }
        IOException failed = new IOException("WAL " + walDirectory + " was fenced (" + reason
                + ") before this record was written; it is not logged", fenced);
        for (Pending pending : queued) {
            pending.acknowledged.completeExceptionally(failed);
        }
    }

    /**
     * Waits until every queued record is written and synced, then closes the segment. Idempotent.
     *
     * @throws IOException if the writer died (the cause is the DFS failure)
     */
    @Override
    public void close() throws IOException {
        lock.lock();
        try {
            closing = true;
            queueNotEmpty.signal();
            queueNotFull.signalAll();
        } finally {
            lock.unlock();
        }
        boolean interrupted = false;
        while (thread.isAlive()) {
            try {
                thread.join();
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
        Throwable died;
        lock.lock();
        try {
            died = failure;
        } finally {
            lock.unlock();
        }
        if (died != null) {
            throw new IOException("WAL writer for " + walDirectory + " failed before close: " + died, died);
        }
    }

    /** The writer thread: take the queue, write, sync once, acknowledge; until closed or failed. */
    private void run() {
        ArrayList<Pending> spare = new ArrayList<>();
        ArrayList<Pending> batch = null;
        try {
            while (true) {
                lock.lock();
                try {
                    while (queue.isEmpty() && !closing && failure == null) {
                        writerWaiting = true;
                        queueNotEmpty.awaitUninterruptibly();
                    }
                    writerWaiting = false;
                    if (queue.isEmpty()) {
                        break;
                    }
                    batch = queue;
                    queue = spare;
                    queuedBytes = 0;
                    if (appendersWaiting > 0) {
                        queueNotFull.signalAll();
                    }
                } finally {
                    lock.unlock();
                }
                writeBatch(batch);
                if (options.fenceCheck() == WalFenceCheck.EVERY_BATCH) {
                    checkNotFenced(outSegment);
                }
                for (int i = 0; i < batch.size(); i++) {
                    Pending pending = batch.get(i);
                    pending.acknowledged.complete(pending.position);
                }
                batch.clear();
                spare = batch;
                batch = null;
            }
            out.close();
        } catch (Throwable t) {
            die(t, batch);
        }
    }

    /** Writer thread only. Writes a batch, rolling segments as the positions say, then syncs. */
    private void writeBatch(List<Pending> batch) throws IOException {
        long batchBytes = 0;
        for (int i = 0; i < batch.size(); i++) {
            Pending pending = batch.get(i);
            if (pending.position.segment() != outSegment) {
                roll(pending.position.segment());
            }
            if (out.position() != pending.position.offset()) {
                throw new IllegalStateException("WAL segment " + outSegment + " is at offset " + out.position()
                        + " but the next record was given offset " + pending.position.offset());
            }
            out.write(pending.frame);
            batchBytes += pending.frame.length;
        }
        long startNanos = System.nanoTime();
        endBatch();
        long syncMicros = (System.nanoTime() - startNanos) / 1000;
        synchronized (metricsLock) {
            batches++;
            records += batch.size();
            bytes += batchBytes;
            batchRecordsMax = Math.max(batchRecordsMax, batch.size());
            syncLatencyMicros.recordValue(Math.min(syncMicros, SYNC_LATENCY_MICROS_TRACKED_MAX));
        }
    }

    /** Writer thread only: makes the written bytes durable (SYNC) or visible (FLUSH). */
    private void endBatch() throws IOException {
        if (options.durability() == WalDurability.SYNC) {
            out.sync();
        } else {
            out.flush();
        }
    }

    /**
     * Writer thread only: fails (so the batch is not acknowledged) if {@code segment} is no longer
     * at its path, i.e. the master renamed the log directory to fence this writer.
     *
     * <p>Why this is enough for an acknowledged record never to be lost, on any DFS: a batch is
     * acknowledged only if its sync returned before this check, and this check saw the segment at
     * its original path, so the rename had not happened yet when the sync returned. The synced
     * bytes are therefore in the file that the rename moves (a rename moves the file, it copies
     * nothing), and the master records the fence point after the rename, so the point is at or
     * beyond every acknowledged byte, and every recovery reads them. The segment cannot be in a
     * directory re-created after the rename: {@link #roll} checks that before any record goes into
     * a new segment, and a writer never opens a fenced directory. Once the check fails, nothing is
     * acknowledged again: the writer is dead.
     */
    private void checkNotFenced(long segment) throws IOException {
        String path = Dfs.join(walDirectory, WalFormat.segmentFileName(segment));
        if (!dfs.exists(path)) {
            throw new IOException("WAL segment " + path + " vanished from its path: the log was fenced (renamed"
                    + " by the master, its owner was declared dead); records not yet acknowledged have an unknown"
                    + " outcome and none will be acknowledged");
        }
    }

    /**
     * Writer thread only: ends the current segment and starts the next. After creating the new
     * segment it checks that the old one is still at its path: if the directory was renamed before
     * the create, the create made a new directory under the old name that no recovery reads, and a
     * batch synced there must never be acknowledged. If the old segment is still there after the
     * create, the new segment is in the same directory. The old segment cannot have been deleted by
     * retention meanwhile: it stays {@link #currentSegment} until the check passed.
     */
    private void roll(long nextSegment) throws IOException {
        if (nextSegment != outSegment + 1) {
            throw new IllegalStateException("WAL roll from segment " + outSegment + " to " + nextSegment);
        }
        long end = out.position();
        endBatch();
        out.close();
        DfsOutput created = createSegment(dfs, walDirectory, nextSegment, end);
        try {
            checkNotFenced(outSegment);
        } catch (IOException | RuntimeException e) {
            try {
                created.close();
                dfs.delete(Dfs.join(walDirectory, WalFormat.segmentFileName(nextSegment)));
            } catch (IOException | RuntimeException suppressed) {
                e.addSuppressed(suppressed);
            }
            throw e;
        }
        out = created;
        outSegment = nextSegment;
        currentSegment = nextSegment;
    }

    /** Writer thread only: records the failure and fails the batch, the queue and later appends. */
    private void die(Throwable cause, List<Pending> batch) {
        List<Pending> queued;
        lock.lock();
        try {
            failure = cause;
            queued = queue;
            queue = new ArrayList<>();
            queuedBytes = 0;
            queueNotFull.signalAll();
        } finally {
            lock.unlock();
        }
        IOException failed = new IOException("WAL writer for " + walDirectory + " failed (" + cause
                + "); durability of this record is unknown", cause);
        if (batch != null) {
            for (Pending pending : batch) {
                pending.acknowledged.completeExceptionally(failed);
            }
        }
        for (Pending pending : queued) {
            pending.acknowledged.completeExceptionally(failed);
        }
        try {
            out.close();
        } catch (IOException | RuntimeException e) {
            cause.addSuppressed(e);
        }
    }
}
