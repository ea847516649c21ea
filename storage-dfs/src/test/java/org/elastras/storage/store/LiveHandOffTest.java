package org.elastras.storage.store;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.elastras.storage.dfs.Dfs;
import org.elastras.storage.dfs.DfsKind;
import org.elastras.storage.sstable.BlockCache;
import org.elastras.storage.wal.WalPosition;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The storage side of a live move: the origin pauses maintenance, a second store opens the same
 * directory and is given the origin's later versions through its own log, and its hand-off
 * manifest names only that log, unless the origin wrote a manifest meanwhile.
 */
class LiveHandOffTest {

    @TempDir
    Path temp;

    private final StoreEnvironment env = new StoreEnvironment(new BlockCache(1 << 20), null, () -> 0);

    private static byte[] b(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    @ParameterizedTest
    @EnumSource(DfsKind.class)
    void theCopyServesEverythingAndAfterItsFirstFlushNamesOnlyItsOwnLog(DfsKind kind) throws IOException {
        try (Dfs dfs = kind.open(temp)) {
            PartitionStore origin = PartitionStore.open(dfs, "p", StoreOptions.DEFAULT, env);
            TestWalCursor originWal = new TestWalCursor("origin", new WalPosition(1, 0));
            origin.finishRecovery(originWal);
            origin.apply("origin", new WalPosition(1, 0), List.of(new Version(b("a"), 5, b("a5"))));
            originWal.setReplayPoint(new WalPosition(1, 100));
            origin.flush();
            origin.pauseMaintenance();
            // Versions committed after the flush stay in the origin's memtable; flushes do nothing.
            origin.apply("origin", new WalPosition(1, 100), List.of(new Version(b("b"), 7, b("b7"))));
            assertFalse(origin.flush(), "a paused store does not flush");
            assertFalse(origin.compact(0), "a paused store does not compact");
            long manifestWhilePaused = origin.manifest().sequence();

            PartitionStore copy = PartitionStore.open(dfs, "p", StoreOptions.DEFAULT, env);
            assertArrayEquals(b("a5"), copy.get(b("a"), 10), "the copy reads the flushed tables");
            Manifest begun = copy.beginLiveCopy(new TestWalCursor("dest", new WalPosition(3, 40)));
            assertEquals(manifestWhilePaused + 1, begun.sequence());
            assertEquals(Map.of("origin", new WalPosition(1, 100), "dest", new WalPosition(3, 40)), begun.replayPoints(),
                    "while the copy is filled, a recovery replays both logs");
            // The origin ships what it applied since, logged in the destination's own log.
            copy.apply("dest", new WalPosition(3, 40), List.of(new Version(b("b"), 7, b("b7"))));
            copy.apply("dest", new WalPosition(3, 80), List.of(Version.tombstone(b("a"), 8)));
            assertThrows(IllegalStateException.class, copy::flush, "a copy does not flush before it is finished");
            copy.finishLiveCopy();
            assertArrayEquals(begun.encode(), PartitionStore.readManifest(dfs, "p").encode(), "finishing writes nothing");
            assertArrayEquals(b("b7"), copy.get(b("b"), 10));
            assertEquals(null, copy.get(b("a"), 10));
            assertTrue(copy.flush(), "the new owner flushes");
            Manifest flushed = PartitionStore.readManifest(dfs, "p");
            assertEquals(begun.sequence() + 1, flushed.sequence());
            assertEquals(java.util.Set.of("dest"), flushed.replayPoints().keySet(),
                    "after its first flush the copy's manifest no longer names the origin's log");
            origin.close();
            copy.close();

            PartitionStore reopened = PartitionStore.open(dfs, "p", StoreOptions.DEFAULT, env);
            assertArrayEquals(b("b7"), reopened.get(b("b"), 10));
            assertArrayEquals(b("a5"), reopened.get(b("a"), 7));
            assertEquals(null, reopened.get(b("a"), 10));
            reopened.close();
        }
    }

    /**
     * Once every version the copy holds outside its tables is in its own log, it drops the
     * origin's log from its manifest without a flush: no table is written for the move, and a
     * recovery needs only the copy's log from where the copy began.
     */
    @ParameterizedTest
    @EnumSource(DfsKind.class)
    void theCopyDropsTheOriginsLogWithoutWritingATable(DfsKind kind) throws IOException {
        // Maintenance runs on the calling thread.
        StoreEnvironment direct = new StoreEnvironment(new BlockCache(1 << 20), Runnable::run, () -> 0);
        try (Dfs dfs = kind.open(temp)) {
            PartitionStore origin = PartitionStore.open(dfs, "p", StoreOptions.DEFAULT, direct);
            TestWalCursor originWal = new TestWalCursor("origin", new WalPosition(1, 0));
            origin.finishRecovery(originWal);
            origin.apply("origin", new WalPosition(1, 0), List.of(new Version(b("a"), 5, b("a5"))));
            originWal.setReplayPoint(new WalPosition(1, 100));
            assertTrue(origin.flush());
            origin.pauseMaintenance();
            origin.apply("origin", new WalPosition(1, 100), List.of(new Version(b("b"), 7, b("b7"))));

            PartitionStore copy = PartitionStore.open(dfs, "p", StoreOptions.DEFAULT, direct);
            Manifest begun = copy.beginLiveCopy(new TestWalCursor("dest", new WalPosition(3, 40)));
            assertEquals(java.util.Set.of("origin", "dest"), begun.replayPoints().keySet());
            copy.apply("dest", new WalPosition(3, 40), List.of(new Version(b("b"), 7, b("b7"))));
            copy.apply("dest", new WalPosition(3, 80), List.of(Version.tombstone(b("a"), 8)));
            copy.dropOtherLogsSoon();
            assertArrayEquals(begun.encode(), PartitionStore.readManifest(dfs, "p").encode(),
                    "a copy not yet finished writes no manifest");
            copy.finishLiveCopy();
            origin.close();
            copy.dropOtherLogsSoon();
            Manifest dropped = PartitionStore.readManifest(dfs, "p");
            assertEquals(begun.sequence() + 1, dropped.sequence());
            assertEquals(Map.of("dest", new WalPosition(3, 40)), dropped.replayPoints(),
                    "every version outside the tables is in the copy's own log, from where the copy began");
            assertEquals(begun.tables(), dropped.tables(), "no table was written");
            assertEquals(0, copy.stats().flushes());
            assertArrayEquals(b("b7"), copy.get(b("b"), 10));
            assertEquals(null, copy.get(b("a"), 10));
            assertArrayEquals(b("a5"), copy.get(b("a"), 7));
            copy.close();
        }
    }

    /**
     * A compaction due when the copy starts serving runs then: the origin's tables reached the
     * trigger while its maintenance could not compact them, and the copy writes no table soon.
     */
    @ParameterizedTest
    @EnumSource(DfsKind.class)
    void aCopyCompactsTablesThatReachedTheTriggerWhenItStartsServing(DfsKind kind) throws IOException {
        StoreOptions triggerAt2 = new StoreOptions(128L << 20, 2, 2, org.elastras.storage.sstable.SsTableOptions.DEFAULT,
                org.elastras.storage.util.StorageLimits.DEFAULT);
        // The origin has no maintenance executor: its flushes leave the compaction to nobody.
        StoreEnvironment noMaintenance = new StoreEnvironment(new BlockCache(1 << 20), null, () -> 0);
        StoreEnvironment direct = new StoreEnvironment(new BlockCache(1 << 20), Runnable::run, () -> 0);
        try (Dfs dfs = kind.open(temp)) {
            PartitionStore origin = PartitionStore.open(dfs, "p", triggerAt2, noMaintenance);
            TestWalCursor originWal = new TestWalCursor("origin", new WalPosition(1, 0));
            origin.finishRecovery(originWal);
            origin.apply("origin", new WalPosition(1, 0), List.of(new Version(b("a"), 5, b("a5"))));
            assertTrue(origin.flush());
            origin.apply("origin", new WalPosition(1, 50), List.of(new Version(b("a"), 6, b("a6")),
                    new Version(b("c"), 6, b("c6"))));
            originWal.setReplayPoint(new WalPosition(1, 100));
            assertTrue(origin.flush());
            origin.pauseMaintenance();
            assertEquals(2, PartitionStore.readManifest(dfs, "p").tables().size());

            PartitionStore copy = PartitionStore.open(dfs, "p", triggerAt2, direct);
            copy.beginLiveCopy(new TestWalCursor("dest", new WalPosition(3, 40)));
            copy.apply("dest", new WalPosition(3, 40), List.of(new Version(b("b"), 7, b("b7"))));
            assertEquals(0, copy.stats().compactions(), "a copy does not compact before it serves");
            copy.finishLiveCopy();
            origin.close();
            assertEquals(1, copy.stats().compactions(), "the copy compacted the tables that reached the trigger");
            assertEquals(1, PartitionStore.readManifest(dfs, "p").tables().size());
            assertArrayEquals(b("a6"), copy.get(b("a"), 10));
            assertArrayEquals(b("a5"), copy.get(b("a"), 5));
            assertArrayEquals(b("b7"), copy.get(b("b"), 10));
            assertArrayEquals(b("c6"), copy.get(b("c"), 10));
            copy.close();
        }
    }

    @ParameterizedTest
    @EnumSource(DfsKind.class)
    void aCopyWhoseManifestWasReplacedWritesNothingAndDoesNotServe(DfsKind kind) throws IOException {
        try (Dfs dfs = kind.open(temp)) {
            PartitionStore origin = PartitionStore.open(dfs, "p", StoreOptions.DEFAULT, env);
            TestWalCursor originWal = new TestWalCursor("origin", new WalPosition(1, 0));
            origin.finishRecovery(originWal);
            origin.apply("origin", new WalPosition(1, 0), List.of(new Version(b("a"), 5, b("a5"))));
            origin.flush();

            PartitionStore copy = PartitionStore.open(dfs, "p", StoreOptions.DEFAULT, env);
            copy.apply("dest", new WalPosition(3, 40), List.of(new Version(b("b"), 7, b("b7"))));
            // The origin was not paused: it writes a manifest after the copy opened.
            origin.apply("origin", new WalPosition(1, 50), List.of(new Version(b("c"), 9, b("c9"))));
            origin.flush();
            Manifest originsLatest = PartitionStore.readManifest(dfs, "p");

            IllegalStateException e = assertThrows(IllegalStateException.class,
                    () -> copy.beginLiveCopy(new TestWalCursor("dest", new WalPosition(3, 120))));
            assertTrue(e.getMessage().contains("stale"), e.getMessage());
            assertArrayEquals(originsLatest.encode(), PartitionStore.readManifest(dfs, "p").encode(),
                    "the origin's manifest is left as it was");
            copy.close();

            // A move begun in time, then given up: the origin resumes and flushes above the copy's
            // manifest, and the copy can no longer serve.
            origin.pauseMaintenance();
            PartitionStore late = PartitionStore.open(dfs, "p", StoreOptions.DEFAULT, env);
            Manifest begun = late.beginLiveCopy(new TestWalCursor("dest", new WalPosition(4, 0)));
            origin.apply("origin", new WalPosition(1, 90), List.of(new Version(b("d"), 11, b("d11"))));
            origin.resumeMaintenance();
            assertTrue(origin.flush());
            Manifest resumed = PartitionStore.readManifest(dfs, "p");
            assertEquals(begun.sequence() + 1, resumed.sequence());
            assertEquals(java.util.Set.of("origin"), resumed.replayPoints().keySet());
            IllegalStateException stale = assertThrows(IllegalStateException.class, late::finishLiveCopy);
            assertTrue(stale.getMessage().contains("stale"), stale.getMessage());
            late.close();
            origin.close();
        }
    }
}
