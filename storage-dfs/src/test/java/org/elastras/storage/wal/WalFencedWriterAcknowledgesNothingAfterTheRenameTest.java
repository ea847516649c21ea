package org.elastras.storage.wal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import org.elastras.storage.dfs.Dfs;
import org.elastras.storage.dfs.DfsKind;
import org.elastras.storage.dfs.LocalDfs;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A zombie writer whose log directory the master renamed (fenced) acknowledges nothing it writes
 * after the rename: its next batch fails with an error saying the log was fenced, and every record
 * it did acknowledge is in the fenced log that recovery reads.
 */
class WalFencedWriterAcknowledgesNothingAfterTheRenameTest {

    private static final String LIVE = "wal/otm-1";
    private static final String FENCED = "wal-fenced/otm-1";

    @TempDir
    Path temp;

    private static List<WalRecord> records(String prefix, int count, int valueBytes) {
        List<WalRecord> records = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            records.add(WalTesting.tagged(7, prefix + i, valueBytes));
        }
        return records;
    }

    private static void renameAsTheMasterDoes(Dfs dfs) throws IOException {
        dfs.mkdirs("wal-fenced");
        dfs.rename(LIVE, FENCED);
    }

    private static IOException failure(CompletableFuture<WalPosition> future) {
        CompletionException thrown = assertThrows(CompletionException.class, future::join);
        return assertInstanceOf(IOException.class, thrown.getCause());
    }

    @ParameterizedTest
    @EnumSource(DfsKind.class)
    void theBatchAfterTheRenameFailsAndEveryAcknowledgedRecordIsInTheFencedLog(DfsKind kind) throws IOException {
        try (Dfs dfs = kind.open(temp)) {
            WalWriter zombie = WalWriter.open(dfs, LIVE, WalOptions.DEFAULT);
            List<WalRecord> before = records("before-", 50, 100);
            WalTesting.appendAll(zombie, before);

            renameAsTheMasterDoes(dfs);
            IOException fenced = failure(zombie.append(WalTesting.tagged(7, "after", 100)));
            assertTrue(fenced.getMessage().contains("fenced"), fenced.getMessage());
            assertThrows(IllegalStateException.class, () -> zombie.append(WalTesting.tagged(7, "later", 100)));
            assertThrows(IOException.class, zombie::close);

            WalFenceMarker.mark(dfs, FENCED, WalFenceMarker.LEASE_RECOVERY_WAIT_MILLIS_DEFAULT);
            List<WalEntry> replayed = WalReader.readAll(dfs, FENCED, WalPosition.START);
            for (int i = 0; i < before.size(); i++) {
                WalTesting.assertSameRecord(before.get(i), replayed.get(i).record());
            }
            // The failed record was synced into the renamed file before the check: its outcome is
            // unknown, so recovery may apply it; nothing else may follow.
            assertTrue(replayed.size() <= before.size() + 1, "replayed " + replayed.size());
            if (replayed.size() > before.size()) {
                assertEquals("after", WalTesting.tagOf(replayed.get(before.size()).record()));
            }
        }
    }

    /**
     * With the per-batch check off, the roll check alone still refuses a new segment created after
     * the rename: on the local DFS that create re-creates the old directory, which no recovery
     * reads, so a batch synced there must never be acknowledged.
     */
    @Test
    void aRollAfterTheRenameFailsInsteadOfLoggingIntoARecreatedDirectory() throws IOException {
        try (Dfs dfs = LocalDfs.open(temp.resolve("dfs"))) {
            WalOptions options = WalOptions.DEFAULT.withSegmentBytesMax(WalOptions.SEGMENT_BYTES_MIN)
                    .withFenceCheck(WalFenceCheck.ROLL_ONLY);
            WalWriter zombie = WalWriter.open(dfs, LIVE, options);
            WalPosition first = zombie.append(WalTesting.tagged(7, "first", 600)).join();
            assertEquals(1, first.segment());

            renameAsTheMasterDoes(dfs);
            // Too big for what is left of segment 1: the writer rolls to segment 2.
            IOException fenced = failure(zombie.append(WalTesting.tagged(7, "second", 600)));
            assertTrue(fenced.getMessage().contains("fenced"), fenced.getMessage());
            assertTrue(WalReader.segments(dfs, LIVE).isEmpty(), "the segment created after the rename was removed");
            assertThrows(IOException.class, zombie::close);

            List<WalEntry> replayed = WalReader.readAll(dfs, FENCED, WalPosition.START);
            assertEquals(1, replayed.size());
            assertEquals("first", WalTesting.tagOf(replayed.get(0).record()));
        }
    }

    @ParameterizedTest
    @EnumSource(DfsKind.class)
    void aWriterRefusesToOpenAFencedDirectory(DfsKind kind) throws IOException {
        try (Dfs dfs = kind.open(temp)) {
            try (WalWriter writer = WalWriter.open(dfs, LIVE, WalOptions.DEFAULT)) {
                writer.append(WalTesting.tagged(7, "only", 10)).join();
            }
            renameAsTheMasterDoes(dfs);
            WalFenceMarker.mark(dfs, FENCED, WalFenceMarker.LEASE_RECOVERY_WAIT_MILLIS_DEFAULT);
            IOException refused = assertThrows(IOException.class, () -> WalWriter.open(dfs, FENCED, WalOptions.DEFAULT));
            assertTrue(refused.getMessage().contains("fenced"), refused.getMessage());
            assertFalse(dfs.exists(WalTesting.segmentPath(FENCED, 2)), "no segment was created");
        }
    }
}
