package org.elastras.master.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import org.elastras.storage.dfs.Dfs;
import org.elastras.storage.dfs.LocalDfs;
import org.elastras.storage.wal.WalEntry;
import org.elastras.storage.wal.WalFenceMarker;
import org.elastras.storage.wal.WalOptions;
import org.elastras.storage.wal.WalPosition;
import org.elastras.storage.wal.WalReader;
import org.elastras.storage.wal.WalRecord;
import org.elastras.storage.wal.WalWriter;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Fencing a dead OTM's log renames it and records a fence point; fencing again keeps the point,
 * and a fence that died between the rename and the point is completed by the next attempt.
 */
class WalFenceTest {

    @TempDir
    Path temp;

    private static WalRecord record(String key) {
        return new WalRecord(1, List.of(new WalRecord.Mutation(5, key.getBytes(), new byte[10])));
    }

    @Test
    void fencingRenamesTheLogAndRecordsAFencePointThatLaterFencesKeep() throws IOException {
        try (Dfs dfs = LocalDfs.open(temp.resolve("dfs"))) {
            WalWriter zombie = WalWriter.open(dfs, WalFence.walDirectory("otm-9"), WalOptions.DEFAULT);
            zombie.append(record("acknowledged")).join();

            WalFence.fence(dfs, "otm-9");
            String fenced = WalFence.fencedWalDirectory("otm-9");
            assertFalse(dfs.exists(WalFence.walDirectory("otm-9")));
            WalFenceMarker.Point point = WalFenceMarker.readOrNull(dfs, fenced);
            assertNotNull(point, "FENCE written");
            assertEquals(1, point.segment());

            // The zombie's next batch is refused; the fence point does not move on a second fence.
            assertTrue(zombie.append(record("late")).handle((position, failure) -> failure != null).join());
            WalFence.fence(dfs, "otm-9");
            assertEquals(point, WalFenceMarker.readOrNull(dfs, fenced));
            List<WalEntry> replayed = WalReader.readAll(dfs, fenced, WalPosition.START);
            assertEquals("acknowledged", new String(replayed.get(0).record().mutations().get(0).key()));
        }
    }

    @Test
    void aFenceThatDiedAfterTheRenameIsCompletedByTheNextAttempt() throws IOException {
        try (Dfs dfs = LocalDfs.open(temp.resolve("dfs"))) {
            try (WalWriter writer = WalWriter.open(dfs, WalFence.walDirectory("otm-3"), WalOptions.DEFAULT)) {
                writer.append(record("a")).join();
            }
            dfs.mkdirs("wal-fenced");
            dfs.rename(WalFence.walDirectory("otm-3"), WalFence.fencedWalDirectory("otm-3"));
            assertEquals(null, WalFenceMarker.readOrNull(dfs, WalFence.fencedWalDirectory("otm-3")));

            WalFence.fence(dfs, "otm-3");
            assertNotNull(WalFenceMarker.readOrNull(dfs, WalFence.fencedWalDirectory("otm-3")));
            // An OTM that never logged: nothing to fence, and that is success.
            WalFence.fence(dfs, "otm-never");
        }
    }
}
