package org.elastras.client.protocol;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.List;

/**
 * Reads one row, or some of its columns, by its full primary key inside a transaction
 * ({@code POST /v1/get}). Immutable.
 *
 * <p>A read of some columns is a weaker read: under SERIALIZABLE the commit fails only if one of
 * those columns changed after the snapshot (another transaction's add to a column not read does
 * not fail it), where a read of the whole row fails on any change to the row.
 *
 * @param txnId the transaction, from {@link BeginResponse#txnId()}
 * @param table the table
 * @param key the primary key values, in key order
 * @param columns the columns to read, answered in this order (at most
 *     {@link ProtocolLimits#ROW_COLUMNS_MAX}, each once; none reads only whether the row exists);
 *     null for the whole row. Left out of the body when null, so a whole-row read is the same
 *     body as before the field existed, and a body without it reads the whole row.
 */
public record GetRequest(long txnId, String table, List<Object> key,
        @JsonInclude(JsonInclude.Include.NON_NULL) List<String> columns) {

    public GetRequest {
        Fields.requireTxnId("get", txnId);
        Fields.requireName("get", "table", table, ProtocolLimits.NAME_LENGTH_MAX);
        key = Fields.values("get", "key", key, true, ProtocolLimits.KEY_VALUES_MAX);
        columns = Fields.columnNames("get", "columns", columns);
    }

    /** A read of the whole row. */
    public GetRequest(long txnId, String table, List<Object> key) {
        this(txnId, table, key, null);
    }
}
