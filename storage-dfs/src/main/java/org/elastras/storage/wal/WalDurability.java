package org.elastras.storage.wal;

/**
 * What the WAL writer does at the end of each batch before it acknowledges the batch's records.
 * Immutable.
 */
public enum WalDurability {
    /** {@code DfsOutput.sync()}: acknowledged records survive a crash of the process and machine. */
    SYNC,
    /**
     * {@code DfsOutput.flush()} only: records are visible to readers but may be lost in a crash.
     * The no-sync ceiling for benchmarks; never for production data.
     */
    FLUSH
}
