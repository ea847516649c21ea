package org.elastras.storage.wal;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.elastras.storage.dfs.Dfs;
import org.elastras.storage.dfs.DfsKind;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A log whose last record was cut short or overwritten with garbage (a writer that crashed in the
 * middle of a write) replays exactly its complete records and no error.
 */
class WalTornTailTest {

    @TempDir
    Path temp;

    /** Writes a small one-segment log and returns the segment bytes and each record's end offset. */
    private static byte[] smallLog(Dfs dfs, List<WalRecord> records, List<Long> ends) throws IOException {
        for (int i = 0; i < 3; i++) {
            records.add(WalTesting.tagged(7, "r" + i, 2));
        }
        try (WalWriter writer = WalWriter.open(dfs, "wal", WalOptions.DEFAULT)) {
            WalTesting.appendAll(writer, records);
        }
        List<WalEntry> entries = WalReader.readAll(dfs, "wal", WalPosition.START);
        for (int i = 1; i < entries.size(); i++) {
            ends.add(entries.get(i).position().offset());
        }
        // The segment as far as its records go: on the local DFS the file is allocated ahead of
        // them and continues in zeros (WalAllocatedAheadTest covers that tail).
        byte[] file = WalTesting.readFile(dfs, WalTesting.segmentPath("wal", 1));
        int end = (int) WalSegmentReader.validEndOfLast(dfs, "wal", 1);
        ends.add((long) end);
        return Arrays.copyOf(file, end);
    }

    /** A damaged copy of the log and how many records must replay from it. */
    private record Variant(String directory, byte[] bytes, int length, int complete) {
    }

    private static int completeRecords(List<Long> ends, int validBytes) {
        int complete = 0;
        while (complete < ends.size() && ends.get(complete) <= validBytes) {
            complete++;
        }
        return complete;
    }

    /**
     * Every variant as a one-segment log of its own directory, each replaying exactly its complete
     * records. Files are written in parallel: creating a file on MiniDFSCluster takes tens of ms.
     */
    private static void assertEachReplaysItsCompleteRecords(Dfs dfs, List<Variant> variants, List<WalRecord> records)
            throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(8);
        try {
            List<Future<?>> written = new ArrayList<>();
            for (Variant v : variants) {
                written.add(pool.submit(() -> {
                    WalTesting.writeFile(dfs, WalTesting.segmentPath(v.directory(), 1), v.bytes(), v.length());
                    return null;
                }));
            }
            for (Future<?> f : written) {
                f.get();
            }
        } finally {
            pool.shutdownNow();
        }
        for (Variant v : variants) {
            List<WalEntry> replayed = WalReader.readAll(dfs, v.directory(), WalPosition.START);
            assertEquals(v.complete(), replayed.size(), v.directory());
            for (int i = 0; i < v.complete(); i++) {
                WalTesting.assertSameRecord(records.get(i), replayed.get(i).record());
            }
        }
    }

    @ParameterizedTest
    @EnumSource(DfsKind.class)
    void truncationAtEveryByteReplaysExactlyTheCompleteRecords(DfsKind kind) throws Exception {
        try (Dfs dfs = kind.open(temp)) {
            List<WalRecord> records = new ArrayList<>();
            List<Long> ends = new ArrayList<>();
            byte[] log = smallLog(dfs, records, ends);
            // Every byte of the log on the local DFS; on HDFS (slow file creation) the header edges
            // and every byte of the last record.
            int lastStart = (int) (long) ends.get(ends.size() - 2);
            List<Variant> variants = new ArrayList<>();
            for (int cut = 0; cut <= log.length; cut++) {
                boolean wanted = kind == DfsKind.LOCAL || cut >= lastStart || cut <= 1
                        || Math.abs(cut - WalFormat.HEADER_BYTES) <= 1;
                if (wanted) {
                    variants.add(new Variant("cut-" + cut, log, cut, completeRecords(ends, cut)));
                }
            }
            assertEachReplaysItsCompleteRecords(dfs, variants, records);
        }
    }

    @ParameterizedTest
    @EnumSource(DfsKind.class)
    void garbageOrZerosOverTheLastRecordReplayExactlyTheCompleteRecords(DfsKind kind) throws Exception {
        Random random = new Random(WalTesting.seed("garbageOverTheLastRecord/" + kind));
        try (Dfs dfs = kind.open(temp)) {
            List<WalRecord> records = new ArrayList<>();
            List<Long> ends = new ArrayList<>();
            byte[] log = smallLog(dfs, records, ends);
            int lastStart = (int) (long) ends.get(ends.size() - 2);
            List<Variant> variants = new ArrayList<>();
            for (int from = lastStart; from < log.length; from++) {
                byte[] zeros = log.clone();
                Arrays.fill(zeros, from, zeros.length, (byte) 0);
                byte[] garbage = log.clone();
                for (int i = from; i < garbage.length; i++) {
                    garbage[i] ^= (byte) (1 + random.nextInt(255));
                }
                // A zero fill that changes nothing leaves the last record whole.
                int zerosComplete = Arrays.equals(zeros, log) ? records.size() : records.size() - 1;
                variants.add(new Variant("zeros-" + from, zeros, zeros.length, zerosComplete));
                variants.add(new Variant("garbage-" + from, garbage, garbage.length, records.size() - 1));
            }
            assertEachReplaysItsCompleteRecords(dfs, variants, records);
        }
    }

    @ParameterizedTest
    @EnumSource(DfsKind.class)
    void aWriterReopenedAfterATornTailLogsAfterItAndReplayIgnoresTheTail(DfsKind kind) throws IOException {
        try (Dfs dfs = kind.open(temp)) {
            List<WalRecord> records = new ArrayList<>();
            List<Long> ends = new ArrayList<>();
            byte[] log = smallLog(dfs, records, ends);
            WalTesting.writeFile(dfs, WalTesting.segmentPath("torn", 1), log, log.length - 3);
            assertEquals(records.size() - 1, WalReader.readAll(dfs, "torn", WalPosition.START).size());
            WalRecord after = WalTesting.tagged(7, "after", 10);
            try (WalWriter writer = WalWriter.open(dfs, "torn", WalOptions.DEFAULT)) {
                assertEquals(2, writer.endPosition().segment());
                writer.append(after).join();
            }
            List<WalEntry> replayed = WalReader.readAll(dfs, "torn", WalPosition.START);
            assertEquals(records.size(), replayed.size());
            for (int i = 0; i < records.size() - 1; i++) {
                WalTesting.assertSameRecord(records.get(i), replayed.get(i).record());
            }
            WalTesting.assertSameRecord(after, replayed.get(records.size() - 1).record());
            assertEquals(new WalPosition(2, WalFormat.HEADER_BYTES), replayed.get(records.size() - 1).position());
        }
    }
}
