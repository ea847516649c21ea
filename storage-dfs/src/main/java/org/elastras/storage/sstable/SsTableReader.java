package org.elastras.storage.sstable;

import java.io.Closeable;
import java.io.IOException;
import org.elastras.storage.dfs.Dfs;
import org.elastras.storage.store.Version;
import org.elastras.storage.util.CloseableIterator;

/**
 * Reads one SSTable: point lookups at a snapshot and ordered scans. Every block is checked
 * against its checksum when read from the DFS.
 *
 * <p>Thread-safe: any number of threads may read at once.
 */
public final class SsTableReader implements Closeable {

    private SsTableReader() {
    }

    /**
     * Opens a table and verifies its footer, index and bloom filter.
     *
     * @param cacheId an id unique among the tables sharing {@code cache} (e.g. a global file number)
     * @throws org.elastras.storage.util.CorruptionException if the footer, index or filter fails
     *     its checksum or format
     */
    public static SsTableReader open(Dfs dfs, String path, long cacheId, BlockCache cache) throws IOException {
        throw new UnsupportedOperationException("TODO");
    }

    /** The newest version of {@code key} with {@code cts <= snapshotCts} (a tombstone included), or null. */
    public Version get(byte[] key, long snapshotCts) throws IOException {
        throw new UnsupportedOperationException("TODO");
    }

    /** False if the bloom filter proves the table holds no version of {@code key}. */
    public boolean mayContain(byte[] key) {
        throw new UnsupportedOperationException("TODO");
    }

    /**
     * Every version in {@link Version#ORDER}, starting at the first version whose key is
     * {@code >= fromKey} ({@code null}: from the start). IO and corruption errors surface as
     * {@link java.io.UncheckedIOException} from {@code hasNext}/{@code next}.
     */
    public CloseableIterator<Version> scan(byte[] fromKey) {
        throw new UnsupportedOperationException("TODO");
    }

    public SsTableInfo info() {
        throw new UnsupportedOperationException("TODO");
    }

    @Override
    public void close() throws IOException {
        throw new UnsupportedOperationException("TODO");
    }
}
