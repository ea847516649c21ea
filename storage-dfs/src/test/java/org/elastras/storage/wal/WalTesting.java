package org.elastras.storage.wal;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.elastras.storage.dfs.Dfs;
import org.elastras.storage.dfs.DfsFile;
import org.elastras.storage.dfs.DfsOutput;

/** Record generators, comparisons and file surgery shared by the WAL tests. Stateless. */
final class WalTesting {

    private WalTesting() {
    }

    /** The seed of a randomized test: {@code -Delastras.test.seed=...} replays a failure. */
    static long seed(String test) {
        long seed = Long.getLong("elastras.test.seed", System.nanoTime());
        System.out.println(test + " seed=" + seed + " (rerun with -Delastras.test.seed=" + seed + ")");
        return seed;
    }

    /** A record with 1-8 mutations over 1-3 partitions, keys up to 40 bytes, values up to 300. */
    static WalRecord randomRecord(Random random) {
        long[] partitions = new long[1 + random.nextInt(3)];
        for (int i = 0; i < partitions.length; i++) {
            partitions[i] = switch (random.nextInt(4)) {
                case 0 -> 0;
                case 1 -> Long.MAX_VALUE;
                case 2 -> -1 - random.nextInt(1000);
                default -> random.nextInt(1_000_000);
            };
        }
        int count = 1 + random.nextInt(8);
        List<WalRecord.Mutation> mutations = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            byte[] key = new byte[random.nextInt(41)];
            random.nextBytes(key);
            byte[] value = null;
            if (random.nextInt(5) != 0) {
                value = new byte[random.nextInt(301)];
                random.nextBytes(value);
            }
            mutations.add(new WalRecord.Mutation(partitions[random.nextInt(partitions.length)], key, value));
        }
        return new WalRecord(random.nextLong() & Long.MAX_VALUE, mutations);
    }

    /** A small single-mutation record whose key says who wrote it. */
    static WalRecord tagged(long partitionId, String tag, int valueBytes) {
        return new WalRecord(Math.abs(tag.hashCode()), List.of(new WalRecord.Mutation(partitionId,
                tag.getBytes(StandardCharsets.UTF_8), new byte[valueBytes])));
    }

    static String tagOf(WalRecord record) {
        return new String(record.mutations().get(0).key(), StandardCharsets.UTF_8);
    }

    /** Asserts that a replayed record is the appended one (mutations grouped by partition). */
    static void assertSameRecord(WalRecord appended, WalRecord replayed) {
        WalRecord expected = WalFormat.canonical(appended);
        assertEquals(expected.cts(), replayed.cts(), "cts");
        assertEquals(expected.mutations().size(), replayed.mutations().size(), "mutation count");
        for (int i = 0; i < expected.mutations().size(); i++) {
            WalRecord.Mutation e = expected.mutations().get(i);
            WalRecord.Mutation a = replayed.mutations().get(i);
            assertEquals(e.partitionId(), a.partitionId(), "partition of mutation " + i);
            assertArrayEquals(e.key(), a.key(), "key of mutation " + i);
            assertArrayEquals(e.value(), a.value(), "value of mutation " + i);
        }
    }

    static String segmentPath(String walDirectory, long segment) {
        return Dfs.join(walDirectory, WalFormat.segmentFileName(segment));
    }

    static byte[] readFile(Dfs dfs, String path) throws IOException {
        try (DfsFile file = dfs.open(path)) {
            return file.readFully(0, (int) file.length());
        }
    }

    /**
     * Where a segment's records end: its successor's header says so, or, for the last segment, the
     * torn-tail rule. Not the file's length: a local log file is allocated ahead of its records.
     */
    static long recordsEnd(Dfs dfs, String walDirectory, long segment) throws IOException {
        List<Long> segments = WalReader.segments(dfs, walDirectory);
        long end = WalReader.validEnd(dfs, walDirectory, segments, segments.indexOf(segment));
        return end == WalSegmentReader.LAST_SEGMENT ? WalSegmentReader.validEndOfLast(dfs, walDirectory, segment) : end;
    }

    /** A segment's bytes up to the end of its records. */
    static byte[] readRecords(Dfs dfs, String walDirectory, long segment) throws IOException {
        return java.util.Arrays.copyOf(readFile(dfs, segmentPath(walDirectory, segment)),
                (int) recordsEnd(dfs, walDirectory, segment));
    }

    static void writeFile(Dfs dfs, String path, byte[] bytes, int length) throws IOException {
        try (DfsOutput out = dfs.create(path)) {
            out.write(bytes, 0, length);
        }
    }

    /** Appends every record and waits for all acknowledgements; returns the positions. */
    static List<WalPosition> appendAll(WalWriter writer, List<WalRecord> records) {
        List<java.util.concurrent.CompletableFuture<WalPosition>> futures = new ArrayList<>();
        for (WalRecord record : records) {
            futures.add(writer.append(record));
        }
        List<WalPosition> positions = new ArrayList<>();
        for (var future : futures) {
            positions.add(future.join());
        }
        return positions;
    }

    static WalOptions options() {
        return WalOptions.DEFAULT;
    }
}
