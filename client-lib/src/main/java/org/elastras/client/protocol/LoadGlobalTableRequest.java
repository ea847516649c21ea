package org.elastras.client.protocol;

import java.util.List;
import java.util.Map;

/**
 * Admin: loads the rows of a global (read-mostly, replicated) table into this OTM's copy for a
 * database ({@code POST /v1/loadGlobalTable}). Every OTM that serves a partition of the database
 * needs the rows; transactions read them without validation and cannot write them. Loading
 * replaces the OTM's copy of the table. Immutable.
 *
 * @param database the database
 * @param table the global table
 * @param rows the table's rows, column name -> value; at most {@link ProtocolLimits#GLOBAL_ROWS_PER_REQUEST_MAX}
 */
public record LoadGlobalTableRequest(String database, String table, List<Map<String, Object>> rows) {

    public LoadGlobalTableRequest {
        Fields.requireName("loadGlobalTable", "database", database, ProtocolLimits.NAME_LENGTH_MAX);
        Fields.requireName("loadGlobalTable", "table", table, ProtocolLimits.NAME_LENGTH_MAX);
        if (rows != null && rows.size() > ProtocolLimits.GLOBAL_ROWS_PER_REQUEST_MAX) {
            throw new ElasTrasException(ErrorCode.LIMIT_EXCEEDED, "loadGlobalTable carries " + rows.size()
                    + " rows; the limit is " + ProtocolLimits.GLOBAL_ROWS_PER_REQUEST_MAX);
        }
        rows = Fields.rows("loadGlobalTable", "rows", rows);
    }
}
