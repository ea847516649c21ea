package org.elastras.storage.dfs;

import java.io.Closeable;
import java.io.IOException;

/**
 * An append-only output file on a {@link Dfs}.
 *
 * <p>Not thread-safe: one thread writes at a time (callers serialise, as the WAL writer does).
 * {@link #position()} may be read by the writing thread only.
 */
public interface DfsOutput extends Closeable {

    void write(byte[] bytes, int offset, int length) throws IOException;

    default void write(byte[] bytes) throws IOException {
        write(bytes, 0, bytes.length);
    }

    /** Bytes written so far, including bytes not yet flushed. */
    long position();

    /** Makes every byte written so far visible to new readers (HDFS {@code hflush}). */
    void flush() throws IOException;

    /**
     * Makes every byte written so far durable: it survives a crash of this process and of the
     * machine (local: {@code FileChannel.force}; HDFS: {@code hsync}). Implies {@link #flush()}.
     */
    void sync() throws IOException;

    /** Flushes and closes; does not sync. Call {@link #sync()} first where durability matters. */
    @Override
    void close() throws IOException;
}
