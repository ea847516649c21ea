package org.elastras.otm.http;

import org.elastras.client.protocol.ProtocolCodec;

/**
 * How an {@link ProtocolServer} listens and how much it takes on. Immutable; checked when built.
 *
 * <p>Two bounded pools: Jetty's own I/O pool ({@code ioThreadsMax}: selectors, acceptors, reading
 * bodies, writing answers) and the worker pool that runs {@link OtmService} calls
 * ({@code workerThreads} threads over a queue of {@code workerQueueMax} waiting requests). A request
 * that finds the worker queue full is answered {@code OVERLOADED} at once.
 *
 * @param host the address to bind, e.g. {@code 127.0.0.1} or {@code 0.0.0.0}
 * @param port the port, 0 for an ephemeral one (see {@link ProtocolServer#port()})
 * @param bodyBytesMax the largest request body, in bytes; larger ones are answered 413
 * @param nestingDepthMax the deepest nesting of objects and arrays in a body
 * @param ioThreadsMax Jetty's I/O pool size, 8 to 1024
 * @param workerThreads threads calling the service, 1 to 4096
 * @param workerQueueMax requests that may wait for a worker, 1 to 1,000,000
 * @param idleTimeoutMs how long an idle connection stays open, in milliseconds
 * @param streamsPerConnectionMax the most concurrent HTTP/2 streams on one connection
 */
public record ProtocolServerConfig(String host, int port, int bodyBytesMax, int nestingDepthMax, int ioThreadsMax,
                                  int workerThreads, int workerQueueMax, long idleTimeoutMs,
                                  int streamsPerConnectionMax) {

    public ProtocolServerConfig {
        if (host == null || host.isBlank()) {
            throw new IllegalArgumentException("host is missing; give an address to bind such as 127.0.0.1");
        }
        require("port", port, 0, 65_535);
        require("bodyBytesMax", bodyBytesMax, 1024, 256 * 1024 * 1024);
        require("nestingDepthMax", nestingDepthMax, 4, 1000);
        require("ioThreadsMax", ioThreadsMax, 8, 1024);
        require("workerThreads", workerThreads, 1, 4096);
        require("workerQueueMax", workerQueueMax, 1, 1_000_000);
        if (idleTimeoutMs < 1 || idleTimeoutMs > 3_600_000) {
            throw new IllegalArgumentException("idleTimeoutMs must be 1 to 3600000, got " + idleTimeoutMs);
        }
        require("streamsPerConnectionMax", streamsPerConnectionMax, 1, 65_536);
    }

    private static void require(String name, int value, int min, int max) {
        if (value < min || value > max) {
            throw new IllegalArgumentException(name + " must be " + min + " to " + max + ", got " + value);
        }
    }

    /** Defaults for {@code host:port}: 4 MiB bodies, 64 workers over a queue of 1024, 30 s idle connections. */
    public static ProtocolServerConfig defaults(String host, int port) {
        return new ProtocolServerConfig(host, port, ProtocolCodec.BODY_BYTES_MAX_DEFAULT,
                ProtocolCodec.NESTING_DEPTH_MAX_DEFAULT, 32, 64, 1024, 30_000, 1024);
    }

    /** This config with another worker pool. */
    public ProtocolServerConfig withWorkers(int threads, int queueMax) {
        return new ProtocolServerConfig(host, port, bodyBytesMax, nestingDepthMax, ioThreadsMax, threads, queueMax,
                idleTimeoutMs, streamsPerConnectionMax);
    }

    /** This config with another body bound. */
    public ProtocolServerConfig withBodyBytesMax(int bytes) {
        return new ProtocolServerConfig(host, port, bytes, nestingDepthMax, ioThreadsMax, workerThreads, workerQueueMax,
                idleTimeoutMs, streamsPerConnectionMax);
    }
}
