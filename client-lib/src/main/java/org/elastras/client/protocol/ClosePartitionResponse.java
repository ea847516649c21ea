package org.elastras.client.protocol;

/**
 * The answer to {@link ClosePartitionRequest}: the partition is no longer served here (after a
 * live move, its destination holds a complete copy and serves it once opened there). Immutable.
 *
 * @param live what the live move did; null after a coordinated close
 * @param handOver what became of the request's {@link CatalogHandOver}; null if it had none
 * @param closed what the owner measured of a coordinated close; null after a live move
 */
public record ClosePartitionResponse(LiveMoveReport live, HandOverOutcome handOver, CloseReport closed) {

    /** The answer to a coordinated close. */
    public ClosePartitionResponse(CloseReport closed) {
        this(null, null, closed);
    }

    /** The answer to a live move without a hand-over of the catalog write. */
    public ClosePartitionResponse(LiveMoveReport live) {
        this(live, null, null);
    }

    /** The answer to a live move. */
    public ClosePartitionResponse(LiveMoveReport live, HandOverOutcome handOver) {
        this(live, handOver, null);
    }
}
