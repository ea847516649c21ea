package org.elastras.client.protocol;

import java.util.List;

/**
 * The answer to {@link AggregateRequest}. Immutable.
 *
 * @param snapshotCts the snapshot the partition was read at
 * @param rowsScanned rows read in the key range
 * @param values one per aggregate, in order: a COUNT as a number, a SUM as a number (null if no
 *     value was summed), a MIN or MAX as a value of the column's type (null if none)
 */
public record AggregateResponse(long snapshotCts, long rowsScanned, List<Object> values) {
}
