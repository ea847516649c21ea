package org.elastras.client.protocol;

/**
 * The answer to {@link FinishIncomingRequest}: the copy is complete.
 *
 * @param manifestSequence the manifest the destination wrote
 * @param handOver what the destination did with the request's catalog write (null if it had none):
 *     whether the row swapped and whether it serves the partition now
 * @param handledMs how long the destination took from the request's arrival to its answer (the
 *     rest of the origin's wait is the trips and their queueing)
 */
public record FinishIncomingResponse(long manifestSequence, HandOverOutcome handOver, long handledMs) {

    public FinishIncomingResponse(long manifestSequence) {
        this(manifestSequence, null, 0);
    }
}
