package org.elastras.client;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import org.elastras.client.protocol.ElasTrasException;
import org.elastras.client.protocol.ErrorCode;
import org.elastras.client.protocol.ErrorResponse;
import org.elastras.client.protocol.HeartbeatRequest;
import org.elastras.client.protocol.HeartbeatResponse;
import org.elastras.client.protocol.Operation;
import org.elastras.client.protocol.ProtocolCodec;
import org.elastras.client.protocol.WireFormat;

/**
 * An OTM's heartbeat connection to the active master's heartbeat port: one plain TCP connection,
 * one exchange at a time, the calling thread blocked in the socket's read until the answer comes.
 * An OTM exchanges every heartbeat period (2 ms); over HTTP/2 each exchange took several thread
 * hand-offs on both sides (the client's selector and pool, the server's selector and worker) and
 * cost the two OTMs and the master about a tenth of a 2-core machine under TPC-C (BENCHMARKS.md,
 * session 27). Here the kernel wakes the caller when the answer arrives; the master reads each
 * connection on a thread of its own.
 *
 * <p>Frames ({@link #writeFrame}): a request is a 4-byte big-endian length and a Smile
 * {@link HeartbeatRequest}; an answer is one status byte ({@link #STATUS_OK} with a
 * {@link HeartbeatResponse}, {@link #STATUS_ERROR} with an {@link ErrorResponse}), a length and
 * the Smile body. Bodies are bounded by the codec's {@code bodyBytesMax} on both sides.
 *
 * <p>Errors as {@link ProtocolClient}'s: UNREACHABLE when the connection could not be made,
 * OUTCOME_UNKNOWN when it failed or timed out after the request was written (a heartbeat is
 * idempotent: the master answers a resent report from its stored reply), the master's own error
 * otherwise. After a transport failure the channel is closed and every later call fails
 * UNREACHABLE: open a new one. Not thread-safe: one caller (the OTM's master link) at a time.
 */
public final class HeartbeatChannel implements AutoCloseable {

    /** The status byte of an answer carrying a {@link HeartbeatResponse}. */
    public static final int STATUS_OK = 0;
    /** The status byte of an answer carrying an {@link ErrorResponse}. */
    public static final int STATUS_ERROR = 1;

    private final String address;
    private final ProtocolCodec codec;
    private final Socket socket;
    private final DataInputStream in;
    private final DataOutputStream out;
    private boolean closed;

    private HeartbeatChannel(String address, ProtocolCodec codec, Socket socket) throws IOException {
        this.address = address;
        this.codec = codec;
        this.socket = socket;
        this.in = new DataInputStream(new BufferedInputStream(socket.getInputStream()));
        this.out = new DataOutputStream(new BufferedOutputStream(socket.getOutputStream()));
    }

    /**
     * Connects to a master's heartbeat port.
     *
     * @param timeoutMs bounds the connect and each exchange's wait for its answer
     * @throws ElasTrasException UNREACHABLE if the connection cannot be made
     */
    public static HeartbeatChannel connect(String host, int port, int timeoutMs, ProtocolCodec codec) {
        if (host == null || host.isBlank() || port < 1 || port > 65_535) {
            throw new IllegalArgumentException("a heartbeat channel needs a host and a port in 1..65535, got " + host + ":" + port);
        }
        if (timeoutMs < 1) {
            throw new IllegalArgumentException("timeoutMs must be >= 1, got " + timeoutMs);
        }
        String address = host + ":" + port;
        Socket socket = new Socket();
        try {
            socket.setTcpNoDelay(true);
            socket.connect(new InetSocketAddress(host, port), timeoutMs);
            socket.setSoTimeout(timeoutMs);
            return new HeartbeatChannel(address, codec, socket);
        } catch (IOException e) {
            closeQuietly(socket);
            throw new ElasTrasException(ErrorCode.UNREACHABLE, "cannot connect to the master's heartbeat port " + address
                    + " (" + e + "); nothing was sent", e);
        }
    }

