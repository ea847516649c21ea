package org.elastras.client.protocol;

/**
 * The answer to {@link AbortRequest}: the transaction is gone. Immutable; no fields.
 */
public record AbortResponse() {
}
