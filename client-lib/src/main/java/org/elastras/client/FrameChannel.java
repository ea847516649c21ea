package org.elastras.client;

import java.io.BufferedInputStream;
import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.elastras.client.protocol.ElasTrasException;
import org.elastras.client.protocol.ErrorCode;
import org.elastras.client.protocol.Frames;
import org.elastras.client.protocol.Operation;

/**
 * The client's side of the framed transport ({@link Frames}) to one server: one TCP connection,
 * any number of calls in flight on it. A caller writes its request frame itself (under the
 * connection's write lock) and a reader thread of the connection completes each call's future
 * with its answer as it arrives; so a call costs the server's reply and one wake-up here, with no
 * HTTP/2 streams, headers or flow-control frames. Thread-safe.
 *
 * <p>The connection is opened on the first call and again after it failed; a failed connection
 * fails every call in flight on it OUTCOME_UNKNOWN (they were sent), a call that could not be
 * written at all fails UNREACHABLE. Bounds: at most {@code requestsQueuedMax} calls in flight
 * (more fail OVERLOADED at once), each answered within {@code requestTimeoutMs} or failed
 * OUTCOME_UNKNOWN by a sweep every {@link #SWEEP_MS} ms (which also closes the connection when a
 * write has been stuck that long, and when it has been idle for {@link ProtocolClient}'s client
 * idle timeout, before the server's idle timeout can race a new call), answers up to
 * {@code responseBytesMax} bytes (a larger one is read and dropped and its call fails
 * LIMIT_EXCEEDED).
 */
final class FrameChannel implements AutoCloseable {

    /** How often calls past their deadline, stuck writes and idle connections are looked for. */
    static final long SWEEP_MS = 100;

