package org.elastras.storage.dfs;

import java.io.Closeable;
import java.io.EOFException;
import java.io.IOException;

/**
 * A file on a {@link Dfs} opened for positional reads.
 *
 * <p>Thread-safe: positional reads carry no shared cursor, so any number of threads may read at
 * once.
 */
public interface DfsFile extends Closeable {

    /** The path this file was opened at, for error messages. */
    String path();

    /** Length of the file as seen when it was opened (or later, if the implementation refreshes). */
    long length() throws IOException;

    /**
     * Reads up to {@code length} bytes at {@code position}; returns the number read, or -1 at the
     * end of the file.
     */
    int read(long position, byte[] buffer, int offset, int length) throws IOException;

    /** Reads exactly {@code length} bytes at {@code position}. */
    default void readFully(long position, byte[] buffer, int offset, int length) throws IOException {
        int done = 0;
        while (done < length) {
            int n = read(position + done, buffer, offset + done, length - done);
            if (n < 0) {
                throw new EOFException(path() + ": end of file at offset " + (position + done)
                        + " while reading " + length + " bytes at offset " + position);
            }
            done += n;
        }
    }

    default byte[] readFully(long position, int length) throws IOException {
        byte[] bytes = new byte[length];
        readFully(position, bytes, 0, length);
        return bytes;
    }
}
