package org.elastras.storage.wal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.elastras.storage.dfs.Dfs;
import org.elastras.storage.dfs.DfsKind;
import org.elastras.storage.util.StorageLimits;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

class WalRoundTripTest {

    @TempDir
    Path temp;

    @Test
    void randomRecordsEncodeAndDecodeToTheSameRecord() {
        Random random = new Random(WalTesting.seed("randomRecordsEncodeAndDecodeToTheSameRecord"));
        for (int i = 0; i < 2_000; i++) {
            WalRecord record = WalTesting.randomRecord(random);
            byte[] frame = WalFormat.encodeFrame(record, StorageLimits.DEFAULT);
            int bodyBytes = frame.length - WalFormat.FRAME_HEADER_BYTES;
            assertEquals(bodyBytes, org.elastras.storage.util.ByteCoding.getInt(frame, 0));
            assertEquals(WalFormat.frameChecksum(frame, 0, bodyBytes),
                    org.elastras.storage.util.ByteCoding.getInt(frame, 4));
            WalRecord decoded = WalFormat.decodeBody(frame, WalFormat.FRAME_HEADER_BYTES, bodyBytes,
                    WalSegmentReader.READ_LIMITS);
            WalTesting.assertSameRecord(record, decoded);
        }
    }

    @Test
    void segmentNamesSortInSegmentOrderAndParseBack() {
        assertEquals("00000000000000000001.wal", WalFormat.segmentFileName(1));
        assertEquals(Long.MAX_VALUE, WalFormat.parseSegmentFileName(WalFormat.segmentFileName(Long.MAX_VALUE)));
        assertTrue(WalFormat.segmentFileName(9).compareTo(WalFormat.segmentFileName(10)) < 0);
        assertEquals(-1, WalFormat.parseSegmentFileName("00000000000000000001.tmp"));
        assertEquals(-1, WalFormat.parseSegmentFileName("00000000000000000000.wal"));
    }

    @ParameterizedTest
    @EnumSource(DfsKind.class)
    void randomRecordsAppendedAreReplayedInOrderWithTheirPositions(DfsKind kind) throws IOException {
        Random random = new Random(WalTesting.seed("randomRecordsAppendedAreReplayedInOrder/" + kind));
        List<WalRecord> records = new ArrayList<>();
        for (int i = 0; i < 500; i++) {
            records.add(WalTesting.randomRecord(random));
        }
        try (Dfs dfs = kind.open(temp)) {
            List<WalPosition> positions;
            try (WalWriter writer = WalWriter.open(dfs, "wal", WalOptions.DEFAULT.withSegmentBytesMax(64 * 1024))) {
                positions = WalTesting.appendAll(writer, records);
            }
            List<WalEntry> replayed = WalReader.readAll(dfs, "wal", WalPosition.START);
            assertEquals(records.size(), replayed.size());
            for (int i = 0; i < records.size(); i++) {
                assertEquals(positions.get(i), replayed.get(i).position(), "position of record " + i);
                WalTesting.assertSameRecord(records.get(i), replayed.get(i).record());
            }
            assertTrue(WalReader.segments(dfs, "wal").size() > 1, "64 KiB segments should have rolled");
        }
    }
}
