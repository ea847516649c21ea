package org.elastras.master.dashboard;

import java.util.Objects;

/**
 * How the master's dashboard (the page, the JSON API, {@code /metrics}, {@code /health},
 * {@code /ready}) is served. Immutable; validated at construction.
 *
 * @param host the address it listens on
 * @param port its port, 0 for any free one
 * @param adminToken the token admin actions must carry ({@code Authorization: Bearer <token>}); null
 *     disables admin actions (they answer 403 saying how to enable them)
 * @param openReads whether reads (the page's data, {@code /metrics}) are open to anyone; when false
 *     they need the admin token too
 * @param sampleIntervalMs how often the load and timestamp counters are sampled into the time series
 * @param samplesMax how many samples each time series keeps (the newest)
 */
public record DashboardConfig(String host, int port, String adminToken, boolean openReads, long sampleIntervalMs,
        int samplesMax) {

    public static final long DEFAULT_SAMPLE_INTERVAL_MS = 1_000;
    /** Five minutes at one sample a second. */
    public static final int DEFAULT_SAMPLES_MAX = 300;
    public static final int SAMPLES_MAX_LIMIT = 100_000;
    /** Longest admin token accepted (a header, not a body). */
    public static final int TOKEN_LENGTH_MAX = 256;

    public DashboardConfig {
        if (host == null || host.isBlank()) {
            throw new IllegalArgumentException("the dashboard's listen address is required, e.g. 127.0.0.1");
        }
        if (port < 0 || port > 65_535) {
            throw new IllegalArgumentException("dashboard port must be in [0, 65535], got " + port);
        }
        if (adminToken != null && (adminToken.length() < 8 || adminToken.length() > TOKEN_LENGTH_MAX
                || !adminToken.chars().allMatch(c -> c > 32 && c < 127))) {
            throw new IllegalArgumentException("the admin token must be 8 to " + TOKEN_LENGTH_MAX
                    + " printable ASCII characters without spaces");
        }
        if (sampleIntervalMs < 100 || sampleIntervalMs > 60_000) {
            throw new IllegalArgumentException("sampleIntervalMs must be in [100, 60000], got " + sampleIntervalMs);
        }
        if (samplesMax < 2 || samplesMax > SAMPLES_MAX_LIMIT) {
            throw new IllegalArgumentException("samplesMax must be in [2, " + SAMPLES_MAX_LIMIT + "], got " + samplesMax);
        }
    }

    /** A dashboard on {@code host:port} with default sampling. */
    public static DashboardConfig of(String host, int port, String adminToken, boolean openReads) {
        return new DashboardConfig(Objects.requireNonNull(host, "host"), port, adminToken, openReads,
                DEFAULT_SAMPLE_INTERVAL_MS, DEFAULT_SAMPLES_MAX);
    }

    /** Whether admin actions can be authorised at all. */
    public boolean adminEnabled() {
        return adminToken != null;
    }
}
