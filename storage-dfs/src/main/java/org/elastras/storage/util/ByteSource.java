package org.elastras.storage.util;

/**
 * A cursor over a byte array that decodes what {@link ByteSink} encodes. Every read is bounds
 * checked and fails with {@link FormatException} rather than reading garbage. Not thread-safe.
 */
public final class ByteSource {

    private final byte[] bytes;
    private final int end;
    private int position;

    public ByteSource(byte[] bytes) {
        this(bytes, 0, bytes.length);
    }

    public ByteSource(byte[] bytes, int offset, int length) {
        if (offset < 0 || length < 0 || offset + length > bytes.length) {
            throw new IndexOutOfBoundsException("offset " + offset + " length " + length + " in " + bytes.length);
        }
        this.bytes = bytes;
        this.position = offset;
        this.end = offset + length;
    }

    /** A decoding error: the bytes do not follow the format. */
    public static final class FormatException extends RuntimeException {
        private static final long serialVersionUID = 1L;

        public FormatException(String message) {
            super(message);
        }
    }

    private void need(int n) {
        if (n < 0 || end - position < n) {
            throw new FormatException("need " + n + " bytes at position " + position + " but only " + (end - position) + " remain");
        }
    }

    public int position() {
        return position;
    }

    public int remaining() {
        return end - position;
    }

    public int u8() {
        need(1);
        return bytes[position++] & 0xFF;
    }

    public int u16() {
        need(2);
        int v = ((bytes[position] & 0xFF) << 8) | (bytes[position + 1] & 0xFF);
        position += 2;
        return v;
    }

    public int u32() {
        need(4);
        int v = ByteCoding.getInt(bytes, position);
        position += 4;
        return v;
    }

    public long u64() {
        need(8);
        long v = ByteCoding.getLong(bytes, position);
        position += 8;
        return v;
    }

    public long varint() {
        long result = 0;
        for (int shift = 0; shift < 64; shift += 7) {
            need(1);
            int b = bytes[position++] & 0xFF;
            result |= (long) (b & 0x7F) << shift;
            if ((b & 0x80) == 0) {
                if (result < 0) {
                    throw new FormatException("varint overflows a signed long at position " + position);
                }
                return result;
            }
        }
        throw new FormatException("varint longer than 10 bytes at position " + position);
    }

    /** A varint that must fit in [0, max]. */
    public int varintAtMost(int max, String what) {
        long v = varint();
        if (v > max) {
            throw new FormatException(what + " " + v + " exceeds " + max + " at position " + position);
        }
        return (int) v;
    }

    public byte[] bytes(int n) {
        need(n);
        byte[] out = new byte[n];
        System.arraycopy(bytes, position, out, 0, n);
        position += n;
        return out;
    }

    public byte[] lengthPrefixed(int max, String what) {
        return bytes(varintAtMost(max, what + " length"));
    }

    public void skip(int n) {
        need(n);
        position += n;
    }
}
