package org.elastras.otm.http;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.Optional;
import java.util.concurrent.TimeoutException;
import org.eclipse.jetty.io.AbstractConnection;
import org.eclipse.jetty.io.Connection;
import org.eclipse.jetty.io.EndPoint;
import org.eclipse.jetty.server.AbstractConnectionFactory;
import org.eclipse.jetty.server.ConnectionFactory;
import org.eclipse.jetty.server.Connector;
import org.eclipse.jetty.util.BufferUtil;
import org.eclipse.jetty.util.IteratingCallback;
import org.elastras.client.protocol.ElasTrasException;
import org.elastras.client.protocol.ErrorCode;
import org.elastras.client.protocol.Frames;
import org.elastras.client.protocol.Operation;
import org.elastras.client.protocol.WireFormat;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One connection of the framed transport ({@link Frames}) on the protocol server's port: reads
 * request frames on Jetty's I/O thread as bytes arrive, hands each call to the worker pool, and
 * the worker writes its answer frame (answers queued meanwhile go out together in one write).
 * Over HTTP/2 a call crossed the selector, a Jetty thread and a worker and its answer went back
 * through the session's flusher, with flow-control frames both ways; here a call costs one
 * hand-off each way (BENCHMARKS.md, session 28).
 *
 * <p>Bounds: a request body as the HTTP transport's ({@code bodyBytesMax}; a larger one is read and
 * dropped, and its call answered LIMIT_EXCEEDED), at most {@code callsMax} calls in flight on the
 * connection (more are answered OVERLOADED), and the worker queue's bound (OVERLOADED); calls that
 * arrive while the server stops are answered NOT_SERVING without running. A frame
 * whose header is not the protocol's closes the connection: nothing in the stream can be trusted
 * after it. The connection is not closed as idle while a call runs, unless the server is stopping.
 *
 * <p>Thread-safety: reading runs on one thread at a time (Jetty's fill-interest contract); answers
 * are queued under a lock from any worker.
 */
final class FrameConnection extends AbstractConnection implements Connection.UpgradeTo {

    private static final Logger LOG = LoggerFactory.getLogger(FrameConnection.class);
    /** The first read buffer; it grows for a larger frame, up to the largest a request may be. */
    private static final int BUFFER_BYTES_INITIAL = 16 * 1024;

    /** Tells framed connections from HTTP by their preamble and makes them. Immutable. */
    static final class Factory extends AbstractConnectionFactory implements ConnectionFactory.Detecting {
        static final String PROTOCOL = "elastras-frames";
        private final ProtocolCalls calls;
        private final int callsMax;

        Factory(ProtocolCalls calls, int callsMax) {
            super(PROTOCOL);
            this.calls = calls;
            this.callsMax = callsMax;
        }

        @Override
        public Detection detect(ByteBuffer buffer) {
            Boolean framed = Frames.startsWithPreamble(buffer);
            return framed == null ? Detection.NEED_MORE_BYTES : framed ? Detection.RECOGNIZED : Detection.NOT_RECOGNIZED;
        }

        @Override
        public Connection newConnection(Connector connector, EndPoint endPoint) {
            return configure(new FrameConnection(endPoint, connector, calls, callsMax), connector, endPoint);
        }
    }

    private final Connector connector;
    private final ProtocolCalls calls;
    private final int callsMax;
    private final int bodyBytesMax;
    private final String client;
    private final Answers answers = new Answers();
    /** Read thread only: bytes read and not yet parsed, in Jetty's flush mode (position to limit). */
    private ByteBuffer in = BufferUtil.allocate(BUFFER_BYTES_INITIAL);
    /** Read thread only: whether the preamble was consumed. */
    private boolean preambleRead;
    /** Read thread only: bytes of a refused request still to drop. */
    private long skipping;
    /** Guarded by {@link #answers}: calls read and not yet answered. */
    private int inFlight;

    private FrameConnection(EndPoint endPoint, Connector connector, ProtocolCalls calls, int callsMax) {
        super(endPoint, connector.getExecutor());
        this.connector = connector;
        this.calls = calls;
        this.callsMax = callsMax;
        this.bodyBytesMax = calls.codec().bodyBytesMax();
        this.client = String.valueOf(endPoint.getRemoteSocketAddress()).replaceFirst("^/", "");
    }

    @Override
    public InvocationType getInvocationType() {
        // Parsing and handing calls to workers never blocks: run it on the selector's thread.
        return InvocationType.NON_BLOCKING;
    }

    @Override
    public void onUpgradeTo(ByteBuffer prefilled) {
        if (BufferUtil.hasContent(prefilled)) {
            ensureSpace(prefilled.remaining());
            BufferUtil.append(in, prefilled);
        }
    }

    @Override
    public void onOpen() {
        super.onOpen();
        onFillable();
    }

    @Override
    public void onFillable() {
        try {
            while (true) {
                if (!parse()) {
                    return;
                }
                int read = getEndPoint().fill(in);
                if (read == 0) {
                    fillInterested();
                    return;
                }
                if (read < 0) {
                    getEndPoint().close();
                    return;
                }
            }
        } catch (Throwable t) {
            LOG.debug("framed connection from {} failed", client, t);
            getEndPoint().close(t);
        }
    }

    /**
     * Consumes every whole frame in {@link #in} and makes room for the next.
     *
     * @return false if the connection was closed for a malformed frame
     */
    private boolean parse() {
        if (!preambleRead) {
            if (in.remaining() < Frames.preambleLength()) {
                return true;
            }
            if (!Boolean.TRUE.equals(Frames.startsWithPreamble(in))) {
                return refuse("the framed protocol's preamble");
            }
            in.position(in.position() + Frames.preambleLength());
            preambleRead = true;
        }
        while (true) {
            if (skipping > 0) {
                int drop = (int) Math.min(skipping, in.remaining());
                in.position(in.position() + drop);
                skipping -= drop;
                if (skipping > 0) {
                    break;
                }
            }
            if (in.remaining() < 4 + Frames.REQUEST_HEADER_BYTES) {
                break;
            }
            int at = in.position();
            int length = in.getInt(at);
            if (length < Frames.REQUEST_HEADER_BYTES) {
                return refuse("a request frame of " + length + " bytes");
            }
            long id = in.getLong(at + 4);
            int nameLength = in.get(at + 12) & 0xff;
            if (nameLength == 0 || nameLength > Frames.OPERATION_NAME_MAX || nameLength > length - Frames.REQUEST_HEADER_BYTES) {
                return refuse("an operation name of " + nameLength + " bytes");
            }
            // The body's own length against the limit (not the frame's against the limit plus the
            // longest name): a body just over the limit under a short name went to a worker, whose
            // refusal could then come after the answers to later calls.
            if (length - Frames.REQUEST_HEADER_BYTES - nameLength > bodyBytesMax) {
                if (in.remaining() < 4 + Frames.REQUEST_HEADER_BYTES + nameLength) {
                    break;
                }
                // Answered without its body, which is read and dropped: the stream stays in step.
                in.position(at + 4 + Frames.REQUEST_HEADER_BYTES + nameLength);
                skipping = length - Frames.REQUEST_HEADER_BYTES - nameLength;
                answer(id, calls.error(WireFormat.SMILE, new ElasTrasException(ErrorCode.LIMIT_EXCEEDED,
                        "request body is " + skipping + " bytes; the limit is " + bodyBytesMax)), false);
                continue;
            }
            if (in.remaining() < 4 + length) {
                ensureSpace(4 + length);
                break;
            }
            String name = ascii(at + 4 + Frames.REQUEST_HEADER_BYTES, nameLength);
            byte[] body = new byte[length - Frames.REQUEST_HEADER_BYTES - nameLength];
            in.position(at + 4 + Frames.REQUEST_HEADER_BYTES + nameLength);
            in.get(body);
            call(id, name, body);
        }
        if (BufferUtil.isEmpty(in)) {
            BufferUtil.clear(in);
        }
        ensureSpace(1);
        return true;
    }

    private String ascii(int at, int length) {
        byte[] name = new byte[length];
        in.get(at, name);
        return new String(name, StandardCharsets.US_ASCII);
    }

    /** Makes {@link #in} able to hold {@code bytes} unparsed bytes from its position, compacting or growing it. */
    private void ensureSpace(int bytes) {
        if (in.capacity() - in.limit() >= Math.max(bytes - in.remaining(), 1)) {
            return;
        }
        BufferUtil.compact(in);
        if (in.capacity() - in.limit() >= Math.max(bytes - in.remaining(), 1)) {
            return;
        }
        ByteBuffer bigger = BufferUtil.allocate(Math.max(bytes, in.capacity() * 2));
        BufferUtil.append(bigger, in);
        in = bigger;
    }

    private boolean refuse(String what) {
        LOG.warn("closing a framed connection from {}: {} is not the protocol's", client, what);
        getEndPoint().close();
        return false;
    }

    /** Whether the server is stopping (its connector no longer accepts connections). */
    private boolean stopping() {
        return connector.isShutdown();
    }

    private void call(long id, String name, byte[] body) {
        long arrived = System.nanoTime();
        if (stopping()) {
            answer(id, calls.error(WireFormat.SMILE, new ElasTrasException(ErrorCode.NOT_SERVING, "the "
                    + calls.endpoint().role() + " is stopping; the call was not run")), false);
            return;
        }
        Optional<Operation> op = Operation.byWireName(name);
        if (op.isEmpty() || !calls.endpoint().operations().contains(op.get())) {
            answer(id, calls.error(WireFormat.SMILE, new ElasTrasException(ErrorCode.UNKNOWN_OPERATION, "unknown operation '"
                    + name + "' for the " + calls.endpoint().role())), false);
            return;
        }
        boolean admitted;
        synchronized (answers) {
            admitted = inFlight < callsMax;
            if (admitted) {
                inFlight++;
            }
        }
        if (!admitted) {
            answer(id, calls.error(WireFormat.SMILE, new ElasTrasException(ErrorCode.OVERLOADED,
                    callsMax + " calls are in flight on this connection; wait for answers before sending more")), false);
            return;
        }
        ElasTrasException refused = calls.dispatch(() ->
                answer(id, calls.run(op.get(), WireFormat.SMILE, client, body, arrived, arrived), true));
        if (refused != null) {
            answer(id, calls.error(WireFormat.SMILE, refused), true);
        }
    }

    private void answer(long id, ProtocolCalls.Answer answer, boolean counted) {
        synchronized (answers) {
            if (counted) {
                inFlight--;
            }
            // The body is written from the encoder's array as it is, after its header (one gathering write).
            answers.queued.add(Frames.answerHeader(id, answer.ok(), answer.bytes().length));
            answers.queued.add(ByteBuffer.wrap(answer.bytes()));
        }
        try {
            answers.iterate();
        } catch (IllegalStateException e) {
            if (!answers.isClosed()) {
                throw e;
            }
            // The connection closed while the call ran: its answer has nowhere to go.
        }
    }

    @Override
    public boolean onIdleExpired(TimeoutException timeout) {
        // While the server stops, its connections close when idle for a shorter time, calls in
        // flight or not (as HTTP's do): a stop is bounded.
        synchronized (answers) {
            if (inFlight > 0 && !stopping()) {
                return false;
            }
        }
        return super.onIdleExpired(timeout);
    }

    @Override
    public void onClose(Throwable cause) {
        super.onClose(cause);
        answers.close();
    }

    /** Writes the queued answers, all that are queued in one write, one write at a time. */
    private final class Answers extends IteratingCallback {
        /** Guarded by this object's monitor (as {@code answers}): answers not yet written (a header and a body each, added together), oldest first. */
        private final ArrayDeque<ByteBuffer> queued = new ArrayDeque<>();

        @Override
        protected Action process() {
            ByteBuffer[] batch;
            synchronized (this) {
                if (queued.isEmpty()) {
                    return Action.IDLE;
                }
                batch = queued.toArray(new ByteBuffer[0]);
                queued.clear();
            }
            getEndPoint().write(this, batch);
            return Action.SCHEDULED;
        }

        @Override
        protected void onCompleteFailure(Throwable cause) {
            synchronized (this) {
                queued.clear();
            }
            getEndPoint().close(cause);
        }

        @Override
        public InvocationType getInvocationType() {
            return InvocationType.NON_BLOCKING;
        }
    }
}
