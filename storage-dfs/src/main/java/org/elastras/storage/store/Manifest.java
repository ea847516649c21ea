package org.elastras.storage.store;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.elastras.storage.sstable.SsTableInfo;
import org.elastras.storage.util.ByteSink;
import org.elastras.storage.util.ByteSource;
import org.elastras.storage.util.Checksums;
import org.elastras.storage.wal.WalPosition;

/**
 * The durable description of one partition's store: which SSTables make it up, and from which
 * position of which write-ahead log a recovery must replay to find everything not in them.
 * Immutable.
 *
 * <pre>
 * Layout (all integers big-endian; varint = LEB128 unsigned; lp = varint length + bytes):
 *   u32   magic 0x454D414E ("EMAN")
 *   u16   format version (1)
 *   u64   sequence                 (the N of the file name MANIFEST-N; increases by one per write)
 *   u64   next file number         (SSTable files are named by number)
 *   varint table count, then per table:
 *         lp file name, varint file bytes, varint entry count,
 *         lp smallest key, lp largest key, u64 min cts, u64 max cts
 *   varint WAL count, then per WAL (sorted by id):
 *         lp WAL id (UTF-8), varint segment, varint offset
 *   u32   CRC32C of every byte above
 * </pre>
 * Tables are listed oldest first. Described in docs/store-format.md.
 *
 * @param sequence the manifest's sequence number
 * @param nextFileNumber the number the next SSTable file of this partition will get
 * @param tables the live SSTables, oldest first
 * @param replayPoints per WAL id, the position from which recovery must replay
 */
public record Manifest(long sequence, long nextFileNumber, List<SsTableInfo> tables, Map<String, WalPosition> replayPoints) {

    static final int MAGIC = 0x454D414E;
    static final int FORMAT_VERSION = 1;
    /** A manifest of a partition with this many tables is a bug (compaction keeps the count small). */
    static final int TABLES_MAX = 100_000;
    static final int WALS_MAX = 10_000;
    static final int NAME_BYTES_MAX = 1024;
    static final int KEY_BYTES_MAX = 64 * 1024;

    public Manifest {
        if (sequence < 0 || nextFileNumber < 0) {
            throw new IllegalArgumentException("negative manifest sequence or file number");
        }
        tables = List.copyOf(tables);
        replayPoints = Collections.unmodifiableMap(new TreeMap<>(replayPoints));
    }

    /** The manifest of a partition that has never been written. */
    public static Manifest empty() {
        return new Manifest(0, 1, List.of(), Map.of());
    }

    public byte[] encode() {
        ByteSink out = new ByteSink(256 + tables.size() * 96);
        out.u32(MAGIC).u16(FORMAT_VERSION).u64(sequence).u64(nextFileNumber);
        out.varint(tables.size());
        for (SsTableInfo t : tables) {
            out.lengthPrefixed(t.fileName().getBytes(StandardCharsets.UTF_8));
            out.varint(t.fileBytes()).varint(t.entryCount());
            out.lengthPrefixed(t.smallestKey()).lengthPrefixed(t.largestKey());
            out.u64(t.minCts()).u64(t.maxCts());
        }
        out.varint(replayPoints.size());
        for (Map.Entry<String, WalPosition> e : replayPoints.entrySet()) {
            out.lengthPrefixed(e.getKey().getBytes(StandardCharsets.UTF_8));
            out.varint(e.getValue().segment()).varint(e.getValue().offset());
        }
        out.u32(Checksums.crc32c(out.array(), 0, out.length()));
        return out.toByteArray();
    }

    /**
     * Decodes and verifies a manifest.
     *
     * @throws ByteSource.FormatException if the bytes are not a valid manifest (checksum included)
     */
    public static Manifest decode(byte[] bytes) {
        if (bytes.length < 4 + 2 + 8 + 8 + 1 + 1 + 4) {
            throw new ByteSource.FormatException("manifest of " + bytes.length + " bytes is too short");
        }
        int stored = new ByteSource(bytes, bytes.length - 4, 4).u32();
        int actual = Checksums.crc32c(bytes, 0, bytes.length - 4);
        if (stored != actual) {
            throw new ByteSource.FormatException("manifest checksum mismatch: stored " + Integer.toHexString(stored)
                    + ", computed " + Integer.toHexString(actual));
        }
        ByteSource in = new ByteSource(bytes, 0, bytes.length - 4);
        if (in.u32() != MAGIC) {
            throw new ByteSource.FormatException("not a manifest: bad magic");
        }
        int version = in.u16();
        if (version != FORMAT_VERSION) {
            throw new ByteSource.FormatException("manifest format version " + version + " is not supported (want " + FORMAT_VERSION + ")");
        }
        long sequence = in.u64();
        long nextFileNumber = in.u64();
        int tableCount = in.varintAtMost(TABLES_MAX, "table count");
        List<SsTableInfo> tables = new ArrayList<>(tableCount);
        for (int i = 0; i < tableCount; i++) {
            String name = new String(in.lengthPrefixed(NAME_BYTES_MAX, "file name"), StandardCharsets.UTF_8);
            long fileBytes = in.varint();
            long entries = in.varint();
            byte[] smallest = in.lengthPrefixed(KEY_BYTES_MAX, "smallest key");
            byte[] largest = in.lengthPrefixed(KEY_BYTES_MAX, "largest key");
            long minCts = in.u64();
            long maxCts = in.u64();
            tables.add(new SsTableInfo(name, fileBytes, entries, smallest, largest, minCts, maxCts));
        }
        int walCount = in.varintAtMost(WALS_MAX, "WAL count");
        Map<String, WalPosition> replay = new TreeMap<>();
        for (int i = 0; i < walCount; i++) {
            String id = new String(in.lengthPrefixed(NAME_BYTES_MAX, "WAL id"), StandardCharsets.UTF_8);
            replay.put(id, new WalPosition(in.varint(), in.varint()));
        }
        if (in.remaining() != 0) {
            throw new ByteSource.FormatException("manifest has " + in.remaining() + " trailing bytes");
        }
        return new Manifest(sequence, nextFileNumber, tables, replay);
    }

    /** Manifest file name for a sequence number; names sort in sequence order. */
    static String fileName(long sequence) {
        return String.format("MANIFEST-%020d", sequence);
    }

    /** The sequence of a manifest file name, or -1 if the name is not one. */
    static long sequenceOf(String name) {
        if (!name.startsWith("MANIFEST-") || name.length() != 9 + 20) {
            return -1;
        }
        try {
            return Long.parseLong(name.substring(9));
        } catch (NumberFormatException e) {
            return -1;
        }
    }

    /** SSTable file name for a file number. */
    static String tableFileName(long fileNumber) {
        return String.format("%020d.sst", fileNumber);
    }
}
