package org.elastras.storage.store;

import java.util.List;
import java.util.NoSuchElementException;
import java.util.PriorityQueue;
import org.elastras.storage.util.CloseableIterator;

/**
 * Merges sources that are each sorted by {@link Version#ORDER} into one sorted stream, yielding
 * a version present in several sources (same key and cts) once: applying a version twice is a
 * no-op, so it may sit in a memtable and an SSTable at the same time.
 *
 * <p>Not thread-safe. Closing it closes every source.
 */
final class MergingIterator implements CloseableIterator<Version> {

    private static final class Head {
        final CloseableIterator<Version> source;
        final int rank;
        Version current;

        Head(CloseableIterator<Version> source, int rank) {
            this.source = source;
            this.rank = rank;
        }
    }

    private final List<CloseableIterator<Version>> sources;
    private final PriorityQueue<Head> heap;
    private Version last;
    private int lastRank = -1;
    private Version next;
    private int nextRank;

    MergingIterator(List<CloseableIterator<Version>> sources) {
        this.sources = List.copyOf(sources);
        this.heap = new PriorityQueue<>(Math.max(1, sources.size()), (a, b) -> {
            int c = Version.compare(a.current, b.current);
            return c != 0 ? c : Integer.compare(a.rank, b.rank);
        });
        int rank = 0;
        for (CloseableIterator<Version> s : this.sources) {
            Head h = new Head(s, rank++);
            if (s.hasNext()) {
                h.current = s.next();
                heap.add(h);
            }
        }
    }

    @Override
    public boolean hasNext() {
        while (next == null && !heap.isEmpty()) {
            Head h = heap.poll();
            Version v = h.current;
            if (h.source.hasNext()) {
                h.current = h.source.next();
                heap.add(h);
            }
            if (last != null && Version.compare(last, v) == 0) {
                continue;
            }
            next = v;
            nextRank = h.rank;
        }
        return next != null;
    }

    @Override
    public Version next() {
        if (!hasNext()) {
            throw new NoSuchElementException();
        }
        last = next;
        lastRank = nextRank;
        next = null;
        return last;
    }

    /**
     * The position in the source list of the source the version last returned by {@link #next}
     * came from (the first such source, if several held it), or -1 before the first.
     */
    int lastSourceRank() {
        return lastRank;
    }

    @Override
    public void close() {
        for (CloseableIterator<Version> s : sources) {
            s.close();
        }
    }
}
