package org.elastras.catalog.key;

import java.util.Arrays;
import java.util.List;

/**
 * A half-open range of encoded keys, {@code [start, end)}; an empty {@code end} means +infinity, and
 * the empty {@code start} is the smallest key. Immutable: the arrays are copied in and out.
 *
 * <p>A range is never empty: a bounded end is greater than the start.
 *
 * @param start the first key in the range
 * @param end the first key after the range, or empty for +infinity
 */
public record KeyRange(byte[] start, byte[] end) {

    /** Every key. */
    public static final KeyRange ALL = new KeyRange(new byte[0], new byte[0]);

    public KeyRange {
        if (start == null || end == null) {
            throw new IllegalArgumentException("key range bounds must not be null; use an empty array for the open ends");
        }
        start = start.clone();
        end = end.clone();
        if (end.length > 0 && KeyBytes.compare(start, end) >= 0) {
            throw new IllegalArgumentException("key range start " + KeyBytes.toHex(start)
                    + " is not below its end " + KeyBytes.toHex(end) + "; a range must hold at least one key");
        }
    }

    @Override
    public byte[] start() {
        return start.clone();
    }

    @Override
    public byte[] end() {
        return end.clone();
    }

    /** Whether the end is +infinity. */
    public boolean endUnbounded() {
        return end.length == 0;
    }

    /** Whether {@code key} is in {@code [start, end)}. */
    public boolean contains(byte[] key) {
        return KeyBytes.compare(start, key) <= 0 && (endUnbounded() || KeyBytes.compare(key, end) < 0);
    }

    /** Whether some key is in both ranges. */
    public boolean overlaps(KeyRange other) {
        boolean otherStartsBeforeMyEnd = endUnbounded() || KeyBytes.compare(other.start, end) < 0;
        boolean iStartBeforeOtherEnd = other.endUnbounded() || KeyBytes.compare(start, other.end) < 0;
        return otherStartsBeforeMyEnd && iStartBeforeOtherEnd;
    }

    /**
     * Splits into {@code [start, key)} and {@code [key, end)}.
     *
     * @throws IllegalArgumentException unless {@code key} is inside the range and above its start,
     *     so that both halves hold keys
     */
    public List<KeyRange> splitAt(byte[] key) {
        if (KeyBytes.compare(key, start) <= 0 || !contains(key)) {
            throw new IllegalArgumentException("cannot split " + this + " at " + KeyBytes.toHex(key)
                    + "; the split key must be above the start and below the end");
        }
        return List.of(new KeyRange(start, key), new KeyRange(key, end));
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof KeyRange r && Arrays.equals(start, r.start) && Arrays.equals(end, r.end);
    }

    @Override
    public int hashCode() {
        return 31 * Arrays.hashCode(start) + Arrays.hashCode(end);
    }

    @Override
    public String toString() {
        return "[" + KeyBytes.toHex(start) + ", " + (endUnbounded() ? "+inf" : KeyBytes.toHex(end)) + ")";
    }
}
