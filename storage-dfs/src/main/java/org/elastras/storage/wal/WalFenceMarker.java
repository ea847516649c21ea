package org.elastras.storage.wal;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.nio.file.FileAlreadyExistsException;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.elastras.storage.dfs.Dfs;
import org.elastras.storage.dfs.DfsFile;
import org.elastras.storage.dfs.DfsOutput;
import org.elastras.storage.dfs.HdfsDfs;
import org.elastras.storage.util.ByteCoding;
import org.elastras.storage.util.Checksums;
import org.elastras.storage.util.CorruptionException;

/**
 * The fence point of a fenced WAL directory: the {@code FENCE} file that the master writes into a
 * dead OTM's log directory after renaming it, recording how long the last segment was at fence
 * time (on HDFS its length once its lease is recovered; elsewhere where its valid records end,
 * since a local log file is allocated ahead of its appends). {@link WalReader} never reads a byte
 * of that segment past the recorded length, nor any segment numbered above it, so records a zombie
 * writer appends after the fence are never replayed, by any recovery, however late. Stateless;
 * every method may be called from any thread, but only one process (the active master) should
 * {@link #mark} a given directory at a time.
 *
 * <pre>
 * file "FENCE" in the WAL directory, exactly 28 bytes, big-endian:
 *   u32 magic            0x45574C46 ("EWLF")
 *   u32 format version   1
 *   u64 last segment     the highest segment number present at fence time, or 0 if none was
 *   u64 segment length   bytes of that segment that belong to the log (0 if no segment)
 *   u32 checksum         CRC-32C of the 24 bytes above
 * </pre>
 *
 * <p>On HDFS, {@link #mark} first recovers the lease of the last segment and waits until the file
 * is closed, so the recorded length is final and a zombie's next append or sync fails outright.
 * On the local DFS a zombie can keep writing to the renamed file; its {@link WalWriter} refuses to
 * acknowledge anything once the segment has vanished from its path, and the recorded length hides
 * whatever it wrote from readers.
 */
public final class WalFenceMarker {

    /** Name of the fence file inside a WAL directory. */
    public static final String FILE_NAME = "FENCE";
    /** "EWLF". */
    public static final int MAGIC = 0x45574C46;
    public static final int VERSION = 1;
    public static final int FILE_BYTES = 28;
    /** Default bound on the wait for HDFS lease recovery of the last segment. */
    public static final long LEASE_RECOVERY_WAIT_MILLIS_DEFAULT = 60_000;

    private static final String TEMPORARY_NAME = FILE_NAME + ".tmp";
    private static final long LEASE_RECOVERY_WAIT_MILLIS_MAX = 3_600_000;
    private static final long LEASE_POLL_MILLIS = 100;

    /** Where a fenced log ends: the last segment and its length. Immutable. */
    public record Point(long segment, long segmentBytes) {
        public Point {
            if (segment < 0 || segmentBytes < 0 || (segment == 0 && segmentBytes != 0)) {
                throw new IllegalArgumentException("bad fence point: segment " + segment + ", length " + segmentBytes);
            }
        }
    }

    private WalFenceMarker() {
    }

    /**
     * Records the fence point of a WAL directory that no live writer may use any more (the master
     * renamed it). Idempotent: an existing {@code FENCE} is kept and returned, so the point never
     * moves once written. Call after the rename, before anyone recovers from the directory.
     *
     * @param leaseRecoveryWaitMillisMax on HDFS, how long to wait for the last segment's lease
     *     recovery to close the file
     * @throws IOException if the DFS fails or, on HDFS, the file is not closed within the wait
     *     (nothing was recorded; call again)
     * @throws CorruptionException if an existing {@code FENCE} is corrupt
     */
    public static Point mark(Dfs dfs, String walDirectory, long leaseRecoveryWaitMillisMax) throws IOException {
        if (dfs == null || walDirectory == null) {
            throw new IllegalArgumentException("dfs and walDirectory are required");
        }
        if (leaseRecoveryWaitMillisMax < 0 || leaseRecoveryWaitMillisMax > LEASE_RECOVERY_WAIT_MILLIS_MAX) {
            throw new IllegalArgumentException("leaseRecoveryWaitMillisMax must be in [0, "
                    + LEASE_RECOVERY_WAIT_MILLIS_MAX + "], got " + leaseRecoveryWaitMillisMax);
        }
        Point existing = readOrNull(dfs, walDirectory);
        if (existing != null) {
            return existing;
        }
        List<Long> segments = WalReader.segments(dfs, walDirectory);
        Point point = new Point(0, 0);
        if (!segments.isEmpty()) {
            long last = segments.get(segments.size() - 1);
            String path = Dfs.join(walDirectory, WalFormat.segmentFileName(last));
            if (dfs instanceof HdfsDfs hdfs) {
                recoverLease(hdfs, path, leaseRecoveryWaitMillisMax);
                point = new Point(last, dfs.length(path));
            } else {
                point = new Point(last, validEndOrLength(dfs, walDirectory, last, path));
            }
        }
        String temporary = Dfs.join(walDirectory, TEMPORARY_NAME);
        dfs.delete(temporary); // left by an earlier attempt that died before its rename
        try (DfsOutput out = dfs.create(temporary)) {
            out.write(encode(point));
            out.sync();
        }
        try {
            dfs.rename(temporary, Dfs.join(walDirectory, FILE_NAME));
        } catch (FileAlreadyExistsException e) {
            // Another attempt won: its point stands.
            dfs.delete(temporary);
            Point won = readOrNull(dfs, walDirectory);
            if (won == null) {
                throw new IllegalStateException(FILE_NAME + " in " + walDirectory + " existed at rename but not after");
            }
            return won;
        }
        return point;
    }

