package org.elastras.storage.wal;

/**
 * How a {@link WalWriter} makes sure it never acknowledges a record that recovery will not see
 * once the master has fenced its log (renamed the directory and written {@code FENCE}, see
 * {@link WalFenceMarker}). Immutable.
 *
 * <p>Whatever the choice, a writer checks at every segment roll that the segment it rolls from is
 * still at its path after the new one was created; otherwise the new segment could land in a
 * re-created directory that no recovery reads.
 */
public enum WalFenceCheck {
    /**
     * After each batch's sync and before acknowledging it, check that the segment is still at its
     * path ({@code Dfs.exists}); if it vanished the log was fenced and the batch fails. Needed on
     * the local DFS, where a rename does not stop a writer that holds the file open. One metadata
     * call per batch (on HDFS a namenode round trip).
     */
    EVERY_BATCH,
    /**
     * Check only at segment rolls. Safe only on HDFS, where the fence recovers the segment's lease:
     * from then on the zombie's syncs fail, and a sync that completed before it is inside the
     * final length that {@code FENCE} records.
     */
    ROLL_ONLY
}
