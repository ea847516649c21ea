package org.elastras.client.protocol;

import java.util.Map;

/**
 * Writes one whole row (insert or replace) inside a transaction ({@code POST /v1/put}). Immutable.
 *
 * @param txnId the transaction, from {@link BeginResponse#txnId()}
 * @param table the table
 * @param row the row as column name to value; the primary key columns must be present, a missing
 *     nullable column is NULL
 */
public record PutRequest(long txnId, String table, Map<String, Object> row) {

    public PutRequest {
        Fields.requireTxnId("put", txnId);
        Fields.requireName("put", "table", table, ProtocolLimits.NAME_LENGTH_MAX);
        row = Fields.row("put", "row", row);
    }
}
