package org.elastras.client.protocol;

import java.util.List;

/**
 * Reads rows of one table in primary-key order inside a transaction ({@code POST /v1/scan}).
 * Immutable.
 *
 * <p>The range is over key prefixes, both inclusive: every row whose key is at or after
 * {@code fromKey} and at or before the last key starting with {@code toKey}; so
 * {@code fromKey = toKey = [w, d]} is every row whose key starts with {@code (w, d)}. To continue
 * a scan that answered {@code more}, scan again from the last row's full key and skip that row.
 *
 * @param txnId the transaction, from {@link BeginResponse#txnId()}
 * @param table the table
 * @param fromKey a prefix of the primary key, inclusive; null for the table's (partition's) first row
 * @param toKey a prefix of the primary key, inclusive; null for no upper bound
 * @param limit the most rows to return, 1 to {@link ProtocolLimits#SCAN_ROWS_MAX}
 */
public record ScanRequest(long txnId, String table, List<Object> fromKey, List<Object> toKey, int limit) {

    public ScanRequest {
        Fields.requireTxnId("scan", txnId);
        Fields.requireName("scan", "table", table, ProtocolLimits.NAME_LENGTH_MAX);
        fromKey = Fields.values("scan", "fromKey", fromKey, false, ProtocolLimits.KEY_VALUES_MAX);
        toKey = Fields.values("scan", "toKey", toKey, false, ProtocolLimits.KEY_VALUES_MAX);
        if (limit < 1) {
            throw Fields.malformed("scan", "limit is " + limit + "; ask for 1 to " + ProtocolLimits.SCAN_ROWS_MAX + " rows");
        }
        if (limit > ProtocolLimits.SCAN_ROWS_MAX) {
            throw new ElasTrasException(ErrorCode.LIMIT_EXCEEDED, "scan: limit is " + limit
                    + "; the most one scan returns is " + ProtocolLimits.SCAN_ROWS_MAX + " (continue from the last key)");
        }
    }
}
