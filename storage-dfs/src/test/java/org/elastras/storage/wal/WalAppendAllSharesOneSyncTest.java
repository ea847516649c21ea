package org.elastras.storage.wal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import org.elastras.storage.dfs.Dfs;
import org.elastras.storage.dfs.DfsKind;
import org.elastras.storage.util.LimitExceededException;
import org.elastras.storage.util.StorageLimits;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * {@link WalWriter#appendAll}: records queued together are written in one batch (one sync), in
 * order, each acknowledged at its own position; one record over a limit refuses them all and
 * queues nothing.
 */
class WalAppendAllSharesOneSyncTest {

    @TempDir
    Path temp;

    @ParameterizedTest
    @EnumSource(DfsKind.class)
    void recordsAppendedTogetherShareOneSyncAndReplayInOrder(DfsKind kind) throws IOException {
        Random random = new Random(WalTesting.seed("appendAll"));
        List<WalRecord> records = new ArrayList<>();
        for (int i = 0; i < 50; i++) {
            records.add(WalTesting.randomRecord(random));
        }
        List<WalPosition> positions = new ArrayList<>();
        try (Dfs dfs = kind.open(temp)) {
            try (WalWriter writer = WalWriter.open(dfs, "wal", WalTesting.options())) {
                List<CompletableFuture<WalPosition>> acknowledged = writer.appendAll(records);
                assertEquals(records.size(), acknowledged.size());
                for (CompletableFuture<WalPosition> f : acknowledged) {
                    positions.add(f.join());
                }
                assertEquals(1, writer.metrics().batches(), "one batch, one sync, for all of them");
                assertEquals(records.size(), writer.metrics().records());
            }
            List<WalEntry> replayed = WalReader.readAll(dfs, "wal", WalPosition.START);
            assertEquals(records.size(), replayed.size());
            for (int i = 0; i < records.size(); i++) {
                WalTesting.assertSameRecord(records.get(i), replayed.get(i).record());
                assertEquals(positions.get(i), replayed.get(i).position());
            }
        }
    }

    @ParameterizedTest
    @EnumSource(DfsKind.class)
    void oneOversizedRecordRefusesTheWholeGroup(DfsKind kind) throws IOException {
        StorageLimits small = new StorageLimits(16, 64, 4, 200);
        WalRecord fits = new WalRecord(1, List.of(new WalRecord.Mutation(5, new byte[4], new byte[8])));
        WalRecord tooLarge = new WalRecord(2, List.of(new WalRecord.Mutation(5, new byte[4], new byte[65])));
        try (Dfs dfs = kind.open(temp)) {
            try (WalWriter writer = WalWriter.open(dfs, "wal", WalOptions.DEFAULT.withLimits(small))) {
                WalPosition end = writer.endPosition();
                LimitExceededException e = assertThrows(LimitExceededException.class,
                        () -> writer.appendAll(List.of(fits, tooLarge, fits)));
                assertTrue(e.getMessage().contains("valueBytesMax"), e.getMessage());
                assertEquals(end, writer.endPosition(), "nothing of the group was queued");
                writer.append(fits).join();
                assertEquals(1, writer.metrics().records());
            }
            assertEquals(1, WalReader.readAll(dfs, "wal", WalPosition.START).size());
        }
    }
}
