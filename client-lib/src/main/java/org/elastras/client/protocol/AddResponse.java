package org.elastras.client.protocol;

/**
 * The answer to {@link AddRequest}: the addition is buffered in the transaction. Immutable; no fields.
 */
public record AddResponse() {
}
