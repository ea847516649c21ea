package org.elastras.storage.wal;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.NoSuchElementException;
import org.elastras.storage.dfs.Dfs;
import org.elastras.storage.dfs.DfsFile;
import org.elastras.storage.util.ByteCoding;
import org.elastras.storage.util.ByteSource;
import org.elastras.storage.util.CloseableIterator;
import org.elastras.storage.util.CorruptionException;
import org.elastras.storage.util.StorageLimits;

/**
 * Reads the records of one WAL segment in order, verifying every checksum. Not thread-safe: one
 * thread iterates.
 *
 * <p>Where the records end depends on whether the segment has a successor:
 * <ul>
 *   <li>A segment with a successor ends exactly at the offset the successor's header records
 *       ({@code validEnd}); any bad or missing byte before it is corruption, and bytes after it
 *       (a torn tail the next writer already judged when it opened) are ignored.
 *   <li>The last segment ends at the first record that is incomplete or fails its checksum,
 *       provided no valid frame starts anywhere after it (a torn tail: the writer crashed while
 *       writing it). If a valid frame does follow, the bad record is corruption.
 * </ul>
 * Corruption surfaces from {@link #hasNext()} and {@link #next()} as an {@link UncheckedIOException}
 * whose cause is a {@link CorruptionException} naming the file and offset.
 */
public final class WalSegmentReader implements CloseableIterator<WalEntry> {

    /** The loosest limits any writer can be configured with: the reader accepts all of them. */
    static final StorageLimits READ_LIMITS = new StorageLimits(64 * 1024, StorageLimits.HARD_RECORD_BYTES_MAX / 2,
            10_000_000, StorageLimits.HARD_RECORD_BYTES_MAX);

    /** Bytes read from the DFS at a time, so that small records do not each cost a DFS call. */
    private static final int READ_CHUNK_BYTES = 256 * 1024;

    /** Value of {@code validEnd} for the last segment: stop at a torn tail. */
    public static final long LAST_SEGMENT = -1;

    /** Value of {@code fencedBytes} for a segment that is not capped by a fence point. */
    static final long NOT_FENCED = -1;

    private final DfsFile file;
    private final long segment;
    /** Where the records end: the file length for the last segment, else the successor's record. */
    private final long limit;
    private final boolean last;

    private byte[] window = new byte[0];
    private long windowStart;
    private int windowLength;

    /** Offset of the next frame to read. */
    private long position;
    private WalEntry next;
    private boolean finished;

    private WalSegmentReader(DfsFile file, long segment, long limit, boolean last) {
        this.file = file;
        this.segment = segment;
        this.limit = limit;
        this.last = last;
    }

    /**
     * Opens a segment and checks its header.
     *
     * @param validEnd where the successor's header says this segment's records end, or
     *     {@link #LAST_SEGMENT}
     * @throws CorruptionException if the header is bad or the file is shorter than {@code validEnd}
     */
    public static WalSegmentReader open(Dfs dfs, String walDirectory, long segment, long validEnd) throws IOException {
        return open(dfs, walDirectory, segment, validEnd, NOT_FENCED);
    }

    /**
     * Opens a segment like {@link #open(Dfs, String, long, long)}; a last segment of a fenced log
     * is read as if it were {@code fencedBytes} long (see {@link WalFenceMarker}): bytes a zombie
     * appended after the fence do not exist for the reader, and a record cut by the fence point is
     * a torn tail.
     *
     * @param fencedBytes the segment's length recorded in {@code FENCE}, or {@link #NOT_FENCED}
     * @throws CorruptionException also if the file is shorter than {@code fencedBytes}
     */
    static WalSegmentReader open(Dfs dfs, String walDirectory, long segment, long validEnd, long fencedBytes)
            throws IOException {
        if (validEnd != LAST_SEGMENT && validEnd < WalFormat.HEADER_BYTES) {
            throw new IllegalArgumentException("validEnd " + validEnd + " is inside the segment header");
        }
        if (fencedBytes != NOT_FENCED && (fencedBytes < 0 || validEnd != LAST_SEGMENT)) {
            throw new IllegalArgumentException("fencedBytes " + fencedBytes + " applies only to the last segment"
                    + " (validEnd " + validEnd + ")");
        }
        DfsFile file = dfs.open(Dfs.join(walDirectory, WalFormat.segmentFileName(segment)));
        try {
            long length = file.length();
            if (fencedBytes != NOT_FENCED) {
                if (length < fencedBytes) {
                    throw new CorruptionException(file.path(), length, "segment ends at " + length + " but "
                            + WalFenceMarker.FILE_NAME + " says it was " + fencedBytes + " bytes long when fenced");
                }
                length = fencedBytes;
            }
            boolean last = validEnd == LAST_SEGMENT;
            if (!last && length < validEnd) {
                throw new CorruptionException(file.path(), length, "segment ends at " + length
                        + " but the next segment's header says its records end at " + validEnd);
            }
            WalSegmentReader reader = new WalSegmentReader(file, segment, last ? length : validEnd, last);
            reader.readHeader(length);
            return reader;
        } catch (IOException | RuntimeException e) {
            file.close();
            throw e;
        }
    }

