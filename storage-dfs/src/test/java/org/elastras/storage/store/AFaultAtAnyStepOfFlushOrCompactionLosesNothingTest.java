package org.elastras.storage.store;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
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
 * One maintenance step of an owner — flush the memtable, compact every table with a GC horizon,
 * delete the WAL segments the manifest no longer needs — is interrupted at each of its DFS
 * operations in turn (SSTable create/write/sync/close, manifest tmp write, rename, old manifest
 * delete, replaced table delete, WAL segment delete):
 * <ul>
 *   <li>by a <b>crash</b> there (that operation and all later ones never happen, unsynced bytes
 *       vanish): a new owner recovers exactly the acknowledged versions — none lost, none
 *       invented or resurrected, none duplicated — and open leaves no orphan file;</li>
 *   <li>by a <b>failure of that one operation</b> (the process lives on): the step fails with the
 *       cause, the store still reads every acknowledged version, the retried step succeeds, and a
 *       crash after it still recovers everything.</li>
 * </ul>
 */
class AFaultAtAnyStepOfFlushOrCompactionLosesNothingTest {

    private static final String DIRECTORY = "data/db/1";
    private static final long PARTITION = 1;
    private static final int KEYS = 12;

    private final StoreEnvironment env = new StoreEnvironment(new BlockCache(1 << 20), null, () -> 0);

    /** An owner with two flushed tables and an unflushed memtable, every commit acknowledged. */
    private static final class Owner {
        final MemoryDfs memory = new MemoryDfs();
        final FaultInjectingDfs dfs = new FaultInjectingDfs(memory);
        final List<Version> acknowledged = new ArrayList<>();
        final WalWriter wal;
        final UnappliedCommits cursor;
        final PartitionStore store;
        long cts;
        long horizonCts;

        Owner(StoreEnvironment env) throws IOException {
            wal = WalWriter.open(dfs, "wal/otm-a", WalOptions.DEFAULT.withSegmentBytesMax(WalOptions.SEGMENT_BYTES_MIN));
            cursor = new UnappliedCommits("otm-a", wal);
            store = PartitionStore.open(dfs, DIRECTORY, StoreOptions.DEFAULT, env);
            store.finishRecovery(cursor);
            commitRound(0);
            store.flush();
            commitRound(1);
            store.flush();
            horizonCts = cts;
            commitRound(2);
        }

        /** One commit per key: a put, or in round 1 a delete of every third key. */
        void commitRound(int round) {
            for (int k = 0; k < KEYS; k++) {
                byte[] key = key(k);
                byte[] value = round == 1 && k % 3 == 0 ? null : ("v" + round + "-" + k).getBytes(StandardCharsets.UTF_8);
                try (UnappliedCommits.Ticket ticket = cursor.begin()) {
                    long c = ++cts;
                    WalPosition position = wal.append(new WalRecord(c, List.of(new WalRecord.Mutation(PARTITION, key, value)))).join();
                    Version v = new Version(key, c, value);
                    store.apply("otm-a", position, List.of(v));
                    acknowledged.add(v);
                }
            }
        }

        /** Flush, compact at the horizon, delete the log segments the manifest no longer names. */
        void maintain() throws IOException {
            store.flush();
            store.compact(horizonCts);
            wal.deleteSegmentsBefore(store.manifest().replayPoints().get("otm-a"));
        }

        /** The process dies: memtables and the writer are abandoned, unsynced bytes vanish. */
        void crash() {
            store.close();
            try {
                wal.close();
            } catch (IOException e) {
                // A crashed DFS fails the writer's final sync: nothing was pending, nothing is lost.
            }
            memory.crash();
        }
    }

