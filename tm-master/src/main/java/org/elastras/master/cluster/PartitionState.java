package org.elastras.master.cluster;

/** What the master is doing with a partition. */
public enum PartitionState {
    /** No live OTM serves it; it waits for an OTM (and for a free open slot). */
    UNASSIGNED,
    /** Its former owner failed; it waits until that owner's log is fenced. */
    AWAITING_FENCE,
    /** An open was sent to its owner and not answered yet. */
    OPENING,
    /** An open failed; it is retried on the same owner after a backoff. */
    RETRY_WAIT,
    /** Its owner confirmed that it serves it. */
    SERVING,
    /** Every allowed open attempt failed; it needs an operator (not retried automatically). */
    PARKED,
    /**
     * Moving: its owner was asked to close it (stop admitting transactions, finish or abort those in
     * flight, flush); then it opens at the destination.
     */
    CLOSING
}
