package org.elastras.storage.store;

import org.elastras.storage.wal.WalPosition;

/**
 * What a partition store needs to know of its owner's write-ahead log: its id and the oldest
 * position from which a recovery must replay to find every record that may not be in the store
 * yet. Supplied by the owner (the OTM's commit pipeline).
 *
 * <p>Implementations are thread-safe; the store calls {@link #replayPoint()} from flush threads.
 */
public interface WalCursor {

    /** The id of the log, stable for its lifetime; recorded in manifests. */
    String walId();

    /**
     * A position at or before every record of this log that was appended (or is being appended)
     * but may not yet have been applied to the store, and at or before every record appended in
     * the future: the log's end position if nothing is in flight.
     */
    WalPosition replayPoint();

    /**
     * A cursor whose replay point never moves: for a log of which nothing is ever in flight when
     * the store asks (warm-ups, benchmarks that apply what they logged before they go on).
     */
    static WalCursor fixed(String walId, WalPosition replayPoint) {
        if (walId == null || replayPoint == null) {
            throw new IllegalArgumentException("a fixed cursor needs a log id and a replay point");
        }
        return new WalCursor() {
            @Override
            public String walId() {
                return walId;
            }

            @Override
            public WalPosition replayPoint() {
                return replayPoint;
            }
        };
    }
}
