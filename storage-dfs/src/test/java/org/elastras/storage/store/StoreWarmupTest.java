package org.elastras.storage.store;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.elastras.storage.dfs.Dfs;
import org.elastras.storage.dfs.DfsOutput;
import org.elastras.storage.sstable.BlockCache;
import org.elastras.storage.dfs.MemoryDfs;
import org.junit.jupiter.api.Test;

/** The open-path warm-up reads back all it wrote, leaves nothing behind and touches nothing else. */
class StoreWarmupTest {

    private final BlockCache cache = new BlockCache(1 << 20);
    private final StoreEnvironment env = new StoreEnvironment(cache, null, () -> 0);

    @Test
    void readsBackEveryVersionThroughTablesAndAReopenAndDeletesItsDirectory() throws IOException {
        MemoryDfs dfs = new MemoryDfs();
        byte[] other = "a partition's data".getBytes(StandardCharsets.UTF_8);
        write(dfs, "data/db/1/000001.sst", other);

        assertEquals(StoreWarmup.VERSIONS, StoreWarmup.run(dfs, "warmup/otm-1", env));

        assertFalse(dfs.exists("warmup/otm-1"), "the scratch directory is gone");
        assertEquals(List.of("000001.sst"), dfs.list("data/db/1"), "nothing else was touched");
        assertArrayEquals(other, dfs.open("data/db/1/000001.sst").readFully(0, other.length));
        assertEquals(0, cache.blockCount(), "the closed tables' blocks left the cache");
        assertTrue(cache.hits() > 0, "reads went through the tables");
    }

    @Test
    void whatACutShortWarmupLeftIsClearedFirst() throws IOException {
        MemoryDfs dfs = new MemoryDfs();
        write(dfs, "warmup/otm-1/MANIFEST-000009", "not a manifest".getBytes(StandardCharsets.UTF_8));

        assertEquals(StoreWarmup.VERSIONS, StoreWarmup.run(dfs, "warmup/otm-1", env));
        assertFalse(dfs.exists("warmup/otm-1"));
    }

    @Test
    void aFailingDfsFailsTheWarmupAndItCleansUp() throws IOException {
        MemoryDfs dfs = new MemoryDfs();
        dfs.failWrites(true);
        assertThrows(IOException.class, () -> StoreWarmup.run(dfs, "warmup/otm-1", env));
        dfs.failWrites(false);
        assertFalse(dfs.exists("warmup/otm-1"));
    }

    private static void write(Dfs dfs, String path, byte[] bytes) throws IOException {
        try (DfsOutput out = dfs.create(path)) {
            out.write(bytes, 0, bytes.length);
            out.sync();
        }
    }
}
