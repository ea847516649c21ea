package org.elastras.storage.util;

import java.util.Arrays;

/**
 * A growable byte buffer with the encodings of our on-disk formats: big-endian fixed-width
 * integers and LEB128 unsigned varints. Not thread-safe.
 */
public final class ByteSink {

    private byte[] bytes;
    private int length;

    public ByteSink(int initialCapacity) {
        bytes = new byte[Math.max(16, initialCapacity)];
    }

    private void ensure(int more) {
        if (length + more > bytes.length) {
            long wanted = Math.max((long) bytes.length * 2, (long) length + more);
            if (wanted > Integer.MAX_VALUE - 16) {
                throw new IllegalStateException("ByteSink would exceed 2 GiB");
            }
            bytes = Arrays.copyOf(bytes, (int) wanted);
        }
    }

    public ByteSink u8(int v) {
        ensure(1);
        bytes[length++] = (byte) v;
        return this;
    }

    public ByteSink u16(int v) {
        ensure(2);
        bytes[length++] = (byte) (v >>> 8);
        bytes[length++] = (byte) v;
        return this;
    }

    public ByteSink u32(int v) {
        ensure(4);
        ByteCoding.putInt(bytes, length, v);
        length += 4;
        return this;
    }

    public ByteSink u64(long v) {
        ensure(8);
        ByteCoding.putLong(bytes, length, v);
        length += 8;
        return this;
    }

    public ByteSink varint(long v) {
        if (v < 0) {
            throw new IllegalArgumentException("varint of a negative value " + v);
        }
        ensure(10);
        while ((v & ~0x7FL) != 0) {
            bytes[length++] = (byte) ((v & 0x7F) | 0x80);
            v >>>= 7;
        }
        bytes[length++] = (byte) v;
        return this;
    }

    public ByteSink bytes(byte[] b) {
        return bytes(b, 0, b.length);
    }

    public ByteSink bytes(byte[] b, int offset, int len) {
        ensure(len);
        System.arraycopy(b, offset, bytes, length, len);
        length += len;
        return this;
    }

    /** A varint length followed by the bytes. */
    public ByteSink lengthPrefixed(byte[] b) {
        varint(b.length);
        return bytes(b);
    }

    /** Overwrites 4 bytes at an earlier position (for lengths and checksums known late). */
    public void putU32At(int position, int v) {
        if (position < 0 || position + 4 > length) {
            throw new IndexOutOfBoundsException("putU32At " + position + " with length " + length);
        }
        ByteCoding.putInt(bytes, position, v);
    }

    public int length() {
        return length;
    }

    public void reset() {
        length = 0;
    }

    /** The internal array; valid up to {@link #length()} until the next write. */
    public byte[] array() {
        return bytes;
    }

    public byte[] toByteArray() {
        return Arrays.copyOf(bytes, length);
    }
}
