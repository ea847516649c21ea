package org.elastras.storage.store;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.IOException;
import java.util.List;
import java.util.Map;
import org.elastras.storage.dfs.MemoryDfs;
import org.elastras.storage.sstable.SsTableInfo;
import org.elastras.storage.util.ByteSource;
import org.elastras.storage.wal.WalPosition;
import org.junit.jupiter.api.Test;

class ManifestTest {

    private static Manifest sample(long sequence) {
        return new Manifest(sequence, 42,
                List.of(new SsTableInfo("00000000000000000007.sst", 1234, 99, new byte[] {1}, new byte[] {9, 9}, 3, 77)),
                Map.of("otm-a", new WalPosition(2, 300), "otm-b", new WalPosition(5, 0)));
    }

    @Test
    void encodeDecodeRoundTrips() {
        Manifest m = sample(7);
        Manifest back = Manifest.decode(m.encode());
        assertEquals(7, back.sequence());
        assertEquals(42, back.nextFileNumber());
        assertEquals(m.replayPoints(), back.replayPoints());
        SsTableInfo t = back.tables().get(0);
        assertEquals("00000000000000000007.sst", t.fileName());
        assertEquals(1234, t.fileBytes());
        assertEquals(99, t.entryCount());
        assertArrayEquals(new byte[] {1}, t.smallestKey());
        assertArrayEquals(new byte[] {9, 9}, t.largestKey());
        assertEquals(3, t.minCts());
        assertEquals(77, t.maxCts());
    }

    @Test
    void everyFlippedByteIsDetected() {
        byte[] bytes = sample(1).encode();
        for (int i = 0; i < bytes.length; i++) {
            byte[] copy = bytes.clone();
            copy[i] ^= 0x01;
            int at = i;
            assertThrows(ByteSource.FormatException.class, () -> Manifest.decode(copy), "flip at " + at);
        }
        assertThrows(ByteSource.FormatException.class, () -> Manifest.decode(new byte[3]));
    }

    @Test
    void theNewestManifestWinsAndOlderOnesAreDeleted() throws IOException {
        MemoryDfs dfs = new MemoryDfs();
        assertEquals(0, ManifestFiles.readLatest(dfs, "p").sequence());
        ManifestFiles.write(dfs, "p", sample(1));
        ManifestFiles.write(dfs, "p", sample(2));
        assertEquals(2, ManifestFiles.readLatest(dfs, "p").sequence());
        assertEquals(List.of(Manifest.fileName(2)), dfs.list("p"));
        // A second writer of the same sequence cannot replace it.
        assertThrows(java.nio.file.FileAlreadyExistsException.class, () -> ManifestFiles.write(dfs, "p", sample(2)));
    }
}
