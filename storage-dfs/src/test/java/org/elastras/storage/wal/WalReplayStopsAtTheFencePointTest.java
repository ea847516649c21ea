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
import org.elastras.storage.dfs.LocalDfs;
import org.elastras.storage.util.CorruptionException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Records a zombie writer appends to a fenced log after its fence point are never replayed, so a
 * recovery that runs late sees the same records as one that ran at once; a fence point inside a
 * record cuts it like a torn tail; and a corrupt {@code FENCE} is reported, never ignored.
 */
class WalReplayStopsAtTheFencePointTest {

    private static final String LIVE = "wal/otm-1";
    private static final String FENCED = "wal-fenced/otm-1";

    @TempDir
    Path temp;

    private static List<String> tags(List<WalEntry> entries) {
        List<String> tags = new ArrayList<>();
        for (WalEntry entry : entries) {
            tags.add(WalTesting.tagOf(entry.record()));
        }
        return tags;
    }

    private static void fence(Dfs dfs) throws IOException {
        dfs.mkdirs("wal-fenced");
        dfs.rename(LIVE, FENCED);
        WalFenceMarker.mark(dfs, FENCED, WalFenceMarker.LEASE_RECOVERY_WAIT_MILLIS_DEFAULT);
    }

    /**
     * On the local DFS a rename does not stop a writer that holds the file open: a zombie that
     * does not check (ROLL_ONLY, as if the check were absent) keeps appending, and even
     * acknowledging, into the fenced file. Recovery must see none of it.
     */
    @Test
    void recordsAppendedToTheRenamedFileAfterTheFenceAreNotReplayed() throws IOException {
        try (Dfs dfs = LocalDfs.open(temp.resolve("dfs"))) {
            WalWriter zombie = WalWriter.open(dfs, LIVE, WalOptions.DEFAULT.withFenceCheck(WalFenceCheck.ROLL_ONLY));
            zombie.append(WalTesting.tagged(1, "a", 50)).join();
            zombie.append(WalTesting.tagged(2, "b", 50)).join();
            fence(dfs);
            WalFenceMarker.Point point = WalFenceMarker.readOrNull(dfs, FENCED);
            // The local log file is allocated ahead of its appends and ends in zeros: the point is
            // where the records end, so that the zombie's next record, written over those zeros
            // (inside the file's length), is past it.
            assertTrue(dfs.length(WalTesting.segmentPath(FENCED, 1)) > point.segmentBytes(),
                    "the segment is allocated ahead of its records");

            WalPosition late = zombie.append(WalTesting.tagged(1, "late", 50)).join();
            assertEquals(new WalFenceMarker.Point(1, late.offset()), point);
            byte[] bytes = WalTesting.readFile(dfs, WalTesting.segmentPath(FENCED, 1));
            assertTrue(bytes[(int) late.offset() + 3] != 0, "the zombie's record did reach the fenced file");
            assertEquals(List.of("a", "b"), tags(WalReader.readAll(dfs, FENCED, WalPosition.START)));

            // Marking again keeps the first point, although the file grew.
            assertEquals(point, WalFenceMarker.mark(dfs, FENCED, 0));
            assertEquals(List.of("a", "b"), tags(WalReader.readAll(dfs, FENCED, WalPosition.START)));
            zombie.close();
        }
    }

