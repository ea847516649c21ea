package org.elastras.storage.wal;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.NoSuchElementException;
import org.elastras.storage.dfs.Dfs;
import org.elastras.storage.util.CloseableIterator;
import org.elastras.storage.util.CorruptionException;

/**
 * Replays one OTM's write-ahead log: every record of every segment, in log order, checksums
 * verified. Stateless entry points; each returned iterator belongs to one thread.
 *
 * <p>The segments present when {@link #replay} is called form a chain: consecutive numbers, each
 * segment's records ending exactly where its successor's header says. A gap in the numbers, a
 * bad header or a bad record before a segment's recorded end is corruption. The last segment
 * may end in a torn tail (see {@link WalSegmentReader}). Segments deleted by retention leave the
 * chain starting later, which is not an error.
 *
 * <p>A fenced directory (one with a {@code FENCE} file, see {@link WalFenceMarker}) ends at its
 * fence point: the fenced segment is read as if it were as long as recorded, and segments above
 * it are ignored, so that records a zombie writer appended after the fence are never replayed.
 *
 * <p>Corruption found while iterating surfaces as an {@link UncheckedIOException} whose cause is a
 * {@link CorruptionException} naming the file and offset; {@link #readAll} rethrows that cause.
 */
public final class WalReader {

    private WalReader() {
    }

    /** The segment numbers present in a WAL directory, ascending. Other files are ignored. */
    public static List<Long> segments(Dfs dfs, String walDirectory) throws IOException {
        List<Long> segments = new ArrayList<>();
        for (String name : dfs.list(walDirectory)) {
            long segment = WalFormat.parseSegmentFileName(name);
            if (segment > 0) {
                segments.add(segment);
            }
        }
        segments.sort(null);
        return segments;
    }

    /**
     * Every record whose position is at or after {@code from}, in log order. The chain of
     * segments is checked up front (headers only); records are read lazily.
     *
     * @throws CorruptionException if a segment is missing from the middle of the chain, a header
     *     is bad, or {@code from} (other than {@link WalPosition#START}) lies in a segment that no
     *     longer exists
     */
    public static CloseableIterator<WalEntry> replay(Dfs dfs, String walDirectory, WalPosition from)
            throws IOException {
        if (from == null) {
            throw new IllegalArgumentException("from is null: use WalPosition.START for the whole log");
        }
        WalFenceMarker.Point fence = WalFenceMarker.readOrNull(dfs, walDirectory);
        List<Long> segments = segmentsUpToFence(dfs, walDirectory, fence);
        boolean fromStart = from.equals(WalPosition.START);
        if (!fromStart && (segments.isEmpty() || segments.get(0) > from.segment())) {
            // Retention deletes only segments no partition needs; a replay point inside a deleted
            // segment means records someone needs are gone. Never start silently later.
            throw new CorruptionException(Dfs.join(walDirectory, WalFormat.segmentFileName(from.segment())), from.offset(),
                    "replay from " + from + " needs WAL segment " + from.segment() + " but "
                    + (segments.isEmpty() ? "the log has no segments" : "the oldest segment left is " + segments.get(0)));
        }
        List<long[]> plan = new ArrayList<>();
        for (int i = 0; i < segments.size(); i++) {
            long segment = segments.get(i);
            if (segment >= from.segment()) {
                plan.add(new long[] {segment, validEnd(dfs, walDirectory, segments, i), fencedBytes(fence, segment)});
            }
        }
        return new ChainIterator(dfs, walDirectory, plan, from);
    }

    /**
     * The records of one segment, with the same rules as {@link #replay}: if a later segment
     * exists, this one must end exactly where that segment's header says.
     */
    public static CloseableIterator<WalEntry> readSegment(Dfs dfs, String walDirectory, long segment)
            throws IOException {
        WalFenceMarker.Point fence = WalFenceMarker.readOrNull(dfs, walDirectory);
        List<Long> segments = segmentsUpToFence(dfs, walDirectory, fence);
        int index = segments.indexOf(segment);
        if (index < 0) {
            throw new java.io.FileNotFoundException("no WAL segment " + segment + " in " + walDirectory
                    + (fence == null ? "" : " up to its fence point (segment " + fence.segment() + ")"));
        }
        return WalSegmentReader.open(dfs, walDirectory, segment, validEnd(dfs, walDirectory, segments, index),
                fencedBytes(fence, segment));
    }

