package org.elastras.storage.wal;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.elastras.storage.util.ByteCoding;
import org.elastras.storage.util.ByteSource;
import org.elastras.storage.util.Checksums;
import org.elastras.storage.util.LimitExceededException;
import org.elastras.storage.util.StorageLimits;

/**
 * The byte layout of write-ahead log segments, in one place: the segment header, the record frame
 * and the record body. {@code docs/wal-format.md} describes the same layout in prose. Stateless;
 * every method may be called from any thread.
 *
 * <pre>
 * segment file "&lt;segment number, 20 decimal digits&gt;.wal":
 *   header (28 bytes, big-endian):
 *     u32 magic                 0x45574C47 ("EWLG")
 *     u32 format version        1
 *     u64 segment number        equal to the number in the file name, >= 1
 *     u64 previous segment end  the byte offset where the valid records of segment (number - 1)
 *                               end, or 0 if that segment did not exist when this one was created
 *     u32 header checksum       CRC-32C of the 24 bytes above
 *   then records, back to back, each a frame:
 *     u32 body length           1 .. recordBytesMax - 8
 *     u32 checksum              CRC-32C of the 4 length bytes followed by the body
 *     body:
 *       u64 cts                 commit timestamp, >= 0
 *       varint group count      >= 1: mutations grouped by partition, partitions in order of
 *                               first appearance in the record, order within a partition kept
 *       per group:
 *         u64 partition id
 *         varint mutation count >= 1
 *         per mutation:
 *           u8 kind             1 = put, 2 = delete
 *           varint key length, key bytes
 *           put only: varint value length, value bytes
 * varint = unsigned LEB128, at most 10 bytes.
 * </pre>
 *
 * <p>A record's position is the offset of its frame's first byte. The frame length counts the
 * 8-byte frame header; limits on the record size apply to the whole frame.
 */
public final class WalFormat {

    /** "EWLG". */
    public static final int MAGIC = 0x45574C47;
    public static final int VERSION = 1;
    public static final int HEADER_BYTES = 28;
    /** Length and checksum in front of every record body. */
    public static final int FRAME_HEADER_BYTES = 8;
    /** cts + group count + partition id + mutation count + kind + key length, all minimal. */
    public static final int BODY_BYTES_MIN = 8 + 1 + 8 + 1 + 1 + 1;
    public static final int KIND_PUT = 1;
    public static final int KIND_DELETE = 2;

    private static final String SEGMENT_SUFFIX = ".wal";
    private static final int SEGMENT_DIGITS = 20;

    private WalFormat() {
    }

    /** The file name of a segment: its number as 20 zero-padded decimal digits, then ".wal". */
    public static String segmentFileName(long segment) {
        if (segment < 1) {
            throw new IllegalArgumentException("segment numbers start at 1, got " + segment);
        }
        String digits = Long.toString(segment);
        return "0".repeat(SEGMENT_DIGITS - digits.length()) + digits + SEGMENT_SUFFIX;
    }

    /** The segment number a file name stands for, or -1 if the name is not a segment's. */
    public static long parseSegmentFileName(String name) {
        if (name.length() != SEGMENT_DIGITS + SEGMENT_SUFFIX.length() || !name.endsWith(SEGMENT_SUFFIX)) {
            return -1;
        }
        long value = 0;
        for (int i = 0; i < SEGMENT_DIGITS; i++) {
            char c = name.charAt(i);
            if (c < '0' || c > '9') {
                return -1;
            }
            value = value * 10 + (c - '0');
            if (value < 0) {
                return -1;
            }
        }
        return value >= 1 ? value : -1;
    }

    /** The 28-byte header of a segment. */
    public static byte[] encodeHeader(long segment, long previousSegmentEnd) {
        if (segment < 1 || previousSegmentEnd < 0) {
            throw new IllegalArgumentException("bad segment header fields " + segment + ", " + previousSegmentEnd);
        }
        byte[] header = new byte[HEADER_BYTES];
        ByteCoding.putInt(header, 0, MAGIC);
        ByteCoding.putInt(header, 4, VERSION);
        ByteCoding.putLong(header, 8, segment);
        ByteCoding.putLong(header, 16, previousSegmentEnd);
        ByteCoding.putInt(header, 24, Checksums.crc32c(header, 0, 24));
        return header;
    }

