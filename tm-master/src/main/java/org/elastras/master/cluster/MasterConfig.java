package org.elastras.master.cluster;

import java.net.URI;
import org.elastras.master.balance.BalanceConfig;
import java.util.Objects;
import org.elastras.catalog.meta.ZkPaths;
import org.elastras.master.timestamp.TimestampServiceConfig;

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
 * @param host the address the master's endpoint (heartbeats, admin) listens on
 * @param port its port, 0 for any free one
 * @param heartbeatTimeoutMs an OTM silent this long is declared failed (fenced, its partitions
 *     reassigned), even while its ZooKeeper session lives
 * @param timestamps the timestamp service's bounds
 * @param balance when and how the master moves partitions for load on its own
 * @param logCollectPeriodMs how often the active master deletes the fenced logs no partition needs
 *     any more ({@code FencedLogCollector}; a round reads every partition's manifest, but only when
 *     some fenced log could go)
 */
public record MasterConfig(String masterId, String zkConnect, String zkRoot, URI dfs, int zkSessionTimeoutMs,
        long tickMs, long otmRequestTimeoutMs, ClusterLimits limits, String host, int port, long heartbeatTimeoutMs,
        TimestampServiceConfig timestamps, BalanceConfig balance, long logCollectPeriodMs) {

    /** Short, so that a standby takes over within about this long after the active master dies. */
    public static final int DEFAULT_SESSION_TIMEOUT_MS = 2_000;
    public static final long DEFAULT_HEARTBEAT_TIMEOUT_MS = 3_000;
    public static final long DEFAULT_TICK_MS = 50;
    public static final long DEFAULT_OTM_REQUEST_TIMEOUT_MS = 60_000;
    public static final long DEFAULT_LOG_COLLECT_PERIOD_MS = 60_000;

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
        if (host == null || host.isBlank()) {
            throw new IllegalArgumentException("the master's listen address is required, e.g. 127.0.0.1");
        }
        if (port < 0 || port > 65_535) {
            throw new IllegalArgumentException("port must be in [0, 65535], got " + port);
        }
        if (heartbeatTimeoutMs < 100 || heartbeatTimeoutMs > 600_000) {
            throw new IllegalArgumentException("heartbeatTimeoutMs must be in [100, 600000], got " + heartbeatTimeoutMs);
        }
        Objects.requireNonNull(timestamps, "timestamps");
        Objects.requireNonNull(balance, "balance");
        if (logCollectPeriodMs < 100 || logCollectPeriodMs > 86_400_000) {
            throw new IllegalArgumentException("logCollectPeriodMs must be in [100, 86400000], got " + logCollectPeriodMs);
        }
    }

    /** A config with every default. */
    public static MasterConfig defaults(String masterId, String zkConnect, String zkRoot, URI dfs) {
        return new MasterConfig(masterId, zkConnect, zkRoot, dfs, DEFAULT_SESSION_TIMEOUT_MS, DEFAULT_TICK_MS,
                DEFAULT_OTM_REQUEST_TIMEOUT_MS, ClusterLimits.DEFAULT, "127.0.0.1", 0, DEFAULT_HEARTBEAT_TIMEOUT_MS,
                TimestampServiceConfig.defaults(), BalanceConfig.DEFAULT, DEFAULT_LOG_COLLECT_PERIOD_MS);
    }

    /** This config listening on {@code host:port}. */
    public MasterConfig withAddress(String host, int port) {
        return new MasterConfig(masterId, zkConnect, zkRoot, dfs, zkSessionTimeoutMs, tickMs, otmRequestTimeoutMs, limits,
                host, port, heartbeatTimeoutMs, timestamps, balance, logCollectPeriodMs);
    }

    /** This config with another heartbeat timeout. */
    public MasterConfig withHeartbeatTimeoutMs(long ms) {
        return new MasterConfig(masterId, zkConnect, zkRoot, dfs, zkSessionTimeoutMs, tickMs, otmRequestTimeoutMs, limits,
                host, port, ms, timestamps, balance, logCollectPeriodMs);
    }

    /** This config with another balancing. */
    public MasterConfig withBalance(BalanceConfig b) {
        return new MasterConfig(masterId, zkConnect, zkRoot, dfs, zkSessionTimeoutMs, tickMs, otmRequestTimeoutMs, limits,
                host, port, heartbeatTimeoutMs, timestamps, b, logCollectPeriodMs);
    }

    /** This config with other limits. */
    public MasterConfig withLimits(ClusterLimits l) {
        return new MasterConfig(masterId, zkConnect, zkRoot, dfs, zkSessionTimeoutMs, tickMs, otmRequestTimeoutMs, l,
                host, port, heartbeatTimeoutMs, timestamps, balance, logCollectPeriodMs);
    }

    /** This config with another ZooKeeper session timeout. */
    public MasterConfig withZkSessionTimeoutMs(int ms) {
        return new MasterConfig(masterId, zkConnect, zkRoot, dfs, ms, tickMs, otmRequestTimeoutMs, limits,
                host, port, heartbeatTimeoutMs, timestamps, balance, logCollectPeriodMs);
    }

    /** This config with another period of the fenced-log collection. */
    public MasterConfig withLogCollectPeriodMs(long ms) {
        return new MasterConfig(masterId, zkConnect, zkRoot, dfs, zkSessionTimeoutMs, tickMs, otmRequestTimeoutMs, limits,
                host, port, heartbeatTimeoutMs, timestamps, balance, ms);
    }
}
