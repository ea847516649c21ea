package org.elastras.experiments.history;

/** What the client learned about a transaction's fate. */
public enum Outcome {
    /** Committed and acknowledged to the client. */
    OK,
    /** Definitely not committed: the server said it aborted, or it never reached the server. */
    FAIL,
    /**
     * Unknown (a timeout, a lost connection, OUTCOME_UNKNOWN): its writes may or may not have
     * committed. The checker counts them as committed only if a committed read observed one.
     */
    UNKNOWN
}
