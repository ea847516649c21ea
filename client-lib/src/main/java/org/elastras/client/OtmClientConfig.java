package org.elastras.client;

import org.elastras.client.protocol.ProtocolCodec;

/**
 * The bounds of an {@link OtmClient}. Immutable; checked when built.
 *
 * @param connectTimeoutMs how long to wait for a connection, in milliseconds
 * @param requestTimeoutMs how long one call may take in all (queueing, sending, the server's work,
 *     the answer), in milliseconds; past it the call fails with {@code OUTCOME_UNKNOWN}
 * @param responseBytesMax the largest answer body accepted, in bytes
 * @param requestsQueuedMax the most calls waiting for a free HTTP/2 stream; more fail at once
 * @param threadsMax the client's I/O thread pool size
 */
public record OtmClientConfig(long connectTimeoutMs, long requestTimeoutMs, int responseBytesMax,
                              int requestsQueuedMax, int threadsMax) {

    public OtmClientConfig {
        requireRange("connectTimeoutMs", connectTimeoutMs, 1, 600_000);
        requireRange("requestTimeoutMs", requestTimeoutMs, 1, 3_600_000);
        requireRange("responseBytesMax", responseBytesMax, 1024, 256L * 1024 * 1024);
        requireRange("requestsQueuedMax", requestsQueuedMax, 1, 1_000_000);
        requireRange("threadsMax", threadsMax, 4, 1024);
    }

    private static void requireRange(String name, long value, long min, long max) {
        if (value < min || value > max) {
            throw new IllegalArgumentException(name + " must be " + min + " to " + max + ", got " + value);
        }
    }

    /** 2 s to connect, 30 s a call, answers up to the codec's default body bound, 4096 queued calls, 16 threads. */
    public static OtmClientConfig defaults() {
        return new OtmClientConfig(2_000, 30_000, ProtocolCodec.BODY_BYTES_MAX_DEFAULT, 4_096, 16);
    }

    /** This config with another per-call timeout. */
    public OtmClientConfig withRequestTimeoutMs(long ms) {
        return new OtmClientConfig(connectTimeoutMs, ms, responseBytesMax, requestsQueuedMax, threadsMax);
    }

    /** This config with another connect timeout. */
    public OtmClientConfig withConnectTimeoutMs(long ms) {
        return new OtmClientConfig(ms, requestTimeoutMs, responseBytesMax, requestsQueuedMax, threadsMax);
    }
}
