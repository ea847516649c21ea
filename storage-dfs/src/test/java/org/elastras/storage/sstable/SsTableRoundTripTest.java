package org.elastras.storage.sstable;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.elastras.storage.dfs.Dfs;
import org.elastras.storage.dfs.DfsKind;
import org.elastras.storage.store.Version;
import org.elastras.storage.util.CloseableIterator;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** Tables written from random data read back exactly as a TreeMap model answers, on every DFS. */
class SsTableRoundTripTest {

    /** Block sizes from tiny (most versions of a key span blocks) to large, filter on and off. */
    private static final List<SsTableOptions> OPTIONS = List.of(
            new SsTableOptions(256, 1, 10),
            new SsTableOptions(700, 3, 6),
            new SsTableOptions(4096, 16, 10),
            new SsTableOptions(64 * 1024, 128, 0));

    @TempDir
    Path temp;

    @ParameterizedTest
    @EnumSource(DfsKind.class)
    void getAtManySnapshotsAndScanFromRandomKeysMatchTheModel(DfsKind kind) throws IOException {
        long seed = VersionModel.seed(0x5EED_0001L);
        System.out.println("SsTableRoundTripTest " + kind + " seed=" + seed + " (rerun with -Dsstable.seed=" + seed + ")");
        Random random = new Random(seed);
        VersionModel model = VersionModel.random(random, 500);
        List<Version> versions = model.versionsInOrder();
        try (Dfs dfs = kind.open(temp)) {
            for (int t = 0; t < OPTIONS.size(); t++) {
                SsTableOptions options = OPTIONS.get(t);
                String where = "seed=" + seed + " options=" + options + " ";
                SsTableInfo written = SsTables.write(dfs, "p/" + t + ".sst", options, versions);
                assertEquals(versions.size(), written.entryCount(), where);
                assertArrayEquals(versions.get(0).key(), written.smallestKey(), where);
                assertArrayEquals(versions.get(versions.size() - 1).key(), written.largestKey(), where);
                assertEquals(versions.stream().mapToLong(Version::cts).min().orElseThrow(), written.minCts(), where);
                assertEquals(versions.stream().mapToLong(Version::cts).max().orElseThrow(), written.maxCts(), where);
                assertEquals(dfs.length("p/" + t + ".sst"), written.fileBytes(), where);

                BlockCache cache = new BlockCache(4 << 20);
                try (SsTableReader reader = SsTableReader.open(dfs, "p/" + t + ".sst", t, cache)) {
                    assertEquals(written, reader.info(), where);
                    checkGets(model, reader, random, where);
                    checkScans(model, reader, random, where);
                }
            }
        }
    }

    @ParameterizedTest
    @EnumSource(DfsKind.class)
    void versionsOfOneKeySpanningManyBlocksAreFoundAtEverySnapshot(DfsKind kind) throws IOException {
        List<Version> versions = new ArrayList<>();
        versions.add(new Version(new byte[] {'a'}, 7, new byte[] {1}));
        byte[] hot = {'h', 'o', 't'};
        for (long cts = 300; cts >= 100; cts -= 2) {
            versions.add(cts % 10 == 0 ? Version.tombstone(hot, cts) : new Version(hot, cts, new byte[20]));
        }
        versions.add(new Version(new byte[] {'z'}, 5, new byte[] {2}));
        try (Dfs dfs = kind.open(temp)) {
            SsTables.write(dfs, "hot.sst", new SsTableOptions(256, 2, 10), versions);
            try (SsTableReader reader = SsTableReader.open(dfs, "hot.sst", 1, new BlockCache(0))) {
                assertTrue(reader.dataBlockCount() > 10, "the versions of 'hot' span many blocks");
                assertNull(reader.get(hot, 99));
                for (long snapshot = 100; snapshot <= 320; snapshot++) {
                    long expected = Math.min(300, snapshot - (snapshot % 2));
                    Version found = reader.get(hot, snapshot);
                    assertEquals(expected, found.cts(), "snapshot " + snapshot);
                    assertEquals(expected % 10 == 0, found.isTombstone(), "snapshot " + snapshot);
                }
                assertEquals(7, reader.get(new byte[] {'a'}, Long.MAX_VALUE).cts());
                assertNull(reader.get(new byte[] {'z'}, 4));
            }
        }
    }

