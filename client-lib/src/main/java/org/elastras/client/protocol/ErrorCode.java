package org.elastras.client.protocol;

/**
 * The reasons a request can fail, each with the HTTP status it is answered with and whether sending
 * it again may succeed. Immutable.
 *
 * <p>{@link #retryable()} means: the same request may succeed if sent again unchanged, possibly to
 * another OTM after the client refreshed where the partition lives. For {@link #CONFLICT},
 * {@link #SERIALIZATION_FAILURE} and {@link #TRANSACTION_TIMEOUT} "again" means the whole
 * transaction, from {@code begin}; the failed transaction itself is gone. A non-retryable error will
 * fail the same way until the request (or the system's configuration) changes.
 *
 * <p>{@link #UNREACHABLE} and {@link #OUTCOME_UNKNOWN} are raised by the client library and never
 * sent by a server; a routing layer uses them to tell "never arrived" from "may have run".
 *
 * <p>The names are the wire form (the {@code code} field of an error body); never rename one.
 */
public enum ErrorCode {
    /** The body could not be decoded, or a field is missing, of the wrong type, unknown or out of range. */
    MALFORMED_REQUEST(400, false),
    /** The path names no operation ({@code /v1/<op>} with an unknown op). */
    UNKNOWN_OPERATION(404, false),
    /** The HTTP method is not the one the path takes (operations are POST, probes are GET). */
    METHOD_NOT_ALLOWED(405, false),
    /** No database of that name is registered. */
    UNKNOWN_DATABASE(404, false),
    /** The database has no table of that name. */
    UNKNOWN_TABLE(404, false),
    /** This OTM does not serve the partition (or the transaction's partition); ask the catalog again. */
    NOT_OWNER(421, true),
    /**
     * A value does not fit its column's type, a key has the wrong number of values, a column is
     * unknown, or an add has no row to add to or a column it cannot add to.
     */
    TYPE_MISMATCH(400, false),
    /** A size limit was exceeded: body, key, value, row, write set, scan, open transactions. */
    LIMIT_EXCEEDED(413, false),
    /** Write-write conflict: another transaction wrote the key first (first updater wins). */
    CONFLICT(409, true),
    /** A SERIALIZABLE transaction's reads were overwritten before it committed. */
    SERIALIZATION_FAILURE(409, true),
    /** The transaction id never existed here, or it already ended (committed, aborted or expired). */
    UNKNOWN_TRANSACTION(404, false),
    /** The transaction stayed open longer than the OTM allows and was aborted. */
    TRANSACTION_TIMEOUT(410, true),
    /** The OTM lost its lease (or has not got it yet) and serves nothing. */
    NOT_SERVING(503, true),
    /** The OTM has no capacity for the request now; back off and retry. */
    OVERLOADED(503, true),
    /** The database has no stored procedure of that name. */
    UNKNOWN_PROCEDURE(404, false),
    /** The stored procedure rolled back on purpose (e.g. TPC-C's 1% NewOrder rollback); nothing was written. */
    PROCEDURE_ABORTED(422, false),
    /**
     * Master to OTM: the master declared this OTM failed (heartbeats missed or its lease gone) and
     * is recovering its partitions elsewhere; the OTM must stop serving at once. Its id is spent.
     */
    DECLARED_FAILED(410, false),
    /**
     * Master admin: the request is well-formed but the cluster's state refuses it now (a move to the
     * partition's own owner, to an OTM that is not live or is draining, of a partition that does not
     * exist or is not serving; a drain of an OTM that is not live). Nothing changed; the message
     * says why and what to do. Not retried by the client: some refusals pass (a partition that is
     * opening), most need another request.
     */
    REFUSED(409, false),
    /** A bug or an unexpected failure in the server; the outcome of the request is unknown. */
    INTERNAL(500, false),
    /** Client-side only: the OTM could not be reached, so the request was not processed. */
    UNREACHABLE(503, true),
    /**
     * Client-side only: the connection failed or the call timed out after the request was sent, so
     * it may or may not have taken effect. Retry only an operation that is safe to repeat.
     */
    OUTCOME_UNKNOWN(504, false);

    private final int httpStatus;
    private final boolean retryable;

    ErrorCode(int httpStatus, boolean retryable) {
        this.httpStatus = httpStatus;
        this.retryable = retryable;
    }

    /** The HTTP status a server answers this error with. */
    public int httpStatus() {
        return httpStatus;
    }

    /** Whether the same request (or transaction, see the class comment) may succeed if sent again. */
    public boolean retryable() {
        return retryable;
    }
}
