package org.elastras.otm.txn;

/**
 * The isolation level of one transaction. Immutable.
 */
public enum Isolation {
    /**
     * Snapshot isolation plus validation of the read set at commit: every key read, and every range
     * scanned, must have no version committed by a transaction serialized between this
     * transaction's snapshot and its commit timestamp. The committed transactions then behave as if
     * run one at a time in commit-timestamp order. The default.
     */
    SERIALIZABLE,
    /**
     * Snapshot isolation: reads see the snapshot, write-write conflicts abort the later writer
     * (first updater wins), reads are not validated. Write skew is possible.
     */
    SNAPSHOT
}
