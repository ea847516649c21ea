package org.elastras.catalog.key;

import java.io.ByteArrayOutputStream;
import java.math.BigDecimal;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

import org.elastras.catalog.schema.Column;
import org.elastras.catalog.schema.ColumnType;
import org.elastras.catalog.schema.DatabaseSchema;
import org.elastras.catalog.schema.PartitioningKind;
import org.elastras.catalog.schema.SchemaLimits;
import org.elastras.catalog.schema.TableSchema;

/**
 * The order-preserving encoding of a composite key: a list of typed values becomes a byte string
 * such that unsigned byte order equals column-by-column value order ({@link ColumnType#compareValues}).
 * Immutable and thread-safe.
 *
 * <p>Layout (also in {@code docs/catalog.md}): the columns' encodings concatenated, each
 * self-delimiting, so the encoding of the first k values is a byte prefix of the encoding of any key
 * that starts with them.
 * <pre>
 *   nullable column:  0x00 (NULL)  |  0x01 value       NOT NULL column: value
 *   BOOLEAN           0x00 false, 0x01 true
 *   INT               4 bytes big-endian, sign bit flipped
 *   BIGINT, TIMESTAMP 8 bytes big-endian, sign bit flipped
 *   DECIMAL(p,s)      the scaled long (unscaled value at scale s) as BIGINT
 *   DOUBLE            IEEE bits (NaN canonical); negative: all bits flipped; else sign bit flipped
 *   VARCHAR           UTF-8 bytes, then as BYTES
 *   BYTES             each 0x00 written 0x00 0xFF, other bytes as is; then terminator 0x00 0x01
 * </pre>
 * The terminator sorts below any continuation (a byte 1..0xFF, or an escaped 0x00 = 0x00 0xFF), so a
 * string sorts before its extensions, and embedded zero bytes keep their place.
 */
public final class KeyCodec {

    private static final int NULL_MARK = 0x00;
    private static final int PRESENT_MARK = 0x01;
    private static final int ESCAPE = 0x00;
    private static final int ESCAPED_ZERO = 0xFF;
    private static final int TERMINATOR = 0x01;

    private final String owner;
    private final List<Column> columns;

    /**
     * A codec for keys made of {@code columns}.
     *
     * @param owner what the key belongs to, for messages ("table DISTRICT")
     */
    public KeyCodec(String owner, List<Column> columns) {
        if (owner == null || owner.isEmpty()) {
            throw new IllegalArgumentException("owner must be named, for error messages");
        }
        if (columns == null || columns.isEmpty() || columns.size() > SchemaLimits.KEY_COLUMNS_MAX) {
            throw new IllegalArgumentException("a key of " + owner + " needs 1 to " + SchemaLimits.KEY_COLUMNS_MAX
                    + " columns, got " + (columns == null ? "none" : columns.size()));
        }
        this.owner = owner;
        this.columns = List.copyOf(columns);
    }

    /** The codec of a table's primary key. */
    public static KeyCodec forPrimaryKey(TableSchema table) {
        return new KeyCodec("table " + table.name(), table.keyColumns());
    }

    /**
     * The codec of a tree-partitioned database's partition key (its ROOT table's key). Every CHILD
     * table's encoded key starts with the bytes this codec gives for its root-key values.
     *
     * @throws IllegalArgumentException for a single-partition database, which has no partition key
     */
    public static KeyCodec forPartitionKey(DatabaseSchema database) {
        if (database.partitioning() != PartitioningKind.TREE) {
            throw new IllegalArgumentException("database " + database.name()
                    + " is single-partition and has no partition key; its one partition covers KeyRange.ALL");
        }
        return new KeyCodec("partition key of database " + database.name(), database.partitionKeyColumns());
    }

    /** The key columns, in order. */
    public List<Column> columns() {
        return columns;
    }

    /**
     * Encodes a full key.
     *
     * @throws IllegalArgumentException if the number of values is not the number of columns, or a value
     *     does not fit its column
     */
    public byte[] encode(List<?> values) {
        if (values.size() != columns.size()) {
            throw new IllegalArgumentException("a key of " + owner + " has " + columns.size() + " columns "
                    + columns + " but got " + values.size() + " values");
        }
        return encodePrefix(values);
    }

