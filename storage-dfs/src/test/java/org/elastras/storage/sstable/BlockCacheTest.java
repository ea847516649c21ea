package org.elastras.storage.sstable;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.elastras.storage.dfs.Dfs;
import org.elastras.storage.dfs.DfsKind;
import org.elastras.storage.dfs.MemoryDfs;
import org.elastras.storage.store.Version;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The block cache stays within its byte bound, evicts blocks not used lately first, serves hits,
 * and keeps its byte count exact under concurrent hits, insertions and table evictions.
 */
class BlockCacheTest {

    @TempDir
    Path temp;

    private static List<Version> versions(int count) {
        List<Version> all = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            all.add(new Version(String.format("key-%06d", i).getBytes(java.nio.charset.StandardCharsets.UTF_8), 1,
                    new byte[40]));
        }
        return all;
    }

    @Test
    void aCachedBlockIsServedWithoutReadingTheDfsAgain() throws IOException {
        MemoryDfs dfs = new MemoryDfs();
        List<Version> versions = versions(200);
        SsTables.write(dfs, "t.sst", new SsTableOptions(1024, 4, 10), versions);
        BlockCache cache = new BlockCache(1 << 20);
        try (SsTableReader reader = SsTableReader.open(dfs, "t.sst", 9, cache)) {
            Version first = versions.get(0);
            assertEquals(first, reader.get(first.key(), 1));
            assertEquals(0, cache.hits());
            assertEquals(1, cache.misses());
            // Damage the cached block on the DFS: a hit must neither re-read nor re-verify it.
            dfs.corrupt("t.sst", 10, (byte) 0x55);
            assertEquals(first, reader.get(first.key(), 1));
            assertEquals(1, cache.hits());
            assertEquals(1, cache.blockCount());
            reader.close();
            assertEquals(0, cache.sizeBytes(), "closing a reader drops its blocks");
        }
    }

    @Test
    void leastRecentlyUsedBlocksAreEvictedFirst() throws IOException {
        MemoryDfs dfs = new MemoryDfs();
        SsTables.write(dfs, "t.sst", new SsTableOptions(512, 4, 0), versions(100));
        try (SsTableReader reader = SsTableReader.open(dfs, "t.sst", 1, new BlockCache(0))) {
            Block a = reader.block(0);
            Block b = reader.block(1);
            Block c = reader.block(2);
            long twoBlocks = a.cacheChargeBytes() + b.cacheChargeBytes() + 10;
            BlockCache cache = new BlockCache(Math.max(twoBlocks, c.cacheChargeBytes() + b.cacheChargeBytes() + 10));
            cache.put(1, 0, a);
            cache.put(1, 1, b);
            assertSame(a, cache.get(1, 0));
            cache.put(1, 2, c);
            assertNull(cache.get(1, 1), "b was the least recently used");
            assertNotNull(cache.get(1, 0));
            assertNotNull(cache.get(1, 2));
            assertTrue(cache.sizeBytes() <= cache.capacityBytes());
            cache.put(1, 2, c);
            assertEquals(a.cacheChargeBytes() + c.cacheChargeBytes(), cache.sizeBytes(), "a re-put is not counted twice");

            BlockCache tiny = new BlockCache(a.cacheChargeBytes() - 1);
            tiny.put(1, 0, a);
            assertEquals(0, tiny.sizeBytes(), "a block larger than the whole cache is not cached");
        }
    }

    @Test
    void capacityZeroDisablesCaching() throws IOException {
        MemoryDfs dfs = new MemoryDfs();
        List<Version> versions = versions(50);
        SsTables.write(dfs, "t.sst", new SsTableOptions(512, 4, 10), versions);
        BlockCache cache = new BlockCache(0);
        try (SsTableReader reader = SsTableReader.open(dfs, "t.sst", 1, cache)) {
            for (int i = 0; i < 3; i++) {
                assertEquals(versions.get(7), reader.get(versions.get(7).key(), 5));
            }
        }
        assertEquals(0, cache.sizeBytes());
        assertEquals(0, cache.hits());
        assertEquals(3, cache.misses());
        assertThrows(IllegalArgumentException.class, () -> new BlockCache(-1));
    }

    @ParameterizedTest
    @EnumSource(DfsKind.class)
    void theCacheNeverExceedsItsCapacityUnderConcurrentReadersAndServesHits(DfsKind kind) throws Exception {
        long seed = VersionModel.seed(0x5EED_0004L);
        System.out.println("BlockCacheTest " + kind + " seed=" + seed);
        List<Version> versions = versions(4000);
        try (Dfs dfs = kind.open(temp)) {
            SsTables.write(dfs, "a.sst", new SsTableOptions(512, 4, 10), versions);
            SsTables.write(dfs, "b.sst", new SsTableOptions(1024, 8, 10), versions);
            // Holds the hot tenth of both tables (about 50 KiB with per-block overhead), not all of them.
            BlockCache cache = new BlockCache(64 * 1024);
            ExecutorService pool = Executors.newFixedThreadPool(5);
            AtomicBoolean running = new AtomicBoolean(true);
            AtomicLong sizeBytesMax = new AtomicLong();
            try (SsTableReader a = SsTableReader.open(dfs, "a.sst", 1, cache);
                    SsTableReader b = SsTableReader.open(dfs, "b.sst", 2, cache)) {
                Future<?> watcher = pool.submit(() -> {
                    while (running.get()) {
                        sizeBytesMax.accumulateAndGet(cache.sizeBytes(), Math::max);
                    }
                });
                List<Future<?>> readers = new ArrayList<>();
                for (int t = 0; t < 4; t++) {
                    Random random = new Random(seed + t);
                    readers.add(pool.submit(() -> {
                        for (int i = 0; i < 3000; i++) {
                            // Skewed: most reads hit the first tenth of the keys, so the cache has hot blocks.
                            int n = random.nextInt(4) == 0 ? random.nextInt(4000) : random.nextInt(400);
                            Version expected = versions.get(n);
                            SsTableReader reader = random.nextBoolean() ? a : b;
                            assertEquals(expected, reader.get(expected.key(), 1 + random.nextInt(3)), "seed=" + seed);
                            sizeBytesMax.accumulateAndGet(cache.sizeBytes(), Math::max);
                        }
                        return null;
                    }));
                }
                for (Future<?> f : readers) {
                    f.get(60, TimeUnit.SECONDS);
                }
                running.set(false);
                watcher.get(10, TimeUnit.SECONDS);
            } finally {
                running.set(false);
                pool.shutdownNow();
            }
            System.out.printf("BlockCacheTest %s: %d hits, %d misses, largest size seen %d of %d bytes%n", kind,
                    cache.hits(), cache.misses(), sizeBytesMax.get(), cache.capacityBytes());
            assertTrue(sizeBytesMax.get() <= cache.capacityBytes(), "seed=" + seed + " size " + sizeBytesMax.get());
            assertTrue(sizeBytesMax.get() > cache.capacityBytes() / 2, "the cache filled up");
            assertTrue(cache.hits() > cache.misses(), "seed=" + seed + " hot blocks were served from the cache");
            assertEquals(12_000, cache.hits() + cache.misses());
            assertEquals(0, cache.sizeBytes(), "both readers closed");
        }
    }

    @Test
    void concurrentHitsInsertionsAndTableEvictionsKeepTheBoundAndAnExactCount() throws Exception {
        MemoryDfs dfs = new MemoryDfs();
        SsTables.write(dfs, "t.sst", new SsTableOptions(512, 4, 0), versions(400));
        List<Block> blocks = new ArrayList<>();
        try (SsTableReader reader = SsTableReader.open(dfs, "t.sst", 1, new BlockCache(0))) {
            for (int i = 0; i < 20; i++) {
                blocks.add(reader.block(i));
            }
        }
        int tables = 6;
        // Room for about a third of the 120 (table, block) pairs: evictions all the time.
        BlockCache cache = new BlockCache(40 * blocks.get(0).cacheChargeBytes());
        AtomicBoolean stop = new AtomicBoolean();
        AtomicLong sizeMax = new AtomicLong();
        AtomicLong wrongBlocks = new AtomicLong();
        ExecutorService pool = Executors.newFixedThreadPool(6);
        List<Future<?>> workers = new ArrayList<>();
        for (int w = 0; w < 5; w++) {
            long seed = w;
            workers.add(pool.submit(() -> {
                Random random = new Random(seed);
                for (int i = 0; i < 100_000; i++) {
                    int table = random.nextInt(tables);
                    int block = random.nextInt(blocks.size());
                    Block hit = cache.get(table, block);
                    if (hit == null) {
                        cache.put(table, block, blocks.get(block));
                    } else if (hit != blocks.get(block)) {
                        wrongBlocks.incrementAndGet();
                    }
                    sizeMax.accumulateAndGet(cache.sizeBytes(), Math::max);
                }
            }));
        }
        workers.add(pool.submit(() -> {
            Random random = new Random(99);
            while (!stop.get()) {
                cache.evictTable(random.nextInt(tables));
                Thread.onSpinWait();
            }
        }));
        for (int w = 0; w < 5; w++) {
            workers.get(w).get(2, TimeUnit.MINUTES);
        }
        stop.set(true);
        workers.get(5).get(1, TimeUnit.MINUTES);
        pool.shutdown();

        assertEquals(0, wrongBlocks.get(), "a hit is the block cached under its key");
        assertTrue(sizeMax.get() <= cache.capacityBytes(), "size " + sizeMax.get());
        long cachedCharges = 0;
        int cachedBlocks = 0;
        for (int t = 0; t < tables; t++) {
            for (int b = 0; b < blocks.size(); b++) {
                if (cache.get(t, b) != null) {
                    cachedCharges += blocks.get(b).cacheChargeBytes();
                    cachedBlocks++;
                }
            }
        }
        assertEquals(cachedBlocks, cache.blockCount());
        assertEquals(cachedCharges, cache.sizeBytes(), "the count is the cached blocks' charges");
        assertTrue(cache.hits() > 0 && cache.misses() > 0, cache.hits() + " hits, " + cache.misses() + " misses");
        for (int t = 0; t < tables; t++) {
            cache.evictTable(t);
        }
        assertEquals(0, cache.sizeBytes());
        assertEquals(0, cache.blockCount());
    }
}
