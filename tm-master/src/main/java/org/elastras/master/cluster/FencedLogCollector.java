package org.elastras.master.cluster;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Predicate;
import org.elastras.storage.dfs.Dfs;
import org.elastras.storage.store.PartitionStore;
import org.elastras.storage.wal.WalFenceMarker;
import org.elastras.storage.wal.WalNames;

/**
 * Deletes the fenced write-ahead logs that no partition needs any more, so that the logs of dead
 * OTM runs do not pile up on the DFS. A fenced log is read only by the recovery of a partition
 * whose manifest names it (its replay points); manifests only ever stop naming a fenced log (the
 * owner that recovered the partition names its own log from its next flush on), never start to.
 * So a fenced log that no current manifest names is never read again and may go. Kept whatever
 * the manifests say: the logs of an OTM whose recovery is under way, and a log whose fence is not
 * complete (no fence point yet). Stateless.
 */
final class FencedLogCollector {

    /** What one round did: the logs deleted, the fenced ones kept (named or recovering), the manifests read. */
    record Round(List<String> deleted, List<String> kept, int manifestsRead) {
    }

    private FencedLogCollector() {
    }

    /**
     * One round. Reads every manifest only if some fenced log could go.
     *
     * @param partitionDirectories the DFS directory of every partition the catalog holds (all of
     *     them: a log a missing one names would be deleted)
     * @param recovering whether the recovery of an OTM id is still under way
     * @throws IOException if the DFS fails; then nothing more is deleted this round
     */
    static Round collect(Dfs dfs, Collection<String> partitionDirectories, Predicate<String> recovering)
            throws IOException {
        List<String> candidates = new ArrayList<>();
        List<String> kept = new ArrayList<>();
        for (String walId : dfs.list(WalNames.FENCED_ROOT)) {
            if (recovering.test(WalNames.otmIdOf(walId))
                    || WalFenceMarker.readOrNull(dfs, WalNames.fencedDirectory(walId)) == null) {
                kept.add(walId);
            } else {
                candidates.add(walId);
            }
        }
        if (candidates.isEmpty()) {
            return new Round(List.of(), kept, 0);
        }
        Set<String> named = new HashSet<>();
        for (String directory : partitionDirectories) {
            named.addAll(PartitionStore.readManifest(dfs, directory).replayPoints().keySet());
        }
        List<String> deleted = new ArrayList<>();
        for (String walId : candidates) {
            if (named.contains(walId)) {
                kept.add(walId);
            } else {
                dfs.delete(WalNames.fencedDirectory(walId));
                deleted.add(walId);
            }
        }
        return new Round(deleted, kept, partitionDirectories.size());
    }
}
