package org.elastras.master.timestamp;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.zip.CRC32C;

/**
 * The byte layout of the high-water mark node ({@code {root}/ts}). Stateless.
 *
 * <pre>
 *   offset  size  field
 *   0       4     magic 0x54534857 ("TSHW"), big-endian
 *   4       8     mark: every CTS ever issued is at or below it (>= 0), big-endian
 *   12      8     writer id: the master instance that wrote it, big-endian
 *   20      4     CRC32C of bytes [0, 20), big-endian
 * </pre>
 * The writer id lets a master tell its own write, whose reply was lost, from another master's.
 * Described in docs/timestamps.md.
 */
final class HighWaterMarkFormat {

    static final int MAGIC = 0x54534857;
    static final int SIZE_BYTES = 24;

    /** A decoded node. */
    record Decoded(long markCts, long writerId) {}

    private HighWaterMarkFormat() {}

    static byte[] encode(long markCts, long writerId) {
        if (markCts < 0) {
            throw new IllegalArgumentException("high-water mark must be >= 0, got " + markCts);
        }
        ByteBuffer buffer = ByteBuffer.allocate(SIZE_BYTES);
        buffer.putInt(MAGIC).putLong(markCts).putLong(writerId);
        CRC32C crc = new CRC32C();
        crc.update(buffer.array(), 0, 20);
        buffer.putInt((int) crc.getValue());
        return buffer.array();
    }

    static Decoded decode(byte[] bytes, String where) throws IOException {
        if (bytes == null || bytes.length != SIZE_BYTES) {
            throw new IOException("high-water mark at " + where + " is corrupt: " + (bytes == null ? "no data" : bytes.length
                    + " bytes") + ", expected " + SIZE_BYTES + ". Do not delete it: set it (by hand) above every CTS ever issued");
        }
        ByteBuffer buffer = ByteBuffer.wrap(bytes);
        int magic = buffer.getInt();
        long markCts = buffer.getLong();
        long writerId = buffer.getLong();
        int stored = buffer.getInt();
        CRC32C crc = new CRC32C();
        crc.update(bytes, 0, 20);
        if (magic != MAGIC || stored != (int) crc.getValue() || markCts < 0) {
            throw new IOException("high-water mark at " + where + " is corrupt (bad magic, checksum or negative mark)."
                    + " Do not delete it: set it (by hand) above every CTS ever issued");
        }
        return new Decoded(markCts, writerId);
    }
}
