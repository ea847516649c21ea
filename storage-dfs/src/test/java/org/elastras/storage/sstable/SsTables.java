package org.elastras.storage.sstable;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import org.elastras.storage.dfs.Dfs;
import org.elastras.storage.store.Version;
import org.elastras.storage.util.CloseableIterator;

/** Small helpers for SSTable tests. Stateless. */
final class SsTables {

    private SsTables() {
    }

    /** Writes {@code versions} (already in Version.ORDER) as a finished table at {@code path}. */
    static SsTableInfo write(Dfs dfs, String path, SsTableOptions options, Collection<Version> versions)
            throws IOException {
        String name = path.substring(path.lastIndexOf('/') + 1);
        try (SsTableWriter writer = new SsTableWriter(dfs.create(path), name, options)) {
            for (Version v : versions) {
                writer.add(v);
            }
            return writer.finish();
        }
    }

    static List<Version> drain(CloseableIterator<Version> scan) {
        try (scan) {
            List<Version> all = new ArrayList<>();
            while (scan.hasNext()) {
                all.add(scan.next());
            }
            return all;
        }
    }
}
