package org.elastras.client.protocol;

/**
 * The answer to {@link FinishIncomingRequest}: the copy is complete.
 *
 * @param manifestSequence the manifest the destination wrote
 * @param handOver what the destination did with the request's catalog write (null if it had none):
 *     whether the row swapped and whether it serves the partition now
 */
public record FinishIncomingResponse(long manifestSequence, HandOverOutcome handOver) {

    public FinishIncomingResponse(long manifestSequence) {
        this(manifestSequence, null);
    }
}
