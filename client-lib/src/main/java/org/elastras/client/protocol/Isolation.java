package org.elastras.client.protocol;

/**
 * The isolation level a transaction runs at. Immutable. The names are the wire form.
 */
public enum Isolation {
    /** Snapshot isolation plus validation of the read set at commit: serializable. The default. */
    SERIALIZABLE,
    /** Snapshot isolation: reads from the snapshot, first-updater-wins on writes, no read validation. */
    SNAPSHOT
}
