package org.elastras.client.protocol;

import java.util.List;
import java.util.Map;

/**
 * The answer to {@link ScanRequest}. Immutable.
 *
 * @param rows the rows in primary-key order, each as column name to value
 * @param more whether the range may hold more rows than were returned (the limit was reached)
 */
public record ScanResponse(List<Map<String, Object>> rows, boolean more) {

    public ScanResponse {
        rows = Fields.rows("scan response", "rows", rows);
    }
}