    /**
     * One exchange: sends the request and waits for the master's answer.
     *
     * @throws ElasTrasException the master's error, or as the class comment says
     */
    public HeartbeatResponse heartbeat(HeartbeatRequest request) {
        if (closed) {
            throw new ElasTrasException(ErrorCode.UNREACHABLE, "the heartbeat channel to " + address
                    + " is closed; nothing was sent");
        }
        byte[] body = codec.encode(request, WireFormat.SMILE);
        if (body.length > codec.bodyBytesMax()) {
            throw new ElasTrasException(ErrorCode.LIMIT_EXCEEDED, "heartbeat request encodes to " + body.length
                    + " bytes; the limit is " + codec.bodyBytesMax() + "; nothing was sent");
        }
        try {
            writeFrame(out, body);
            out.flush();
        } catch (IOException e) {
            close();
            throw new ElasTrasException(ErrorCode.OUTCOME_UNKNOWN, "heartbeat to " + address + " failed while sending ("
                    + e + "); it may or may not have been applied", e);
        }
        int status;
        byte[] answer;
        try {
            status = in.readUnsignedByte();
            answer = readFrame(in, codec.bodyBytesMax());
        } catch (IOException e) {
            close();
            String what = e instanceof SocketTimeoutException ? "got no answer within " + soTimeoutMs() + " ms"
                    : e instanceof EOFException ? "was closed by the master before its answer" : "failed (" + e + ")";
            throw new ElasTrasException(ErrorCode.OUTCOME_UNKNOWN, "heartbeat to " + address + " " + what
                    + "; it may or may not have been applied", e);
        }
        if (status == STATUS_OK) {
            try {
                return codec.decode(answer, HeartbeatResponse.class, WireFormat.SMILE, Operation.HEARTBEAT.wireName() + " response");
            } catch (ElasTrasException e) {
                close();
                throw new ElasTrasException(ErrorCode.INTERNAL, "heartbeat to " + address
                        + " was answered but the answer could not be decoded: " + e.getMessage(), e);
            }
        }
        if (status == STATUS_ERROR) {
            ErrorResponse error;
            try {
                error = codec.decode(answer, ErrorResponse.class, WireFormat.SMILE, "error");
            } catch (ElasTrasException e) {
                close();
                throw new ElasTrasException(ErrorCode.INTERNAL, "heartbeat to " + address
                        + " was refused with an error this client cannot decode: " + e.getMessage(), e);
            }
            throw error.toException();
        }
        close();
        throw new ElasTrasException(ErrorCode.INTERNAL, "heartbeat to " + address + " was answered with status byte "
                + status + ", which is not the heartbeat protocol's; is that an ElasTraS master?");
    }

    private int soTimeoutMs() {
        try {
            return socket.getSoTimeout();
        } catch (IOException e) {
            return -1;
        }
    }

    /** Writes a length and a body (the caller flushes). */
    public static void writeFrame(DataOutputStream out, byte[] body) throws IOException {
        out.writeInt(body.length);
        out.write(body);
    }

    /**
     * Reads a length and a body of at most {@code bytesMax} bytes.
     *
     * @throws FrameTooLargeException if the length is negative or above {@code bytesMax}; nothing
     *     of the body was read, so the stream is no longer in step
     */
    public static byte[] readFrame(DataInputStream in, int bytesMax) throws IOException {
        int length = in.readInt();
        if (length < 0 || length > bytesMax) {
            throw new FrameTooLargeException("a heartbeat frame of " + length + " bytes; the limit is " + bytesMax);
        }
        byte[] body = new byte[length];
        in.readFully(body);
        return body;
    }

    /** A frame's length is outside the bounds. */
    public static final class FrameTooLargeException extends IOException {
        public FrameTooLargeException(String message) {
            super(message);
        }
    }

    /** Closes the connection. Idempotent. */
    @Override
    public void close() {
        closed = true;
        closeQuietly(socket);
    }

    private static void closeQuietly(Socket socket) {
        try {
            socket.close();
        } catch (IOException e) {
            // Nothing to do: the connection is gone either way.
        }
    }

    @Override
    public String toString() {
        return "HeartbeatChannel(" + address + ")";
    }
}
