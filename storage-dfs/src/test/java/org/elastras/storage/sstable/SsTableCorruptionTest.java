package org.elastras.storage.sstable;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.elastras.storage.dfs.Dfs;
import org.elastras.storage.dfs.DfsFile;
import org.elastras.storage.dfs.LocalDfs;
import org.elastras.storage.dfs.MemoryDfs;
import org.elastras.storage.store.Version;
import org.elastras.storage.util.ByteCoding;
import org.elastras.storage.util.CloseableIterator;
import org.elastras.storage.util.CorruptionException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A damaged byte anywhere in a table is reported as a {@link CorruptionException} naming the file
 * and an offset in the damaged region, and never turns into a wrong answer.
 */
class SsTableCorruptionTest {

    private static final String PATH = "data/db/7/000012.sst";

    @TempDir
    Path temp;

    /** The regions of a finished table, read from its footer. */
    private record Regions(long filterOffset, long keyRangeOffset, long indexOffset, long footerOffset, long fileBytes) {
        static Regions of(Dfs dfs, String path) throws IOException {
            try (DfsFile file = dfs.open(path)) {
                long footerOffset = file.length() - SsTableFormat.FOOTER_BYTES;
                byte[] footer = file.readFully(footerOffset, SsTableFormat.FOOTER_BYTES);
                return new Regions(ByteCoding.getLong(footer, SsTableFormat.FOOTER_FILTER_OFFSET),
                        ByteCoding.getLong(footer, SsTableFormat.FOOTER_KEY_RANGE_OFFSET),
                        ByteCoding.getLong(footer, SsTableFormat.FOOTER_INDEX_OFFSET), footerOffset, file.length());
            }
        }

        /** [start, end) of the region that holds byte {@code position}. */
        long[] regionOf(long position) {
            long[] bounds = {0, filterOffset, keyRangeOffset, indexOffset, footerOffset, fileBytes};
            for (int i = 0; i + 1 < bounds.length; i++) {
                if (position >= bounds[i] && position < bounds[i + 1]) {
                    return new long[] {bounds[i], bounds[i + 1]};
                }
            }
            throw new IllegalArgumentException("position " + position + " outside the file");
        }
    }

    private static VersionModel smallModel(Random random) {
        return VersionModel.random(random, 12);
    }

    @Test
    void everyFlippedByteIsDetectedAndNoReadReturnsAWrongAnswer() throws IOException {
        long seed = VersionModel.seed(0x5EED_0002L);
        System.out.println("SsTableCorruptionTest seed=" + seed);
        Random random = new Random(seed);
        VersionModel model = smallModel(random);
        MemoryDfs dfs = new MemoryDfs();
        SsTables.write(dfs, PATH, new SsTableOptions(256, 2, 10), model.versionsInOrder());
        Regions regions = Regions.of(dfs, PATH);
        byte[] original;
        try (DfsFile file = dfs.open(PATH)) {
            original = file.readFully(0, (int) file.length());
        }
        for (int position = 0; position < original.length; position++) {
            String where = "seed=" + seed + " flipped byte " + position + " of " + original.length + ": ";
            byte flipped = (byte) (original[position] ^ (1 << random.nextInt(8)));
            dfs.corrupt(PATH, position, flipped);
            CorruptionException seen = readEverything(dfs, model, where);
            if (seen == null) {
                fail(where + "no CorruptionException from opening, every get and a full scan");
            }
            assertEquals(PATH, seen.path(), where);
            long[] region = regions.regionOf(position);
            assertTrue(seen.offset() >= region[0] && seen.offset() < region[1],
                    where + "reported offset " + seen.offset() + " outside the damaged region [" + region[0]
                            + ", " + region[1] + "): " + seen.getMessage());
            dfs.corrupt(PATH, position, original[position]);
        }
        assertEquals(null, readEverything(dfs, model, "seed=" + seed + " restored: "), "the restored table reads cleanly");
    }

