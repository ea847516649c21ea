package org.elastras.client.protocol;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/**
 * The protocol's framed transport: the same operations and Smile bodies as over HTTP, on a plain
 * TCP connection to the same port, many calls in flight at once, each answer carrying its call's
 * id (see {@code docs/protocol.md}). Immutable constants and static helpers.
 *
 * <p>A connection opens with {@link #PREAMBLE}, which no HTTP request starts with, so the server
 * tells it from HTTP by its first bytes. Then, in either direction, frames of a 4-byte big-endian
 * length (of everything after it) and:
 * <ul>
 *   <li>a request: the call's 8-byte id (the client's choice, unique among its calls in flight),
 *       a byte with the length of the operation's wire name, the name in ASCII, the Smile body;</li>
 *   <li>an answer: the call's id, a status byte ({@link #STATUS_OK} with the operation's response,
 *       {@link #STATUS_ERROR} with an {@link ErrorResponse}), the Smile body.</li>
 * </ul>
 * Answers come in the order calls finish, not the order they were sent.
 */
public final class Frames {

    /** The first bytes a client sends: a NUL (never the start of an HTTP request), then a name. */
    private static final byte[] PREAMBLE = {0, 'E', 'T', 'R', 'S', '/', 'F', '1'};
    /** An answer's bytes after its length before the body: id and status. */
    public static final int ANSWER_HEADER_BYTES = 9;
    /** A request's bytes after its length before the operation's name: id and the name's length. */
    public static final int REQUEST_HEADER_BYTES = 9;
    /** The longest operation name a request may carry. */
    public static final int OPERATION_NAME_MAX = 64;
    /** The status byte of an answer carrying the operation's response. */
    public static final int STATUS_OK = 0;
    /** The status byte of an answer carrying an {@link ErrorResponse}. */
    public static final int STATUS_ERROR = 1;

    private Frames() {
    }

    /** The preamble a client sends first, a fresh copy. */
    public static byte[] preamble() {
        return PREAMBLE.clone();
    }

    /** The preamble's length. */
    public static int preambleLength() {
        return PREAMBLE.length;
    }

    /**
     * Whether {@code bytes} (from its position, not consumed) starts with the preamble: TRUE, FALSE,
     * or null when fewer bytes than the preamble's have come and they match so far.
     */
    public static Boolean startsWithPreamble(ByteBuffer bytes) {
        int n = Math.min(bytes.remaining(), PREAMBLE.length);
        for (int i = 0; i < n; i++) {
            if (bytes.get(bytes.position() + i) != PREAMBLE[i]) {
                return Boolean.FALSE;
            }
        }
        return n == PREAMBLE.length ? Boolean.TRUE : null;
    }

    /** A whole request frame, length included. */
    public static byte[] request(long id, Operation op, byte[] body) {
        byte[] name = op.wireName().getBytes(StandardCharsets.US_ASCII);
        byte[] frame = new byte[4 + REQUEST_HEADER_BYTES + name.length + body.length];
        ByteBuffer b = ByteBuffer.wrap(frame);
        b.putInt(frame.length - 4).putLong(id).put((byte) name.length).put(name).put(body);
        return frame;
    }

    /** An answer frame's length, id and status, for a body of {@code bodyLength} bytes that follows it. */
    public static ByteBuffer answerHeader(long id, boolean ok, int bodyLength) {
        ByteBuffer b = ByteBuffer.allocate(4 + ANSWER_HEADER_BYTES);
        b.putInt(ANSWER_HEADER_BYTES + bodyLength).putLong(id).put((byte) (ok ? STATUS_OK : STATUS_ERROR));
        return b.flip();
    }
}
