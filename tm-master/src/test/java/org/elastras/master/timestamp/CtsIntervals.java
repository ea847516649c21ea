package org.elastras.master.timestamp;

import org.elastras.client.protocol.CtsRange;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/** A set of CTSs kept as disjoint ranges, for simulated OTMs. Not thread-safe. */
final class CtsIntervals {

    private final TreeMap<Long, Long> ranges = new TreeMap<>();

    void add(long from, long to) {
        Map.Entry<Long, Long> below = ranges.floorEntry(to);
        if (below != null && below.getValue() >= from) {
            throw new IllegalStateException("[" + from + ", " + to + "] overlaps [" + below.getKey() + ", " + below.getValue() + "]");
        }
        long start = from;
        long end = to;
        Map.Entry<Long, Long> before = ranges.lowerEntry(from);
        if (before != null && before.getValue() == from - 1) {
            start = before.getKey();
            ranges.remove(start);
        }
        Long after = ranges.remove(to + 1);
        if (after != null) {
            end = after;
        }
        ranges.put(start, end);
    }

    void add(CtsRange range) {
        add(range.firstCts(), range.lastCts());
    }

    /** Removes [from, to], which must be wholly in the set. */
    void remove(long from, long to) {
        Map.Entry<Long, Long> holder = ranges.floorEntry(from);
        if (holder == null || holder.getValue() < to) {
            throw new IllegalStateException("[" + from + ", " + to + "] is not in the set");
        }
        ranges.remove(holder.getKey());
        if (holder.getKey() < from) {
            ranges.put(holder.getKey(), from - 1);
        }
        if (holder.getValue() > to) {
            ranges.put(to + 1, holder.getValue());
        }
    }

    void removeAll(List<CtsRange> list) {
        for (CtsRange range : list) {
            remove(range.firstCts(), range.lastCts());
        }
    }

    List<CtsRange> toRanges() {
        List<CtsRange> list = new ArrayList<>(ranges.size());
        ranges.forEach((first, last) -> list.add(new CtsRange(first, last)));
        return list;
    }

    boolean isEmpty() {
        return ranges.isEmpty();
    }

    void clear() {
        ranges.clear();
    }
}
