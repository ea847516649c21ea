package org.elastras.client.protocol;

/**
 * The answer to {@link PutRequest}: the write is buffered in the transaction. Immutable; no fields.
 */
public record PutResponse() {
}
