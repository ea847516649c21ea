package org.elastras.storage.wal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.util.List;
import org.elastras.storage.dfs.MemoryDfs;
import org.junit.jupiter.api.Test;

/** A fenced writer (its owner lost the lease) logs nothing more, and what it acknowledged stays. */
class WalFenceStopsLoggingTest {

    @Test
    void afterAFenceNothingIsLoggedAndAcknowledgedRecordsRemain() throws IOException {
        MemoryDfs dfs = new MemoryDfs();
        WalWriter writer = WalWriter.open(dfs, "wal", WalOptions.DEFAULT);
        writer.append(WalTesting.tagged(1, "before", 10)).join();
        writer.fence("lease lost");
        writer.fence("again");
        IllegalStateException refused = assertThrows(IllegalStateException.class,
                () -> writer.append(WalTesting.tagged(1, "after", 10)));
        assertTrue(refused.getMessage().contains("fenced: lease lost"), refused.getMessage());
        IOException closed = assertThrows(IOException.class, writer::close);
        assertTrue(closed.getMessage().contains("fenced"), closed.getMessage());
        List<WalEntry> entries = WalReader.readAll(dfs, "wal", WalPosition.START);
        assertEquals(1, entries.size());
        assertEquals("before", WalTesting.tagOf(entries.get(0).record()));
    }
}
