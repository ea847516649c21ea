package org.elastras.client.protocol;

import java.util.List;

/**
 * Deletes one row by its full primary key inside a transaction ({@code POST /v1/delete}); deleting
 * a row that does not exist is not an error. Immutable.
 *
 * @param txnId the transaction, from {@link BeginResponse#txnId()}
 * @param table the table
 * @param key the primary key values, in key order
 */
public record DeleteRequest(long txnId, String table, List<Object> key) {

    public DeleteRequest {
        Fields.requireTxnId("delete", txnId);
        Fields.requireName("delete", "table", table, ProtocolLimits.NAME_LENGTH_MAX);
        key = Fields.values("delete", "key", key, true, ProtocolLimits.KEY_VALUES_MAX);
    }
}
