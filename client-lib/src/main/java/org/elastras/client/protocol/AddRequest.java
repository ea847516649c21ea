package org.elastras.client.protocol;

import java.util.List;

/**
 * Adds an amount to a numeric column of one existing row inside a transaction ({@code POST /v1/add})
 * without reading it: the sum is made at commit on the newest committed row, so transactions adding
 * to the same row do not conflict with one another (a TPC-C Payment's W_YTD). Reads of the row by
 * the same transaction see the addition. Immutable.
 *
 * <p>The server converts {@code amount} to the column's type as it converts a row value
 * ({@link WireValues}): an integer for INT (within 32 bits) and BIGINT; for DECIMAL a number or a
 * numeric string with at most the column's scale. A missing row, a column that is not an INT,
 * BIGINT or DECIMAL non-key column, or an amount that does not fit it is TYPE_MISMATCH, changes
 * nothing and leaves the transaction open.
 *
 * @param txnId the transaction, from {@link BeginResponse#txnId()}
 * @param table the table
 * @param key the primary key values of the row, in key order
 * @param column the column to add to
 * @param amount the number to add (negative to subtract)
 */
public record AddRequest(long txnId, String table, List<Object> key, String column, Object amount) {

    public AddRequest {
        Fields.requireTxnId("add", txnId);
        Fields.requireName("add", "table", table, ProtocolLimits.NAME_LENGTH_MAX);
        key = Fields.values("add", "key", key, true, ProtocolLimits.KEY_VALUES_MAX);
        Fields.requireName("add", "column", column, ProtocolLimits.NAME_LENGTH_MAX);
        Fields.requireValue("add", "amount", amount, "the number to add");
    }
}
