package org.elastras.otm.txn;

/**
 * Where commit timestamps (CTSs) come from, and where their fate is reported: locally a counter
 * ({@link LocalTimestampSource}, an OTM without a master), in a cluster the ranges the master's
 * commit sequencer hands this OTM every period ({@link RangeTimestampSource}).
 *
 * <p>Contract: every value {@link #next()} returns is unique across the system and greater than
 * every value it returned before; each one is later reported exactly once, through
 * {@link #applied} or {@link #unused}, which also tells the OTM's {@link SnapshotTracker}, so the
 * snapshot can pass it. Implementations are thread-safe.
 */
public interface TimestampSource {

    /**
     * Takes the next commit timestamp.
     *
     * @throws TransactionException with reason OVERLOADED if no timestamp is available in time (the
     *     master's range is used up and the next one has not arrived)
     */
    long next();

    /** The commit at {@code cts} is durable and applied: its versions are readable. */
    void applied(long cts);

    /** {@code cts} was taken but will never be applied (the commit failed before it was logged). */
    void unused(long cts);

    /**
     * Makes every CTS handed out from now on greater than {@code cts}, and lets the snapshot reach
     * {@code cts} once the commits in flight here finish: after a partition whose newest version is
     * at {@code cts} was opened here, or for a client session whose last commit (anywhere) was at
     * {@code cts}. May wait, bounded, for the master's next range.
     *
     * @return false if that did not happen within {@code timeoutMs}
     */
    boolean liftAbove(long cts, long timeoutMs) throws InterruptedException;
}
