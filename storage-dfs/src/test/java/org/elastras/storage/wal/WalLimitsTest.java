package org.elastras.storage.wal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.elastras.storage.dfs.Dfs;
import org.elastras.storage.dfs.DfsKind;
import org.elastras.storage.util.LimitExceededException;
import org.elastras.storage.util.StorageLimits;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** An oversized key, value, write set or record is refused on the caller's thread; nothing is written. */
class WalLimitsTest {

    @TempDir
    Path temp;

    private static final StorageLimits SMALL = new StorageLimits(16, 64, 4, 200);

    private static WalRecord record(int keyBytes, int valueBytes, int mutations) {
        List<WalRecord.Mutation> list = new ArrayList<>();
        for (int i = 0; i < mutations; i++) {
            list.add(new WalRecord.Mutation(5, new byte[keyBytes], new byte[valueBytes]));
        }
        return new WalRecord(1, list);
    }

    @ParameterizedTest
    @EnumSource(DfsKind.class)
    void oversizedKeyValueWriteSetOrRecordIsRefusedAndNothingIsWritten(DfsKind kind) throws IOException {
        try (Dfs dfs = kind.open(temp)) {
            WalRecord fits = record(16, 64, 1);
            try (WalWriter writer = WalWriter.open(dfs, "wal", WalOptions.DEFAULT.withLimits(SMALL))) {
                WalPosition end = writer.endPosition();
                LimitExceededException key = assertThrows(LimitExceededException.class,
                        () -> writer.append(record(17, 1, 1)));
                assertTrue(key.getMessage().contains("keyBytesMax"), key.getMessage());
                LimitExceededException value = assertThrows(LimitExceededException.class,
                        () -> writer.append(record(1, 65, 1)));
                assertTrue(value.getMessage().contains("valueBytesMax"), value.getMessage());
                LimitExceededException writeSet = assertThrows(LimitExceededException.class,
                        () -> writer.append(record(1, 1, 5)));
                assertTrue(writeSet.getMessage().contains("mutationsPerRecordMax"), writeSet.getMessage());
                // Every key and value within its limit, the record as a whole over 200 bytes.
                LimitExceededException whole = assertThrows(LimitExceededException.class,
                        () -> writer.append(record(16, 64, 3)));
                assertTrue(whole.getMessage().contains("recordBytesMax"), whole.getMessage());
                assertEquals(end, writer.endPosition(), "a refused record takes no log space");
                assertEquals(0, writer.metrics().records());
                writer.append(fits).join();
            }
            List<WalEntry> replayed = WalReader.readAll(dfs, "wal", WalPosition.START);
            assertEquals(1, replayed.size());
            WalTesting.assertSameRecord(fits, replayed.get(0).record());
            assertEquals(new WalPosition(1, WalFormat.HEADER_BYTES), replayed.get(0).position());
        }
    }
}
