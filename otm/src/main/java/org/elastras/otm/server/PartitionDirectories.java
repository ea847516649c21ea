package org.elastras.otm.server;

import org.elastras.catalog.schema.Names;
import org.elastras.storage.dfs.Dfs;

/**
 * Where a partition's tables and manifest live on the DFS, whichever OTM owns it: for the OTMs,
 * and for the master, which reads the manifests to tell which fenced logs are still needed.
 * Stateless.
 */
public final class PartitionDirectories {

    private PartitionDirectories() {
    }

    /** {@code data/<canonical database name>/<partition id>}. */
    public static String of(String database, long partitionId) {
        return Dfs.join("data", Names.canonical(database), Long.toString(partitionId));
    }
}