    /**
     * Where the records of a fenced log's last segment end, on a DFS where a zombie may still
     * write to it: the end of its valid records, not the file's length. A log file allocated
     * ahead of its appends ({@link Dfs#createLog}) ends in zeros that a zombie's next batch would
     * overwrite; inside a point taken from the length, those records would be replayed by a
     * recovery that ran after them and not by one that ran before. If the segment cannot be read
     * to its end (corrupt), the length, as before: the recovery then reports the corruption.
     */
    private static long validEndOrLength(Dfs dfs, String walDirectory, long segment, String path) throws IOException {
        try {
            return WalSegmentReader.validEndOfLast(dfs, walDirectory, segment);
        } catch (CorruptionException e) {
            return dfs.length(path);
        }
    }

    /**
     * The fence point of a WAL directory, or null if it has no {@code FENCE} file (not fenced).
     *
     * @throws CorruptionException if the file is not exactly a valid fence record
     */
    public static Point readOrNull(Dfs dfs, String walDirectory) throws IOException {
        String path = Dfs.join(walDirectory, FILE_NAME);
        if (!dfs.exists(path)) {
            return null;
        }
        byte[] bytes;
        try (DfsFile file = dfs.open(path)) {
            long length = file.length();
            if (length != FILE_BYTES) {
                throw new CorruptionException(path, 0, "fence file has " + length + " bytes, expected " + FILE_BYTES);
            }
            bytes = file.readFully(0, FILE_BYTES);
        } catch (FileNotFoundException e) {
            return null;
        }
        return decode(path, bytes);
    }

    static byte[] encode(Point point) {
        byte[] bytes = new byte[FILE_BYTES];
        ByteCoding.putInt(bytes, 0, MAGIC);
        ByteCoding.putInt(bytes, 4, VERSION);
        ByteCoding.putLong(bytes, 8, point.segment());
        ByteCoding.putLong(bytes, 16, point.segmentBytes());
        ByteCoding.putInt(bytes, 24, Checksums.crc32c(bytes, 0, 24));
        return bytes;
    }

    static Point decode(String path, byte[] bytes) throws CorruptionException {
        if (ByteCoding.getInt(bytes, 24) != Checksums.crc32c(bytes, 0, 24)) {
            throw new CorruptionException(path, 24, "fence file checksum mismatch");
        }
        if (ByteCoding.getInt(bytes, 0) != MAGIC) {
            throw new CorruptionException(path, 0, "bad fence magic " + Integer.toHexString(ByteCoding.getInt(bytes, 0)));
        }
        int version = ByteCoding.getInt(bytes, 4);
        if (version != VERSION) {
            throw new CorruptionException(path, 4, "unsupported fence format version " + version
                    + " (this build reads " + VERSION + ")");
        }
        long segment = ByteCoding.getLong(bytes, 8);
        long segmentBytes = ByteCoding.getLong(bytes, 16);
        if (segment < 0 || segmentBytes < 0 || (segment == 0 && segmentBytes != 0)) {
            throw new CorruptionException(path, 8, "fence fields out of range: segment " + segment + ", length "
                    + segmentBytes);
        }
        return new Point(segment, segmentBytes);
    }

    /**
     * Recovers the HDFS lease of a file and waits, bounded, until the namenode reports it closed:
     * from then on its length is final and its old writer's appends and syncs fail.
     */
    private static void recoverLease(HdfsDfs hdfs, String relativePath, long waitMillisMax) throws IOException {
        FileSystem fs = hdfs.fileSystem();
        if (!(fs instanceof DistributedFileSystem distributed)) {
            throw new IOException("cannot recover the lease of " + relativePath + ": " + hdfs.uri()
                    + " is not served by a DistributedFileSystem but by " + fs.getClass().getName());
        }
        String rootPath = hdfs.uri().getPath();
        Path file = new Path(rootPath == null || rootPath.isEmpty() ? "/" : rootPath, relativePath);
        long deadlineNanos = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(waitMillisMax);
        boolean closed = distributed.recoverLease(file);
        while (!closed) {
            if (System.nanoTime() - deadlineNanos >= 0) {
                throw new IOException("lease recovery of " + file + " did not close it within " + waitMillisMax
                        + " ms; the log is not fenced yet: retry the fence");
            }
            try {
                Thread.sleep(LEASE_POLL_MILLIS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new InterruptedIOException("interrupted while waiting for lease recovery of " + file);
            }
            closed = distributed.isFileClosed(file);
        }
    }
}
