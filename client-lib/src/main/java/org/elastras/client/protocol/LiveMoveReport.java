package org.elastras.client.protocol;

/**
 * What the origin of a live move measured (see {@link ClosePartitionResponse#live()}). Immutable.
 *
 * @param copyMs from the start of the move to the pause: the destination opening the tables and
 *     catching up, while the origin served
 * @param pausedMs from the origin's stop of admissions to the destination's complete copy (the
 *     drain of transactions in flight, the last versions shipped and the destination's manifest);
 *     the partition is unavailable from this pause until the destination serves it
 * @param pausedAtEpochMs when the pause began, wall-clock milliseconds
 * @param commitsShipped commits whose versions were sent to the destination
 * @param versionsShipped versions sent
 * @param batches requests that carried them
 * @param forced whether the copy had not caught up within its time limit, so the pause also
 *     shipped the backlog
 * @param pausePhases where the pause went, for logs: {@code grace 3 ms (0 still open), drain 0 ms,
 *     last versions 4 ms, hand-over 2 ms}
 */
public record LiveMoveReport(long copyMs, long pausedMs, long pausedAtEpochMs, long commitsShipped,
        long versionsShipped, long batches, boolean forced, String pausePhases) {
}
