package org.elastras.master.cluster;

import java.io.IOException;
import org.elastras.storage.dfs.Dfs;

/**
 * Fences a failed OTM's write-ahead log on the DFS by renaming {@code wal/<id>} to
 * {@code wal-fenced/<id>}: the names the OTM's {@code PartitionHost} uses for its own log and for
 * recovery (which reads the fenced directory once it exists). Idempotent. Stateless.
 *
 * <p>What the rename does and does not stop: on HDFS a writer's next block allocation or lease
 * renewal on a renamed file fails, and a later step should also recover the file lease so its
 * appends fail at once. On the local DFS a writer that holds an open file keeps writing to the
 * renamed file (POSIX), so there the OTM's own lease-lost path ({@code WalWriter.fence}) is what
 * stops it; the rename makes every later reader (recovery) and every new segment of a zombie
 * go to different places.
 */
public final class WalFence {

    /** The DFS directory of an OTM's own log; must match the OTM's {@code PartitionHost.walDirectory}. */
    static String walDirectory(String otmId) {
        return Dfs.join("wal", otmId);
    }

    /** Where a fenced log goes; must match the OTM's {@code PartitionHost.fencedWalDirectory}. */
    static String fencedWalDirectory(String otmId) {
        return Dfs.join("wal-fenced", otmId);
    }

    private WalFence() {
    }

    /**
     * Fences the log of {@code otmId}. Done already (fenced directory present, live one absent) and
     * no log at all are both success.
     *
     * @throws IOException if the DFS fails, or if both directories exist: a process reused the id
     *     of a fenced OTM and wrote a new log, which this naming cannot fence (ids must not be reused)
     */
    public static void fence(Dfs dfs, String otmId) throws IOException {
        String live = walDirectory(otmId);
        String fenced = fencedWalDirectory(otmId);
        if (!dfs.exists(live)) {
            return;
        }
        if (dfs.exists(fenced)) {
            throw new IOException("cannot fence the log of OTM " + otmId + ": both " + live + " and " + fenced
                    + " exist, so the id was reused after a fence; never reuse an OTM id (move " + live
                    + " aside by hand after checking that no manifest names it)");
        }
        dfs.mkdirs("wal-fenced");
        dfs.rename(live, fenced);
    }
}
