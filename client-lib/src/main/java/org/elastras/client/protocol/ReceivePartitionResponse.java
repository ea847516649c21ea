package org.elastras.client.protocol;

/** The answer to {@link ReceivePartitionRequest}: the copy is open and waits for versions. Immutable; no fields. */
public record ReceivePartitionResponse() {
}
