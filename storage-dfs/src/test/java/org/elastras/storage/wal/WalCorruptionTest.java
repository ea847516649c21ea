package org.elastras.storage.wal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.elastras.storage.dfs.Dfs;
import org.elastras.storage.dfs.DfsKind;
import org.elastras.storage.util.CloseableIterator;
import org.elastras.storage.util.CorruptionException;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Damage anywhere but a torn tail is reported as corruption naming the file and the offset:
 * a bad record followed by a valid one, a segment that ends before its successor says, a missing
 * segment, a bad header.
 */
class WalCorruptionTest {

    @TempDir
    Path temp;

    /** Five records in segment 1, closed; returns their positions. */
    private static List<WalPosition> fiveRecords(Dfs dfs, String dir) throws IOException {
        List<WalRecord> records = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            records.add(WalTesting.tagged(1, "rec" + i, 20));
        }
        try (WalWriter writer = WalWriter.open(dfs, dir, WalOptions.DEFAULT)) {
            return WalTesting.appendAll(writer, records);
        }
    }

    private static void copyWithByteFlipped(Dfs dfs, String from, String to, long segment, long offset)
            throws IOException {
        byte[] bytes = WalTesting.readFile(dfs, WalTesting.segmentPath(from, segment));
        bytes[(int) offset] ^= 0x40;
        WalTesting.writeFile(dfs, WalTesting.segmentPath(to, segment), bytes, bytes.length);
    }

    private static CorruptionException assertCorrupt(Dfs dfs, String dir, long segment, long offset) {
        CorruptionException e = assertThrows(CorruptionException.class,
                () -> WalReader.readAll(dfs, dir, WalPosition.START));
        String file = WalFormat.segmentFileName(segment);
        assertTrue(e.getMessage().contains(file) && e.getMessage().contains("offset " + offset),
                "message names " + file + " and offset " + offset + ": " + e.getMessage());
        assertEquals(offset, e.offset());
        return e;
    }

    @ParameterizedTest
    @EnumSource(DfsKind.class)
    void aBadRecordFollowedByValidOnesIsCorruptionAtItsOffset(DfsKind kind) throws IOException {
        try (Dfs dfs = kind.open(temp)) {
            List<WalPosition> positions = fiveRecords(dfs, "good");
            long second = positions.get(1).offset();
            copyWithByteFlipped(dfs, "good", "body", 1, second + WalFormat.FRAME_HEADER_BYTES + 3);
            assertCorrupt(dfs, "body", 1, second);
            copyWithByteFlipped(dfs, "good", "length", 1, second + 1);
            assertCorrupt(dfs, "length", 1, second);
            copyWithByteFlipped(dfs, "good", "checksum", 1, second + 5);
            assertCorrupt(dfs, "checksum", 1, second);

            // The iterator reports the same, wrapped, after yielding the good first record.
            try (CloseableIterator<WalEntry> it = WalReader.replay(dfs, "body", WalPosition.START)) {
                assertEquals(positions.get(0), it.next().position());
                UncheckedIOException e = assertThrows(UncheckedIOException.class, it::hasNext);
                assertTrue(e.getCause() instanceof CorruptionException);
            }
        }
    }

    @ParameterizedTest
    @EnumSource(DfsKind.class)
    void badHeaderMissingSegmentAndShortNonLastSegmentAreCorruption(DfsKind kind) throws IOException {
        try (Dfs dfs = kind.open(temp)) {
            fiveRecords(dfs, "good");
            copyWithByteFlipped(dfs, "good", "header", 1, 10);
            assertCorrupt(dfs, "header", 1, 0);

            // Three segments; a segment with a successor must end where the successor says.
            for (int i = 0; i < 2; i++) {
                try (WalWriter writer = WalWriter.open(dfs, "chain", WalOptions.DEFAULT)) {
                    writer.append(WalTesting.tagged(1, "chain" + i, 20)).join();
                    writer.append(WalTesting.tagged(1, "chain" + i + "b", 20)).join();
                }
            }
            try (WalWriter writer = WalWriter.open(dfs, "chain", WalOptions.DEFAULT)) {
                writer.append(WalTesting.tagged(1, "chain-last", 20)).join();
            }
            assertEquals(5, WalReader.readAll(dfs, "chain", WalPosition.START).size());
            byte[] first = WalTesting.readRecords(dfs, "chain", 1);
            byte[] second = WalTesting.readRecords(dfs, "chain", 2);
            byte[] third = WalTesting.readRecords(dfs, "chain", 3);

            // A torn tail in a segment that has a successor: corruption at the cut record.
            WalTesting.writeFile(dfs, WalTesting.segmentPath("short", 1), first, first.length);
            WalTesting.writeFile(dfs, WalTesting.segmentPath("short", 2), second, second.length - 4);
            WalTesting.writeFile(dfs, WalTesting.segmentPath("short", 3), third, third.length);
            CorruptionException shortSegment = assertThrows(CorruptionException.class,
                    () -> WalReader.readAll(dfs, "short", WalPosition.START));
            assertTrue(shortSegment.getMessage().contains(WalFormat.segmentFileName(2)), shortSegment.getMessage());

            // A record damaged in the last record of a segment that has a successor.
            WalTesting.writeFile(dfs, WalTesting.segmentPath("damaged", 1), first, first.length);
            byte[] damaged = second.clone();
            damaged[damaged.length - 2] ^= 1;
            WalTesting.writeFile(dfs, WalTesting.segmentPath("damaged", 2), damaged, damaged.length);
            WalTesting.writeFile(dfs, WalTesting.segmentPath("damaged", 3), third, third.length);
            CorruptionException damagedSegment = assertThrows(CorruptionException.class,
                    () -> WalReader.readAll(dfs, "damaged", WalPosition.START));
            assertTrue(damagedSegment.getMessage().contains(WalFormat.segmentFileName(2)),
                    damagedSegment.getMessage());

            // A segment missing from the middle of the chain.
            WalTesting.writeFile(dfs, WalTesting.segmentPath("gap", 1), first, first.length);
            WalTesting.writeFile(dfs, WalTesting.segmentPath("gap", 3), third, third.length);
            CorruptionException gap = assertThrows(CorruptionException.class,
                    () -> WalReader.readAll(dfs, "gap", WalPosition.START));
            assertTrue(gap.getMessage().contains("segment 2 is missing"), gap.getMessage());

            // A writer refuses to open over a corrupt last segment, and creates nothing.
            List<WalPosition> positions = WalReader.readAll(dfs, "good", WalPosition.START).stream()
                    .map(WalEntry::position).toList();
            copyWithByteFlipped(dfs, "good", "reopen", 1, positions.get(2).offset() + 12);
            CorruptionException reopen = assertThrows(CorruptionException.class,
                    () -> WalWriter.open(dfs, "reopen", WalOptions.DEFAULT));
            assertEquals(positions.get(2).offset(), reopen.offset());
            assertEquals(List.of(1L), WalReader.segments(dfs, "reopen"));
        }
    }
}