    /** One daemon thread sweeps every channel of the process. */
    private static final ScheduledExecutorService SWEEPER = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "elastras-frames-sweep");
        t.setDaemon(true);
        return t;
    });

    /** What came back for one call: the status byte's meaning and the body. */
    record Reply(boolean ok, byte[] body) {
    }

    /** One call in flight. */
    private record Pending(Operation op, long deadlineNanos, CompletableFuture<Reply> reply) {
    }

    private final String host;
    private final int port;
    private final String address;
    private final OtmClientConfig config;
    private final AtomicLong ids = new AtomicLong();
    private final ScheduledFuture<?> sweep;
    /** Guarded by this: the open connection, null before the first call and after a failure. */
    private Link link;
    /** Guarded by this. */
    private boolean closed;

    FrameChannel(String host, int port, OtmClientConfig config) {
        this.host = host;
        this.port = port;
        this.address = host + ":" + port;
        this.config = config;
        this.sweep = SWEEPER.scheduleWithFixedDelay(this::sweep, SWEEP_MS, SWEEP_MS, TimeUnit.MILLISECONDS);
    }

    /**
     * Sends one call; the future completes (on the connection's reader thread, which whoever
     * completes on it must not block) with the answer, or with the {@link ElasTrasException} the
     * class comment names.
     *
     * @param body the encoded request, within the server's bound (the caller checked)
     */
    CompletableFuture<Reply> send(Operation op, byte[] body) {
        Link l;
        try {
            l = link();
        } catch (ElasTrasException e) {
            return CompletableFuture.failedFuture(e);
        }
        if (l.pending.size() >= config.requestsQueuedMax()) {
            return CompletableFuture.failedFuture(new ElasTrasException(ErrorCode.OVERLOADED, l.pending.size()
                    + " calls to " + address + " are in flight; back off and retry"));
        }
        long id = ids.incrementAndGet();
        Pending call = new Pending(op, System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(config.requestTimeoutMs()),
                new CompletableFuture<>());
        l.pending.put(id, call);
        l.write(id, Frames.request(id, op, body), call);
        return call.reply;
    }

    private synchronized Link link() {
        if (closed) {
            throw new ElasTrasException(ErrorCode.UNREACHABLE, "this client of " + address + " is closed; nothing was sent");
        }
        if (link != null && !link.failed) {
            return link;
        }
        Socket socket = new Socket();
        try {
            socket.setTcpNoDelay(true);
            socket.connect(new InetSocketAddress(host, port), (int) Math.min(Integer.MAX_VALUE, config.connectTimeoutMs()));
            socket.getOutputStream().write(Frames.preamble());
        } catch (IOException e) {
            closeQuietly(socket);
            throw new ElasTrasException(ErrorCode.UNREACHABLE, "cannot connect to " + address + " (" + e
                    + "); the request was not sent", e);
        }
        link = new Link(socket);
        return link;
    }

    private void sweep() {
        Link l;
        synchronized (this) {
            l = link;
        }
        if (l == null || l.failed) {
            return;
        }
        long now = System.nanoTime();
        long writing = l.writeStartedNanos;
        if (writing != 0 && now - writing > TimeUnit.MILLISECONDS.toNanos(config.requestTimeoutMs())) {
            l.fail("a write to " + address + " has not finished within " + config.requestTimeoutMs() + " ms", null);
            return;
        }
        for (Map.Entry<Long, Pending> e : l.pending.entrySet()) {
            Pending p = e.getValue();
            if (now - p.deadlineNanos > 0 && l.pending.remove(e.getKey(), p)) {
                p.reply.completeExceptionally(new ElasTrasException(ErrorCode.OUTCOME_UNKNOWN, p.op.wireName() + " to "
                        + address + " got no answer within " + config.requestTimeoutMs()
                        + " ms; it may or may not have taken effect"));
            }
        }
        if (l.pending.isEmpty() && now - l.lastUsedNanos > TimeUnit.MILLISECONDS.toNanos(ProtocolClient.CLIENT_IDLE_TIMEOUT_MS)) {
            synchronized (this) {
                // Taken out of use first, so that no new call starts on it while it closes.
                if (link == l && l.pending.isEmpty()) {
                    link = null;
                } else {
                    return;
                }
            }
            l.fail("idle", null);
        }
    }

    /** Closes the connection; calls in flight fail OUTCOME_UNKNOWN. Idempotent. */
    @Override
    public void close() {
        Link l;
        synchronized (this) {
            closed = true;
            l = link;
            link = null;
        }
        sweep.cancel(false);
        if (l != null) {
            l.fail("this client of " + address + " was closed", null);
        }
    }

    private static void closeQuietly(Socket socket) {
        try {
            socket.close();
        } catch (IOException e) {
            // Gone either way.
        }
    }

    /** One connection: its socket, its calls in flight and the thread reading its answers. */
    private final class Link {
        private final Socket socket;
        private final OutputStream out;
        private final Map<Long, Pending> pending = new ConcurrentHashMap<>();
        private final Object writeLock = new Object();
        private volatile boolean failed;
        /** When the write under way began, 0 if none. */
        private volatile long writeStartedNanos;
        private volatile long lastUsedNanos = System.nanoTime();

        Link(Socket socket) throws ElasTrasException {
            this.socket = socket;
            try {
                this.out = socket.getOutputStream();
            } catch (IOException e) {
                closeQuietly(socket);
                throw new ElasTrasException(ErrorCode.UNREACHABLE, "cannot write to " + address + " (" + e
                        + "); the request was not sent", e);
            }
            Thread reader = new Thread(this::read, "elastras-frames-" + address);
            reader.setDaemon(true);
            reader.start();
        }

        void write(long id, byte[] frame, Pending call) {
            lastUsedNanos = System.nanoTime();
            synchronized (writeLock) {
                if (failed) {
                    pending.remove(id);
                    call.reply.completeExceptionally(new ElasTrasException(ErrorCode.UNREACHABLE, call.op.wireName() + " to "
                            + address + ": the connection was lost before the request was sent"));
                    return;
                }
                writeStartedNanos = lastUsedNanos;
                try {
                    out.write(frame);
                } catch (IOException e) {
                    writeStartedNanos = 0;
                    // Some of the frame may have gone out, and the server runs whatever whole frame it reads.
                    fail(call.op.wireName() + " to " + address + " failed while it was being sent (" + e + ")", e);
                    return;
                }
                writeStartedNanos = 0;
            }
        }

        private void read() {
            try (DataInputStream in = new DataInputStream(new BufferedInputStream(socket.getInputStream(), 64 * 1024))) {
                while (true) {
                    int length = in.readInt();
                    long id = in.readLong();
                    int status = in.readUnsignedByte();
                    int bodyLength = length - Frames.ANSWER_HEADER_BYTES;
                    if (bodyLength < 0 || (status != Frames.STATUS_OK && status != Frames.STATUS_ERROR)) {
                        fail("the answer from " + address + " is not the framed protocol's (length " + length + ", status "
                                + status + "); is that an ElasTraS server?", null);
                        return;
                    }
                    Pending call = pending.remove(id);
                    if (bodyLength > config.responseBytesMax()) {
                        in.skipNBytes(bodyLength);
                        if (call != null) {
                            call.reply.completeExceptionally(new ElasTrasException(ErrorCode.LIMIT_EXCEEDED,
                                    call.op.wireName() + " to " + address + " was answered with " + bodyLength
                                            + " bytes, more than " + config.responseBytesMax()
                                            + "; it was processed but the answer was dropped (ask for less)"));
                        }
                        continue;
                    }
                    byte[] body = new byte[bodyLength];
                    in.readFully(body);
                    lastUsedNanos = System.nanoTime();
                    if (call != null) {
                        call.reply.complete(new Reply(status == Frames.STATUS_OK, body));
                    }
                }
            } catch (IOException e) {
                fail(e instanceof EOFException ? "the connection to " + address + " was closed"
                        : "the connection to " + address + " failed (" + e + ")", e);
            }
        }

        /** Closes the connection and fails every call in flight on it: they were sent. */
        void fail(String why, Throwable cause) {
            failed = true;
            closeQuietly(socket);
            List<Pending> lost = new ArrayList<>(pending.values());
            pending.clear();
            for (Pending p : lost) {
                p.reply.completeExceptionally(new ElasTrasException(ErrorCode.OUTCOME_UNKNOWN, p.op.wireName() + " to "
                        + address + " was sent, but " + why + " before its answer; it may or may not have taken effect",
                        cause));
            }
        }
    }
}
