package org.elastras.client.protocol;

/**
 * The answer to {@link OpenPartitionRequest}: the partition is recovered and served. Immutable; no fields.
 */
public record OpenPartitionResponse() {
}
