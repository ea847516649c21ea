package org.elastras.master.dashboard;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import org.elastras.client.protocol.OtmLoad;
import org.elastras.client.protocol.PartitionLoad;

/**
 * Turns the counters OTMs report in their heartbeats (commits and aborts per partition, counted
 * from when the OTM opened it) and the timestamp counters into rates and bounded time series: each
 * {@link #record} is one sample, compared with the one before. Thread-safe (every method is
 * synchronized): a sampler thread records, request threads read.
 *
 * <p>A partition's rate counts only between two reports of the same OTM: a partition that appears
 * (opened, moved, or first seen after a failover) is a baseline, and a counter that went down (the
 * OTM restarted under the same id) counts as zero, so a rate is never invented.
 */
public final class MetricsHistory {

    /** One partition's rates over the last interval. */
    public record PartitionRate(long partitionId, String otmId, double commitsPerSecond, double abortsPerSecond,
            long commits, long aborts) {
    }

    /** One OTM's rates over the last interval. */
    public record OtmRate(String otmId, double commitsPerSecond, double abortsPerSecond, long commits, long aborts) {
    }

    /**
     * One point of the time series.
     *
     * @param atMs when it was taken (wall clock, for display)
     * @param commitsPerSecond the cluster's
     * @param abortsPerSecond the cluster's
     * @param commitsPerSecondByOtm per OTM, by id
     * @param issuedCts the last CTS issued, -1 if unknown
     * @param snapshotCts the snapshot announced, -1 if unknown
     */
    public record Sample(long atMs, double commitsPerSecond, double abortsPerSecond,
            Map<String, Double> commitsPerSecondByOtm, long issuedCts, long snapshotCts) {
    }

    private record Key(String otmId, long partitionId) {
    }

    private final int samplesMax;
    private final ArrayDeque<Sample> samples;
    /** The counters of the previous record, by OTM and partition. */
    private Map<Key, PartitionLoad> previous = Map.of();
    private long previousAtMs = Long.MIN_VALUE;
    private List<PartitionRate> partitionRates = List.of();
    private Map<String, OtmRate> otmRates = Map.of();

    /** @param samplesMax how many samples the series keeps, at least 2 */
    public MetricsHistory(int samplesMax) {
        if (samplesMax < 2 || samplesMax > DashboardConfig.SAMPLES_MAX_LIMIT) {
            throw new IllegalArgumentException("samplesMax must be in [2, " + DashboardConfig.SAMPLES_MAX_LIMIT
                    + "], got " + samplesMax);
        }
        this.samplesMax = samplesMax;
        this.samples = new ArrayDeque<>(samplesMax);
    }

    /**
     * Records the counters seen at {@code nowMs}. The first call (and a call whose time is not after
     * the previous one) only sets the baseline and adds no sample.
     */
    public synchronized void record(long nowMs, Map<String, OtmLoad> loads, long issuedCts, long snapshotCts) {
        Objects.requireNonNull(loads, "loads");
        Map<Key, PartitionLoad> current = new HashMap<>();
        for (Map.Entry<String, OtmLoad> e : loads.entrySet()) {
            for (PartitionLoad p : e.getValue().partitions()) {
                current.put(new Key(e.getKey(), p.partitionId()), p);
            }
        }
        long intervalMs = nowMs - previousAtMs;
        if (previousAtMs == Long.MIN_VALUE || intervalMs <= 0) {
            previous = current;
            previousAtMs = nowMs;
            return;
        }
        double seconds = intervalMs / 1_000.0;
        List<PartitionRate> partitions = new ArrayList<>();
        Map<String, OtmRate> otms = new TreeMap<>();
        for (String otmId : new TreeMap<>(loads).keySet()) {
            otms.put(otmId, new OtmRate(otmId, 0, 0, 0, 0));
        }
        for (Map.Entry<Key, PartitionLoad> e : current.entrySet()) {
            PartitionLoad now = e.getValue();
            PartitionLoad before = previous.get(e.getKey());
            long commits = before == null ? 0 : Math.max(0, now.commits() - before.commits());
            long aborts = before == null ? 0 : Math.max(0, now.aborts() - before.aborts());
            partitions.add(new PartitionRate(now.partitionId(), e.getKey().otmId(), commits / seconds, aborts / seconds,
                    now.commits(), now.aborts()));
            otms.computeIfPresent(e.getKey().otmId(), (id, r) -> new OtmRate(id, r.commitsPerSecond() + commits / seconds,
                    r.abortsPerSecond() + aborts / seconds, r.commits() + now.commits(), r.aborts() + now.aborts()));
        }
        partitions.sort(Comparator.comparingLong(PartitionRate::partitionId));
        double clusterCommits = 0;
        double clusterAborts = 0;
        Map<String, Double> byOtm = new TreeMap<>();
        for (OtmRate r : otms.values()) {
            clusterCommits += r.commitsPerSecond();
            clusterAborts += r.abortsPerSecond();
            byOtm.put(r.otmId(), r.commitsPerSecond());
        }
        if (samples.size() == samplesMax) {
            samples.removeFirst();
        }
        samples.addLast(new Sample(nowMs, clusterCommits, clusterAborts, byOtm, issuedCts, snapshotCts));
        partitionRates = List.copyOf(partitions);
        otmRates = otms;
        previous = current;
        previousAtMs = nowMs;
    }

    /** The samples, oldest first. */
    public synchronized List<Sample> samples() {
        return List.copyOf(samples);
    }

    /** The newest sample, or null before the second record. */
    public synchronized Sample latest() {
        return samples.peekLast();
    }

    /** Every partition's rates over the last interval, by partition id. */
    public synchronized List<PartitionRate> partitionRates() {
        return partitionRates;
    }

    /** The {@code limit} partitions with the most commits per second over the last interval (ties by id). */
    public synchronized List<PartitionRate> hottest(int limit) {
        if (limit < 0) {
            throw new IllegalArgumentException("limit must be >= 0, got " + limit);
        }
        return partitionRates.stream()
                .filter(r -> r.commitsPerSecond() + r.abortsPerSecond() > 0)
                .sorted(Comparator.comparingDouble((PartitionRate r) -> -(r.commitsPerSecond() + r.abortsPerSecond()))
                        .thenComparingLong(PartitionRate::partitionId))
                .limit(limit).toList();
    }

    /** Each OTM's rates over the last interval, by id. */
    public synchronized Map<String, OtmRate> otmRates() {
        return Map.copyOf(otmRates);
    }

    public int samplesMax() {
        return samplesMax;
    }
}
