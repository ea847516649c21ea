package org.elastras.client.protocol;

/**
 * The answer to {@link FinishIncomingRequest}: the copy is complete.
 *
 * @param manifestSequence the manifest the destination wrote
 */
public record FinishIncomingResponse(long manifestSequence) {
}
