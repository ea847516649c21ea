package org.elastras.master.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import org.elastras.storage.dfs.Dfs;
import org.elastras.storage.dfs.LocalDfs;
import org.elastras.storage.wal.WalEntry;
import org.elastras.storage.wal.WalFenceMarker;
import org.elastras.storage.wal.WalFormat;
import org.elastras.storage.wal.WalNames;
import org.elastras.storage.wal.WalOptions;
import org.elastras.storage.wal.WalPosition;
import org.elastras.storage.wal.WalReader;
import org.elastras.storage.wal.WalRecord;
import org.elastras.storage.wal.WalWriter;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Fencing a dead OTM's log renames it and records a fence point; fencing again keeps the point,
 * and a fence that died between the rename and the point is completed by the next attempt. Every
 * run of an OTM id has a log of its own and a fence takes all of them, and no other id's.
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
            WalWriter zombie = WalWriter.open(dfs, WalNames.liveDirectory("otm-9"), WalOptions.DEFAULT);
            zombie.append(record("acknowledged")).join();

            WalFence.fence(dfs, "otm-9");
            String fenced = WalNames.fencedDirectory("otm-9");
            assertFalse(dfs.exists(WalNames.liveDirectory("otm-9")));
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
            try (WalWriter writer = WalWriter.open(dfs, WalNames.liveDirectory("otm-3@20261127T080000000Z"), WalOptions.DEFAULT)) {
                writer.append(record("a")).join();
            }
            dfs.mkdirs("wal-fenced");
            dfs.rename(WalNames.liveDirectory("otm-3@20261127T080000000Z"), WalNames.fencedDirectory("otm-3@20261127T080000000Z"));
            assertEquals(null, WalFenceMarker.readOrNull(dfs, WalNames.fencedDirectory("otm-3@20261127T080000000Z")));

            WalFence.fence(dfs, "otm-3");
            assertNotNull(WalFenceMarker.readOrNull(dfs, WalNames.fencedDirectory("otm-3@20261127T080000000Z")));
            // An OTM that never logged: nothing to fence, and that is success.
            WalFence.fence(dfs, "otm-never");
        }
    }

    @Test
    void aFenceTakesEveryRunsLogOfTheIdAndNoOtherIds() throws IOException {
        try (Dfs dfs = LocalDfs.open(temp.resolve("dfs"))) {
            long[] clock = {1_795_000_000_000L};
            String first = WalNames.newWalId(dfs, "otm-1", () -> clock[0]);
            try (WalWriter writer = WalWriter.open(dfs, WalNames.liveDirectory(first), WalOptions.DEFAULT)) {
                writer.append(record("first run")).join();
            }
            WalFence.fence(dfs, "otm-1");
            // The same id runs again, in the same millisecond even: a log of its own, not the fenced one.
            String second = WalNames.newWalId(dfs, "otm-1", () -> clock[0]++);
            assertTrue(!second.equals(first) && WalNames.belongsTo(second, "otm-1"), first + " then " + second);
            WalWriter zombie = WalWriter.open(dfs, WalNames.liveDirectory(second), WalOptions.DEFAULT);
            zombie.append(record("second run")).join();
            // Ids that share a prefix with it, and one without a run time (logs written before runs had one).
            for (String other : List.of("otm-10", "otm-1.b", "otm-1")) {
                try (WalWriter writer = WalWriter.open(dfs, WalNames.liveDirectory(other.equals("otm-1") ? other
                        : WalNames.newWalId(dfs, other, () -> clock[0])), WalOptions.DEFAULT)) {
                    writer.append(record(other)).join();
                }
            }

            assertEquals(List.of("otm-1", first, second), WalFence.fence(dfs, "otm-1"));
            for (String walId : List.of("otm-1", first, second)) {
                assertFalse(dfs.exists(WalNames.liveDirectory(walId)), walId);
                assertNotNull(WalFenceMarker.readOrNull(dfs, WalNames.fencedDirectory(walId)), walId);
            }
            assertEquals("second run", new String(WalReader.readAll(dfs, WalNames.fencedDirectory(second),
                    WalPosition.START).get(0).record().mutations().get(0).key()));
            assertTrue(zombie.append(record("late")).handle((position, failure) -> failure != null).join(),
                    "the fenced run acknowledges nothing more");
            List<String> live = dfs.list(WalNames.LIVE_ROOT);
            assertEquals(2, live.size(), "the other ids' logs stay live: " + live);
            assertTrue(live.stream().noneMatch(walId -> WalNames.belongsTo(walId, "otm-1")), live.toString());
            assertThrows(IllegalArgumentException.class, () -> WalNames.newWalId(dfs, "otm@1", () -> 0L));
        }
    }

    @Test
    void aLiveDirectoryAZombiesRollRecreatedIsDroppedByTheNextFence() throws IOException {
        try (Dfs dfs = LocalDfs.open(temp.resolve("dfs"))) {
            String walId = "otm-5@20261127T080000000Z";
            try (WalWriter writer = WalWriter.open(dfs, WalNames.liveDirectory(walId), WalOptions.DEFAULT)) {
                writer.append(record("acknowledged")).join();
            }
            WalFence.fence(dfs, "otm-5");
            WalFenceMarker.Point point = WalFenceMarker.readOrNull(dfs, WalNames.fencedDirectory(walId));
            // The zombie's roll created segment 2 at the old path (a new directory) before finding
            // segment 1 gone; the writer then wrote nothing there.
            dfs.mkdirs(WalNames.liveDirectory(walId));
            try (var segment = dfs.createLog(WalNames.liveDirectory(walId) + "/" + WalFormat.segmentFileName(2))) {
                segment.write(WalFormat.encodeHeader(2, 0));
                segment.sync();
            }

            assertEquals(List.of(walId), WalFence.fence(dfs, "otm-5"));
            assertFalse(dfs.exists(WalNames.liveDirectory(walId)), "the re-created directory is gone");
            assertEquals(point, WalFenceMarker.readOrNull(dfs, WalNames.fencedDirectory(walId)), "the fence point stands");
            assertEquals("acknowledged", new String(WalReader.readAll(dfs, WalNames.fencedDirectory(walId),
                    WalPosition.START).get(0).record().mutations().get(0).key()));
        }
    }
}
