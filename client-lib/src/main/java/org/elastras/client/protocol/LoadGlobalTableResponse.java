package org.elastras.client.protocol;

/**
 * The answer to {@link LoadGlobalTableRequest}. Immutable.
 *
 * @param rows how many rows the OTM's copy of the table now holds
 */
public record LoadGlobalTableResponse(long rows) {
}