    private static byte[] key(int k) {
        return ("key-" + k).getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void aCrashAtAnyStepRecoversExactlyTheAcknowledgedVersions() throws Exception {
        int crashes = 0;
        Set<String> crashedAt = new HashSet<>();
        for (long step = 0; ; step++) {
            Owner owner = new Owner(env);
            owner.dfs.crashAtOperation(owner.dfs.operations() + step);
            try {
                owner.maintain();
            } catch (IOException e) {
                assertTrue(owner.dfs.crashed(), "only the injected crash fails the step: " + e);
            }
            if (!owner.dfs.crashed()) {
                assertTrue(crashes > 10, "the step has more than a few DFS operations: " + crashes);
                System.out.println("crashed and recovered at " + crashes + " operations: " + crashedAt);
                break;
            }
            crashes++;
            crashedAt.add(owner.dfs.crashedAtOperation().replaceAll("[0-9]+", "N"));
            owner.crash();
            String where = "crash at operation " + step + " (" + owner.dfs.crashedAtOperation() + ")";
            recoverAndCheck(owner, where);
        }
        for (String expected : List.of("rename data/db/N/MANIFEST-N.tmp -> data/db/N/MANIFEST-N", "delete data/db/N/MANIFEST-N",
                "sync data/db/N/N.sst", "delete data/db/N/N.sst", "delete wal/otm-a/N.wal")) {
            assertTrue(crashedAt.contains(expected), "crashed at '" + expected + "' among " + crashedAt);
        }
    }

    @Test
    void aFailedStepLeavesAReadableStoreAndTheRetrySucceeds() throws Exception {
        int failures = 0;
        for (long step = 0; ; step++) {
            Owner owner = new Owner(env);
            long failAt = owner.dfs.operations() + step;
            owner.dfs.failOperation(failAt);
            boolean failed = false;
            try {
                owner.maintain();
            } catch (IOException e) {
                failed = true;
                assertTrue(e.getMessage().contains("(injected)") || String.valueOf(e.getCause()).contains("(injected)"),
                        "the error names its cause: " + e);
            }
            if (owner.dfs.operations() <= failAt) {
                assertTrue(failures > 10, "the step has more than a few DFS operations: " + failures);
                System.out.println("failed and retried " + step + " operations (" + failures + " failed the step)");
                break;
            }
            failures += failed ? 1 : 0;
            String where = "failure of operation " + step;
            assertReadsEveryAcknowledgedVersion(owner.store, owner, where + ", before the retry");
            try {
                owner.maintain();
            } catch (IOException e) {
                fail(where + ": the retry after a transient failure fails: " + e, e);
            }
            assertEquals(1, owner.store.manifest().tables().size(), where + ": the retry compacted");
            assertReadsEveryAcknowledgedVersion(owner.store, owner, where + ", after the retry");
            owner.crash();
            recoverAndCheck(owner, where + ", then a crash");
        }
    }

    /** A new owner opens the partition, replays the log, and must see exactly what was acknowledged. */
    private void recoverAndCheck(Owner owner, String where) throws IOException {
        MemoryDfs dfs = owner.memory;
        PartitionStore recovered = PartitionStore.open(dfs, DIRECTORY, StoreOptions.DEFAULT, env);
        PartitionRecovery.replay(recovered, PARTITION, dfs, walId -> "wal/" + walId);
        WalWriter newWal = WalWriter.open(dfs, "wal/otm-b", WalOptions.DEFAULT);
        try {
            recovered.finishRecovery(new UnappliedCommits("otm-b", newWal));
            assertNoOrphans(dfs, recovered, where);
            assertReadsEveryAcknowledgedVersion(recovered, owner, where);

            // Nothing is duplicated: merging everything without GC writes each version once.
            recovered.flush();
            recovered.compact(0);
            long distinct = 0;
            for (int k = 0; k < KEYS; k++) {
                distinct += versionsOf(recovered, key(k)).size();
            }
            assertEquals(distinct, recovered.stats().tableEntries(), where + ": one entry per version after a merge");
            assertReadsEveryAcknowledgedVersion(recovered, owner, where + ", after a merge");
            recovered.close();
        } finally {
            newWal.close();
        }
    }

    private static void assertNoOrphans(Dfs dfs, PartitionStore store, String where) throws IOException {
        Set<String> expected = new HashSet<>();
        expected.add(Manifest.fileName(store.manifest().sequence()));
        for (SsTableInfo t : store.manifest().tables()) {
            expected.add(t.fileName());
        }
        assertEquals(expected, new HashSet<>(dfs.list(DIRECTORY)), where + ": open removed every file no manifest names");
    }

    /**
     * Every acknowledged version newer than the GC horizon is there with its value; the versions
     * present are all acknowledged ones (none invented or resurrected); reads at the horizon and
     * at the latest snapshot match the acknowledged history.
     */
    private static void assertReadsEveryAcknowledgedVersion(PartitionStore store, Owner owner, String where) throws IOException {
        StoreModel model = new StoreModel();
        owner.acknowledged.forEach(model::apply);
        for (int k = 0; k < KEYS; k++) {
            byte[] key = key(k);
            List<Version> present = versionsOf(store, key);
            for (Version v : present) {
                assertTrue(owner.acknowledged.contains(v), where + ": " + v + " was never acknowledged");
            }
            for (Version v : owner.acknowledged) {
                if (java.util.Arrays.equals(v.key(), key) && v.cts() > owner.horizonCts) {
                    assertTrue(present.contains(v), where + ": lost " + v);
                }
            }
            for (long snapshot : new long[] {owner.horizonCts, Long.MAX_VALUE}) {
                byte[] expected = model.get(key, snapshot);
                byte[] actual = store.get(key, snapshot);
                if (expected == null) {
                    assertEquals(null, actual, where + ": key-" + k + " at " + snapshot + " must be absent");
                } else {
                    assertNotNull(actual, where + ": key-" + k + " at " + snapshot + " is missing");
                    assertArrayEquals(expected, actual, where + ": key-" + k + " at " + snapshot);
                }
            }
        }
    }

    /** Every version of a key in the store, newest first, tombstones included. */
    private static List<Version> versionsOf(PartitionStore store, byte[] key) throws IOException {
        List<Version> versions = new ArrayList<>();
        long snapshot = Long.MAX_VALUE;
        while (snapshot >= 0) {
            Version v = store.getVersion(key, snapshot);
            if (v == null) {
                break;
            }
            versions.add(v);
            snapshot = v.cts() - 1;
        }
        return versions;
    }
}
