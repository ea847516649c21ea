package org.elastras.master.cluster;

import org.elastras.client.protocol.CloseReport;
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
    /** A coordinated close's figures from the origin; null for a live move or an origin that did not report. */
    private volatile CloseReport closeReport;
    /** A live move's figures from the origin; null for a coordinated move. */
    private volatile LiveMoveReport live;
    /** When the destination recorded itself at the hand-over and served: its figures; else -1 / 0. */
    private volatile long handOverRecordMs = -1;
    private volatile long handOverServeMs = -1;
    private volatile long handOverServingAtEpochMs;
    /** A coordinated move: when the master sent the close (the origin stops admitting as it arrives), its clock; 0 before. */
    private volatile long closeSentAtEpochMs;
    /** A coordinated move: when the destination answered that it serves, this master's clock; 0 before. */
    private volatile long servingAtEpochMs;

    /** The close request is about to be sent to the origin. */
    void closeSent(long atEpochMs) {
        closeSentAtEpochMs = atEpochMs;
    }

    void closed(long ms) {
        closeMs = ms;
    }

    /** The origin's account of a coordinated close: when it stopped admitting, after flushing while it served. */
    void closedCoordinated(CloseReport report) {
        closeReport = report;
    }

    /** The origin's account of a live move (its close was the copy and the hand-over). */
    void copiedLive(LiveMoveReport report) {
        live = report;
    }

    /** At a live move's hand-over the destination recorded itself in the catalog and served the partition. */
    void openedAtHandOver(long recordMs, long openMs, long servingAtEpochMs) {
        handOverRecordMs = recordMs;
        handOverServeMs = openMs;
        handOverServingAtEpochMs = servingAtEpochMs;
    }

    /**
     * How long the partition served nowhere. A live move: from the origin's pause (its wall clock)
     * to when the destination's confirmation that it serves reached whoever opened it: the origin
     * (its clock), or this master ({@code finishedAtEpochMs}, its clock). A coordinated move: from
     * the origin's stop of admissions (its clock; until then it flushed while it still served;
     * the master sending the close if it did not say, or said a time before that) to the
     * destination's answer that it serves (the master's own work between the phases included; its
     * bookkeeping after the open not). -1 if not known (a phase did not run). On one machine both
     * clocks are one.
     */
    long unavailableMs(long finishedAtEpochMs) {
        LiveMoveReport r = live;
        if (r == null) {
            CloseReport c = closeReport;
            long sent = closeSentAtEpochMs;
            long from = c == null ? sent : Math.max(sent, c.stoppedAtEpochMs());
            long serving = servingAtEpochMs;
            return sent > 0 && serving > 0 ? Math.max(0, serving - from) : -1;
        }
        long serving = handOverServingAtEpochMs > 0 ? handOverServingAtEpochMs : finishedAtEpochMs;
        return Math.max(0, serving - r.pausedAtEpochMs());
    }

    /** The destination serves, at {@code atEpochMs} (this master's clock), after the phases of the open. */
    void opened(long catalogWriteMs, long registerMs, long openMs, long atEpochMs) {
        this.catalogWriteMs = catalogWriteMs;
        this.registerMs = registerMs;
        this.openMs = openMs;
        this.servingAtEpochMs = atEpochMs;
    }

    private static String describe(CloseReport c) {
        return c == null ? "" : " (flushed while serving " + c.flushedWhileServingMs() + " ms, then served nobody "
                + c.servedNobodyMs() + " ms)";
    }

    /** Whether this is a live move (the origin reported its copy and pause). */
    boolean live() {
        return live != null;
    }

    /** The sum of the phases measured so far, in milliseconds. */
    long measuredMs() {
        return Math.max(0, closeMs) + Math.max(0, catalogWriteMs) + Math.max(0, registerMs) + Math.max(0, openMs);
    }

    /** For logs: {@code close 120 ms, catalog write 20 ms, register 0 ms, open 31 ms}. */
    String describe() {
        LiveMoveReport r = live;
        String close = r != null ? "live copy " + r.copyMs() + " ms (" + r.commitsShipped()
                + " commits shipped in " + r.batches() + " batches" + (r.forced() ? ", FORCED: not caught up in time" : "")
                + "), origin paused " + r.pausedMs() + " ms (" + r.pausePhases() + "), close round trip " + closeMs + " ms"
                : "close " + closeMs + " ms" + describe(closeReport);
        if (handOverServingAtEpochMs > 0) {
            return close + ", recorded by the destination in " + handOverRecordMs + " ms, serving there " + handOverServeMs
                    + " ms later";
        }
        return close + ", catalog write " + catalogWriteMs + " ms, register " + registerMs + " ms, open " + openMs + " ms";
    }
}
