package org.elastras.client.protocol;

/**
 * The answer to {@link DeleteRequest}: the delete is buffered in the transaction. Immutable; no fields.
 */
public record DeleteResponse() {
}
