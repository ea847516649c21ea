package org.elastras.otm.http;

import org.eclipse.jetty.http2.server.HTTP2CServerConnectionFactory;
import org.eclipse.jetty.server.DetectorConnectionFactory;
import org.eclipse.jetty.server.HttpConfiguration;
import org.eclipse.jetty.server.HttpConnectionFactory;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.util.BlockingArrayQueue;
import org.eclipse.jetty.util.thread.QueuedThreadPool;
import org.elastras.client.protocol.Operation;
import org.elastras.client.protocol.ProtocolCodec;

import java.io.IOException;
import java.util.Collection;
import java.util.Locale;
import java.util.Objects;

/**
 * A protocol endpoint on the network (the OTM's, {@link OtmEndpoint}, or the master's): a Jetty
 * server on one host and port speaking the framed transport ({@link FrameConnection}, what clients
 * use), HTTP/1.1 and HTTP/2 cleartext (h2c, by prior knowledge or upgrade), that hands every
 * protocol operation to a {@link ProtocolEndpoint}. Thread-safe; {@link #start()} and {@link #close()} are meant to be called
 * once each, from the thread that owns the process's lifecycle.
 *
 * <p>See {@code docs/protocol.md} for the operations, bodies, errors and limits, and
 * {@link ProtocolServerConfig} for the two bounded thread pools.
 */
public final class ProtocolServer implements AutoCloseable {

    /** How long {@link #close()} lets in-flight requests finish, in milliseconds. */
    private static final long STOP_TIMEOUT_MS = 5_000;

    private final ProtocolServerConfig config;
    private final String role;
    private final Server server;
    private final ServerConnector connector;
    private final ProtocolCodec codec;

    /**
     * A server for {@code service}, not yet listening.
     *
     * @param config where to listen and the bounds
     * @param service what answers the operations
     */
    public ProtocolServer(ProtocolServerConfig config, OtmService service) {
        this(config, new OtmEndpoint(service));
    }

    /**
     * A server for {@code endpoint}, not yet listening.
     *
     * @param config where to listen and the bounds
     * @param endpoint what answers the operations
     */
    public ProtocolServer(ProtocolServerConfig config, ProtocolEndpoint endpoint) {
        this.config = Objects.requireNonNull(config, "config");
        Objects.requireNonNull(endpoint, "endpoint");
        this.role = endpoint.role();
        String name = role.toLowerCase(Locale.ROOT);
        QueuedThreadPool io = new QueuedThreadPool(config.ioThreadsMax(), Math.min(8, config.ioThreadsMax()));
        io.setName(name + "-http-io");
        this.server = new Server(io);
        server.setStopTimeout(STOP_TIMEOUT_MS);

        HttpConfiguration http = new HttpConfiguration();
        http.setSendServerVersion(false);
        http.setSendXPoweredBy(false);
        HTTP2CServerConnectionFactory h2c = new HTTP2CServerConnectionFactory(http);
        h2c.setMaxConcurrentStreams(config.streamsPerConnectionMax());

        QueuedThreadPool workers = new QueuedThreadPool(config.workerThreads(), Math.min(4, config.workerThreads()),
                60_000, new BlockingArrayQueue<>(config.workerQueueMax()));
        workers.setName(name + "-worker");
        workers.setReservedThreads(0); // every worker thread runs queued service calls; none are held back
        server.addBean(workers, true);
        this.codec = new ProtocolCodec(config.bodyBytesMax(), config.nestingDepthMax());
        ProtocolCalls calls = new ProtocolCalls(endpoint, codec, workers, config.workerQueueMax());

        // A connection that opens with the framed transport's preamble speaks it; any other is HTTP
        // (HTTP/1.1, upgraded to h2c by prior knowledge or by an upgrade request).
        DetectorConnectionFactory framesOrHttp = new DetectorConnectionFactory(
                new FrameConnection.Factory(calls, config.streamsPerConnectionMax()));
        this.connector = new ServerConnector(server, 1, 1, framesOrHttp, new HttpConnectionFactory(http), h2c);
        connector.setHost(config.host());
        connector.setPort(config.port());
        connector.setIdleTimeout(config.idleTimeoutMs());
        server.addConnector(connector);
        server.setHandler(new ProtocolHandler(calls));
    }

    /**
     * Builds the readers and writers of these operations now rather than on their first request,
     * and runs them on the sample messages: see {@link ProtocolCodec#warmUp(Collection, Collection)}.
     */
    public void warmUp(Collection<Operation> operations, Collection<? extends Record> samples) {
        codec.warmUp(operations, samples);
    }

    /**
     * Binds and starts serving.
     *
     * @throws IOException if the address cannot be bound (in use, not local), saying which
     */
    public void start() throws IOException {
        try {
            server.start();
        } catch (IOException e) {
            stopQuietly();
            throw new IOException("cannot listen on " + config.host() + ":" + config.port() + ": " + e.getMessage()
                    + "; pick a free port (0 for any) or a local address", e);
        } catch (Exception e) {
            stopQuietly();
            throw new IllegalStateException("the " + role + " HTTP server failed to start", e);
        }
    }

    /** The port the server listens on (the chosen one when configured with 0); -1 before {@link #start()}. */
    public int port() {
        return connector.getLocalPort();
    }

    /** The address the server is bound to. */
    public String host() {
        return config.host();
    }

    /** Whether the server is started and listening. */
    public boolean isRunning() {
        return server.isRunning();
    }

    /** Stops listening, lets in-flight requests finish (bounded) and releases the threads. Idempotent. */
    @Override
    public void close() {
        try {
            server.stop();
        } catch (Exception e) {
            throw new IllegalStateException("the HTTP server did not stop cleanly", e);
        }
    }

    private void stopQuietly() {
        try {
            server.stop();
        } catch (Exception suppressed) {
            // Already failing to start; the start failure is the one to report.
        }
    }
}