    /**
     * The segments that belong to the log: all of them, or, in a fenced directory, those up to the
     * fence point's segment. A segment above it was created after the fence (by a zombie whose
     * writer then failed before acknowledging anything in it), so it is not part of the log.
     *
     * @throws CorruptionException if the fence names a segment that is missing while older ones
     *     exist (retention only ever deletes a prefix, so it cannot have been deleted)
     */
    private static List<Long> segmentsUpToFence(Dfs dfs, String walDirectory, WalFenceMarker.Point fence)
            throws IOException {
        List<Long> segments = segments(dfs, walDirectory);
        if (fence == null) {
            return segments;
        }
        List<Long> kept = new ArrayList<>(segments.size());
        for (long segment : segments) {
            if (segment <= fence.segment()) {
                kept.add(segment);
            }
        }
        if (!kept.isEmpty() && kept.get(kept.size() - 1) != fence.segment()) {
            throw new CorruptionException(Dfs.join(walDirectory, WalFormat.segmentFileName(fence.segment())), 0,
                    WalFenceMarker.FILE_NAME + " names segment " + fence.segment() + " as the last one, but it is missing"
                    + " and segment " + kept.get(kept.size() - 1) + " exists");
        }
        return kept;
    }

    /** The fence point's length for the fenced segment; every other segment is not capped. */
    private static long fencedBytes(WalFenceMarker.Point fence, long segment) {
        return fence != null && fence.segment() == segment ? fence.segmentBytes() : WalSegmentReader.NOT_FENCED;
    }

    /** Every record at or after {@code from}, loaded into memory (tests, small logs). */
    public static List<WalEntry> readAll(Dfs dfs, String walDirectory, WalPosition from) throws IOException {
        List<WalEntry> entries = new ArrayList<>();
        try (CloseableIterator<WalEntry> it = replay(dfs, walDirectory, from)) {
            while (it.hasNext()) {
                entries.add(it.next());
            }
        } catch (UncheckedIOException e) {
            throw e.getCause();
        }
        return entries;
    }

    /**
     * Where the records of {@code segments[index]} end according to its successor, or
     * {@link WalSegmentReader#LAST_SEGMENT} if it has none (or only a successor whose creation
     * was torn, so that no writer ever judged this segment's tail).
     */
    static long validEnd(Dfs dfs, String walDirectory, List<Long> segments, int index) throws IOException {
        if (index + 1 == segments.size()) {
            return WalSegmentReader.LAST_SEGMENT;
        }
        long segment = segments.get(index);
        long successor = segments.get(index + 1);
        String path = Dfs.join(walDirectory, WalFormat.segmentFileName(successor));
        if (successor != segment + 1) {
            throw new CorruptionException(path, 0, "WAL segment " + (segment + 1) + " is missing between "
                    + segment + " and " + successor);
        }
        WalFormat.SegmentHeader header = WalSegmentReader.readHeaderOrNull(dfs, walDirectory, successor);
        if (header == null) {
            if (index + 2 == segments.size()) {
                return WalSegmentReader.LAST_SEGMENT;
            }
            throw new CorruptionException(path, 0, "segment header is missing but later segments exist");
        }
        if (header.previousSegmentEnd() < WalFormat.HEADER_BYTES) {
            throw new CorruptionException(path, 16, "header says segment " + segment
                    + " did not exist when this one was created, but it does");
        }
        return header.previousSegmentEnd();
    }

    /** Reads the planned segments one after the other, skipping records before {@code from}. */
    private static final class ChainIterator implements CloseableIterator<WalEntry> {
        private final Dfs dfs;
        private final String walDirectory;
        private final List<long[]> plan;
        private final WalPosition from;
        private int nextSegmentIndex;
        private WalSegmentReader current;
        private WalEntry next;
        private boolean closed;

        ChainIterator(Dfs dfs, String walDirectory, List<long[]> plan, WalPosition from) {
            this.dfs = dfs;
            this.walDirectory = walDirectory;
            this.plan = plan;
            this.from = from;
        }

        @Override
        public boolean hasNext() {
            while (next == null && !closed) {
                if (current != null && current.hasNext()) {
                    WalEntry entry = current.next();
                    if (entry.position().compareTo(from) >= 0) {
                        next = entry;
                    }
                    continue;
                }
                if (current != null) {
                    current.close();
                    current = null;
                }
                if (nextSegmentIndex == plan.size()) {
                    return false;
                }
                long[] step = plan.get(nextSegmentIndex++);
                try {
                    current = WalSegmentReader.open(dfs, walDirectory, step[0], step[1], step[2]);
                } catch (CorruptionException e) {
                    throw new UncheckedIOException(e.getMessage(), e);
                } catch (IOException e) {
                    throw new UncheckedIOException("cannot open WAL segment " + step[0] + " in " + walDirectory
                            + ": " + e.getMessage(), e);
                }
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

        @Override
        public void close() {
            closed = true;
            next = null;
            if (current != null) {
                current.close();
                current = null;
            }
        }
    }
}