    /**
     * Checks the header; for the last segment a header that is short or all zeros is a torn
     * creation (the writer crashed inside {@code open}) and the segment is empty.
     */
    private void readHeader(long length) throws IOException {
        if (length < WalFormat.HEADER_BYTES) {
            if (last) {
                finished = true;
                position = length;
                return;
            }
            throw new CorruptionException(file.path(), 0, "segment of " + length + " bytes has no complete header");
        }
        byte[] header = file.readFully(0, WalFormat.HEADER_BYTES);
        if (last && allZero(header, 0, header.length)) {
            finished = true;
            position = 0;
            return;
        }
        String[] problem = new String[1];
        WalFormat.SegmentHeader decoded = WalFormat.decodeHeader(header, problem);
        if (decoded == null) {
            throw new CorruptionException(file.path(), 0, problem[0]);
        }
        if (decoded.segment() != segment) {
            throw new CorruptionException(file.path(), 8, "header names segment " + decoded.segment()
                    + " but the file name names segment " + segment);
        }
        position = WalFormat.HEADER_BYTES;
    }

    /**
     * Where the valid records of a log's last segment end (0 for a torn creation), read with the
     * torn-tail rule: the offset just after its last record whose frame is complete and intact.
     *
     * @throws CorruptionException if the segment is corrupt
     */
    static long validEndOfLast(Dfs dfs, String walDirectory, long segment) throws IOException {
        try (WalSegmentReader reader = open(dfs, walDirectory, segment, LAST_SEGMENT)) {
            while (reader.hasNext()) {
                reader.next();
            }
            return reader.validEnd();
        } catch (UncheckedIOException e) {
            throw e.getCause();
        }
    }

    /** Reads just the header of a segment, or null if it is short or all zeros (a torn creation). */
    static WalFormat.SegmentHeader readHeaderOrNull(Dfs dfs, String walDirectory, long segment) throws IOException {
        try (DfsFile file = dfs.open(Dfs.join(walDirectory, WalFormat.segmentFileName(segment)))) {
            if (file.length() < WalFormat.HEADER_BYTES) {
                return null;
            }
            byte[] header = file.readFully(0, WalFormat.HEADER_BYTES);
            if (allZero(header, 0, header.length)) {
                return null;
            }
            String[] problem = new String[1];
            WalFormat.SegmentHeader decoded = WalFormat.decodeHeader(header, problem);
            if (decoded == null) {
                throw new CorruptionException(file.path(), 0, problem[0]);
            }
            if (decoded.segment() != segment) {
                throw new CorruptionException(file.path(), 8, "header names segment " + decoded.segment()
                        + " but the file name names segment " + segment);
            }
            return decoded;
        }
    }

    public long segment() {
        return segment;
    }

    /**
     * Where the valid records of this segment end; meaningful once {@link #hasNext()} returned
     * false. A new writer records it in its segment's header.
     */
    long validEnd() {
        if (!finished) {
            throw new IllegalStateException("validEnd() before the segment was read to its end");
        }
        return position;
    }

    @Override
    public boolean hasNext() {
        if (next != null) {
            return true;
        }
        if (finished) {
            return false;
        }
        try {
            next = readRecord();
        } catch (CorruptionException e) {
            finished = true;
            throw new UncheckedIOException(e.getMessage(), e);
        } catch (IOException e) {
            finished = true;
            throw new UncheckedIOException("cannot read WAL segment " + file.path() + " at offset " + position
                    + ": " + e.getMessage(), e);
        }
        if (next == null) {
            finished = true;
        }
        return next != null;
    }

    @Override
    public WalEntry next() {
        if (!hasNext()) {
            throw new NoSuchElementException();
        }
        WalEntry entry = next;
        next = null;
        return entry;
    }

    /** The next record, or null at the end of the segment's records. */
    private WalEntry readRecord() throws IOException {
        if (position == limit) {
            return null;
        }
        long frameStart = position;
        String problem = checkFrame(frameStart);
        if (problem == null) {
            int at = windowIndex(frameStart);
            int bodyBytes = ByteCoding.getInt(window, at);
            WalRecord record;
            try {
                record = WalFormat.decodeBody(window, at + WalFormat.FRAME_HEADER_BYTES, bodyBytes, READ_LIMITS);
            } catch (ByteSource.FormatException e) {
                // The checksum matched, so these are the bytes a writer wrote: never a torn tail.
                throw new CorruptionException(file.path(), frameStart, "record body does not follow the WAL format ("
                        + e.getMessage() + ")");
            }
            position = frameStart + WalFormat.FRAME_HEADER_BYTES + bodyBytes;
            return new WalEntry(new WalPosition(segment, frameStart), record);
        }
        if (!last) {
            throw new CorruptionException(file.path(), frameStart, problem + " before the end (" + limit
                    + ") recorded by the next segment");
        }
        long validAfter = findValidFrameAfter(frameStart);
        if (validAfter >= 0) {
            throw new CorruptionException(file.path(), frameStart, problem + ", but a valid record follows at offset "
                    + validAfter);
        }
        // Torn tail: the writer crashed while writing this record; nothing valid follows it.
        return null;
    }

