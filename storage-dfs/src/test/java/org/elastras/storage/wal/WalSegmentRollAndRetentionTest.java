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
import org.elastras.storage.util.CorruptionException;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Segments roll at their size limit; deleting the segments before the oldest retained position
 * removes exactly the obsolete ones, and replay from that position still finds every later record.
 */
class WalSegmentRollAndRetentionTest {

    @TempDir
    Path temp;

    @ParameterizedTest
    @EnumSource(DfsKind.class)
    void segmentsRollBySizeAndDeleteSegmentsBeforeKeepsEverythingRetained(DfsKind kind) throws IOException {
        try (Dfs dfs = kind.open(temp)) {
            List<WalRecord> records = new ArrayList<>();
            for (int i = 0; i < 80; i++) {
                records.add(WalTesting.tagged(i % 2, "r" + i, 120));
            }
            long segmentBytesMax = 1024;
            WalRetention retention = new WalRetention();
            try (WalWriter writer = WalWriter.open(dfs, "wal", WalOptions.DEFAULT.withSegmentBytesMax(segmentBytesMax))) {
                List<WalPosition> positions = WalTesting.appendAll(writer, records);
                List<Long> segments = WalReader.segments(dfs, "wal");
                assertTrue(segments.size() >= 8, "80 records of ~150 bytes in 1 KiB segments: " + segments);
                for (long segment : segments) {
                    assertTrue(WalTesting.recordsEnd(dfs, "wal", segment) <= segmentBytesMax);
                }
                assertEquals(segments.get(segments.size() - 1), positions.get(positions.size() - 1).segment());

                // Partition 0 flushed everything before record 40, partition 1 before record 51.
                retention.retain(0, positions.get(40));
                retention.retain(1, positions.get(51));
                WalPosition oldest = retention.oldestNeeded(writer.endPosition());
                assertEquals(positions.get(40), oldest);
                writer.deleteSegmentsBefore(oldest);

                List<Long> kept = WalReader.segments(dfs, "wal");
                List<Long> expected = new ArrayList<>();
                for (long segment : segments) {
                    if (segment >= oldest.segment()) {
                        expected.add(segment);
                    }
                }
                assertEquals(expected, kept, "exactly the segments before " + oldest + " are gone");

                List<WalEntry> fromOldest = WalReader.readAll(dfs, "wal", oldest);
                assertEquals(records.size() - 40, fromOldest.size());
                for (int i = 0; i < fromOldest.size(); i++) {
                    assertEquals(positions.get(40 + i), fromOldest.get(i).position());
                    WalTesting.assertSameRecord(records.get(40 + i), fromOldest.get(i).record());
                }
                List<WalEntry> fromStart = WalReader.readAll(dfs, "wal", WalPosition.START);
                assertEquals(oldest.segment(), fromStart.get(0).position().segment());
                assertEquals(records.size(), fromStart.size() + positions.indexOf(fromStart.get(0).position()));

                // A replay point inside a deleted segment is an error, never a silent later start.
                WalPosition deleted = positions.get(0);
                CorruptionException gone = assertThrows(CorruptionException.class, () -> WalReader.readAll(dfs, "wal", deleted));
                assertTrue(gone.getMessage().contains("needs WAL segment " + deleted.segment()), gone.getMessage());

                // Nothing retained: everything but the segment being written may go.
                retention.release(0);
                retention.release(1);
                writer.deleteSegmentsBefore(retention.oldestNeeded(writer.endPosition()));
                assertEquals(List.of(writer.endPosition().segment()), WalReader.segments(dfs, "wal"));

                // The log keeps working after its old segments are gone.
                WalPosition late = writer.append(WalTesting.tagged(0, "late", 10)).join();
                List<WalEntry> tail = WalReader.readAll(dfs, "wal", late);
                assertEquals(1, tail.size());
                assertEquals("late", WalTesting.tagOf(tail.get(0).record()));
            }
        }
    }
}