    @ParameterizedTest
    @EnumSource(DfsKind.class)
    void anEmptyTableOpensAndHoldsNothing(DfsKind kind) throws IOException {
        try (Dfs dfs = kind.open(temp)) {
            SsTableInfo info = SsTables.write(dfs, "empty.sst", SsTableOptions.DEFAULT, List.of());
            assertEquals(0, info.entryCount());
            assertEquals(0, info.smallestKey().length);
            assertEquals(0, info.largestKey().length);
            assertEquals(Long.MAX_VALUE, info.minCts());
            assertEquals(-1, info.maxCts());
            try (SsTableReader reader = SsTableReader.open(dfs, "empty.sst", 1, new BlockCache(1 << 20))) {
                assertEquals(info, reader.info());
                assertNull(reader.get(new byte[0], Long.MAX_VALUE));
                assertNull(reader.get(new byte[] {1}, 5));
                assertFalse(reader.mayContain(new byte[] {1}), "an empty filter contains nothing");
                try (CloseableIterator<Version> scan = reader.scan(null)) {
                    assertFalse(scan.hasNext());
                }
                try (CloseableIterator<Version> scan = reader.scan(new byte[] {3})) {
                    assertFalse(scan.hasNext());
                }
            }
        }
    }

    private static void checkGets(VersionModel model, SsTableReader reader, Random random, String where)
            throws IOException {
        int gets = 0;
        for (byte[] key : model.keys()) {
            List<Long> snapshots = new ArrayList<>(List.of(-1L, 0L, model.maxCts() + 1, Long.MAX_VALUE));
            for (Version v : model.scan(key)) {
                if (!java.util.Arrays.equals(v.key(), key)) {
                    break;
                }
                snapshots.add(v.cts());
                snapshots.add(v.cts() - 1);
                snapshots.add(v.cts() + 1);
            }
            for (long snapshot : snapshots) {
                assertEquals(model.get(key, snapshot), reader.get(key, snapshot),
                        where + "get(" + VersionModel.hex(key) + ", " + snapshot + ")");
                gets++;
            }
            assertTrue(reader.mayContain(key), where + "bloom false negative for " + VersionModel.hex(key));
        }
        for (int i = 0; i < 3000; i++) {
            byte[] probe = VersionModel.probeKey(random, model.keys());
            long snapshot = random.nextInt((int) model.maxCts() + 10) - 2;
            assertEquals(model.get(probe, snapshot), reader.get(probe, snapshot),
                    where + "get(" + VersionModel.hex(probe) + ", " + snapshot + ")");
            gets++;
        }
        assertTrue(gets > 3000);
    }

    private static void checkScans(VersionModel model, SsTableReader reader, Random random, String where) {
        assertEquals(model.scan(null), SsTables.drain(reader.scan(null)), where + "scan(null)");
        for (int i = 0; i < 60; i++) {
            byte[] from = VersionModel.probeKey(random, model.keys());
            List<Version> expected = model.scan(from);
            try (CloseableIterator<Version> scan = reader.scan(from)) {
                // Sometimes stop early: an abandoned scan must not disturb anything.
                int limit = random.nextBoolean() ? Integer.MAX_VALUE : random.nextInt(50);
                List<Version> actual = new ArrayList<>();
                while (actual.size() < limit && scan.hasNext()) {
                    actual.add(scan.next());
                }
                assertEquals(expected.subList(0, Math.min(limit, expected.size())), actual,
                        where + "scan(" + VersionModel.hex(from) + ")");
            }
        }
    }
}