    /**
     * Checks that a complete frame with a matching checksum starts at {@code frameStart} and ends
     * by {@link #limit}; returns null if so, with the frame then in the window, else the problem.
     */
    private String checkFrame(long frameStart) throws IOException {
        long remaining = limit - frameStart;
        if (remaining < WalFormat.FRAME_HEADER_BYTES) {
            return "incomplete record header (" + remaining + " bytes)";
        }
        int at = ensure(frameStart, WalFormat.FRAME_HEADER_BYTES);
        long bodyBytes = ByteCoding.getInt(window, at) & 0xFFFFFFFFL;
        if (bodyBytes < WalFormat.BODY_BYTES_MIN
                || bodyBytes > READ_LIMITS.recordBytesMax() - WalFormat.FRAME_HEADER_BYTES) {
            return "record length " + bodyBytes + " out of range";
        }
        if (bodyBytes > remaining - WalFormat.FRAME_HEADER_BYTES) {
            return "record of " + bodyBytes + " bytes extends past the end of the segment's records (" + limit + ")";
        }
        at = ensure(frameStart, WalFormat.FRAME_HEADER_BYTES + (int) bodyBytes);
        int stored = ByteCoding.getInt(window, at + 4);
        if (stored != WalFormat.frameChecksum(window, at, (int) bodyBytes)) {
            return "record checksum mismatch";
        }
        return null;
    }

    /**
     * The offset of the first valid frame strictly after {@code badFrame}, or -1 if none. A frame
     * cannot start inside a run of zeros (its length field would be zero), so such runs are
     * skipped whole: a log allocated ahead of its appends ends in up to a megabyte of them.
     */
    private long findValidFrameAfter(long badFrame) throws IOException {
        long candidate = badFrame + 1;
        while (candidate + WalFormat.FRAME_HEADER_BYTES + WalFormat.BODY_BYTES_MIN <= limit) {
            long lengthEnd = candidate + 4;
            int at = ensure(candidate, 4);
            if (window[at] == 0 && window[at + 1] == 0 && window[at + 2] == 0 && window[at + 3] == 0) {
                candidate = Math.max(candidate + 1, nonZeroAtOrAfter(lengthEnd) - 3);
                continue;
            }
            if (checkFrame(candidate) == null) {
                return candidate;
            }
            candidate++;
        }
        return -1;
    }

    /** The offset of the first non-zero byte at or after {@code offset} before {@link #limit}, or {@link #limit}. */
    private long nonZeroAtOrAfter(long offset) throws IOException {
        long at = offset;
        while (at < limit) {
            int n = (int) Math.min(READ_CHUNK_BYTES, limit - at);
            int from = ensure(at, n);
            for (int i = 0; i < n; i++) {
                if (window[from + i] != 0) {
                    return at + i;
                }
            }
            at += n;
        }
        return limit;
    }

    /**
     * Makes {@code [offset, offset + bytes)} of the file available in the window and returns the
     * window index of {@code offset}.
     */
    private int ensure(long offset, int bytes) throws IOException {
        if (offset >= windowStart && offset + bytes <= windowStart + windowLength) {
            return (int) (offset - windowStart);
        }
        int wanted = (int) Math.min(Math.max(bytes, READ_CHUNK_BYTES), limit - offset);
        if (wanted < bytes) {
            throw new IllegalStateException("read of " + bytes + " bytes at " + offset + " past limit " + limit);
        }
        if (window.length < wanted) {
            window = new byte[Math.max(wanted, (int) Math.min(READ_CHUNK_BYTES, limit))];
        }
        file.readFully(offset, window, 0, wanted);
        windowStart = offset;
        windowLength = wanted;
        return 0;
    }

    private int windowIndex(long offset) {
        return (int) (offset - windowStart);
    }

    private static boolean allZero(byte[] bytes, int offset, int length) {
        for (int i = offset; i < offset + length; i++) {
            if (bytes[i] != 0) {
                return false;
            }
        }
        return true;
    }

    @Override
    public void close() {
        finished = true;
        next = null;
        try {
            file.close();
        } catch (IOException e) {
            // Closing a file opened for reading releases resources only; nothing was lost.
        }
    }
}
