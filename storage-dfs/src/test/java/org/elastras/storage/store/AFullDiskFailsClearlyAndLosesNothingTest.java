package org.elastras.storage.store;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletionException;
import org.elastras.storage.dfs.Dfs;
import org.elastras.storage.dfs.FaultInjectingDfs;
import org.elastras.storage.dfs.MemoryDfs;
import org.elastras.storage.sstable.BlockCache;
import org.elastras.storage.sstable.SsTableInfo;
import org.elastras.storage.wal.WalOptions;
import org.elastras.storage.wal.WalPosition;
import org.elastras.storage.wal.WalRecord;
import org.elastras.storage.wal.WalWriter;
import org.junit.jupiter.api.Test;

/**
 * A DFS that runs out of space (writes fail with "No space left on device" after the bytes that
 * fit): flush, compaction and the WAL fail with an error naming that cause; the store keeps
 * reading every acknowledged version and never names a half-written table; once space returns,
 * flush and compaction succeed, and a new owner recovers everything acknowledged.
 */
class AFullDiskFailsClearlyAndLosesNothingTest {

    private static final String DIRECTORY = "data/db/1";
    private static final long PARTITION = 1;
    private static final int KEYS = 40;

    private final StoreEnvironment env = new StoreEnvironment(new BlockCache(1 << 20), null, () -> 0);
    private final MemoryDfs memory = new MemoryDfs();
    private final FaultInjectingDfs dfs = new FaultInjectingDfs(memory);
    private final List<Version> acknowledged = new ArrayList<>();
    private long cts;

    private static byte[] key(int k) {
        return ("key-" + k).getBytes(StandardCharsets.UTF_8);
    }

    private void commitRound(WalWriter wal, UnappliedCommits cursor, PartitionStore store, int round) {
        for (int k = 0; k < KEYS; k++) {
            Version v = new Version(key(k), ++cts, ("value-" + round + "-" + k).getBytes(StandardCharsets.UTF_8));
            try (UnappliedCommits.Ticket ticket = cursor.begin()) {
                WalPosition position = wal.append(record(v)).join();
                store.apply(cursor.walId(), position, List.of(v));
            }
            acknowledged.add(v);
        }
    }

    private static WalRecord record(Version v) {
        return new WalRecord(v.cts(), List.of(new WalRecord.Mutation(PARTITION, v.key(), v.value())));
    }

    private static boolean namesNoSpace(Throwable t) {
        for (Throwable c = t; c != null; c = c.getCause()) {
            if (String.valueOf(c.getMessage()).contains(FaultInjectingDfs.NO_SPACE)) {
                return true;
            }
        }
        return false;
    }

    @Test
    void flushAndCompactionFailWithTheCauseAndSucceedOnceSpaceReturns() throws Exception {
        WalWriter wal = WalWriter.open(dfs, "wal/otm-a", WalOptions.DEFAULT);
        UnappliedCommits cursor = new UnappliedCommits("otm-a", wal);
        PartitionStore store = PartitionStore.open(dfs, DIRECTORY, StoreOptions.DEFAULT, env);
        store.finishRecovery(cursor);
        commitRound(wal, cursor, store, 0);
        store.flush();
        commitRound(wal, cursor, store, 1);
        store.flush();
        commitRound(wal, cursor, store, 2);
        Manifest before = store.manifest();

        dfs.setFreeBytes(300);
        IOException flush = assertThrows(IOException.class, store::flush);
        assertTrue(flush.getMessage().contains(FaultInjectingDfs.NO_SPACE), flush.toString());
        assertEquals(before, store.manifest(), "a failed flush installs nothing");
        assertOnlyManifestAndItsTables(memory, store.manifest());
        assertReadsEveryAcknowledgedVersion(store);

        dfs.setFreeBytes(300);
        IOException compaction = assertThrows(IOException.class, () -> store.compact(cts));
        assertTrue(compaction.getMessage().contains(FaultInjectingDfs.NO_SPACE), compaction.toString());
        assertEquals(before, store.manifest(), "a failed compaction installs nothing");
        assertOnlyManifestAndItsTables(memory, store.manifest());
        assertReadsEveryAcknowledgedVersion(store);

        dfs.unlimitedSpace();
        assertTrue(store.flush(), "the memtable the failed flush left frozen is flushed now");
        assertTrue(store.compact(0));
        assertEquals(1, store.manifest().tables().size());
        assertEquals(3L * KEYS, store.stats().tableEntries(), "every version, once");
        assertOnlyManifestAndItsTables(memory, store.manifest());
        assertReadsEveryAcknowledgedVersion(store);
        store.close();
        wal.close();

        PartitionStore reopened = PartitionStore.open(memory, DIRECTORY, StoreOptions.DEFAULT, env);
        assertReadsEveryAcknowledgedVersion(reopened);
        reopened.close();
    }

