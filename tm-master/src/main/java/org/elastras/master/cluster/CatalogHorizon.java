package org.elastras.master.cluster;

import java.util.concurrent.atomic.AtomicLong;

/**
 * A commit timestamp that a master term's catalog transactions begin at or after: the highest CTS
 * of the catalog commits it covers that the term made, and of the snapshots at which the term read
 * what it covers. {@link CatalogStore} keeps one per catalog row (for that row's compare-and-set)
 * and one per catalog partition (for a create's writes and the reads of the whole partition). It is
 * session consistency for the master's own catalog (the counterpart of the client's horizon in
 * {@code org.elastras.client}): a catalog owner begins a transaction at its snapshot, which can
 * trail a commit it already acknowledged (by a few milliseconds, or for seconds while a
 * cross-partition commit holds that OTM's snapshot), so without it the master could read a row
 * older than the one it wrote a moment ago and take its own row for another master's, or miss a
 * row it just created. With it as {@code afterCts} the owner waits, bounded, until its snapshot
 * reaches the horizon, and answers OVERLOADED if it does not in time ({@link CatalogStore} treats
 * that as the catalog being unreachable, never as another master).
 *
 * <p>Per master term (a new term's {@link CatalogStore} starts at 0 and rises with what it reads).
 * Thread-safe: it only grows (a monotonic maximum), so concurrent catalog transactions need no
 * other coordination.
 */
final class CatalogHorizon {

    private final AtomicLong afterCts = new AtomicLong();

    /** The CTS the next catalog transaction begins at or after (0 before anything was read or written). */
    long afterCts() {
        return afterCts.get();
    }

    /**
     * Raises the horizon to {@code cts} if it is higher: the CTS of a catalog commit this term made,
     * or the snapshot one of its catalog transactions read at. 0 (unknown) changes nothing.
     *
     * @throws IllegalArgumentException if {@code cts} is negative
     */
    void reached(long cts) {
        if (cts < 0) {
            throw new IllegalArgumentException("a catalog CTS is not negative, got " + cts);
        }
        afterCts.accumulateAndGet(cts, Math::max);
    }
}
