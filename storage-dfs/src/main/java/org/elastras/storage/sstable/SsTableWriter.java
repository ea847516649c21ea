package org.elastras.storage.sstable;

import java.io.Closeable;
import java.io.IOException;
import org.elastras.storage.dfs.DfsOutput;
import org.elastras.storage.store.Version;

/**
 * Writes one immutable SSTable: versions added in strictly increasing {@link Version#ORDER}.
 * Format in docs/sstable-format.md.
 *
 * <p>Not thread-safe: one thread adds and finishes.
 */
public final class SsTableWriter implements Closeable {

    /**
     * @param out a freshly created, empty file; the writer owns it and closes it
     * @param fileName the file's name, recorded in the returned {@link SsTableInfo}
     */
    public SsTableWriter(DfsOutput out, String fileName, SsTableOptions options) {
        throw new UnsupportedOperationException("TODO");
    }

    /**
     * Appends a version.
     *
     * @throws IllegalStateException if {@code version} does not sort strictly after the previous
     *     one (a duplicate (key, cts) is such a bug), or after {@link #finish()}
     */
    public void add(Version version) throws IOException {
        throw new UnsupportedOperationException("TODO");
    }

    /** Writes the index, the bloom filter and the footer, syncs, closes, and describes the table. */
    public SsTableInfo finish() throws IOException {
        throw new UnsupportedOperationException("TODO");
    }

    /** Abandons an unfinished table: closes the output without a footer. */
    @Override
    public void close() throws IOException {
        throw new UnsupportedOperationException("TODO");
    }
}
