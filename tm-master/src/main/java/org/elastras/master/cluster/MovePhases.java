package org.elastras.master.cluster;

import org.elastras.client.protocol.LiveMoveReport;

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
    /** A live move's figures from the origin; null for a coordinated move. */
    private volatile LiveMoveReport live;

    void closed(long ms) {
        closeMs = ms;
    }

    /** The origin's account of a live move (its close was the copy and the hand-over). */
    void copiedLive(LiveMoveReport report) {
        live = report;
    }

    /**
     * For a live move, how long the partition served nowhere: from the origin's pause (its wall
     * clock) to {@code servingAtEpochMs} (the master's wall clock when the destination confirmed
     * it serves); -1 for a coordinated move. On one machine both clocks are one.
     */
    long unavailableMs(long servingAtEpochMs) {
        LiveMoveReport r = live;
        return r == null ? -1 : Math.max(0, servingAtEpochMs - r.pausedAtEpochMs());
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
        LiveMoveReport r = live;
        String close = r == null ? "close " + closeMs + " ms" : "live copy " + r.copyMs() + " ms (" + r.commitsShipped()
                + " commits shipped in " + r.batches() + " batches" + (r.forced() ? ", FORCED: not caught up in time" : "")
                + "), origin paused " + r.pausedMs() + " ms (" + r.pausePhases() + "), close round trip " + closeMs + " ms";
        return close + ", catalog write " + catalogWriteMs + " ms, register " + registerMs + " ms, open " + openMs + " ms";
    }
}