    @ParameterizedTest
    @EnumSource(DfsKind.class)
    void aFencePointInsideARecordCutsItLikeATornTailAndLaterSegmentsAreIgnored(DfsKind kind) throws IOException {
        try (Dfs dfs = kind.open(temp)) {
            WalPosition third;
            try (WalWriter writer = WalWriter.open(dfs, LIVE, WalOptions.DEFAULT)) {
                writer.append(WalTesting.tagged(1, "a", 50)).join();
                writer.append(WalTesting.tagged(1, "b", 50)).join();
                third = writer.append(WalTesting.tagged(1, "c", 50)).join();
            }
            try (WalWriter successor = WalWriter.open(dfs, LIVE, WalOptions.DEFAULT)) {
                successor.append(WalTesting.tagged(1, "d", 50)).join();
            }
            // A fence point three bytes into record "c" of segment 1, as if segment 2 did not exist.
            WalTesting.writeFile(dfs, Dfs.join(LIVE, WalFenceMarker.FILE_NAME),
                    WalFenceMarker.encode(new WalFenceMarker.Point(1, third.offset() + 3)), WalFenceMarker.FILE_BYTES);
            assertEquals(List.of("a", "b"), tags(WalReader.readAll(dfs, LIVE, WalPosition.START)));
            assertEquals(List.of("b"), tags(WalReader.readAll(dfs, LIVE,
                    WalReader.readAll(dfs, LIVE, WalPosition.START).get(1).position())));
        }
    }

    @ParameterizedTest
    @EnumSource(DfsKind.class)
    void aCorruptFenceFileIsACorruptionException(DfsKind kind) throws IOException {
        try (Dfs dfs = kind.open(temp)) {
            try (WalWriter writer = WalWriter.open(dfs, LIVE, WalOptions.DEFAULT)) {
                writer.append(WalTesting.tagged(1, "a", 50)).join();
            }
            fence(dfs);
            String path = Dfs.join(FENCED, WalFenceMarker.FILE_NAME);
            byte[] bytes = WalTesting.readFile(dfs, path);
            bytes[17] ^= 0x01;
            dfs.delete(path);
            WalTesting.writeFile(dfs, path, bytes, bytes.length);
            CorruptionException bad = assertThrows(CorruptionException.class,
                    () -> WalReader.readAll(dfs, FENCED, WalPosition.START));
            assertTrue(bad.getMessage().contains("fence file checksum mismatch"), bad.getMessage());
            assertTrue(bad.getMessage().contains(WalFenceMarker.FILE_NAME), bad.getMessage());
            assertThrows(CorruptionException.class, () -> WalFenceMarker.mark(dfs, FENCED, 0));

            dfs.delete(path);
            WalTesting.writeFile(dfs, path, bytes, 20);
            CorruptionException shortFile = assertThrows(CorruptionException.class,
                    () -> WalReader.readAll(dfs, FENCED, WalPosition.START));
            assertTrue(shortFile.getMessage().contains("fence file has 20 bytes"), shortFile.getMessage());
        }
    }

    @ParameterizedTest
    @EnumSource(DfsKind.class)
    void aFenceNamingAMissingSegmentIsCorruptionAndAFenceLongerThanTheFileToo(DfsKind kind) throws IOException {
        try (Dfs dfs = kind.open(temp)) {
            try (WalWriter writer = WalWriter.open(dfs, LIVE, WalOptions.DEFAULT)) {
                writer.append(WalTesting.tagged(1, "a", 50)).join();
            }
            String path = Dfs.join(LIVE, WalFenceMarker.FILE_NAME);
            WalTesting.writeFile(dfs, path, WalFenceMarker.encode(new WalFenceMarker.Point(3, 100)),
                    WalFenceMarker.FILE_BYTES);
            CorruptionException missing = assertThrows(CorruptionException.class,
                    () -> WalReader.readAll(dfs, LIVE, WalPosition.START));
            assertTrue(missing.getMessage().contains("names segment 3"), missing.getMessage());

            dfs.delete(path);
            long length = dfs.length(WalTesting.segmentPath(LIVE, 1));
            WalTesting.writeFile(dfs, path, WalFenceMarker.encode(new WalFenceMarker.Point(1, length + 1)),
                    WalFenceMarker.FILE_BYTES);
            CorruptionException tooLong = assertThrows(CorruptionException.class,
                    () -> WalReader.readAll(dfs, LIVE, WalPosition.START));
            assertTrue(tooLong.getMessage().contains("long when fenced"), tooLong.getMessage());
        }
    }
}
