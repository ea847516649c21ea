package org.elastras.storage.util;

import java.util.zip.CRC32C;

/**
 * CRC-32C (Castagnoli) checksums for every record and block written to the DFS. The JDK's
 * implementation uses the CPU's CRC32 instruction where there is one. Stateless.
 */
public final class Checksums {

    private Checksums() {
    }

    public static int crc32c(byte[] bytes, int offset, int length) {
        CRC32C crc = new CRC32C();
        crc.update(bytes, offset, length);
        return (int) crc.getValue();
    }

    public static int crc32c(byte[] bytes) {
        return crc32c(bytes, 0, bytes.length);
    }
}
