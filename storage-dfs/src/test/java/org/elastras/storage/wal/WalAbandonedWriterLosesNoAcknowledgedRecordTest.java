package org.elastras.storage.wal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.elastras.storage.dfs.Dfs;
import org.elastras.storage.dfs.DfsKind;
import org.elastras.storage.dfs.MemoryDfs;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A writer that is never closed (its process died) loses none of the records it acknowledged:
 * they are readable while its segment is still open, after a new writer took over the directory,
 * and after a crash that drops every unsynced byte.
 */
class WalAbandonedWriterLosesNoAcknowledgedRecordTest {

    @TempDir
    Path temp;

    private static List<WalRecord> records(String prefix, int count) {
        List<WalRecord> records = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            records.add(WalTesting.tagged(3, prefix + i, 100));
        }
        return records;
    }

    @ParameterizedTest
    @EnumSource(DfsKind.class)
    void acknowledgedRecordsAreReadableFromTheUnclosedSegmentAndAfterANewWriterTookOver(DfsKind kind)
            throws IOException {
        try (Dfs dfs = kind.open(temp)) {
            List<WalRecord> first = records("first-", 200);
            WalWriter abandoned = WalWriter.open(dfs, "wal", WalOptions.DEFAULT);
            List<WalPosition> positions = WalTesting.appendAll(abandoned, first);

            // The abandoned writer's segment is still open (on HDFS: under its lease, never closed).
            List<WalEntry> whileOpen = WalReader.readAll(dfs, "wal", WalPosition.START);
            assertEquals(first.size(), whileOpen.size());
            for (int i = 0; i < first.size(); i++) {
                assertEquals(positions.get(i), whileOpen.get(i).position());
                WalTesting.assertSameRecord(first.get(i), whileOpen.get(i).record());
            }

            // A new writer takes over the directory while the old segment is still unclosed.
            List<WalRecord> second = records("second-", 20);
            try (WalWriter successor = WalWriter.open(dfs, "wal", WalOptions.DEFAULT)) {
                assertEquals(2, successor.endPosition().segment());
                WalTesting.appendAll(successor, second);
            }
            List<WalEntry> all = WalReader.readAll(dfs, "wal", WalPosition.START);
            assertEquals(first.size() + second.size(), all.size());
            for (int i = 0; i < second.size(); i++) {
                WalTesting.assertSameRecord(second.get(i), all.get(first.size() + i).record());
            }
            abandoned.close();
        }
    }

    @Test
    void everyAcknowledgedRecordSurvivesACrashThatDropsUnsyncedBytes() throws IOException {
        MemoryDfs dfs = new MemoryDfs();
        List<WalRecord> acknowledged = records("acked-", 300);
        WalWriter abandoned = WalWriter.open(dfs, "wal", WalOptions.DEFAULT.withSegmentBytesMax(8 * 1024));
        WalTesting.appendAll(abandoned, acknowledged);
        dfs.crash();

        List<WalEntry> replayed = WalReader.readAll(dfs, "wal", WalPosition.START);
        assertEquals(acknowledged.size(), replayed.size());
        for (int i = 0; i < acknowledged.size(); i++) {
            WalTesting.assertSameRecord(acknowledged.get(i), replayed.get(i).record());
        }
        try (WalWriter successor = WalWriter.open(dfs, "wal", WalOptions.DEFAULT)) {
            successor.append(WalTesting.tagged(3, "after-crash", 1)).join();
        }
        assertEquals(acknowledged.size() + 1, WalReader.readAll(dfs, "wal", WalPosition.START).size());
    }

    /** The control for the test above: without sync, the same crash does lose records. */
    @Test
    void flushDurabilityLosesRecordsInTheSameCrash() throws IOException {
        MemoryDfs dfs = new MemoryDfs();
        WalWriter abandoned = WalWriter.open(dfs, "wal", WalOptions.DEFAULT.withDurability(WalDurability.FLUSH));
        WalTesting.appendAll(abandoned, records("flushed-", 50));
        assertEquals(50, WalReader.readAll(dfs, "wal", WalPosition.START).size());
        dfs.crash();
        List<WalEntry> replayed = WalReader.readAll(dfs, "wal", WalPosition.START);
        assertTrue(replayed.isEmpty(), "unsynced records vanished, the header (synced at open) stayed");
    }
}
