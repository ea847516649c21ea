package org.elastras.client.protocol;

/**
 * The answer to {@link ClosePartitionRequest}: the partition is no longer served here (after a
 * live move, its destination holds a complete copy and serves it once opened there). Immutable.
 *
 * @param live what the live move did; null after a coordinated close
 */
public record ClosePartitionResponse(LiveMoveReport live) {

    /** The answer to a coordinated close. */
    public ClosePartitionResponse() {
        this(null);
    }
}
