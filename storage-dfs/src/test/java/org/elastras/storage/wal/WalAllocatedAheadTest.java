package org.elastras.storage.wal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.elastras.storage.dfs.Dfs;
import org.elastras.storage.dfs.DfsKind;
import org.elastras.storage.dfs.DfsOutput;
import org.elastras.storage.dfs.LocalDfs;
import org.elastras.storage.util.CorruptionException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A local log file is allocated ahead of its appends ({@link Dfs#createLog}), so a sync writes only
 * its data and not also the file's size: the segment then ends in zeros after its records. Those
 * zeros are the end of the records for every reader (replay, a reopened writer, the fence point),
 * and a run of zeros in front of a valid record is still corruption, never a torn tail.
 */
class WalAllocatedAheadTest {

    @TempDir
    Path temp;

    private static List<WalRecord> records(int n) {
        List<WalRecord> records = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            records.add(WalTesting.tagged(3, "r" + i, 40));
        }
        return records;
    }

    @Test
    void aLocalLogFileIsLongerThanItsAppendsAndReadsAsZerosPastThem() throws IOException {
        try (Dfs dfs = LocalDfs.open(temp.resolve("dfs"))) {
            byte[] data = new byte[1000];
            Arrays.fill(data, (byte) 7);
            try (DfsOutput out = dfs.createLog("logs/a")) {
                out.write(data);
                out.sync();
                assertEquals(1000, out.position());
                long length = dfs.length("logs/a");
                assertTrue(length >= 1000 + (1 << 20), "allocated ahead: " + length);
                byte[] file = WalTesting.readFile(dfs, "logs/a");
                assertTrue(Arrays.equals(data, Arrays.copyOf(file, 1000)));
                for (int i = 1000; i < file.length; i++) {
                    assertEquals(0, file[i], "byte " + i);
                }
                // Appends fill the allocated space before the file grows again.
                out.write(new byte[2000]);
                out.sync();
                assertEquals(length, dfs.length("logs/a"));
            }
            try (DfsOutput out = dfs.create("plain")) {
                out.write(data);
                out.sync();
            }
            assertEquals(1000, dfs.length("plain"), "other files are as long as what was written");
        }
    }

    @ParameterizedTest
    @EnumSource(DfsKind.class)
    void everyRecordReplaysAndAReopenedWriterRecordsWhereTheyEnd(DfsKind kind) throws IOException {
        try (Dfs dfs = kind.open(temp)) {
            List<WalRecord> first = records(20);
            List<WalPosition> positions;
            try (WalWriter writer = WalWriter.open(dfs, "wal", WalOptions.DEFAULT)) {
                positions = WalTesting.appendAll(writer, first);
            }
            long end = WalSegmentReader.validEndOfLast(dfs, "wal", 1);
            List<WalEntry> replayed = WalReader.readAll(dfs, "wal", WalPosition.START);
            assertEquals(first.size(), replayed.size());
            assertEquals(positions.get(positions.size() - 1).offset(), replayed.get(replayed.size() - 1).position().offset());
            if (kind == DfsKind.LOCAL) {
                assertTrue(dfs.length(WalTesting.segmentPath("wal", 1)) > end, "the segment continues in zeros");
            } else {
                assertEquals(dfs.length(WalTesting.segmentPath("wal", 1)), end);
            }

            WalRecord after = WalTesting.tagged(3, "after", 40);
            try (WalWriter writer = WalWriter.open(dfs, "wal", WalOptions.DEFAULT)) {
                assertEquals(new WalPosition(2, WalFormat.HEADER_BYTES), writer.append(after).join());
            }
            assertEquals(end, WalSegmentReader.readHeaderOrNull(dfs, "wal", 2).previousSegmentEnd());
            replayed = WalReader.readAll(dfs, "wal", WalPosition.START);
            assertEquals(first.size() + 1, replayed.size());
            for (int i = 0; i < first.size(); i++) {
                WalTesting.assertSameRecord(first.get(i), replayed.get(i).record());
            }
            WalTesting.assertSameRecord(after, replayed.get(first.size()).record());
        }
    }

    @Test
    void zerosInFrontOfAValidRecordAreCorruptionNotATornTail() throws IOException {
        try (Dfs dfs = LocalDfs.open(temp.resolve("dfs"))) {
            List<WalPosition> positions;
            try (WalWriter writer = WalWriter.open(dfs, "wal", WalOptions.DEFAULT)) {
                positions = WalTesting.appendAll(writer, records(3));
            }
            byte[] file = WalTesting.readFile(dfs, WalTesting.segmentPath("wal", 1));
            // Record 1 zeroed, record 2 intact after it, then the allocated zeros.
            Arrays.fill(file, (int) positions.get(1).offset(), (int) positions.get(2).offset(), (byte) 0);
            WalTesting.writeFile(dfs, WalTesting.segmentPath("zeroed", 1), file, file.length);

            CorruptionException cause = assertThrows(CorruptionException.class,
                    () -> WalReader.readAll(dfs, "zeroed", WalPosition.START));
            assertTrue(cause.getMessage().contains("a valid record follows at offset " + positions.get(2).offset()),
                    cause.getMessage());
        }
    }
}
