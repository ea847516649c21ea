package org.elastras.client;

import org.elastras.catalog.meta.ZkPaths;

/**
 * The settings of an {@link ElasTrasClient}. Immutable; checked when built.
 *
 * @param zkRoot the root of ElasTraS's ZooKeeper nodes, e.g. {@code /elastras}
 * @param zkSessionTimeoutMs the client's ZooKeeper session timeout, in milliseconds
 * @param zkConnectTimeoutMs how long {@link ElasTrasClient#connect} waits for ZooKeeper, in milliseconds
 * @param connectTimeoutMs how long to wait for a connection to an OTM, in milliseconds
 * @param requestTimeoutMs how long one request to an OTM may take, in milliseconds; past it the
 *     request's outcome is unknown
 * @param retryDeadlineMs how long after its first attempt a request (or a
 *     {@link ElasTrasClient#runInTransaction} transaction) may still be retried, in milliseconds: the
 *     longest a failover may show as latency before it shows as an error
 * @param attemptsMax the most attempts of one request or transaction
 * @param backoffMinMs the first pause between attempts, in milliseconds
 * @param backoffMaxMs the longest pause between attempts, in milliseconds
 * @param cachedLocationsMax the most partition locations cached
 * @param otmConnectionsMax the most OTMs connected to at once (one multiplexed connection each)
 * @param jitterSeed seed of the backoff jitter
 */
public record ElasTrasClientConfig(String zkRoot, int zkSessionTimeoutMs, long zkConnectTimeoutMs,
        long connectTimeoutMs, long requestTimeoutMs, long retryDeadlineMs, int attemptsMax, long backoffMinMs,
        long backoffMaxMs, int cachedLocationsMax, int otmConnectionsMax, long jitterSeed) {

    public ElasTrasClientConfig {
        new ZkPaths(zkRoot);
        requireRange("zkSessionTimeoutMs", zkSessionTimeoutMs, 1_000, 600_000);
        requireRange("zkConnectTimeoutMs", zkConnectTimeoutMs, 1, 600_000);
        requireRange("connectTimeoutMs", connectTimeoutMs, 1, 600_000);
        requireRange("requestTimeoutMs", requestTimeoutMs, 1, 3_600_000);
        requireRange("cachedLocationsMax", cachedLocationsMax, 1, 10_000_000);
        requireRange("otmConnectionsMax", otmConnectionsMax, 1, 100_000);
        retryPolicy(retryDeadlineMs, attemptsMax, backoffMinMs, backoffMaxMs);
    }

    private static RetryPolicy retryPolicy(long deadlineMs, int attemptsMax, long backoffMinMs, long backoffMaxMs) {
        return new RetryPolicy(deadlineMs, attemptsMax, backoffMinMs, backoffMaxMs);
    }

    private static void requireRange(String name, long value, long min, long max) {
        if (value < min || value > max) {
            throw new IllegalArgumentException(name + " must be " + min + " to " + max + ", got " + value);
        }
    }

    /**
     * Root {@code /elastras}; ZooKeeper session 15 s, 15 s to connect; OTM connect 2 s, requests
     * 10 s; retries for 30 s, at most 1000 attempts, backoff 10 ms doubling to 1 s; 100,000 cached
     * locations, 256 OTM connections; jitter seeded from the clock.
     */
    public static ElasTrasClientConfig defaults() {
        return new ElasTrasClientConfig(ZkPaths.DEFAULT_ROOT, 15_000, 15_000, 2_000, 10_000, 30_000, 1_000, 10, 1_000,
                100_000, 256, System.nanoTime());
    }

    public ElasTrasClientConfig withZkRoot(String root) {
        return new ElasTrasClientConfig(root, zkSessionTimeoutMs, zkConnectTimeoutMs, connectTimeoutMs, requestTimeoutMs,
                retryDeadlineMs, attemptsMax, backoffMinMs, backoffMaxMs, cachedLocationsMax, otmConnectionsMax, jitterSeed);
    }

    public ElasTrasClientConfig withRequestTimeoutMs(long ms) {
        return new ElasTrasClientConfig(zkRoot, zkSessionTimeoutMs, zkConnectTimeoutMs, connectTimeoutMs, ms,
                retryDeadlineMs, attemptsMax, backoffMinMs, backoffMaxMs, cachedLocationsMax, otmConnectionsMax, jitterSeed);
    }

    public ElasTrasClientConfig withRetryDeadlineMs(long ms) {
        return new ElasTrasClientConfig(zkRoot, zkSessionTimeoutMs, zkConnectTimeoutMs, connectTimeoutMs, requestTimeoutMs,
                ms, attemptsMax, backoffMinMs, backoffMaxMs, cachedLocationsMax, otmConnectionsMax, jitterSeed);
    }

    public ElasTrasClientConfig withBackoffMs(long minMs, long maxMs) {
        return new ElasTrasClientConfig(zkRoot, zkSessionTimeoutMs, zkConnectTimeoutMs, connectTimeoutMs, requestTimeoutMs,
                retryDeadlineMs, attemptsMax, minMs, maxMs, cachedLocationsMax, otmConnectionsMax, jitterSeed);
    }

    public ElasTrasClientConfig withLimits(int cachedLocations, int otmConnections) {
        return new ElasTrasClientConfig(zkRoot, zkSessionTimeoutMs, zkConnectTimeoutMs, connectTimeoutMs, requestTimeoutMs,
                retryDeadlineMs, attemptsMax, backoffMinMs, backoffMaxMs, cachedLocations, otmConnections, jitterSeed);
    }

    /** The retry policy these settings describe. */
    RetryPolicy retryPolicy() {
        return retryPolicy(retryDeadlineMs, attemptsMax, backoffMinMs, backoffMaxMs);
    }
}
