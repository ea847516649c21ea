package org.elastras.master.cluster;

import java.io.IOException;
import org.elastras.storage.dfs.Dfs;
import org.elastras.storage.wal.WalFenceMarker;

/**
 * Fences a failed OTM's write-ahead log on the DFS by renaming {@code wal/<id>} to
 * {@code wal-fenced/<id>} and then recording the fence point in it ({@link WalFenceMarker}: a
 * {@code FENCE} file with the last segment's length; on HDFS after recovering that segment's
 * lease). These are the names the OTM's {@code PartitionHost} uses for its own log and for
 * recovery (which reads the fenced directory once it exists). Idempotent. Stateless.
 *
 * <p>What this stops: readers never see a byte past the fence point, so every recovery of every
 * partition from this log sees the same records, however late a zombie writes. On HDFS the lease
 * recovery makes a zombie's next sync fail. On the local DFS a writer that holds an open file keeps
 * writing to the renamed file (POSIX), but its {@code WalWriter} checks before acknowledging that
 * its segment is still at its path, so it acknowledges nothing synced after the rename.
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
        if (dfs.exists(live)) {
            if (dfs.exists(fenced)) {
                throw new IOException("cannot fence the log of OTM " + otmId + ": both " + live + " and " + fenced
                        + " exist, so the id was reused after a fence; never reuse an OTM id (move " + live
                        + " aside by hand after checking that no manifest names it)");
            }
            dfs.mkdirs("wal-fenced");
            dfs.rename(live, fenced);
        }
        if (dfs.exists(fenced)) {
            // Also when an earlier attempt renamed but died before this: the point is recorded before
            // the fence counts as done, so before any partition of the log is reassigned. Keeps an
            // existing FENCE.
            WalFenceMarker.mark(dfs, fenced, WalFenceMarker.LEASE_RECOVERY_WAIT_MILLIS_DEFAULT);
        }
    }
}
