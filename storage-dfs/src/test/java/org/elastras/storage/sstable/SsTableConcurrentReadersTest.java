package org.elastras.storage.sstable;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.elastras.storage.dfs.Dfs;
import org.elastras.storage.dfs.DfsKind;
import org.elastras.storage.store.Version;
import org.elastras.storage.util.CloseableIterator;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** Many threads reading one table at once (gets and scans, a small shared cache) all get the model's answers. */
class SsTableConcurrentReadersTest {

    @TempDir
    Path temp;

    @ParameterizedTest
    @EnumSource(DfsKind.class)
    void concurrentGetsAndScansAllMatchTheModel(DfsKind kind) throws Exception {
        long seed = VersionModel.seed(0x5EED_0005L);
        System.out.println("SsTableConcurrentReadersTest " + kind + " seed=" + seed);
        VersionModel model = VersionModel.random(new Random(seed), 400);
        int threads = 6;
        try (Dfs dfs = kind.open(temp)) {
            SsTables.write(dfs, "t.sst", new SsTableOptions(1024, 8, 10), model.versionsInOrder());
            // Small enough that threads keep evicting each other's blocks.
            BlockCache cache = new BlockCache(32 * 1024);
            ExecutorService pool = Executors.newFixedThreadPool(threads);
            try (SsTableReader reader = SsTableReader.open(dfs, "t.sst", 1, cache)) {
                List<Future<?>> work = new ArrayList<>();
                for (int t = 0; t < threads; t++) {
                    long threadSeed = seed + t;
                    work.add(pool.submit(() -> {
                        Random random = new Random(threadSeed);
                        for (int i = 0; i < 1500; i++) {
                            byte[] key = VersionModel.probeKey(random, model.keys());
                            long snapshot = random.nextInt((int) model.maxCts() + 5) - 1;
                            assertEquals(model.get(key, snapshot), reader.get(key, snapshot),
                                    "seed=" + seed + " thread seed=" + threadSeed + " get(" + VersionModel.hex(key)
                                            + ", " + snapshot + ")");
                            if (i % 100 == 0) {
                                byte[] from = VersionModel.probeKey(random, model.keys());
                                List<Version> expected = model.scan(from);
                                List<Version> actual = new ArrayList<>();
                                try (CloseableIterator<Version> scan = reader.scan(from)) {
                                    while (scan.hasNext() && actual.size() < 300) {
                                        actual.add(scan.next());
                                    }
                                }
                                assertEquals(expected.subList(0, Math.min(300, expected.size())), actual,
                                        "seed=" + seed + " thread seed=" + threadSeed + " scan(" + VersionModel.hex(from) + ")");
                            }
                        }
                        return null;
                    }));
                }
                for (Future<?> f : work) {
                    f.get(60, TimeUnit.SECONDS);
                }
            } finally {
                pool.shutdownNow();
            }
            System.out.printf("SsTableConcurrentReadersTest %s: cache %d hits, %d misses%n", kind, cache.hits(),
                    cache.misses());
        }
    }
}
