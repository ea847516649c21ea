package org.elastras.storage.store;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HexFormat;
import java.util.List;
import java.util.Random;
import org.elastras.storage.dfs.Dfs;
import org.elastras.storage.dfs.DfsKind;
import org.elastras.storage.sstable.BlockCache;
import org.elastras.storage.sstable.SsTableOptions;
import org.elastras.storage.util.CloseableIterator;
import org.elastras.storage.util.StorageLimits;
import org.elastras.storage.wal.WalPosition;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Random applies (out of CTS order, with tombstones and re-applied versions), flushes,
 * compactions and reopens; after each step, gets and scans at many snapshots equal the model's.
 */
class PartitionStoreMatchesModelTest {

    @TempDir
    Path temp;

    static final StoreOptions SMALL = new StoreOptions(64 * 1024, 4, 1000, new SsTableOptions(512, 4, 10), StorageLimits.DEFAULT);

    @ParameterizedTest
    @EnumSource(DfsKind.class)
    void flushCompactionAndReopenPreserveWhatEverySnapshotSees(DfsKind kind) throws IOException {
        long seed = Long.getLong("store.seed", System.nanoTime());
        System.out.println("PartitionStoreMatchesModelTest seed=" + seed + " dfs=" + kind);
        Random random = new Random(seed);
        StoreEnvironment env = new StoreEnvironment(new BlockCache(1 << 20), null, () -> 0);
        TestWalCursor wal = new TestWalCursor("otm-1", WalPosition.START);
        StoreModel model = new StoreModel();
        try (Dfs dfs = kind.open(temp)) {
            PartitionStore store = PartitionStore.open(dfs, "data/db/7", SMALL, env);
            store.finishRecovery(wal);
            List<byte[]> keys = new ArrayList<>();
            for (int i = 0; i < 300; i++) {
                byte[] key = new byte[1 + random.nextInt(12)];
                random.nextBytes(key);
                keys.add(key);
            }
            keys.add(new byte[0]);
            long nextCts = 1;
            long horizon = 0;
            List<Version> applied = new ArrayList<>();
            for (int round = 0; round < 12; round++) {
                // A batch of commits whose CTSs are applied in a shuffled order, as concurrent commits are.
                List<Version> batch = new ArrayList<>();
                int commits = 100 + random.nextInt(300);
                for (int c = 0; c < commits; c++) {
                    long cts = nextCts++;
                    byte[] key = keys.get(random.nextInt(keys.size()));
                    byte[] value = random.nextInt(8) == 0 ? null : randomValue(random);
                    batch.add(new Version(key, cts, value));
                }
                Collections.shuffle(batch, random);
                for (Version v : batch) {
                    store.apply("otm-1", new WalPosition(1, v.cts() * 100), List.of(v));
                    model.apply(v);
                    applied.add(v);
                }
                // Re-apply some old versions: no-ops. (Not ones at or below a compaction horizon:
                // those may be garbage-collected, and replay re-applies them only together with
                // the versions that superseded them, which follow them in the log.)
                for (int r = 0; r < 20; r++) {
                    Version old = applied.get(random.nextInt(applied.size()));
                    if (old.cts() > horizon) {
                        store.apply("otm-1", new WalPosition(1, old.cts() * 100), List.of(old));
                    }
                }
                int action = random.nextInt(4);
                if (action == 1) {
                    store.flush();
                } else if (action == 2) {
                    store.flush();
                    horizon = Math.max(horizon, random.nextLong(nextCts));
                    store.compact(horizon);
                } else if (action == 3) {
                    store.flush();
                    store.close();
                    store = PartitionStore.open(dfs, "data/db/7", SMALL, env);
                    store.finishRecovery(wal);
                }
                checkAgainstModel(store, model, keys, random, horizon, nextCts, seed);
            }
            assertTrue(store.stats().tables() > 0, "some flushes happened");
            store.close();
        }
    }

    static byte[] randomValue(Random random) {
        byte[] v = new byte[random.nextInt(40)];
        random.nextBytes(v);
        return v;
    }

    static void checkAgainstModel(PartitionStore store, StoreModel model, List<byte[]> keys, Random random, long horizon,
            long nextCts, long seed) throws IOException {
        HexFormat hex = HexFormat.of();
        for (int i = 0; i < 200; i++) {
            byte[] key = keys.get(random.nextInt(keys.size()));
            long snapshot = horizon + random.nextLong(nextCts - horizon + 5);
            assertArrayEquals(model.get(key, snapshot), store.get(key, snapshot),
                    "seed " + seed + ": get " + hex.formatHex(key) + " at " + snapshot);
        }
        for (int i = 0; i < 10; i++) {
            byte[] from = random.nextBoolean() ? null : keys.get(random.nextInt(keys.size()));
            byte[] to = random.nextBoolean() ? null : keys.get(random.nextInt(keys.size()));
            long snapshot = horizon + random.nextLong(nextCts - horizon + 5);
            int limit = random.nextBoolean() ? Integer.MAX_VALUE : random.nextInt(50);
            List<byte[][]> expected = model.scan(from, to, snapshot, limit);
            List<Version> actual = new ArrayList<>();
            try (CloseableIterator<Version> it = store.scan(from, to, snapshot, limit)) {
                it.forEachRemaining(actual::add);
            }
            assertEquals(expected.size(), actual.size(), "seed " + seed + ": scan size at " + snapshot);
            for (int j = 0; j < expected.size(); j++) {
                assertArrayEquals(expected.get(j)[0], actual.get(j).key(), "seed " + seed + ": scan key " + j);
                assertArrayEquals(expected.get(j)[1], actual.get(j).value(), "seed " + seed + ": scan value " + j);
            }
        }
    }
}