    @Test
    void aCommitTheFullLogCannotTakeFailsWithTheCauseAndANewOwnerRecoversEveryAcknowledgedOne() throws Exception {
        WalWriter wal = WalWriter.open(dfs, "wal/otm-a", WalOptions.DEFAULT);
        UnappliedCommits cursor = new UnappliedCommits("otm-a", wal);
        PartitionStore store = PartitionStore.open(dfs, DIRECTORY, StoreOptions.DEFAULT, env);
        store.finishRecovery(cursor);
        commitRound(wal, cursor, store, 0);
        store.flush();
        commitRound(wal, cursor, store, 1);

        // Room for part of the next record's frame only: the log is left with a torn tail.
        dfs.setFreeBytes(12);
        Version unlogged = new Version(key(0), ++cts, "never-acknowledged".getBytes(StandardCharsets.UTF_8));
        CompletionException failed = assertThrows(CompletionException.class, () -> wal.append(record(unlogged)).join());
        assertTrue(namesNoSpace(failed), "the append fails naming the full disk: " + failed);
        IllegalStateException dead = assertThrows(IllegalStateException.class,
                () -> wal.append(record(new Version(key(1), cts + 1, null))));
        assertTrue(namesNoSpace(dead), "later appends are refused naming the cause: " + dead);
        assertReadsEveryAcknowledgedVersion(store);
        // The owner gives the partition up without a flush (it cannot write); the machine lives on.
        store.close();
        assertThrows(IOException.class, wal::close);

        dfs.unlimitedSpace();
        PartitionStore recovered = PartitionStore.open(dfs, DIRECTORY, StoreOptions.DEFAULT, env);
        PartitionRecovery.Result replayed = PartitionRecovery.replay(recovered, PARTITION, dfs, walId -> "wal/" + walId);
        assertEquals(KEYS, replayed.recordsRead(), "the unflushed round is replayed, the torn record is not");
        WalWriter newWal = WalWriter.open(dfs, "wal/otm-b", WalOptions.DEFAULT);
        UnappliedCommits newCursor = new UnappliedCommits("otm-b", newWal);
        recovered.finishRecovery(newCursor);
        assertReadsEveryAcknowledgedVersion(recovered);
        assertEquals(KEYS + 1, recovered.getVersion(key(0), unlogged.cts()).cts(),
                "the commit that failed to log is not there: key-0 is at its round-1 version");

        commitRound(newWal, newCursor, recovered, 2);
        assertTrue(recovered.flush());
        assertTrue(recovered.compact(0));
        assertFalse(recovered.manifest().replayPoints().containsKey("otm-a"), "the full log is no longer needed");
        assertReadsEveryAcknowledgedVersion(recovered);
        recovered.close();
        newWal.close();
    }

    private static void assertOnlyManifestAndItsTables(Dfs dfs, Manifest manifest) throws IOException {
        Set<String> expected = new HashSet<>();
        expected.add(Manifest.fileName(manifest.sequence()));
        for (SsTableInfo t : manifest.tables()) {
            expected.add(t.fileName());
        }
        Set<String> present = new HashSet<>(dfs.list(DIRECTORY));
        present.removeIf(name -> name.endsWith(".tmp"));
        assertEquals(expected, present, "no half-written table is left beside the manifest's tables");
    }

    private void assertReadsEveryAcknowledgedVersion(PartitionStore store) throws IOException {
        for (Version v : acknowledged) {
            assertEquals(v, store.getVersion(v.key(), v.cts()), "acknowledged " + v);
        }
        for (int k = 0; k < KEYS; k++) {
            Version newest = null;
            for (Version v : acknowledged) {
                if (java.util.Arrays.equals(v.key(), key(k)) && (newest == null || v.cts() > newest.cts())) {
                    newest = v;
                }
            }
            assertArrayEquals(newest.value(), store.get(key(k), Long.MAX_VALUE), "latest of key-" + k);
        }
    }
}
