package org.elastras.storage.store;

import java.io.IOException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.elastras.storage.dfs.Dfs;
import org.elastras.storage.sstable.SsTableInfo;
import org.elastras.storage.sstable.SsTableReader;

/**
 * One open SSTable of a partition store, counted by the {@link StoreView}s that include it. When
 * the last view lets go, the reader is closed, and if compaction replaced the table, its file is
 * deleted: a reader in the middle of a scan never loses its file.
 *
 * <p>Thread-safe.
 */
final class TableHandle {

    private static final Logger LOG = Logger.getLogger(TableHandle.class.getName());

    private final SsTableReader reader;
    private final SsTableInfo info;
    private final Dfs dfs;
    private final String path;
    private final AtomicInteger refs = new AtomicInteger();
    private volatile boolean obsolete;

    TableHandle(SsTableReader reader, Dfs dfs, String path) {
        this.reader = reader;
        this.info = reader.info();
        this.dfs = dfs;
        this.path = path;
    }

    SsTableReader reader() {
        return reader;
    }

    SsTableInfo info() {
        return info;
    }

    void retain() {
        int before = refs.getAndIncrement();
        if (before < 0) {
            throw new IllegalStateException("retain of a released table " + path);
        }
    }

    /** Marks the table as replaced: its file is deleted once no view holds it. */
    void markObsolete() {
        obsolete = true;
    }

    void release() {
        int after = refs.decrementAndGet();
        if (after < 0) {
            throw new IllegalStateException("table " + path + " released more often than retained");
        }
        if (after == 0) {
            try {
                reader.close();
                if (obsolete) {
                    dfs.delete(path);
                }
            } catch (IOException e) {
                // The file is unreferenced; a failed delete leaves an orphan that the next open removes.
                LOG.log(Level.WARNING, "could not close or delete obsolete table " + path, e);
            }
        }
    }
}
