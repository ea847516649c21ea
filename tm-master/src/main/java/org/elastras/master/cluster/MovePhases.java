package org.elastras.master.cluster;

/**
 * Where one coordinated move's time went, phase by phase, as the master's IO saw it: the close at
 * the origin, the catalog write, the schema registration and the open at the destination (each a
 * round trip from the master, the OTM's work included). What is left of the move's total is the
 * master's own queueing between the phases.
 *
 * <p>Each phase is written once, by the IO thread that ran it, and read on the master's loop when
 * the move ends; the fields are volatile for that hand-over. A phase not run reads -1.
 */
final class MovePhases {

    private volatile long closeMs = -1;
    private volatile long catalogWriteMs = -1;
    private volatile long registerMs = -1;
    private volatile long openMs = -1;

    void closed(long ms) {
        closeMs = ms;
    }

    void opened(long catalogWriteMs, long registerMs, long openMs) {
        this.catalogWriteMs = catalogWriteMs;
        this.registerMs = registerMs;
        this.openMs = openMs;
    }

    /** The sum of the phases measured so far, in milliseconds. */
    long measuredMs() {
        return Math.max(0, closeMs) + Math.max(0, catalogWriteMs) + Math.max(0, registerMs) + Math.max(0, openMs);
    }

    /** For logs: {@code close 120 ms, catalog write 20 ms, register 0 ms, open 31 ms}. */
    String describe() {
        return "close " + closeMs + " ms, catalog write " + catalogWriteMs + " ms, register " + registerMs
                + " ms, open " + openMs + " ms";
    }
}