    /** A decoded segment header. Immutable. */
    public record SegmentHeader(long segment, long previousSegmentEnd) {
    }

    /**
     * Decodes a segment header, or returns null with the reason in {@code problem[0]} if the 28
     * bytes are not a valid header.
     */
    static SegmentHeader decodeHeader(byte[] header, String[] problem) {
        if (ByteCoding.getInt(header, 24) != Checksums.crc32c(header, 0, 24)) {
            problem[0] = "segment header checksum mismatch";
            return null;
        }
        if (ByteCoding.getInt(header, 0) != MAGIC) {
            problem[0] = "bad segment magic " + Integer.toHexString(ByteCoding.getInt(header, 0));
            return null;
        }
        int version = ByteCoding.getInt(header, 4);
        if (version != VERSION) {
            problem[0] = "unsupported WAL format version " + version + " (this build reads " + VERSION + ")";
            return null;
        }
        long segment = ByteCoding.getLong(header, 8);
        long previousEnd = ByteCoding.getLong(header, 16);
        if (segment < 1 || previousEnd < 0) {
            problem[0] = "segment header fields out of range: segment " + segment + ", previous end " + previousEnd;
            return null;
        }
        return new SegmentHeader(segment, previousEnd);
    }

    /**
     * Encodes a record as a complete frame (length, checksum, body), after checking it against the
     * limits. Throws before allocating anything if a limit is exceeded.
     *
     * @throws LimitExceededException if a key, value, the mutation count or the frame is too large
     */
    public static byte[] encodeFrame(WalRecord record, StorageLimits limits) {
        List<WalRecord.Mutation> mutations = record.mutations();
        if (mutations.size() > limits.mutationsPerRecordMax()) {
            throw new LimitExceededException("mutations in one WAL record", mutations.size(),
                    limits.mutationsPerRecordMax(), "mutationsPerRecordMax");
        }
        // Group by partition, keeping first-appearance order of partitions and the order inside one.
        Map<Long, List<WalRecord.Mutation>> groups = groupByPartition(mutations);
        long bodyBytes = 8 + varintBytes(groups.size());
        for (Map.Entry<Long, List<WalRecord.Mutation>> group : groups.entrySet()) {
            bodyBytes += 8 + varintBytes(group.getValue().size());
            for (WalRecord.Mutation m : group.getValue()) {
                limits.checkKey(m.key());
                limits.checkValue(m.value());
                bodyBytes += 1 + varintBytes(m.key().length) + m.key().length;
                if (m.value() != null) {
                    bodyBytes += varintBytes(m.value().length) + m.value().length;
                }
            }
        }
        long frameBytes = FRAME_HEADER_BYTES + bodyBytes;
        if (frameBytes > limits.recordBytesMax()) {
            throw new LimitExceededException("encoded WAL record size", frameBytes, limits.recordBytesMax(),
                    "recordBytesMax");
        }
        byte[] frame = new byte[(int) frameBytes];
        int at = FRAME_HEADER_BYTES;
        ByteCoding.putLong(frame, at, record.cts());
        at += 8;
        at = putVarint(frame, at, groups.size());
        for (Map.Entry<Long, List<WalRecord.Mutation>> group : groups.entrySet()) {
            ByteCoding.putLong(frame, at, group.getKey());
            at += 8;
            at = putVarint(frame, at, group.getValue().size());
            for (WalRecord.Mutation m : group.getValue()) {
                frame[at++] = (byte) (m.value() == null ? KIND_DELETE : KIND_PUT);
                at = putVarint(frame, at, m.key().length);
                System.arraycopy(m.key(), 0, frame, at, m.key().length);
                at += m.key().length;
                if (m.value() != null) {
                    at = putVarint(frame, at, m.value().length);
                    System.arraycopy(m.value(), 0, frame, at, m.value().length);
                    at += m.value().length;
                }
            }
        }
        if (at != frame.length) {
            throw new IllegalStateException("WAL record encoded to " + at + " bytes, sized as " + frame.length);
        }
        ByteCoding.putInt(frame, 0, (int) bodyBytes);
        ByteCoding.putInt(frame, 4, frameChecksum(frame, 0, (int) bodyBytes));
        return frame;
    }

