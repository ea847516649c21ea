package org.elastras.client.protocol;

/**
 * The answer to {@link FlushPartitionRequest}: the flush is done and the manifest records it. Immutable; no fields.
 */
public record FlushPartitionResponse() {
}
