package org.elastras.master.cluster;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.elastras.client.HeartbeatChannel;
import org.elastras.client.protocol.ElasTrasException;
import org.elastras.client.protocol.ErrorCode;
import org.elastras.client.protocol.ErrorResponse;
import org.elastras.client.protocol.HeartbeatRequest;
import org.elastras.client.protocol.HeartbeatResponse;
import org.elastras.client.protocol.Operation;
import org.elastras.client.protocol.ProtocolCodec;
import org.elastras.client.protocol.WireFormat;

/**
 * The master's heartbeat port: OTMs exchange heartbeats over plain TCP connections
 * ({@link HeartbeatChannel} has the frames and why), each connection read by a thread of its own
 * that calls the same handler as the HTTP endpoint's {@code heartbeat} operation. Bounded: at most
 * {@code connectionsMax} connections (one more is closed at once; the OTM falls back to retrying),
 * bodies at most the codec's {@code bodyBytesMax}, and a connection idle for {@code idleTimeoutMs}
 * is closed.
 *
 * <p>No input can crash it: a body that does not decode is answered MALFORMED_REQUEST and the
 * connection stays in step; a frame length out of bounds is answered LIMIT_EXCEEDED and the
 * connection closed (the stream is out of step); a handler error is answered as the HTTP endpoint
 * would answer it.
 */
final class HeartbeatListener implements AutoCloseable {

    private static final Logger LOG = Logger.getLogger(HeartbeatListener.class.getName());

    private final Function<HeartbeatRequest, HeartbeatResponse> handler;
    private final ProtocolCodec codec;
    private final int connectionsMax;
    private final int idleTimeoutMs;
    private final ServerSocket server;
    private final Thread acceptor;
    private final Set<Socket> open = ConcurrentHashMap.newKeySet();
    private volatile boolean closed;

    /**
     * Binds an ephemeral port on {@code host}; {@link #start} begins accepting.
     *
     * @throws IOException if the port cannot be bound
     */
    HeartbeatListener(String host, Function<HeartbeatRequest, HeartbeatResponse> handler, ProtocolCodec codec,
            int connectionsMax, int idleTimeoutMs) throws IOException {
        if (connectionsMax < 1 || idleTimeoutMs < 1) {
            throw new IllegalArgumentException("connectionsMax and idleTimeoutMs must be >= 1, got " + connectionsMax
                    + " and " + idleTimeoutMs);
        }
        this.handler = handler;
        this.codec = codec;
        this.connectionsMax = connectionsMax;
        this.idleTimeoutMs = idleTimeoutMs;
        this.server = new ServerSocket();
        server.setReuseAddress(true);
        server.bind(new InetSocketAddress(InetAddress.getByName(host), 0), 128);
        this.acceptor = new Thread(this::accept, "master-heartbeat-accept");
        acceptor.setDaemon(true);
    }

    void start() {
        acceptor.start();
    }

    /** The bound port. */
    int port() {
        return server.getLocalPort();
    }

    /** Connections open now. */
    int connections() {
        return open.size();
    }

    private void accept() {
        while (!closed) {
            Socket socket;
            try {
                socket = server.accept();
            } catch (IOException e) {
                if (!closed) {
                    LOG.log(Level.WARNING, "the heartbeat port stopped accepting", e);
                }
                return;
            }
            if (open.size() >= connectionsMax) {
                LOG.warning(() -> "heartbeat connection from " + socket.getRemoteSocketAddress() + " refused: "
                        + connectionsMax + " are open");
                closeQuietly(socket);
                continue;
            }
            open.add(socket);
            Thread reader = new Thread(() -> serve(socket), "master-heartbeat-" + socket.getPort());
            reader.setDaemon(true);
            try {
                reader.start();
            } catch (OutOfMemoryError | RuntimeException e) {
                open.remove(socket);
                closeQuietly(socket);
                LOG.log(Level.WARNING, "cannot start a thread for a heartbeat connection", e);
            }
        }
    }

    private void serve(Socket socket) {
        try (socket) {
            socket.setTcpNoDelay(true);
            socket.setSoTimeout(idleTimeoutMs);
            DataInputStream in = new DataInputStream(new BufferedInputStream(socket.getInputStream()));
            DataOutputStream out = new DataOutputStream(new BufferedOutputStream(socket.getOutputStream()));
            while (!closed) {
                byte[] body;
                try {
                    body = HeartbeatChannel.readFrame(in, codec.bodyBytesMax());
                } catch (HeartbeatChannel.FrameTooLargeException e) {
                    answerError(out, new ElasTrasException(ErrorCode.LIMIT_EXCEEDED, e.getMessage()
                            + "; the connection is closed"));
                    return;
                }
                answer(out, body);
            }
        } catch (EOFException | SocketTimeoutException e) {
            // The OTM closed the connection, or it sat idle: either is an ordinary end.
        } catch (SocketException e) {
            if (!closed) {
                LOG.fine(() -> "heartbeat connection ended: " + e);
            }
        } catch (IOException e) {
            LOG.log(Level.FINE, "heartbeat connection failed", e);
        } finally {
            open.remove(socket);
        }
    }

    private void answer(DataOutputStream out, byte[] body) throws IOException {
        HeartbeatResponse response;
        try {
            HeartbeatRequest request = (HeartbeatRequest) codec.decodeRequest(Operation.HEARTBEAT, body, WireFormat.SMILE);
            response = handler.apply(request);
        } catch (ElasTrasException e) {
            answerError(out, e);
            return;
        } catch (RuntimeException e) {
            LOG.log(Level.SEVERE, "a heartbeat failed unexpectedly", e);
            answerError(out, new ElasTrasException(ErrorCode.INTERNAL, "the heartbeat failed inside the master ("
                    + e.getClass().getSimpleName() + ": " + e.getMessage() + "); see the master's log"));
            return;
        }
        out.writeByte(HeartbeatChannel.STATUS_OK);
        HeartbeatChannel.writeFrame(out, codec.encode(response, WireFormat.SMILE));
        out.flush();
    }

    private void answerError(DataOutputStream out, ElasTrasException e) throws IOException {
        out.writeByte(HeartbeatChannel.STATUS_ERROR);
        HeartbeatChannel.writeFrame(out, codec.encode(ErrorResponse.of(e), WireFormat.SMILE));
        out.flush();
    }

    /** Stops accepting and closes every connection. Idempotent. */
    @Override
    public void close() {
        closed = true;
        try {
            server.close();
        } catch (IOException e) {
            // Closing anyway.
        }
        for (Socket socket : open) {
            closeQuietly(socket);
        }
        try {
            acceptor.join(2_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static void closeQuietly(Socket socket) {
        try {
            socket.close();
        } catch (IOException e) {
            // Nothing to do.
        }
    }
}
