package org.elastras.client.protocol;

import java.util.Map;

/**
 * The answer to {@link GetRequest}. Immutable.
 *
 * @param found whether the row exists in the transaction's view
 * @param row the row as column name to value (null for SQL NULL): every column, or the columns
 *     {@link GetRequest#columns()} named, in that order; null when not found
 */
public record GetResponse(boolean found, Map<String, Object> row) {

    public GetResponse {
        if (found) {
            row = Fields.row("get response", "row", row);
        } else if (row != null) {
            throw Fields.malformed("get response", "a row was given but found is false");
        }
    }

    /** The answer for a key with no row. */
    public static GetResponse notFound() {
        return new GetResponse(false, null);
    }

    /** The answer for a key whose row is {@code row}. */
    public static GetResponse of(Map<String, Object> row) {
        return new GetResponse(true, row);
    }
}
