package org.elastras.client.protocol;

import java.util.List;

/**
 * Reads one row by its full primary key inside a transaction ({@code POST /v1/get}). Immutable.
 *
 * @param txnId the transaction, from {@link BeginResponse#txnId()}
 * @param table the table
 * @param key the primary key values, in key order
 */
public record GetRequest(long txnId, String table, List<Object> key) {

    public GetRequest {
        Fields.requireTxnId("get", txnId);
        Fields.requireName("get", "table", table, ProtocolLimits.NAME_LENGTH_MAX);
        key = Fields.values("get", "key", key, true, ProtocolLimits.KEY_VALUES_MAX);
    }
}
