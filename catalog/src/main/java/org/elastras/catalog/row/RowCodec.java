package org.elastras.catalog.row;

import java.io.ByteArrayOutputStream;
import java.math.BigDecimal;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;

import org.elastras.catalog.key.CorruptEncodingException;
import org.elastras.catalog.key.KeyCodec;
import org.elastras.catalog.schema.Column;
import org.elastras.catalog.schema.ColumnType;
import org.elastras.catalog.schema.TableSchema;
import org.elastras.catalog.schema.TypeKind;

/**
 * The stored form of a table's rows: the primary key through {@link KeyCodec}, the other columns as a
 * compact, versioned value. Immutable and thread-safe.
 *
 * <p>A row is a list of values in the table's column order (canonical Java types as in
 * {@link ColumnType}; {@code null} for NULL). Every value is checked before anything is encoded.
 *
 * <p>Value layout, format version 1 (also in {@code docs/catalog.md}); the "value columns" are the
 * non-key columns in column order, m of them:
 * <pre>
 *   version      1 byte, 0x01
 *   null bitmap  ceil(m / 8) bytes; bit (i % 8) of byte (i / 8), least significant first, set when
 *                value column i is NULL; unused high bits zero
 *   values       for each non-NULL value column, in order:
 *     BOOLEAN                          1 byte, 0 or 1
 *     INT, BIGINT, TIMESTAMP, DECIMAL  zigzag varint (7 bits a byte, low group first, high bit =
 *                                      more) of the value; DECIMAL's is the scaled long
 *     DOUBLE                           8 bytes big-endian, IEEE bits (NaN canonical)
 *     VARCHAR                          varint byte length, then UTF-8
 *     BYTES                            varint length, then the bytes
 * </pre>
 */
public final class RowCodec {

    /** The format version written in the first byte of every value. */
    public static final int FORMAT_VERSION = 1;

    private static final int VARINT_BYTES_MAX = 10;

    private final TableSchema table;
    private final String owner;
    private final KeyCodec keyCodec;
    private final int[] keyIndexes;
    private final int[] valueIndexes;
    /** "column NAME" of each column, for error messages (made once, not per value decoded). */
    private final String[] columnWhats;

    public RowCodec(TableSchema table) {
        if (table == null) {
            throw new IllegalArgumentException("table must not be null");
        }
        this.table = table;
        this.owner = "table " + table.name();
        this.keyCodec = KeyCodec.forPrimaryKey(table);
        this.keyIndexes = table.keyColumnIndexes();
        List<Integer> values = new ArrayList<>();
        for (int i = 0; i < table.columns().size(); i++) {
            if (!table.isKeyColumn(i)) {
                values.add(i);
            }
        }
        this.valueIndexes = values.stream().mapToInt(Integer::intValue).toArray();
        this.columnWhats = table.columns().stream().map(c -> "column " + c.name()).toArray(String[]::new);
    }

    /** The table whose rows this codec encodes. */
    public TableSchema table() {
        return table;
    }

    /** The codec of the table's primary key. */
    public KeyCodec keyCodec() {
        return keyCodec;
    }

    /**
     * Checks every value of a row against its column and returns the row in canonical form.
     *
     * @throws IllegalArgumentException naming the table, the column, the expected type and the value's
     *     type, if the row has the wrong number of values or a value does not fit its column
     */
    public List<Object> normalize(List<?> row) {
        if (row == null || row.size() != table.columns().size()) {
            throw new IllegalArgumentException(owner + " has " + table.columns().size() + " columns but the row has "
                    + (row == null ? "none" : row.size() + " values") + "; give one value (or null) per column in order");
        }
        List<Object> out = new ArrayList<>(row.size());
        for (int i = 0; i < row.size(); i++) {
            out.add(table.columns().get(i).normalize(owner, row.get(i)));
        }
        return Collections.unmodifiableList(out);
    }

    /**
     * A full row checked once and encoded: its canonical form, its key values in key order, the
     * encoded key and the encoded value.
     */
    public record EncodedRow(List<Object> row, List<Object> keyValues, byte[] key, byte[] value) {
    }

