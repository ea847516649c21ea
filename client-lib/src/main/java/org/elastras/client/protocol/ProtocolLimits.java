package org.elastras.client.protocol;

import org.elastras.catalog.schema.SchemaLimits;

/**
 * The bounds every decoded request is checked against, beyond the byte-level bounds of
 * {@link ProtocolCodec}. Holds only constants.
 *
 * <p>These bound what one request can make a server hold; the server applies its own, usually
 * tighter, limits on keys, values and write sets on top.
 */
public final class ProtocolLimits {

    /** Most values in a key or key prefix: a primary key has at most this many columns. */
    public static final int KEY_VALUES_MAX = SchemaLimits.KEY_COLUMNS_MAX;
    /** Most columns in one row. */
    public static final int ROW_COLUMNS_MAX = SchemaLimits.COLUMNS_PER_TABLE_MAX;
    /** Most rows one scan may ask for. */
    public static final int SCAN_ROWS_MAX = 10_000;
    /** Most rows one {@code loadGlobalTable} request carries (TPC-C's ITEM table is 100,000 rows). */
    public static final int GLOBAL_ROWS_PER_REQUEST_MAX = 200_000;
    /** Most arguments of one stored-procedure call. */
    public static final int PROCEDURE_ARGS_MAX = 1_024;
    /**
     * Most calls in one {@code callBatch} request. A batch's calls hold their transactions open
     * together on one OTM worker, so this also bounds what one request can pin there.
     */
    public static final int CALL_BATCH_CALLS_MAX = 256;
    /** Longest name of a stored procedure or OTM, in characters. */
    public static final int NAME_LENGTH_MAX = 256;
    /** Most participant partitions (besides the coordinator's) one cross-partition transaction may touch. */
    public static final int PARTICIPANTS_MAX = 64;
    /** Longest encoded root key a branch names its coordinator by. */
    public static final int ROOT_KEY_BYTES_MAX = 4_096;

    private ProtocolLimits() {
    }
}
