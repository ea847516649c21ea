package org.elastras.master.cluster;

import java.net.URI;
import java.util.Objects;
import org.elastras.catalog.meta.ZkPaths;

/**
 * How one master process is started. Immutable; validated at construction.
 *
 * @param masterId this master's id in the election (unique among masters, for logs and the latch)
 * @param zkConnect ZooKeeper connect string
 * @param zkRoot root path of ElasTraS's znodes
 * @param dfs the DFS root the OTMs use (the master fences logs there)
 * @param zkSessionTimeoutMs the master's own ZooKeeper session timeout (leadership is lost with it)
 * @param tickMs how often retries that are due are sent
 * @param otmRequestTimeoutMs how long one admin call to an OTM (an open recovers from the DFS) may take
 * @param limits the bounds of the cluster logic
 */
public record MasterConfig(String masterId, String zkConnect, String zkRoot, URI dfs, int zkSessionTimeoutMs,
        long tickMs, long otmRequestTimeoutMs, ClusterLimits limits) {

    public static final int DEFAULT_SESSION_TIMEOUT_MS = 4_000;
    public static final long DEFAULT_TICK_MS = 50;
    public static final long DEFAULT_OTM_REQUEST_TIMEOUT_MS = 60_000;

    public MasterConfig {
        ZkPaths.checkOtmId(masterId);
        if (zkConnect == null || zkConnect.isBlank()) {
            throw new IllegalArgumentException("the ZooKeeper connect string is required, e.g. 127.0.0.1:2181");
        }
        new ZkPaths(zkRoot);
        if (dfs == null || dfs.getScheme() == null) {
            throw new IllegalArgumentException("the DFS root is required: file:/path or hdfs://namenode:port/path");
        }
        if (zkSessionTimeoutMs < 1_000 || zkSessionTimeoutMs > 120_000) {
            throw new IllegalArgumentException("zkSessionTimeoutMs must be in [1000, 120000], got " + zkSessionTimeoutMs);
        }
        if (tickMs < 1 || tickMs > 10_000) {
            throw new IllegalArgumentException("tickMs must be in [1, 10000], got " + tickMs);
        }
        if (otmRequestTimeoutMs < 100 || otmRequestTimeoutMs > 3_600_000) {
            throw new IllegalArgumentException("otmRequestTimeoutMs must be in [100, 3600000], got " + otmRequestTimeoutMs);
        }
        Objects.requireNonNull(limits, "limits");
    }

    /** A config with every default. */
    public static MasterConfig defaults(String masterId, String zkConnect, String zkRoot, URI dfs) {
        return new MasterConfig(masterId, zkConnect, zkRoot, dfs, DEFAULT_SESSION_TIMEOUT_MS, DEFAULT_TICK_MS,
                DEFAULT_OTM_REQUEST_TIMEOUT_MS, ClusterLimits.DEFAULT);
    }
}
