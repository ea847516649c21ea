package org.elastras.storage.wal;

/**
 * Where a record starts in one OTM's write-ahead log: segment number, then byte offset in that
 * segment. Positions of one log are totally ordered. Immutable.
 */
public record WalPosition(long segment, long offset) implements Comparable<WalPosition> {

    /** Before every record of any log. */
    public static final WalPosition START = new WalPosition(0, 0);

    public WalPosition {
        if (segment < 0 || offset < 0) {
            throw new IllegalArgumentException("WAL position must be non-negative, got " + segment + ":" + offset);
        }
    }

    @Override
    public int compareTo(WalPosition o) {
        int c = Long.compare(segment, o.segment);
        return c != 0 ? c : Long.compare(offset, o.offset);
    }

    public static WalPosition min(WalPosition a, WalPosition b) {
        return a.compareTo(b) <= 0 ? a : b;
    }

    @Override
    public String toString() {
        return segment + ":" + offset;
    }
}
