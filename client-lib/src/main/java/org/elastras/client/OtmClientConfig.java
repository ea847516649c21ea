package org.elastras.client;

import org.elastras.client.protocol.ProtocolCodec;
import org.elastras.client.protocol.ProtocolLimits;

/**
 * The bounds of an {@link OtmClient}. Immutable; checked when built.
 *
 * @param connectTimeoutMs how long to wait for a connection, in milliseconds
 * @param requestTimeoutMs how long one call may take in all (queueing, sending, the server's work,
 *     the answer), in milliseconds; past it the call fails with {@code OUTCOME_UNKNOWN}
 * @param responseBytesMax the largest answer body accepted, in bytes
 * @param requestsQueuedMax the most calls in flight on a framed connection, or waiting for a free
 *     HTTP/2 stream (and, separately, the most procedure calls waiting to be coalesced); more fail
 *     at once
 * @param threadsMax the client's I/O thread pool size
 * @param callBatchCallsMax the most procedure calls coalesced into one {@code callBatch} request;
 *     1 sends every call as its own request (no coalescing)
 * @param callBatchBytesMax the largest encoded {@code callBatch} request, in bytes (a larger batch
 *     is split)
 * @param callBatchesInFlightMax the most procedure-call requests in flight at once while coalescing;
 *     calls beyond wait for one to come back and then go together
 * @param transport how calls travel: {@link Transport#FRAMES} (the default) or HTTP/2
 */
public record OtmClientConfig(long connectTimeoutMs, long requestTimeoutMs, int responseBytesMax,
                              int requestsQueuedMax, int threadsMax, int callBatchCallsMax, int callBatchBytesMax,
                              int callBatchesInFlightMax, Transport transport) {

    /** How a client's calls travel to a server; every server speaks both on its one port. */
    public enum Transport {
        /**
         * The framed transport ({@code Frames}): one TCP connection, calls and answers as
         * length-prefixed frames with the call's id. Under TPC-C it costs the servers and the
         * client less CPU per call than HTTP/2 (BENCHMARKS.md, session 28).
         */
        FRAMES,
        /** HTTP/2 cleartext (h2c by prior knowledge), one connection with a stream per call. */
        HTTP2
    }

    /** Default most calls per coalesced request. */
    public static final int CALL_BATCH_CALLS_MAX_DEFAULT = 64;
    /** Default largest coalesced request: 1 MiB. */
    public static final int CALL_BATCH_BYTES_MAX_DEFAULT = 1 << 20;
    /**
     * Default most coalesced requests in flight: four, so that while batches wait for their syncs
     * others execute. The OTM executes at most one batch per core at once (its execution slots)
     * whatever clients send; before it did, four in flight executed side by side on two cores and
     * under TPC-C (contended rows) New-Order p99 rose from 236-283 ms to 362-625 ms, so the default
     * was two (BENCHMARKS.md, "Engine path and ..." and "Session 19").
     */
    public static final int CALL_BATCHES_IN_FLIGHT_MAX_DEFAULT = 4;

    public OtmClientConfig {
        requireRange("connectTimeoutMs", connectTimeoutMs, 1, 600_000);
        requireRange("requestTimeoutMs", requestTimeoutMs, 1, 3_600_000);
        requireRange("responseBytesMax", responseBytesMax, 1024, 256L * 1024 * 1024);
        requireRange("requestsQueuedMax", requestsQueuedMax, 1, 1_000_000);
        requireRange("threadsMax", threadsMax, 4, 1024);
        requireRange("callBatchCallsMax", callBatchCallsMax, 1, ProtocolLimits.CALL_BATCH_CALLS_MAX);
        requireRange("callBatchBytesMax", callBatchBytesMax, 1024, ProtocolCodec.BODY_BYTES_MAX_DEFAULT);
        requireRange("callBatchesInFlightMax", callBatchesInFlightMax, 1, 1024);
        if (transport == null) {
            throw new IllegalArgumentException("transport is missing; FRAMES or HTTP2");
        }
    }

    /** A config over the default transport, {@link Transport#FRAMES}. */
    public OtmClientConfig(long connectTimeoutMs, long requestTimeoutMs, int responseBytesMax, int requestsQueuedMax,
            int threadsMax, int callBatchCallsMax, int callBatchBytesMax, int callBatchesInFlightMax) {
        this(connectTimeoutMs, requestTimeoutMs, responseBytesMax, requestsQueuedMax, threadsMax, callBatchCallsMax,
                callBatchBytesMax, callBatchesInFlightMax, Transport.FRAMES);
    }

    /** A config with the default call coalescing (see {@link #defaults()}). */
    public OtmClientConfig(long connectTimeoutMs, long requestTimeoutMs, int responseBytesMax, int requestsQueuedMax,
            int threadsMax) {
        this(connectTimeoutMs, requestTimeoutMs, responseBytesMax, requestsQueuedMax, threadsMax,
                CALL_BATCH_CALLS_MAX_DEFAULT, CALL_BATCH_BYTES_MAX_DEFAULT, CALL_BATCHES_IN_FLIGHT_MAX_DEFAULT);
    }

    private static void requireRange(String name, long value, long min, long max) {
        if (value < min || value > max) {
            throw new IllegalArgumentException(name + " must be " + min + " to " + max + ", got " + value);
        }
    }

    /**
     * 2 s to connect, 30 s a call, answers up to the codec's default body bound, 4096 queued calls,
     * 16 threads; concurrent procedure calls coalesced, up to 64 calls or 1 MiB a request, 2
     * requests in flight.
     */
    public static OtmClientConfig defaults() {
        return new OtmClientConfig(2_000, 30_000, ProtocolCodec.BODY_BYTES_MAX_DEFAULT, 4_096, 16);
    }

    /** This config with another per-call timeout. */
    public OtmClientConfig withRequestTimeoutMs(long ms) {
        return new OtmClientConfig(connectTimeoutMs, ms, responseBytesMax, requestsQueuedMax, threadsMax,
                callBatchCallsMax, callBatchBytesMax, callBatchesInFlightMax, transport);
    }

    /** This config with another connect timeout. */
    public OtmClientConfig withConnectTimeoutMs(long ms) {
        return new OtmClientConfig(ms, requestTimeoutMs, responseBytesMax, requestsQueuedMax, threadsMax,
                callBatchCallsMax, callBatchBytesMax, callBatchesInFlightMax, transport);
    }

    /** This config with other call-coalescing bounds ({@code callsMax} 1: none). */
    public OtmClientConfig withCallBatching(int callsMax, int bytesMax, int inFlightMax) {
        return new OtmClientConfig(connectTimeoutMs, requestTimeoutMs, responseBytesMax, requestsQueuedMax, threadsMax,
                callsMax, bytesMax, inFlightMax, transport);
    }

    /** This config over another transport. */
    public OtmClientConfig withTransport(Transport t) {
        return new OtmClientConfig(connectTimeoutMs, requestTimeoutMs, responseBytesMax, requestsQueuedMax, threadsMax,
                callBatchCallsMax, callBatchBytesMax, callBatchesInFlightMax, t);
    }

    /** This config sending every procedure call as its own request. */
    public OtmClientConfig withoutCallBatching() {
        return withCallBatching(1, callBatchBytesMax, callBatchesInFlightMax);
    }
}
