package org.elastras.client.protocol;

/**
 * The answer to {@link LoadGlobalTableRequest}. Immutable.
 *
 * @param rows rows staged so far in the load, or, once published, the table's rows
 */
public record LoadGlobalTableResponse(long rows) {
}
