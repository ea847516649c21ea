package org.elastras.master.timestamp;

/**
 * An OTM's timestamp report is impossible (a CTS reported twice, a CTS that was never issued to
 * that OTM, too many ranges) or comes from an OTM that may not report now. The report changed
 * nothing. The heartbeat handler should answer the OTM with this message; an OTM that sends such a
 * report has a bug, and the snapshot will not pass the CTSs it still owes until it reports them
 * correctly or is declared failed and recovered.
 */
public final class RejectedReportException extends RuntimeException {

    public RejectedReportException(String message) {
        super(message);
    }
}
