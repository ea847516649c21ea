package org.elastras.master.cluster;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.elastras.storage.dfs.Dfs;
import org.elastras.storage.wal.WalFenceMarker;
import org.elastras.storage.wal.WalNames;

/**
 * Fences the write-ahead logs of a failed OTM on the DFS: every log a run of that OTM id wrote
 * ({@link WalNames}: one per run, {@code wal/<id>@<start>}) is renamed to {@code wal-fenced/<same
 * name>} and then gets its fence point recorded ({@link WalFenceMarker}: a {@code FENCE} file with
 * the last segment's length; on HDFS after recovering that segment's lease). Recovery reads the
 * fenced directory of a log once it exists. Idempotent. Stateless.
 *
 * <p>What this stops: readers never see a byte past the fence point, so every recovery of every
 * partition from these logs sees the same records, however late a zombie writes. On HDFS the lease
 * recovery makes a zombie's next sync fail. On the local DFS a writer that holds an open file keeps
 * writing to the renamed file (POSIX), but its {@code WalWriter} checks before acknowledging that
 * its segment is still at its path, so it acknowledges nothing synced after the rename.
 *
 * <p>{@link #fenceLogs} fences the runs a master saw fail, exactly: a new run of the id may already
 * be logging while it waits for the id's znode, and every earlier run was fenced before those
 * joined. {@link #fence} takes every run of the id (but a registered new run's), for an OTM whose
 * runs a master did not see (one found dead at a rebuild) and before a new run joins.
 */
public final class WalFence {

    /** Striped locks: one log is fenced by one thread of this process at a time. */
    private static final Object[] LOCKS = new Object[64];

    static {
        for (int i = 0; i < LOCKS.length; i++) {
            LOCKS[i] = new Object();
        }
    }

    private WalFence() {
    }

    /**
     * Fences every log of {@code otmId}. Done already (fenced directories present, live ones absent)
     * and no log at all are both success.
     *
     * @return the wal ids of the fenced logs, sorted
     * @throws IOException if the DFS fails
     */
    public static List<String> fence(Dfs dfs, String otmId) throws IOException {
        return fence(dfs, otmId, Set.of());
    }

    /**
     * {@link #fence(Dfs, String)} but for the logs in {@code keep}: those of a new run of the id
     * that registered after the failed ones and waits for this fence to join.
     */
    public static List<String> fence(Dfs dfs, String otmId, Set<String> keep) throws IOException {
        List<String> logs = new ArrayList<>(WalNames.logsOf(dfs, otmId));
        logs.removeAll(keep);
        for (String walId : logs) {
            fenceLog(dfs, walId);
        }
        return logs;
    }

    /**
     * Fences exactly the logs {@code walIds} (the runs a master saw fail). Idempotent.
     *
     * @return the wal ids, sorted
     * @throws IOException if the DFS fails
     */
    public static List<String> fenceLogs(Dfs dfs, Collection<String> walIds) throws IOException {
        List<String> logs = new ArrayList<>(new TreeSet<>(walIds));
        for (String walId : logs) {
            fenceLog(dfs, walId);
        }
        return logs;
    }

    /** The lock of one log's fence: two fences of a log at once would race on its FENCE file. */
    private static Object lock(String walId) {
        return LOCKS[Math.floorMod(walId.hashCode(), LOCKS.length)];
    }

    private static void fenceLog(Dfs dfs, String walId) throws IOException {
        synchronized (lock(walId)) {
            fenceLogLocked(dfs, walId);
        }
    }

    private static void fenceLogLocked(Dfs dfs, String walId) throws IOException {
        String live = WalNames.liveDirectory(walId);
        String fenced = WalNames.fencedDirectory(walId);
        if (dfs.exists(live)) {
            if (dfs.exists(fenced)) {
                // A zombie's segment roll re-created the live directory after the rename. Its writer
                // checks, once it created the new segment, that the previous one is still at its
                // path, and writes no record into the new one when it is not; and no other run ever
                // writes this log (WalNames never names two runs' logs alike). Nothing there counts.
                dfs.delete(live);
            } else {
                dfs.mkdirs(WalNames.FENCED_ROOT);
                dfs.rename(live, fenced);
            }
        }
        if (dfs.exists(fenced)) {
            // Also when an earlier attempt renamed but died before this: the point is recorded
            // before the fence counts as done, so before any partition of the log is reassigned.
            // Keeps an existing FENCE. No log at all (never created, or deleted once no partition
            // needed it) is fenced already: marking it would create an empty one.
            WalFenceMarker.mark(dfs, fenced, WalFenceMarker.LEASE_RECOVERY_WAIT_MILLIS_DEFAULT);
        }
    }
}
