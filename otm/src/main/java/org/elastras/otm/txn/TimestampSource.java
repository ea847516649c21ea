package org.elastras.otm.txn;

/**
 * Where commit timestamps (CTSs) come from: locally a counter ({@link LocalTimestampSource}),
 * later the ranges the master's commit sequencer hands this OTM every period.
 *
 * <p>Contract: every value returned is unique across the system and greater than every value
 * returned before by this source; each one is later reported to the {@link SnapshotTracker} as
 * applied or unused, so the snapshot can pass it. Implementations are thread-safe.
 */
public interface TimestampSource {

    /**
     * Takes the next commit timestamp.
     *
     * @throws TransactionException with reason OVERLOADED if no timestamp is available now (for
     *     example the master's range is used up and the next one has not arrived)
     */
    long next();
}
