package org.elastras.storage.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.elastras.storage.dfs.Dfs;
import org.elastras.storage.dfs.DfsKind;
import org.elastras.storage.dfs.MemoryDfs;
import org.elastras.storage.sstable.BlockCache;
import org.elastras.storage.wal.WalOptions;
import org.elastras.storage.wal.WalPosition;
import org.elastras.storage.wal.WalReader;
import org.elastras.storage.wal.WalRecord;
import org.elastras.storage.wal.WalRetention;
import org.elastras.storage.wal.WalWriter;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The storage half of "an acknowledged commit is never lost": concurrent committers log to one
 * WAL (records spanning two partitions), apply to two partition stores that flush, roll and
 * delete WAL segments meanwhile; then the process "dies" (writer abandoned, memtables lost) and a
 * new owner recovers both partitions from the manifests and the WAL: every acknowledged version
 * is there, exactly.
 */
class AcknowledgedCommitsSurviveCrashTest {

    @TempDir
    Path temp;

    private record Acked(long partition, byte[] key, long cts, byte[] value) {
    }

    @ParameterizedTest
    @EnumSource(DfsKind.class)
    void recoveryFromManifestAndWalShowsEveryAcknowledgedCommit(DfsKind kind) throws Exception {
        try (Dfs dfs = kind.open(temp)) {
            runAndRecover(dfs, null);
        }
    }

    @Test
    void unsyncedBytesVanishingInACrashLoseNoAcknowledgedCommit() throws Exception {
        MemoryDfs dfs = new MemoryDfs();
        runAndRecover(dfs, dfs::crash);
    }

