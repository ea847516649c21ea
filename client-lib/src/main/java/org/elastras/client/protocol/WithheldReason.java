package org.elastras.client.protocol;

/** Why an exchange carried no new CTS range; the OTM keeps using the range it has. */
public enum WithheldReason {
    /** Issuing would pass the durable high-water mark; a new mark is being persisted. Transient. */
    AWAITING_HIGH_WATER_MARK,
    /** The OTM still owes reports for too many ranges; it gets a new one once it catches up. */
    OTM_BACKLOG,
    /**
     * Another master advanced the high-water mark: this master is stale and issues nothing more.
     * The OTM should look for the active master.
     */
    FENCED
}
