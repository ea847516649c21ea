package org.elastras.storage.sstable;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.util.List;
import org.elastras.storage.dfs.MemoryDfs;
import org.elastras.storage.store.Version;
import org.elastras.storage.util.CorruptionException;
import org.junit.jupiter.api.Test;

/** The writer accepts only strictly increasing (key, cts) and rejects misuse without harm. */
class SsTableWriterOrderTest {

    private static Version v(String key, long cts) {
        return new Version(key.getBytes(java.nio.charset.StandardCharsets.UTF_8), cts, new byte[] {(byte) cts});
    }

    @Test
    void outOfOrderAndDuplicateVersionsAreRejectedAndLeaveTheTableIntact() throws IOException {
        MemoryDfs dfs = new MemoryDfs();
        try (SsTableWriter writer = new SsTableWriter(dfs.create("t.sst"), "t.sst", SsTableOptions.DEFAULT)) {
            writer.add(v("b", 5));
            IllegalStateException duplicate = assertThrows(IllegalStateException.class, () -> writer.add(v("b", 5)));
            assertTrue(duplicate.getMessage().contains("duplicate"), duplicate.getMessage());
            // Same key, newer cts: newer versions must come first.
            assertThrows(IllegalStateException.class, () -> writer.add(v("b", 6)));
            assertThrows(IllegalStateException.class, () -> writer.add(v("a", 1)));
            assertThrows(IllegalStateException.class, () -> writer.add(v("", 1)));
            writer.add(v("b", 4));
            writer.add(v("ba", 9));
            SsTableInfo info = writer.finish();
            assertEquals(3, info.entryCount());
            assertThrows(IllegalStateException.class, () -> writer.add(v("c", 1)));
            assertThrows(IllegalStateException.class, writer::finish);
        }
        try (SsTableReader reader = SsTableReader.open(dfs, "t.sst", 1, new BlockCache(0))) {
            assertEquals(List.of(v("b", 5), v("b", 4), v("ba", 9)), SsTables.drain(reader.scan(null)));
        }
    }

    @Test
    void anAbandonedWriterLeavesAFileThatDoesNotOpen() throws IOException {
        MemoryDfs dfs = new MemoryDfs();
        try (SsTableWriter writer = new SsTableWriter(dfs.create("t.sst"), "t.sst", new SsTableOptions(256, 4, 10))) {
            for (int i = 0; i < 100; i++) {
                writer.add(v("k" + (1000 + i), 1));
            }
        }
        assertTrue(dfs.length("t.sst") > 0, "some data blocks were written");
        CorruptionException e = assertThrows(CorruptionException.class,
                () -> SsTableReader.open(dfs, "t.sst", 1, new BlockCache(0)));
        assertEquals("t.sst", e.path());
    }

    @Test
    void theWriterNeedsAnEmptyOutput() throws IOException {
        MemoryDfs dfs = new MemoryDfs();
        var out = dfs.create("t.sst");
        out.write(new byte[] {1});
        assertThrows(IllegalArgumentException.class, () -> new SsTableWriter(out, "t.sst", SsTableOptions.DEFAULT));
    }
}
