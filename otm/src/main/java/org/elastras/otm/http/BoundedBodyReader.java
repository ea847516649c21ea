package org.elastras.otm.http;

import org.eclipse.jetty.io.Content;

import java.util.Arrays;
import java.util.function.BiConsumer;

/**
 * Reads a request body into one array, refusing to hold more than a bound. One instance per
 * request; driven by Jetty's read/demand callbacks, one at a time, so it needs no locking.
 *
 * <p>Ends exactly once, through the sink: {@code (bytes, null)} on success,
 * {@code (null, BodyTooLargeException)} as soon as the body passes the bound (the rest is not read),
 * or {@code (null, failure)} if the connection failed.
 */
final class BoundedBodyReader {

    /** The body passed the bound. Carries no stack trace: it is an expected outcome. */
    static final class BodyTooLargeException extends Exception {
        private static final long serialVersionUID = 1L;

        BodyTooLargeException(String message) {
            super(message, null, false, false);
        }
    }

    private final Content.Source source;
    private final int bytesMax;
    private final BiConsumer<byte[], Throwable> sink;
    private byte[] buffer;
    private int length;

    private BoundedBodyReader(Content.Source source, int bytesMax, int expectedBytes, BiConsumer<byte[], Throwable> sink) {
        this.source = source;
        this.bytesMax = bytesMax;
        this.sink = sink;
        this.buffer = new byte[Math.max(256, Math.min(expectedBytes, bytesMax))];
    }

    /**
     * Starts reading {@code source}.
     *
     * @param expectedBytes the declared length, or a negative number if unknown; only sizes the first buffer
     */
    static void read(Content.Source source, int bytesMax, long expectedBytes, BiConsumer<byte[], Throwable> sink) {
        int expected = expectedBytes < 0 ? 0 : (int) Math.min(expectedBytes, bytesMax);
        new BoundedBodyReader(source, bytesMax, expected, sink).readAvailable();
    }

    private void readAvailable() {
        while (true) {
            Content.Chunk chunk = source.read();
            if (chunk == null) {
                source.demand(this::readAvailable);
                return;
            }
            if (Content.Chunk.isFailure(chunk)) {
                sink.accept(null, chunk.getFailure());
                return;
            }
            int n = chunk.remaining();
            if (n > bytesMax - length) {
                chunk.release();
                sink.accept(null, new BodyTooLargeException("request body is larger than the limit of "
                        + bytesMax + " bytes; send less (split the work, or shrink values)"));
                return;
            }
            if (n > 0) {
                if (length + n > buffer.length) {
                    buffer = Arrays.copyOf(buffer, (int) Math.min(bytesMax, Math.max((long) buffer.length * 2, length + n)));
                }
                chunk.get(buffer, length, n);
                length += n;
            }
            boolean last = chunk.isLast();
            chunk.release();
            if (last) {
                sink.accept(length == buffer.length ? buffer : Arrays.copyOf(buffer, length), null);
                return;
            }
        }
    }
}
