package org.elastras.client.protocol;

/**
 * The answer to {@link DropIncomingRequest}.
 *
 * @param dropped whether there was a copy being filled, now forgotten (false if there was none, or
 *     if it was already complete: a complete copy is kept until the master opens or replaces it)
 */
public record DropIncomingResponse(boolean dropped) {
}