    private void runAndRecover(Dfs dfs, Runnable crash) throws Exception {
        long seed = Long.getLong("store.seed", System.nanoTime());
        System.out.println("AcknowledgedCommitsSurviveCrashTest seed=" + seed + " dfs=" + dfs);
        StoreEnvironment env = new StoreEnvironment(new BlockCache(1 << 20), null, () -> 0);
        StoreOptions options = StoreOptions.DEFAULT.withMemtableBytesMax(32 * 1024);
        WalWriter writer = WalWriter.open(dfs, "wal/otm-a", WalOptions.DEFAULT.withSegmentBytesMax(16 * 1024));
        UnappliedCommits unapplied = new UnappliedCommits("otm-a", writer);
        PartitionStore[] stores = new PartitionStore[3];
        for (int p = 1; p <= 2; p++) {
            stores[p] = PartitionStore.open(dfs, "data/db/" + p, options, env);
            stores[p].finishRecovery(unapplied);
        }
        WalRetention retention = new WalRetention();
        AtomicLong cts = new AtomicLong();
        ConcurrentLinkedQueue<Acked> acked = new ConcurrentLinkedQueue<>();
        ConcurrentLinkedQueue<Throwable> failures = new ConcurrentLinkedQueue<>();
        AtomicBoolean stop = new AtomicBoolean();
        AtomicInteger segmentsDeleted = new AtomicInteger();

        List<Thread> committers = new ArrayList<>();
        for (int t = 0; t < 6; t++) {
            Random random = new Random(seed + t);
            committers.add(new Thread(() -> {
                try {
                    for (int i = 0; i < 300; i++) {
                        List<WalRecord.Mutation> mutations = new ArrayList<>();
                        int writes = 1 + random.nextInt(3);
                        for (int w = 0; w < writes; w++) {
                            long partition = 1 + random.nextInt(2);
                            byte[] key = ("k" + random.nextInt(500)).getBytes(StandardCharsets.UTF_8);
                            byte[] value = random.nextInt(10) == 0 ? null : ("v" + random.nextLong()).getBytes(StandardCharsets.UTF_8);
                            if (mutations.stream().noneMatch(m -> m.partitionId() == partition && java.util.Arrays.equals(m.key(), key))) {
                                mutations.add(new WalRecord.Mutation(partition, key, value));
                            }
                        }
                        try (UnappliedCommits.Ticket ticket = unapplied.begin()) {
                            long c = cts.incrementAndGet();
                            WalRecord record = new WalRecord(c, mutations);
                            WalPosition position = writer.append(record).join();
                            for (long p = 1; p <= 2; p++) {
                                List<Version> versions = PartitionRecovery.versionsOf(record, p);
                                if (!versions.isEmpty()) {
                                    stores[(int) p].apply("otm-a", position, versions);
                                }
                            }
                            for (WalRecord.Mutation m : mutations) {
                                acked.add(new Acked(m.partitionId(), m.key(), c, m.value()));
                            }
                        }
                    }
                } catch (Throwable e) {
                    failures.add(e);
                }
            }));
        }
        Thread maintenance = new Thread(() -> {
            try {
                while (!stop.get()) {
                    for (int p = 1; p <= 2; p++) {
                        stores[p].flush();
                        retention.retain(p, stores[p].manifest().replayPoints().get("otm-a"));
                    }
                    int before = WalReader.segments(dfs, "wal/otm-a").size();
                    writer.deleteSegmentsBefore(retention.oldestNeeded(writer.endPosition()));
                    segmentsDeleted.addAndGet(before - WalReader.segments(dfs, "wal/otm-a").size());
                    Thread.sleep(5);
                }
            } catch (Throwable e) {
                failures.add(e);
            }
        });
        committers.forEach(Thread::start);
        maintenance.start();
        for (Thread t : committers) {
            t.join();
        }
        // On a loaded machine the maintenance thread may not have run while the commits did; give it
        // a bounded while to flush and delete the segments the commits rolled.
        long deadline = System.nanoTime() + 10_000_000_000L;
        while (segmentsDeleted.get() == 0 && failures.isEmpty() && System.nanoTime() < deadline) {
            Thread.sleep(10);
        }
        stop.set(true);
        maintenance.join();
        assertTrue(failures.isEmpty(), () -> "seed " + seed + ": " + failures.peek());
        assertTrue(segmentsDeleted.get() > 0, "the WAL rolled and flushed segments were deleted");

        // The crash: memtables are lost, the writer is never closed, unsynced bytes may vanish.
        for (int p = 1; p <= 2; p++) {
            stores[p].close();
        }
        if (crash != null) {
            crash.run();
        }

        WalWriter newWriter = WalWriter.open(dfs, "wal/otm-b", WalOptions.DEFAULT);
        UnappliedCommits newCursor = new UnappliedCommits("otm-b", newWriter);
        for (int p = 1; p <= 2; p++) {
            PartitionStore recovered = PartitionStore.open(dfs, "data/db/" + p, options, env);
            PartitionRecovery.Result result = PartitionRecovery.replay(recovered, p, dfs, walId -> "wal/" + walId);
            assertEquals(1, result.logsRead(), "only the dead owner's log is named");
            recovered.finishRecovery(newCursor);
            for (Acked a : acked) {
                if (a.partition() != p) {
                    continue;
                }
                Version v = recovered.getVersion(a.key(), a.cts());
                assertNotNull(v, () -> "seed " + seed + ": lost " + new String(a.key(), StandardCharsets.UTF_8) + "@" + a.cts());
                assertEquals(a.cts(), v.cts(), () -> "seed " + seed + ": wrong version of " + new String(a.key(), StandardCharsets.UTF_8));
                assertEquals(new Version(a.key(), a.cts(), a.value()), v, "seed " + seed);
            }
            // The new owner's log is recorded, the old one stays until a flush covers the replay.
            assertTrue(recovered.manifest().replayPoints().containsKey("otm-b"));
            recovered.flush();
            assertEquals(List.of("otm-b"), List.copyOf(recovered.manifest().replayPoints().keySet()),
                    "after a flush the dead owner's log is no longer needed");
            recovered.close();
        }
        newWriter.close();
        writer.close();
        assertEquals(6 * 300, acked.stream().mapToLong(Acked::cts).distinct().count());
    }
}
