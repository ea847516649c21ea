package org.elastras.master.balance;

/** Why the balancer moves a partition. */
public enum MoveReason {
    /** Its OTM was above the upper threshold in every slice of the window. */
    OVERLOAD,
    /** Its OTM is being drained (by an operator, or before it is removed). */
    DRAIN,
    /** The cluster was below the lower threshold: its OTM is emptied to be removed. */
    CONSOLIDATE,
    /** An operator asked for it. */
    OPERATOR
}
