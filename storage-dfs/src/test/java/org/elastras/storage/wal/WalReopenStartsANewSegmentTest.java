package org.elastras.storage.wal;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.elastras.storage.dfs.Dfs;
import org.elastras.storage.dfs.DfsKind;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Every writer opened on a directory starts a new segment after the highest existing one and
 * never appends to an old one; a last segment whose creation was torn is replaced.
 */
class WalReopenStartsANewSegmentTest {

    @TempDir
    Path temp;

    @ParameterizedTest
    @EnumSource(DfsKind.class)
    void eachReopenStartsTheSegmentAfterTheHighestAndOldSegmentsAreUntouched(DfsKind kind) throws IOException {
        try (Dfs dfs = kind.open(temp)) {
            List<String> tags = new ArrayList<>();
            List<Long> lengths = new ArrayList<>();
            for (int round = 1; round <= 3; round++) {
                try (WalWriter writer = WalWriter.open(dfs, "wal", WalOptions.DEFAULT)) {
                    assertEquals(new WalPosition(round, WalFormat.HEADER_BYTES), writer.endPosition());
                    for (int i = 0; i < 3; i++) {
                        String tag = "round" + round + "-" + i;
                        assertEquals(round, writer.append(WalTesting.tagged(1, tag, 30)).join().segment());
                        tags.add(tag);
                    }
                }
                lengths.add(dfs.length(WalTesting.segmentPath("wal", round)));
            }
            for (int round = 1; round <= 3; round++) {
                assertEquals(lengths.get(round - 1), dfs.length(WalTesting.segmentPath("wal", round)),
                        "segment " + round + " was not appended to");
            }
            assertEquals(tags, WalReader.readAll(dfs, "wal", WalPosition.START).stream()
                    .map(e -> WalTesting.tagOf(e.record())).toList());

            // A writer that crashed inside open left an empty segment 4: the next one replaces it.
            WalTesting.writeFile(dfs, WalTesting.segmentPath("wal", 4), new byte[0], 0);
            assertEquals(tags.size(), WalReader.readAll(dfs, "wal", WalPosition.START).size());
            try (WalWriter writer = WalWriter.open(dfs, "wal", WalOptions.DEFAULT)) {
                assertEquals(new WalPosition(4, WalFormat.HEADER_BYTES), writer.endPosition());
                writer.append(WalTesting.tagged(1, "round4", 30)).join();
            }
            assertEquals(List.of(1L, 2L, 3L, 4L), WalReader.segments(dfs, "wal"));
            assertEquals(tags.size() + 1, WalReader.readAll(dfs, "wal", WalPosition.START).size());
        }
    }
}
