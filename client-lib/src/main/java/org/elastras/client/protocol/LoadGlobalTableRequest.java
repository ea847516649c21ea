package org.elastras.client.protocol;

import java.util.List;
import java.util.Map;

/**
 * Admin: loads rows of a global (read-mostly, replicated) table of a database
 * ({@code POST /v1/loadGlobalTable}), sent to any one OTM that serves a partition of the database.
 * A large table goes in chunks of one load: chunks 0, 1, 2, ... with the same {@code loadId}, the
 * last with {@code publish} set. The OTM stages the chunks, checking each, and on publish writes
 * the table once to the DFS and serves it; every other OTM reads it from there when a transaction
 * first reads it. A global table is published once per database. Transactions read it without
 * validation and cannot write it. Immutable.
 *
 * @param database the database
 * @param table the global table
 * @param rows this chunk's rows, column name -> value; at most {@link ProtocolLimits#GLOBAL_ROWS_PER_REQUEST_MAX}
 *     (and the request within the body limit)
 * @param loadId names the load its chunks belong to (1..64 characters); null: the whole table in
 *     this one request, published at once
 * @param chunk 0 for the first chunk of a load, then 1, 2, ... in order (0 when loadId is null)
 * @param publish whether this is the load's last chunk, after which the table is published
 */
public record LoadGlobalTableRequest(String database, String table, List<Map<String, Object>> rows, String loadId, int chunk,
        boolean publish) {

    /** Most characters of a load id. */
    public static final int LOAD_ID_LENGTH_MAX = 64;

    public LoadGlobalTableRequest {
        Fields.requireName("loadGlobalTable", "database", database, ProtocolLimits.NAME_LENGTH_MAX);
        Fields.requireName("loadGlobalTable", "table", table, ProtocolLimits.NAME_LENGTH_MAX);
        if (rows != null && rows.size() > ProtocolLimits.GLOBAL_ROWS_PER_REQUEST_MAX) {
            throw new ElasTrasException(ErrorCode.LIMIT_EXCEEDED, "loadGlobalTable carries " + rows.size()
                    + " rows; the limit is " + ProtocolLimits.GLOBAL_ROWS_PER_REQUEST_MAX + "; send the table in chunks");
        }
        if (loadId != null && (loadId.isEmpty() || loadId.length() > LOAD_ID_LENGTH_MAX)) {
            throw new ElasTrasException(ErrorCode.MALFORMED_REQUEST, "loadGlobalTable: loadId must be 1.."
                    + LOAD_ID_LENGTH_MAX + " characters, got " + loadId.length());
        }
        if (chunk < 0 || (loadId == null && chunk != 0)) {
            throw new ElasTrasException(ErrorCode.MALFORMED_REQUEST, "loadGlobalTable: chunk must be >= 0, and 0 without a"
                    + " loadId; got " + chunk);
        }
        rows = Fields.rows("loadGlobalTable", "rows", rows);
    }

    /** The whole table in one request, published at once. */
    public LoadGlobalTableRequest(String database, String table, List<Map<String, Object>> rows) {
        this(database, table, rows, null, 0, true);
    }

    /** Chunk {@code chunk} of load {@code loadId}; {@code publish} on the last. */
    public static LoadGlobalTableRequest chunk(String database, String table, String loadId, int chunk, boolean publish,
            List<Map<String, Object>> rows) {
        if (loadId == null) {
            throw new IllegalArgumentException("a chunk needs a load id");
        }
        return new LoadGlobalTableRequest(database, table, rows, loadId, chunk, publish);
    }

    /** Whether this request publishes the table (a whole-table request always does). */
    public boolean publishes() {
        return loadId == null || publish;
    }
}
