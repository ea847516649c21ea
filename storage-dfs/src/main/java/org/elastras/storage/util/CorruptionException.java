package org.elastras.storage.util;

import java.io.IOException;

/**
 * Bytes read from the DFS failed their checksum or their format: an operating error (disk, DFS or
 * a writer that was not ours), never silently skipped. Names the file and the byte offset.
 */
public final class CorruptionException extends IOException {

    private static final long serialVersionUID = 1L;

    private final String path;
    private final long offset;

    public CorruptionException(String path, long offset, String what) {
        super("corruption in " + path + " at offset " + offset + ": " + what);
        this.path = path;
        this.offset = offset;
    }

    public String path() {
        return path;
    }

    public long offset() {
        return offset;
    }
}
