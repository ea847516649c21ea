package org.elastras.catalog.meta;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;

import org.elastras.catalog.key.CorruptEncodingException;
import org.elastras.catalog.key.KeyBytes;
import org.elastras.catalog.key.KeyCodec;
import org.elastras.catalog.key.KeyRange;
import org.elastras.catalog.partition.PartitionDescriptor;
import org.elastras.catalog.partition.PartitionId;
import org.elastras.catalog.schema.Column;
import org.elastras.catalog.schema.ColumnType;
import org.elastras.catalog.schema.Names;
import org.elastras.catalog.schema.SchemaLimits;

/**
 * The stored form of ROOT and META rows. Stateless and thread-safe.
 *
 * <p>Key: (database VARCHAR, start key BYTES, partition id BIGINT), encoded by {@link KeyCodec}, so
 * rows sort by database, then start key, then id. The partition holding root key K of database D is
 * then found by a reverse seek: the last row whose key is below {@link #seekKey seekKey(D, K)}, if
 * that row is of database D and its range contains K.
 *
 * <p>Value layout, format version 1 (also in {@code docs/catalog.md}):
 * <pre>
 *   version   1 byte, 0x01
 *   end key   4-byte big-endian length, then the bytes (length 0 = +infinity)
 *   owner     1-byte length, then the OTM id in ASCII (length 0 = no owner)
 *   state     1 byte, {@link PartitionState#code()}
 *   epoch     8 bytes big-endian
 * </pre>
 */
public final class MetaRowCodec {

    /** The database whose partitions the ROOT rows describe. */
    public static final String META_DATABASE = "META";

    /**
     * Longest start key: a user partition's start key is a root key (at most
     * {@link SchemaLimits#KEY_BYTES_MAX}); a META partition's is a META row key, which holds an escaped
     * root key, so this leaves room for twice that and more.
     */
    public static final int START_KEY_BYTES_MAX = 4 * SchemaLimits.KEY_BYTES_MAX;

    /** The format version written in the first byte of every value. */
    public static final int FORMAT_VERSION = 1;

    private static final KeyCodec KEY = new KeyCodec("catalog row key", List.of(
            Column.notNull("DATABASE", ColumnType.varchar(SchemaLimits.NAME_LENGTH_MAX)),
            Column.notNull("START_KEY", ColumnType.bytes(START_KEY_BYTES_MAX)),
            Column.notNull("PARTITION_ID", ColumnType.BIGINT)));

    private MetaRowCodec() {
    }

    /** The encoded key of a catalog row. */
    public static byte[] encodeKey(MetaRow row) {
        PartitionDescriptor p = row.partition();
        return KEY.encode(List.of(p.database(), p.range().start(), p.id().value()));
    }

    /**
     * The seek key for "which partition of {@code database} (any case) holds encoded root key {@code rootKey}":
     * every row of that database whose start key is at most {@code rootKey} sorts below it, every
     * other row of that database at or above it.
     */
    public static byte[] seekKey(String database, byte[] rootKey) {
        return KeyBytes.prefixEnd(KEY.encodePrefix(List.of(Names.canonical(database), rootKey)));
    }

    /** The encoded value of a catalog row. */
    public static byte[] encodeValue(MetaRow row) {
        PartitionDescriptor p = row.partition();
        byte[] end = p.range().end();
        byte[] owner = row.owner() == null ? new byte[0] : row.owner().getBytes(StandardCharsets.US_ASCII);
        ByteArrayOutputStream out = new ByteArrayOutputStream(1 + 4 + end.length + 1 + owner.length + 1 + 8);
        out.write(FORMAT_VERSION);
        writeFixed(out, end.length, 4);
        out.writeBytes(end);
        out.write(owner.length);
        out.writeBytes(owner);
        out.write(row.state().code());
        writeFixed(out, p.epoch(), 8);
        return out.toByteArray();
    }

    private static void writeFixed(ByteArrayOutputStream out, long v, int width) {
        for (int shift = 8 * (width - 1); shift >= 0; shift -= 8) {
            out.write((int) (v >>> shift));
        }
    }

    /**
     * Decodes a stored catalog row.
     *
     * @throws CorruptEncodingException if the key or value does not decode, or they do not form a valid row
     */
    public static MetaRow decode(byte[] key, byte[] value) {
        List<Object> k = KEY.decode(key);
        String format = "catalog row value";
        int pos = 0;
        if (value.length < 1 + 4 || (value[0] & 0xFF) != FORMAT_VERSION) {
            throw new CorruptEncodingException(format, 0, value.length == 0 ? "empty"
                    : "format version " + (value[0] & 0xFF) + " is not " + FORMAT_VERSION + " or the value is truncated");
        }
        pos++;
        long endLength = readFixed(value, pos, 4);
        pos += 4;
        if (endLength > value.length - pos - 1 - 1 - 8) {
            throw new CorruptEncodingException(format, 1, "end key length " + endLength + " exceeds the value");
        }
        byte[] end = Arrays.copyOfRange(value, pos, pos + (int) endLength);
        pos += (int) endLength;
        int ownerLength = value[pos] & 0xFF;
        pos++;
        if (value.length - pos != ownerLength + 1 + 8) {
            throw new CorruptEncodingException(format, pos - 1, "owner length " + ownerLength + " does not leave exactly"
                    + " the state and epoch (" + (value.length - pos) + " bytes remain)");
        }
        String owner = ownerLength == 0 ? null : new String(value, pos, ownerLength, StandardCharsets.US_ASCII);
        pos += ownerLength;
        int stateAt = pos;
        long epoch = readFixed(value, pos + 1, 8);
        try {
            PartitionState state = PartitionState.fromCode(value[stateAt] & 0xFF);
            KeyRange range = new KeyRange((byte[]) k.get(1), end);
            PartitionDescriptor p = new PartitionDescriptor((String) k.get(0), new PartitionId((Long) k.get(2)), range, epoch);
            return new MetaRow(p, owner, state);
        } catch (IllegalArgumentException e) {
            throw new CorruptEncodingException(format, stateAt, "does not form a valid row: " + e.getMessage());
        }
    }

    private static long readFixed(byte[] b, int at, int width) {
        long v = 0;
        for (int i = 0; i < width; i++) {
            v = (v << 8) | (b[at + i] & 0xFF);
        }
        return v;
    }
}
