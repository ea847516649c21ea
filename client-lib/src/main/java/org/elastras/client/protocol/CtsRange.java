package org.elastras.client.protocol;

/**
 * A range of commit timestamps, both ends inclusive. Immutable; travels in JSON as
 * {@code {"firstCts":11,"lastCts":15}}.
 *
 * @param firstCts the first CTS of the range, at least 1 (CTS 0 is "before every commit")
 * @param lastCts the last CTS of the range, at least {@code firstCts}
 */
public record CtsRange(long firstCts, long lastCts) {

    public CtsRange {
        if (firstCts < 1) {
            throw new IllegalArgumentException("a CTS range must start at 1 or above, got [" + firstCts + ", " + lastCts + "]");
        }
        if (lastCts < firstCts) {
            throw new IllegalArgumentException("empty CTS range [" + firstCts + ", " + lastCts + "]: the last CTS is below the first");
        }
    }

    /** The range holding only {@code cts}. */
    public static CtsRange single(long cts) {
        return new CtsRange(cts, cts);
    }

    /** How many CTSs the range holds. */
    public long sizeCts() {
        return lastCts - firstCts + 1;
    }

    /** Whether {@code cts} lies in the range. */
    public boolean contains(long cts) {
        return cts >= firstCts && cts <= lastCts;
    }

    @Override
    public String toString() {
        return "[" + firstCts + ", " + lastCts + "]";
    }
}