    /**
     * The checksum of a frame whose length field is at {@code frameStart} and whose body of
     * {@code bodyBytes} follows the frame header: CRC-32C over the length field and the body.
     */
    static int frameChecksum(byte[] bytes, int frameStart, int bodyBytes) {
        java.util.zip.CRC32C crc = new java.util.zip.CRC32C();
        crc.update(bytes, frameStart, 4);
        crc.update(bytes, frameStart + FRAME_HEADER_BYTES, bodyBytes);
        return (int) crc.getValue();
    }

    /**
     * Decodes a record body whose checksum already matched. Mutations come back grouped by
     * partition (see the layout).
     *
     * @throws ByteSource.FormatException if the body does not follow the layout or breaks a limit
     */
    static WalRecord decodeBody(byte[] bytes, int offset, int length, StorageLimits limits) {
        ByteSource in = new ByteSource(bytes, offset, length);
        long cts = in.u64();
        if (cts < 0) {
            throw new ByteSource.FormatException("negative commit timestamp " + cts);
        }
        int groups = in.varintAtMost(limits.mutationsPerRecordMax(), "partition group count");
        if (groups < 1) {
            throw new ByteSource.FormatException("record with no partition group");
        }
        List<WalRecord.Mutation> mutations = new ArrayList<>();
        for (int g = 0; g < groups; g++) {
            long partitionId = in.u64();
            int count = in.varintAtMost(limits.mutationsPerRecordMax() - mutations.size(), "mutation count");
            if (count < 1) {
                throw new ByteSource.FormatException("empty mutation group for partition " + partitionId);
            }
            for (int i = 0; i < count; i++) {
                int kind = in.u8();
                byte[] key = in.lengthPrefixed(limits.keyBytesMax(), "key");
                byte[] value;
                if (kind == KIND_PUT) {
                    value = in.lengthPrefixed(limits.valueBytesMax(), "value");
                } else if (kind == KIND_DELETE) {
                    value = null;
                } else {
                    throw new ByteSource.FormatException("unknown mutation kind " + kind);
                }
                mutations.add(new WalRecord.Mutation(partitionId, key, value));
            }
        }
        if (in.remaining() != 0) {
            throw new ByteSource.FormatException(in.remaining() + " unexpected bytes after the last mutation");
        }
        return new WalRecord(cts, mutations);
    }

    /** The record as replay returns it: mutations grouped by partition in first-appearance order. */
    public static WalRecord canonical(WalRecord record) {
        List<WalRecord.Mutation> grouped = new ArrayList<>(record.mutations().size());
        for (List<WalRecord.Mutation> group : groupByPartition(record.mutations()).values()) {
            grouped.addAll(group);
        }
        return new WalRecord(record.cts(), grouped);
    }

    private static Map<Long, List<WalRecord.Mutation>> groupByPartition(List<WalRecord.Mutation> mutations) {
        long first = mutations.get(0).partitionId();
        boolean onePartition = true;
        for (WalRecord.Mutation m : mutations) {
            onePartition &= m.partitionId() == first;
        }
        if (onePartition) {
            // The common case (a single-partition transaction): no map, no copies.
            return Map.of(first, mutations);
        }
        Map<Long, List<WalRecord.Mutation>> groups = new LinkedHashMap<>();
        for (WalRecord.Mutation m : mutations) {
            groups.computeIfAbsent(m.partitionId(), id -> new ArrayList<>()).add(m);
        }
        return groups;
    }

    static int varintBytes(long value) {
        int n = 1;
        while ((value & ~0x7FL) != 0) {
            value >>>= 7;
            n++;
        }
        return n;
    }

    private static int putVarint(byte[] bytes, int at, long value) {
        while ((value & ~0x7FL) != 0) {
            bytes[at++] = (byte) ((value & 0x7F) | 0x80);
            value >>>= 7;
        }
        bytes[at++] = (byte) value;
        return at;
    }
}
