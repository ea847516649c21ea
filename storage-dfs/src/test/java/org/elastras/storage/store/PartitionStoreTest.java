package org.elastras.storage.store;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.elastras.storage.dfs.Dfs;
import org.elastras.storage.dfs.DfsKind;
import org.elastras.storage.dfs.DfsOutput;
import org.elastras.storage.dfs.MemoryDfs;
import org.elastras.storage.sstable.BlockCache;
import org.elastras.storage.util.CloseableIterator;
import org.elastras.storage.util.CorruptionException;
import org.elastras.storage.util.LimitExceededException;
import org.elastras.storage.util.StorageLimits;
import org.elastras.storage.wal.WalPosition;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

class PartitionStoreTest {

    @TempDir
    Path temp;

    private final StoreEnvironment env = new StoreEnvironment(new BlockCache(1 << 20), null, () -> 0);

    static byte[] b(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    private static List<String> scanAll(PartitionStore store, long snapshot) {
        List<String> out = new ArrayList<>();
        try (CloseableIterator<Version> it = store.scan(null, null, snapshot, Integer.MAX_VALUE)) {
            it.forEachRemaining(v -> out.add(new String(v.key(), StandardCharsets.UTF_8) + "=" + new String(v.value(), StandardCharsets.UTF_8)));
        }
        return out;
    }

    @ParameterizedTest
    @EnumSource(DfsKind.class)
    void applyingAVersionTwiceChangesNothing(DfsKind kind) throws IOException {
        try (Dfs dfs = kind.open(temp)) {
            PartitionStore store = PartitionStore.open(dfs, "p", StoreOptions.DEFAULT, env);
            store.finishRecovery(new TestWalCursor("w", WalPosition.START));
            List<Version> versions = List.of(new Version(b("a"), 5, b("a5")), new Version(b("b"), 6, b("b6")), Version.tombstone(b("a"), 9));
            assertEquals(3, store.apply("w", new WalPosition(1, 0), versions));
            assertEquals(0, store.apply("w", new WalPosition(1, 0), versions));
            List<String> before = scanAll(store, 7);
            store.flush();
            // Now the versions are in an SSTable; applying them again puts them in the memtable too.
            assertEquals(3, store.apply("w", new WalPosition(1, 0), versions));
            assertEquals(before, scanAll(store, 7));
            assertEquals(List.of("a=a5", "b=b6"), scanAll(store, 7));
            assertEquals(List.of("b=b6"), scanAll(store, 9));
            assertNull(store.get(b("a"), 9));
            assertArrayEquals(b("a5"), store.get(b("a"), 8));
            store.flush();
            store.compact(0);
            assertEquals(List.of("a=a5", "b=b6"), scanAll(store, 7));
            assertEquals(3, store.stats().tableEntries(), "duplicates were merged away");
            store.close();
        }
    }

    @Test
    void aDifferentValueForTheSameKeyAndCtsIsABug() {
        PartitionStore store = openFresh(new MemoryDfs());
        assertEquals(-1, store.maxCts());
        store.apply("w", WalPosition.START, List.of(new Version(b("k"), 1, b("x"))));
        assertThrows(IllegalStateException.class, () -> store.apply("w", WalPosition.START, List.of(new Version(b("k"), 1, b("y")))));
    }

    private PartitionStore openFresh(Dfs dfs) {
        try {
            PartitionStore store = PartitionStore.open(dfs, "p", StoreOptions.DEFAULT, env);
            store.finishRecovery(new TestWalCursor("w", WalPosition.START));
            return store;
        } catch (IOException e) {
            throw new AssertionError(e);
        }
    }

    @Test
    void oversizedKeyOrValueIsRejectedAndNothingOfTheBatchIsApplied() throws IOException {
        StoreOptions tight = new StoreOptions(1 << 20, 2, 6, StoreOptions.DEFAULT.tables(), new StorageLimits(8, 16, 10, 1024));
        PartitionStore store = PartitionStore.open(new MemoryDfs(), "p", tight, env);
        store.finishRecovery(new TestWalCursor("w", WalPosition.START));
        LimitExceededException e = assertThrows(LimitExceededException.class, () -> store.apply("w", WalPosition.START,
                List.of(new Version(b("ok"), 1, b("v")), new Version(b("much-too-long-key"), 1, b("v")))));
        assertTrue(e.getMessage().contains("keyBytesMax"), e.getMessage());
        assertThrows(LimitExceededException.class, () -> store.apply("w", WalPosition.START,
                List.of(new Version(b("ok"), 1, new byte[17]))));
        assertNull(store.getVersion(b("ok"), Long.MAX_VALUE));
        assertEquals(0, store.stats().memtableBytes());
    }

    @Test
    void manifestReplayPointsCoverEveryVersionNotYetInATable() throws IOException {
        MemoryDfs dfs = new MemoryDfs();
        // A previous owner left a manifest that asks to replay its log from 3:100.
        PartitionStore first = PartitionStore.open(dfs, "p", StoreOptions.DEFAULT, env);
        first.finishRecovery(new TestWalCursor("old", new WalPosition(3, 100)));
        first.close();

        PartitionStore store = PartitionStore.open(dfs, "p", StoreOptions.DEFAULT, env);
        assertEquals(Map.of("old", new WalPosition(3, 100)), store.replayPoints());
        assertThrows(IllegalStateException.class, store::flush, "no flush before recovery ends");
        // Recovery replays the old log into the memtable.
        store.apply("old", new WalPosition(3, 100), List.of(new Version(b("r"), 1, b("1"))));
        store.apply("old", new WalPosition(3, 250), List.of(new Version(b("s"), 2, b("2"))));
        TestWalCursor own = new TestWalCursor("new", new WalPosition(1, 0));
        store.finishRecovery(own);
        assertEquals(Map.of("old", new WalPosition(3, 100), "new", new WalPosition(1, 0)), store.manifest().replayPoints());

        store.apply("new", new WalPosition(1, 0), List.of(new Version(b("t"), 3, b("3"))));
        // A commit logged at 1:500 is not applied yet: the owner's replay point stays there.
        own.setReplayPoint(new WalPosition(1, 500));
        store.flush();
        assertEquals(Map.of("new", new WalPosition(1, 500)), store.manifest().replayPoints(),
                "the old log is fully flushed; the own log is needed from its oldest unapplied record");

        store.apply("new", new WalPosition(1, 500), List.of(new Version(b("u"), 4, b("4"))));
        own.setReplayPoint(new WalPosition(2, 0));
        // Freeze happens inside flush; a version applied after it lands in the new memtable.
        store.flush();
        assertEquals(Map.of("new", new WalPosition(2, 0)), store.manifest().replayPoints());
        store.apply("new", new WalPosition(2, 0), List.of(new Version(b("v"), 5, b("5"))));
        store.close();

        PartitionStore reopened = PartitionStore.open(dfs, "p", StoreOptions.DEFAULT, env);
        assertEquals(Map.of("new", new WalPosition(2, 0)), reopened.replayPoints());
        assertArrayEquals(b("4"), reopened.get(b("u"), 10));
        assertNull(reopened.get(b("v"), 10), "unflushed: only a WAL replay brings it back");
        reopened.close();
    }

    @ParameterizedTest
    @EnumSource(DfsKind.class)
    void compactionDropsOnlyVersionsNoSnapshotAtOrAfterTheHorizonSees(DfsKind kind) throws IOException {
        try (Dfs dfs = kind.open(temp)) {
            PartitionStore store = PartitionStore.open(dfs, "p", StoreOptions.DEFAULT, env);
            store.finishRecovery(new TestWalCursor("w", WalPosition.START));
            WalPosition p = WalPosition.START;
            store.apply("w", p, List.of(new Version(b("k"), 1, b("v1")), new Version(b("gone"), 1, b("g1"))));
            store.flush();
            store.apply("w", p, List.of(new Version(b("k"), 3, b("v3")), Version.tombstone(b("gone"), 2)));
            store.flush();
            store.apply("w", p, List.of(new Version(b("k"), 5, b("v5"))));
            store.flush();
            assertEquals(5, store.stats().tableEntries());
            assertTrue(store.compact(4));
            // k@1 is invisible at every snapshot >= 4; k@3 is what snapshot 4 sees; gone's tombstone hides nothing.
            assertEquals(2, store.stats().tableEntries());
            assertEquals(1, store.stats().tables());
            assertArrayEquals(b("v3"), store.get(b("k"), 4));
            assertArrayEquals(b("v5"), store.get(b("k"), 5));
            assertNull(store.get(b("gone"), 4));
            assertEquals(1, dfs.list("p").stream().filter(n -> n.endsWith(".sst")).count(), "replaced tables were deleted");
            store.close();
        }
    }

    @Test
    void aTombstoneThatHidesAnUnflushedOlderVersionSurvivesCompaction() throws IOException {
        PartitionStore store = openFresh(new MemoryDfs());
        store.apply("w", WalPosition.START, List.of(Version.tombstone(b("k"), 5)));
        store.flush();
        // An older version applied late (commits apply out of CTS order) sits in the memtable.
        store.apply("w", WalPosition.START, List.of(new Version(b("k"), 4, b("old"))));
        store.compact(6);
        assertNull(store.get(b("k"), 6), "the tombstone still hides k@4");
        assertArrayEquals(b("old"), store.get(b("k"), 4));
    }

    @Test
    void aCorruptManifestIsReportedWithItsFile() throws IOException {
        MemoryDfs dfs = new MemoryDfs();
        PartitionStore store = openFresh(dfs);
        store.close();
        String manifest = dfs.list("p").stream().filter(n -> n.startsWith("MANIFEST-")).findFirst().orElseThrow();
        dfs.corrupt("p/" + manifest, 20, (byte) 0x7F);
        CorruptionException e = assertThrows(CorruptionException.class, () -> PartitionStore.open(dfs, "p", StoreOptions.DEFAULT, env));
        assertTrue(e.getMessage().contains(manifest), e.getMessage());
    }

    @Test
    void filesLeftByACrashMidFlushAreRemovedOnOpen() throws IOException {
        MemoryDfs dfs = new MemoryDfs();
        PartitionStore store = openFresh(dfs);
        store.apply("w", WalPosition.START, List.of(new Version(b("k"), 1, b("v"))));
        store.flush();
        store.close();
        try (DfsOutput out = dfs.create("p/00000000000000000099.sst")) {
            out.write(new byte[] {1, 2, 3});
        }
        try (DfsOutput out = dfs.create("p/MANIFEST-00000000000000000099.tmp")) {
            out.write(new byte[] {1});
        }
        PartitionStore reopened = PartitionStore.open(dfs, "p", StoreOptions.DEFAULT, env);
        assertFalse(dfs.exists("p/00000000000000000099.sst"));
        assertFalse(dfs.exists("p/MANIFEST-00000000000000000099.tmp"));
        assertArrayEquals(b("v"), reopened.get(b("k"), 1));
        reopened.close();
    }

    @Test
    void aFailedFlushLeavesTheStoreReadableAndAFlushAfterRecoveryWorks() throws IOException {
        MemoryDfs dfs = new MemoryDfs();
        PartitionStore store = openFresh(dfs);
        store.apply("w", WalPosition.START, List.of(new Version(b("k"), 1, b("v"))));
        dfs.failWrites(true);
        assertThrows(IOException.class, store::flush);
        assertArrayEquals(b("v"), store.get(b("k"), 1), "the frozen memtable still serves reads");
        dfs.failWrites(false);
        assertTrue(store.flush());
        assertEquals(1, store.stats().tables());
        assertEquals(0, store.stats().frozenMemtables());
        store.close();
        PartitionStore reopened = PartitionStore.open(dfs, "p", StoreOptions.DEFAULT, env);
        assertArrayEquals(b("v"), reopened.get(b("k"), 1));
        assertEquals(1, dfs.list("p").stream().filter(n -> n.endsWith(".sst")).count(), "the failed table was removed");
        reopened.close();
    }

    @Test
    void aCleanHandOverLeavesNothingToReplay() throws IOException {
        MemoryDfs dfs = new MemoryDfs();
        PartitionStore store = openFresh(dfs);
        store.apply("w", new WalPosition(1, 40), List.of(new Version(b("k"), 1, b("v"))));
        long sequenceBefore = store.manifest().sequence();
        store.closeAfterFlush();
        PartitionStore next = PartitionStore.open(dfs, "p", StoreOptions.DEFAULT, env);
        assertEquals(Map.of(), next.replayPoints(), "the old owner's log segments may be deleted");
        assertEquals(sequenceBefore + 1, next.manifest().sequence(), "the final flush's manifest is the hand-over's: one write");
        assertEquals(1, next.manifest().tables().size());
        assertEquals(1, next.maxCts());
        next.apply("w", WalPosition.START, List.of(new Version(b("k2"), 7, b("v"))));
        assertEquals(7, next.maxCts(), "the memtable counts too");
        assertArrayEquals(b("v"), next.get(b("k"), 1));
        next.close();
    }

    @Test
    void aHandOverWithNothingToFlushStillLeavesAManifestNamingNoLog() throws IOException {
        MemoryDfs dfs = new MemoryDfs();
        PartitionStore store = openFresh(dfs);
        store.apply("w", new WalPosition(1, 40), List.of(new Version(b("k"), 1, b("v"))));
        store.flush();
        assertFalse(store.manifest().replayPoints().isEmpty(), "a serving store's manifest names its owner's log");
        long sequenceBefore = store.manifest().sequence();
        store.closeAfterFlush();
        PartitionStore next = PartitionStore.open(dfs, "p", StoreOptions.DEFAULT, env);
        assertEquals(Map.of(), next.replayPoints());
        assertEquals(sequenceBefore + 1, next.manifest().sequence());
        assertArrayEquals(b("v"), next.get(b("k"), 1));
        next.finishRecovery(new TestWalCursor("w2", new WalPosition(1, 0)));
        next.apply("w2", new WalPosition(1, 0), List.of(new Version(b("k"), 2, b("v2"))));
        assertTrue(next.flush());
        assertFalse(next.manifest().replayPoints().isEmpty(), "after the hand-over, flushes name the log again");
        next.close();
    }

    @Test
    void aPreviousOwnersLogThatRecoveryReplayedNothingFromIsDroppedByTheNextFlush() throws IOException {
        MemoryDfs dfs = new MemoryDfs();
        PartitionStore first = PartitionStore.open(dfs, "p", StoreOptions.DEFAULT, env);
        first.finishRecovery(new TestWalCursor("old", new WalPosition(2, 10)));
        first.apply("old", new WalPosition(2, 10), List.of(new Version(b("k"), 1, b("v"))));
        first.flush();
        first.close();
        PartitionStore next = PartitionStore.open(dfs, "p", StoreOptions.DEFAULT, env);
        // Recovery found nothing past the replay point: the memtable stays empty.
        next.finishRecovery(new TestWalCursor("new", new WalPosition(1, 0)));
        assertEquals(Set.of("old", "new"), next.manifest().replayPoints().keySet());
        assertFalse(next.flush(), "nothing to flush");
        assertEquals(Set.of("new"), next.manifest().replayPoints().keySet(), "the old log is no longer needed");
        assertArrayEquals(b("v"), next.get(b("k"), 1));
        next.close();
    }
}
