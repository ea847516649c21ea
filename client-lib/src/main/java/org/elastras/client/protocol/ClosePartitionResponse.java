package org.elastras.client.protocol;

/**
 * The answer to {@link ClosePartitionRequest}: the partition is no longer served here. Immutable; no fields.
 */
public record ClosePartitionResponse() {
}
