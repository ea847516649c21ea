package org.elastras.otm.txn;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.elastras.client.protocol.CtsRange;

/**
 * A set of CTSs kept as disjoint, non-adjacent ranges (adjacent ones are merged). Plain data, not
 * thread-safe: {@link RangeTimestampSource} guards it.
 */
final class CtsRangeSet {

    /** First CTS -> last CTS (inclusive). */
    private final TreeMap<Long, Long> ranges = new TreeMap<>();

    /** Adds [{@code from}, {@code to}]; it must not overlap what is there. */
    void add(long from, long to) {
        if (to < from) {
            throw new IllegalArgumentException("empty CTS range [" + from + ", " + to + "]");
        }
        Map.Entry<Long, Long> below = ranges.floorEntry(to);
        if (below != null && below.getValue() >= from) {
            throw new IllegalStateException("CTS range [" + from + ", " + to + "] overlaps [" + below.getKey() + ", "
                    + below.getValue() + "]: a CTS was counted twice");
        }
        long start = from;
        long end = to;
        Map.Entry<Long, Long> before = ranges.lowerEntry(from);
        if (before != null && before.getValue() == from - 1) {
            start = before.getKey();
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

    /** Removes [{@code from}, {@code to}], which must lie wholly inside this set. */
    void remove(long from, long to) {
        Map.Entry<Long, Long> holder = ranges.floorEntry(from);
        if (holder == null || holder.getValue() < to) {
            throw new IllegalStateException("CTS range [" + from + ", " + to + "] is not in the set " + this);
        }
        ranges.remove(holder.getKey());
        if (holder.getKey() < from) {
            ranges.put(holder.getKey(), from - 1);
        }
        if (holder.getValue() > to) {
            ranges.put(to + 1, holder.getValue());
        }
    }

    /** Removes and returns up to {@code countMax} ranges, lowest first. */
    List<CtsRange> take(int countMax) {
        List<CtsRange> out = new ArrayList<>(Math.min(countMax, ranges.size()));
        while (out.size() < countMax && !ranges.isEmpty()) {
            Map.Entry<Long, Long> e = ranges.pollFirstEntry();
            out.add(new CtsRange(e.getKey(), e.getValue()));
        }
        return out;
    }

    /** Every range, lowest first. */
    List<CtsRange> list() {
        List<CtsRange> out = new ArrayList<>(ranges.size());
        ranges.forEach((first, last) -> out.add(new CtsRange(first, last)));
        return out;
    }

    int rangeCount() {
        return ranges.size();
    }

    boolean isEmpty() {
        return ranges.isEmpty();
    }

    @Override
    public String toString() {
        return list().toString();
    }
}
