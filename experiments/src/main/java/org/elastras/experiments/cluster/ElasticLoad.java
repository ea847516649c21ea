package org.elastras.experiments.cluster;

import java.util.Map;

/**
 * The load {@link ElasticityExperiment} ramps up and down: paced transactions at an offered rate,
 * sampled once a second, and what it checks once it ends. Driven by one thread.
 */
public interface ElasticLoad extends AutoCloseable {

    /**
     * What the load did since the previous sample: transactions committed, latencies in ms (-1
     * where the load cannot tell).
     */
    record Interval(long commits, double p50Ms, double p99Ms, double maxMs) {
    }

    /** From now on, offer {@code txnPerSecond}. */
    void offer(int txnPerSecond);

    Interval interval();

    /**
     * Stops the load and checks what it wrote.
     *
     * @return summary entries: {@code client_visible_failures} (a number), {@code first_failures},
     *     and what the check found
     * @throws IllegalStateException if an acknowledged commit was lost or doubled
     */
    Map<String, Object> finish() throws Exception;

    @Override
    void close();
}