    /**
     * Opens the table, gets every key at several snapshots and scans it all: every answer must be
     * the model's. Returns the first CorruptionException, or null if everything read cleanly.
     */
    private static CorruptionException readEverything(Dfs dfs, VersionModel model, String where) throws IOException {
        CorruptionException first = null;
        SsTableReader reader;
        try {
            reader = SsTableReader.open(dfs, PATH, 1, new BlockCache(0));
        } catch (CorruptionException e) {
            return e;
        }
        try (reader) {
            for (byte[] key : model.keys()) {
                for (long snapshot : new long[] {0, 1, 500, 1000, 1500, Long.MAX_VALUE}) {
                    try {
                        assertEquals(model.get(key, snapshot), reader.get(key, snapshot),
                                where + "get(" + VersionModel.hex(key) + ", " + snapshot + ")");
                    } catch (CorruptionException e) {
                        first = first == null ? e : first;
                    }
                }
            }
            List<Version> scanned = new ArrayList<>();
            try (CloseableIterator<Version> scan = reader.scan(null)) {
                while (scan.hasNext()) {
                    scanned.add(scan.next());
                }
                assertEquals(model.scan(null), scanned, where + "full scan");
            } catch (UncheckedIOException e) {
                if (!(e.getCause() instanceof CorruptionException c)) {
                    throw e;
                }
                assertEquals(model.scan(null).subList(0, scanned.size()), scanned, where + "scan before the damage");
                first = first == null ? c : first;
            }
        }
        return first;
    }

    @Test
    void aDamagedDataBlockOnTheLocalDfsIsReportedWithItsOffset() throws IOException {
        long seed = VersionModel.seed(0x5EED_0003L);
        Random random = new Random(seed);
        VersionModel model = VersionModel.random(random, 200);
        try (LocalDfs dfs = LocalDfs.open(temp)) {
            SsTables.write(dfs, "t.sst", new SsTableOptions(1024, 8, 10), model.versionsInOrder());
            long blockOffset;
            long offset;
            try (SsTableReader reader = SsTableReader.open(dfs, "t.sst", 1, new BlockCache(1 << 20))) {
                assertTrue(reader.dataBlockCount() > 4);
                int block = 1 + random.nextInt(reader.dataBlockCount() - 1);
                blockOffset = reader.blockOffset(block);
                // Inside the block: every block holds at least one entry and a 12-byte trailer.
                offset = blockOffset + random.nextInt(16);
            }
            try (FileChannel channel = FileChannel.open(temp.resolve("t.sst"), StandardOpenOption.READ,
                    StandardOpenOption.WRITE)) {
                ByteBuffer one = ByteBuffer.allocate(1);
                channel.read(one, offset);
                one.put(0, (byte) (one.get(0) ^ 0x10));
                one.rewind();
                channel.write(one, offset);
            }
            try (SsTableReader reader = SsTableReader.open(dfs, "t.sst", 2, new BlockCache(1 << 20))) {
                UncheckedIOException e = assertThrows(UncheckedIOException.class,
                        () -> SsTables.drain(reader.scan(null)), "seed=" + seed);
                CorruptionException c = (CorruptionException) e.getCause();
                assertEquals("t.sst", c.path());
                assertEquals(blockOffset, c.offset(), "seed=" + seed + " damage at " + offset);
                assertTrue(c.getMessage().contains("checksum"), c.getMessage());
                try (var scan = reader.scan(null)) {
                    while (true) {
                        try {
                            if (!scan.hasNext()) {
                                fail("a scan that hit corruption must not end as if the table ended there");
                            }
                            scan.next();
                        } catch (UncheckedIOException again) {
                            assertSame(again, assertThrows(UncheckedIOException.class, scan::hasNext),
                                    "the failure is reported again, not skipped");
                            break;
                        }
                    }
                }
            }
        }
    }

    @Test
    void aTruncatedOrForeignFileIsNotAnSsTable() throws IOException {
        MemoryDfs dfs = new MemoryDfs();
        try (var out = dfs.create("short")) {
            out.write(new byte[40]);
        }
        CorruptionException tooShort = assertThrows(CorruptionException.class,
                () -> SsTableReader.open(dfs, "short", 1, new BlockCache(0)));
        assertEquals(0, tooShort.offset());
        try (var out = dfs.create("zeros")) {
            out.write(new byte[500]);
        }
        CorruptionException zeros = assertThrows(CorruptionException.class,
                () -> SsTableReader.open(dfs, "zeros", 1, new BlockCache(0)));
        assertEquals(500 - SsTableFormat.FOOTER_BYTES, zeros.offset());
    }
}