    /**
     * Normalizes a full row once and encodes its key and value; what {@link #encodeKey} and
     * {@link #encodeValue} give, without checking every value three times.
     *
     * @throws IllegalArgumentException as {@link #normalize}
     */
    public EncodedRow encode(List<?> row) {
        List<Object> r = normalize(row);
        List<Object> keyValues = keyValues(r);
        return new EncodedRow(r, keyValues, keyCodec.encode(keyValues), encodeNormalizedValue(r));
    }

    /** The encoded primary key of a full row. */
    public byte[] encodeKey(List<?> row) {
        return keyCodec.encode(keyValues(normalize(row)));
    }

    /** The key column values of a normalized row, in key order. */
    private List<Object> keyValues(List<Object> normalizedRow) {
        Object[] key = new Object[keyIndexes.length];
        for (int i = 0; i < keyIndexes.length; i++) {
            key[i] = normalizedRow.get(keyIndexes[i]);
        }
        return Collections.unmodifiableList(Arrays.asList(key));
    }

    /** The encoded value (the non-key columns) of a full row. */
    public byte[] encodeValue(List<?> row) {
        return encodeNormalizedValue(normalize(row));
    }

    private byte[] encodeNormalizedValue(List<Object> r) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(16 + 8 * valueIndexes.length);
        out.write(FORMAT_VERSION);
        byte[] bitmap = new byte[(valueIndexes.length + 7) / 8];
        for (int i = 0; i < valueIndexes.length; i++) {
            if (r.get(valueIndexes[i]) == null) {
                bitmap[i / 8] |= (byte) (1 << (i % 8));
            }
        }
        out.writeBytes(bitmap);
        for (int index : valueIndexes) {
            Object v = r.get(index);
            if (v != null) {
                writeValue(out, table.columns().get(index).type(), v);
            }
        }
        return out.toByteArray();
    }

    private static void writeValue(ByteArrayOutputStream out, ColumnType type, Object v) {
        switch (type.kind()) {
            case BOOLEAN -> out.write((Boolean) v ? 1 : 0);
            case INT -> writeZigzag(out, (Integer) v);
            case BIGINT, TIMESTAMP -> writeZigzag(out, (Long) v);
            case DECIMAL -> writeZigzag(out, ((BigDecimal) v).unscaledValue().longValueExact());
            case DOUBLE -> {
                long bits = Double.doubleToLongBits((Double) v);
                for (int shift = 56; shift >= 0; shift -= 8) {
                    out.write((int) (bits >>> shift));
                }
            }
            case VARCHAR -> writeLengthPrefixed(out, ((String) v).getBytes(StandardCharsets.UTF_8));
            case BYTES -> writeLengthPrefixed(out, (byte[]) v);
            default -> throw new IllegalStateException("unhandled kind " + type.kind());
        }
    }

    private static void writeZigzag(ByteArrayOutputStream out, long v) {
        long u = (v << 1) ^ (v >> 63);
        while ((u & ~0x7FL) != 0) {
            out.write((int) ((u & 0x7F) | 0x80));
            u >>>= 7;
        }
        out.write((int) u);
    }

    private static void writeLengthPrefixed(ByteArrayOutputStream out, byte[] bytes) {
        writeZigzag(out, bytes.length);
        out.writeBytes(bytes);
    }

    /**
     * Decodes a stored row: its key and value back into a full row in column order.
     *
     * @throws CorruptEncodingException if either does not decode under this table's formats
     */
    public List<Object> decode(byte[] key, byte[] value) {
        Object[] row = new Object[table.columns().size()];
        decodeInto(key, value, row, null, true);
        return Collections.unmodifiableList(Arrays.asList(row));
    }

    /**
     * Decodes some columns of a stored row, in the order of {@code columns} (column indexes; one
     * may repeat): what {@code decode} gives for them, without decoding the others. The columns not
     * asked for are stepped over: their layout is checked (lengths, bounds, the value's end), not
     * their contents (a skipped VARCHAR is not checked to be UTF-8, a skipped INT not for overflow),
     * which a full {@link #decode} still checks.
     *
     * @throws CorruptEncodingException if the key or value does not decode under this table's formats
     * @throws IndexOutOfBoundsException if a column index is not one of the table's
     */
    public List<Object> decodeColumns(byte[] key, byte[] value, int[] columns) {
        boolean[] wanted = new boolean[table.columns().size()];
        boolean wantsKey = false;
        for (int c : columns) {
            wanted[c] = true;
            wantsKey |= table.isKeyColumn(c);
        }
        Object[] row = new Object[wanted.length];
        decodeInto(key, value, row, wanted, wantsKey);
        Object[] out = new Object[columns.length];
        for (int k = 0; k < columns.length; k++) {
            out[k] = row[columns[k]];
        }
        return Collections.unmodifiableList(Arrays.asList(out));
    }

    /**
     * Decodes a stored row into {@code row} (column order): the key's columns if {@code withKey},
     * and the value's columns {@code wanted} (all if null), stepping over the others.
     */
    private void decodeInto(byte[] key, byte[] value, Object[] row, boolean[] wanted, boolean withKey) {
        if (withKey) {
            List<Object> keyValues = keyCodec.decode(key);
            for (int k = 0; k < keyIndexes.length; k++) {
                row[keyIndexes[k]] = keyValues.get(k);
            }
        }
        Reader r = new Reader(value);
        int bitmapAt = readHeader(r);
        for (int i = 0; i < valueIndexes.length; i++) {
            int index = valueIndexes[i];
            Column c = table.columns().get(index);
            if (isNull(r, bitmapAt, i, c)) {
                continue;
            }
            if (wanted == null || wanted[index]) {
                row[index] = r.readValue(c, columnWhats[index]);
            } else {
                r.skipValue(c, columnWhats[index]);
            }
        }
        requireEnd(r);
    }

    /**
     * The encoded value of a stored row with the non-key {@code columns} (column indexes) set to
     * {@code values} and every other column as it is: byte for byte what {@link #encodeValue} gives
     * for the decoded row with those values set, but the other columns' bytes are copied, not
     * decoded and encoded again (a read-modify-write of a few numbers in a wide row, as TPC-C's
     * STOCK and CUSTOMER updates). The value's layout is checked as {@link #decodeColumns} checks
     * it; the new values as {@link #normalize} checks them.
     *
     * @throws IllegalArgumentException if a column is a key column, is named twice, is not one of
     *     the table's, or a value does not fit its column; or the counts differ
     * @throws CorruptEncodingException if {@code value} does not decode under this table's format
     */
    public byte[] patchValue(byte[] value, int[] columns, List<?> values) {
        if (columns.length != values.size()) {
            throw new IllegalArgumentException(owner + ": " + columns.length + " columns to change but " + values.size()
                    + " values");
        }
        Object[] patch = new Object[table.columns().size()];
        boolean[] patched = new boolean[patch.length];
        for (int k = 0; k < columns.length; k++) {
            int c = columns[k];
            if (c < 0 || c >= patch.length) {
                throw new IllegalArgumentException(owner + " has no column " + c + " (it has " + patch.length + ")");
            }
            if (table.isKeyColumn(c)) {
                throw new IllegalArgumentException(owner + " " + columnWhats[c] + " is part of the primary key; a change"
                        + " of some columns changes only the others (write the whole row under its new key instead)");
            }
            if (patched[c]) {
                throw new IllegalArgumentException(owner + " " + columnWhats[c] + " is named twice in one change");
            }
            patched[c] = true;
            patch[c] = table.columns().get(c).normalize(owner, values.get(k));
        }
        Reader r = new Reader(value);
        int bitmapAt = readHeader(r);
        ByteArrayOutputStream out = new ByteArrayOutputStream(value.length + 16);
        out.write(FORMAT_VERSION);
        byte[] bitmap = Arrays.copyOfRange(value, bitmapAt, bitmapAt + (valueIndexes.length + 7) / 8);
        for (int i = 0; i < valueIndexes.length; i++) {
            if (patched[valueIndexes[i]]) {
                if (patch[valueIndexes[i]] == null) {
                    bitmap[i / 8] |= (byte) (1 << (i % 8));
                } else {
                    bitmap[i / 8] &= (byte) ~(1 << (i % 8));
                }
            }
        }
        out.writeBytes(bitmap);
        for (int i = 0; i < valueIndexes.length; i++) {
            int index = valueIndexes[i];
            Column c = table.columns().get(index);
            int start = r.pos;
            if (!isNull(r, bitmapAt, i, c)) {
                r.skipValue(c, columnWhats[index]);
            }
            if (!patched[index]) {
                out.write(value, start, r.pos - start);
            } else if (patch[index] != null) {
                writeValue(out, c.type(), patch[index]);
            }
        }
        requireEnd(r);
        return out.toByteArray();
    }

    /** Reads a value's version byte and steps over its null bitmap (checked); returns where the bitmap is. */
    private int readHeader(Reader r) {
        int version = r.next("version");
        if (version != FORMAT_VERSION) {
            r.pos--;
            throw r.corrupt("format version " + version + " is not " + FORMAT_VERSION
                    + " (written by a newer or foreign writer)");
        }
        int bitmapLength = (valueIndexes.length + 7) / 8;
        r.require(bitmapLength, "null bitmap");
        int bitmapAt = r.pos;
        r.pos += bitmapLength;
        if (valueIndexes.length % 8 != 0 && (r.bytes[bitmapAt + bitmapLength - 1] & 0xFF) >>> (valueIndexes.length % 8) != 0) {
            throw new CorruptEncodingException("row value of " + owner, bitmapLength, "unused null bitmap bits are set");
        }
        return bitmapAt;
    }

    /** Whether value column {@code i} (column {@code c}) is marked NULL; a NOT NULL column so marked is corrupt. */
    private static boolean isNull(Reader r, int bitmapAt, int i, Column c) {
        if ((r.bytes[bitmapAt + i / 8] & (1 << (i % 8))) == 0) {
            return false;
        }
        if (!c.nullable()) {
            throw r.corrupt("NOT NULL column " + c.name() + " is marked NULL");
        }
        return true;
    }

    private static void requireEnd(Reader r) {
        if (r.pos != r.bytes.length) {
            throw r.corrupt((r.bytes.length - r.pos) + " bytes after the last column");
        }
    }

    /** A cursor over one encoded value. Confined to the decoding call. */
    private final class Reader {
        private final byte[] bytes;
        private int pos;

        Reader(byte[] bytes) {
            this.bytes = bytes;
        }

        CorruptEncodingException corrupt(String what) {
            return new CorruptEncodingException("row value of " + owner, pos, what);
        }

        int next(String what) {
            if (pos >= bytes.length) {
                throw corrupt("ends inside " + what);
            }
            return bytes[pos++] & 0xFF;
        }

        /** Throws unless {@code n} more bytes are there. */
        void require(int n, String what) {
            if (n < 0 || bytes.length - pos < n) {
                throw corrupt("ends inside " + what + " (needs " + n + " bytes, has " + (bytes.length - pos) + ")");
            }
        }

        /**
         * The next {@code n} bytes as a string if they are all ASCII (then consumed), else null
         * (nothing consumed): the common case, decoded without a CharsetDecoder.
         */
        String ascii(int n) {
            if (n < 0 || bytes.length - pos < n) {
                return null; // take() reports the truncation
            }
            for (int i = pos; i < pos + n; i++) {
                if (bytes[i] < 0) {
                    return null;
                }
            }
            String s = new String(bytes, pos, n, StandardCharsets.ISO_8859_1);
            pos += n;
            return s;
        }

        byte[] take(int n, String what) {
            require(n, what);
            byte[] out = Arrays.copyOfRange(bytes, pos, pos + n);
            pos += n;
            return out;
        }

        long readZigzag(String what) {
            long u = 0;
            for (int i = 0; i < VARINT_BYTES_MAX; i++) {
                int b = next(what);
                if (i == VARINT_BYTES_MAX - 1 && b > 1) {
                    throw corrupt("varint of " + what + " overflows 64 bits");
                }
                u |= (long) (b & 0x7F) << (7 * i);
                if ((b & 0x80) == 0) {
                    return (u >>> 1) ^ -(u & 1);
                }
            }
            throw corrupt("varint of " + what + " is longer than " + VARINT_BYTES_MAX + " bytes");
        }

        /** Steps over a non-NULL value of column {@code c}, checking its layout, not its contents. */
        void skipValue(Column c, String what) {
            ColumnType type = c.type();
            switch (type.kind()) {
                case BOOLEAN -> next(what);
                case INT, BIGINT, TIMESTAMP, DECIMAL -> readZigzag(what);
                case DOUBLE -> {
                    require(8, what);
                    pos += 8;
                }
                case VARCHAR, BYTES -> {
                    int at = pos;
                    long n = readZigzag(what);
                    long max = type.kind() == TypeKind.VARCHAR ? 4L * type.length() : type.length();
                    if (n < 0 || n > max) {
                        pos = at;
                        throw corrupt(type.kind() + " length " + n + " of " + what + " is outside [0, " + max + "]");
                    }
                    require((int) n, what);
                    pos += (int) n;
                }
                default -> throw new IllegalStateException("unhandled kind " + type.kind());
            }
        }

        Object readValue(Column c, String what) {
            ColumnType type = c.type();
            int at = pos;
            return switch (type.kind()) {
                case BOOLEAN -> {
                    int b = next(what);
                    if (b > 1) {
                        pos = at;
                        throw corrupt("BOOLEAN byte " + b + " of " + what + " is neither 0 nor 1");
                    }
                    yield b == 1;
                }
                case INT -> {
                    long v = readZigzag(what);
                    if (v < Integer.MIN_VALUE || v > Integer.MAX_VALUE) {
                        pos = at;
                        throw corrupt("INT " + v + " of " + what + " overflows 32 bits");
                    }
                    yield (int) v;
                }
                case BIGINT, TIMESTAMP -> readZigzag(what);
                case DECIMAL -> {
                    long unscaled = readZigzag(what);
                    if (!type.fitsPrecision(unscaled)) {
                        pos = at;
                        throw corrupt("DECIMAL " + unscaled + " of " + what + " exceeds precision " + type.precision());
                    }
                    yield BigDecimal.valueOf(unscaled, type.scale());
                }
                case DOUBLE -> {
                    byte[] b = take(8, what);
                    long bits = 0;
                    for (byte x : b) {
                        bits = (bits << 8) | (x & 0xFF);
                    }
                    yield Double.longBitsToDouble(bits);
                }
                case VARCHAR -> {
                    long n = readZigzag(what);
                    if (n < 0 || n > 4L * type.length()) {
                        pos = at;
                        throw corrupt("VARCHAR length " + n + " of " + what + " is outside [0, " + 4L * type.length() + "]");
                    }
                    // ASCII (the common case) is valid UTF-8 with one code point per byte and
                    // needs no CharsetDecoder; anything else is decoded strictly. (A decoder of
                    // our own was no faster on TPC-C's strings, session 22: RowDecodeBenchmark.)
                    String s = ascii((int) n);
                    if (s == null) {
                        try {
                            s = StandardCharsets.UTF_8.newDecoder()
                                    .onMalformedInput(CodingErrorAction.REPORT)
                                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                                    .decode(ByteBuffer.wrap(take((int) n, what))).toString();
                        } catch (CharacterCodingException e) {
                            pos = at;
                            throw corrupt("VARCHAR of " + what + " is not UTF-8");
                        }
                    }
                    if (s.length() > type.length() && s.codePointCount(0, s.length()) > type.length()) {
                        pos = at;
                        throw corrupt("VARCHAR of " + what + " is longer than " + type.length());
                    }
                    yield s;
                }
                case BYTES -> {
                    long n = readZigzag(what);
                    if (n < 0 || n > type.length()) {
                        pos = at;
                        throw corrupt("BYTES length " + n + " of " + what + " is outside [0, " + type.length() + "]");
                    }
                    yield take((int) n, what);
                }
            };
        }
    }

    @Override
    public String toString() {
        return "RowCodec(" + table.name() + ")";
    }
}