    /**
     * Encodes the first {@code values.size()} columns of a key. Every full key starting with those
     * values encodes to bytes starting with the result, so it lies in {@link #prefixRange}.
     */
    public byte[] encodePrefix(List<?> values) {
        if (values.size() > columns.size()) {
            throw new IllegalArgumentException("a key of " + owner + " has " + columns.size() + " columns "
                    + columns + " but got " + values.size() + " values");
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream(16 + 8 * values.size());
        for (int i = 0; i < values.size(); i++) {
            Column column = columns.get(i);
            Object v = column.normalize(owner, values.get(i));
            if (column.nullable()) {
                out.write(v == null ? NULL_MARK : PRESENT_MARK);
            }
            if (v != null) {
                writeValue(out, column.type(), v);
            }
        }
        return out.toByteArray();
    }

    /** The range holding exactly the keys that start with {@code values}. */
    public KeyRange prefixRange(List<?> values) {
        byte[] prefix = encodePrefix(values);
        return new KeyRange(prefix, KeyBytes.prefixEnd(prefix));
    }

    private static void writeValue(ByteArrayOutputStream out, ColumnType type, Object v) {
        switch (type.kind()) {
            case BOOLEAN -> out.write((Boolean) v ? 1 : 0);
            case INT -> writeInt(out, (Integer) v ^ Integer.MIN_VALUE);
            case BIGINT, TIMESTAMP -> writeLong(out, (Long) v ^ Long.MIN_VALUE);
            case DECIMAL -> writeLong(out, ((BigDecimal) v).unscaledValue().longValueExact() ^ Long.MIN_VALUE);
            case DOUBLE -> {
                long bits = Double.doubleToLongBits((Double) v);
                writeLong(out, bits < 0 ? ~bits : bits ^ Long.MIN_VALUE);
            }
            case VARCHAR -> writeEscaped(out, ((String) v).getBytes(StandardCharsets.UTF_8));
            case BYTES -> writeEscaped(out, (byte[]) v);
            default -> throw new IllegalStateException("unhandled kind " + type.kind());
        }
    }

    private static void writeInt(ByteArrayOutputStream out, int v) {
        out.write(v >>> 24);
        out.write(v >>> 16);
        out.write(v >>> 8);
        out.write(v);
    }

    private static void writeLong(ByteArrayOutputStream out, long v) {
        writeInt(out, (int) (v >>> 32));
        writeInt(out, (int) v);
    }

    private static void writeEscaped(ByteArrayOutputStream out, byte[] bytes) {
        for (byte b : bytes) {
            out.write(b);
            if (b == ESCAPE) {
                out.write(ESCAPED_ZERO);
            }
        }
        out.write(ESCAPE);
        out.write(TERMINATOR);
    }

    /**
     * Decodes a full key.
     *
     * @throws CorruptEncodingException if the bytes are not exactly one key of these columns
     */
    public List<Object> decode(byte[] key) {
        Reader r = new Reader(key);
        List<Object> values = new ArrayList<>(columns.size());
        for (Column c : columns) {
            values.add(r.readColumn(c));
        }
        if (r.pos != key.length) {
            throw r.corrupt("" + (key.length - r.pos) + " bytes after the last column");
        }
        return Collections.unmodifiableList(values);
    }

    /**
     * The number of leading bytes of {@code key} that encode its first {@code columnCount} columns;
     * {@code Arrays.copyOf(childKey, prefixLength(childKey, r))} is the encoded root key of a child row.
     *
     * @throws CorruptEncodingException if the bytes do not hold that many columns
     */
    public int prefixLength(byte[] key, int columnCount) {
        if (columnCount < 0 || columnCount > columns.size()) {
            throw new IllegalArgumentException("columnCount " + columnCount + " is outside [0, " + columns.size() + "]");
        }
        Reader r = new Reader(key);
        for (int i = 0; i < columnCount; i++) {
            r.readColumn(columns.get(i));
        }
        return r.pos;
    }

    /** A cursor over one encoded key. Confined to the decoding call. */
    private final class Reader {
        private final byte[] bytes;
        private int pos;

        Reader(byte[] bytes) {
            this.bytes = bytes;
        }

        CorruptEncodingException corrupt(String what) {
            return new CorruptEncodingException("key of " + owner, pos, what);
        }

        int next(Column c) {
            if (pos >= bytes.length) {
                throw corrupt("ends inside column " + c.name());
            }
            return bytes[pos++] & 0xFF;
        }

        Object readColumn(Column c) {
            if (c.nullable()) {
                int mark = next(c);
                if (mark == NULL_MARK) {
                    return null;
                }
                if (mark != PRESENT_MARK) {
                    pos--;
                    throw corrupt("null mark " + mark + " of column " + c.name() + " is neither 0 nor 1");
                }
            }
            ColumnType type = c.type();
            return switch (type.kind()) {
                case BOOLEAN -> {
                    int b = next(c);
                    if (b > 1) {
                        pos--;
                        throw corrupt("BOOLEAN byte " + b + " of column " + c.name() + " is neither 0 nor 1");
                    }
                    yield b == 1;
                }
                case INT -> (int) readFixed(c, 4) ^ Integer.MIN_VALUE;
                case BIGINT, TIMESTAMP -> readFixed(c, 8) ^ Long.MIN_VALUE;
                case DECIMAL -> {
                    long unscaled = readFixed(c, 8) ^ Long.MIN_VALUE;
                    if (!type.fitsPrecision(unscaled)) {
                        throw corrupt("DECIMAL " + unscaled + " of column " + c.name() + " exceeds precision " + type.precision());
                    }
                    yield BigDecimal.valueOf(unscaled, type.scale());
                }
                case DOUBLE -> {
                    long stored = readFixed(c, 8);
                    long bits = stored < 0 ? stored ^ Long.MIN_VALUE : ~stored;
                    double d = Double.longBitsToDouble(bits);
                    if (Double.doubleToLongBits(d) != bits) {
                        throw corrupt("DOUBLE of column " + c.name() + " is a non-canonical NaN");
                    }
                    yield d;
                }
                case VARCHAR -> {
                    int at = pos;
                    byte[] utf8 = readEscaped(c);
                    String s;
                    try {
                        s = StandardCharsets.UTF_8.newDecoder()
                                .onMalformedInput(CodingErrorAction.REPORT)
                                .onUnmappableCharacter(CodingErrorAction.REPORT)
                                .decode(ByteBuffer.wrap(utf8)).toString();
                    } catch (CharacterCodingException e) {
                        throw new CorruptEncodingException("key of " + owner, at, "VARCHAR of column " + c.name() + " is not UTF-8");
                    }
                    if (s.codePointCount(0, s.length()) > type.length()) {
                        throw new CorruptEncodingException("key of " + owner, at, "VARCHAR of column " + c.name()
                                + " is longer than " + type.length());
                    }
                    yield s;
                }
                case BYTES -> {
                    int at = pos;
                    byte[] b = readEscaped(c);
                    if (b.length > type.length()) {
                        throw new CorruptEncodingException("key of " + owner, at, "BYTES of column " + c.name()
                                + " is longer than " + type.length());
                    }
                    yield b;
                }
            };
        }

        long readFixed(Column c, int width) {
            if (bytes.length - pos < width) {
                throw corrupt("ends inside column " + c.name() + " (needs " + width + " bytes)");
            }
            long v = 0;
            for (int i = 0; i < width; i++) {
                v = (v << 8) | (bytes[pos++] & 0xFF);
            }
            return v;
        }

        byte[] readEscaped(Column c) {
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            while (true) {
                int b = next(c);
                if (b != ESCAPE) {
                    out.write(b);
                    continue;
                }
                int after = next(c);
                if (after == TERMINATOR) {
                    return out.toByteArray();
                }
                if (after != ESCAPED_ZERO) {
                    pos--;
                    throw corrupt("byte " + after + " after 0x00 in column " + c.name() + " is neither 0x01 nor 0xFF");
                }
                out.write(0);
            }
        }
    }

    @Override
    public String toString() {
        return "KeyCodec(" + owner + ", " + columns + ")";
    }
}
