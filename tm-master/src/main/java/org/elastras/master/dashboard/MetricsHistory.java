package org.elastras.master.dashboard;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import org.elastras.client.protocol.LatencyHistogram;
import org.elastras.client.protocol.OtmLoad;
import org.elastras.client.protocol.PartitionLoad;

/**
 * Turns what OTMs report in their heartbeats (per partition: commit, abort and begin counters,
 * counted from when the OTM opened it, and the commit latency histogram of the interval since the
 * OTM's previous report) and the timestamp counters into rates, latency percentiles and bounded
 * time series: each {@link #record} is one sample, compared with the one before. Thread-safe (every
 * method is synchronized): a sampler thread records, request threads read.
 *
 * <p>A partition's rate counts only between two reports of the same OTM: a partition that appears
 * (opened, moved, or first seen after a failover) is a baseline, and a counter that went down (the
 * OTM restarted under the same id) counts as zero, so a rate is never invented.
 *
 * <p>Latency: an OTM's histograms count in the first sample that sees its report, and never again.
 * A report is recognised as new by identity: the master keeps the {@link OtmLoad} object of each
 * OTM's last report and replaces it with each new one, so the same object twice is the same report.
 * A report replaced before a sample saw it is not counted (OTMs report about once a second, as
 * often as the dashboard samples), so percentiles are over the reports seen; they are never made
 * up, and a sample without a new report has no latency (null), not zero.
 */
public final class MetricsHistory {

    /** Most OTMs whose cumulative latency histograms are kept (for {@code /metrics}). */
    static final int OTMS_MAX = 10_000;

    /**
     * Commit latency over some set of commits.
     *
     * @param p50Micros the median, rounded up to its bucket (at most 25% high)
     * @param p99Micros the 99th percentile, likewise
     * @param maxMicros the largest, exact
     * @param commits how many commits it covers, at least 1
     */
    public record Latency(long p50Micros, long p99Micros, long maxMicros, long commits) {

        public Latency {
            if (commits < 1 || p50Micros < 0 || p50Micros > p99Micros || p99Micros > maxMicros) {
                throw new IllegalStateException("latency out of order: p50 " + p50Micros + ", p99 " + p99Micros
                        + ", max " + maxMicros + " over " + commits);
            }
        }

        /** The percentiles of dense {@code buckets}, or null if they count nothing. */
        static Latency of(long[] buckets, long maxMicros) {
            long commits = 0;
            for (long c : buckets) {
                commits += c;
            }
            if (commits == 0) {
                return null;
            }
            return new Latency(LatencyHistogram.percentileMicros(buckets, 0.5, maxMicros),
                    LatencyHistogram.percentileMicros(buckets, 0.99, maxMicros), maxMicros, commits);
        }
    }

    /** One partition's rates over the last interval, and its latency if its owner reported in it. */
    public record PartitionRate(long partitionId, String otmId, double commitsPerSecond, double abortsPerSecond,
            double beginsPerSecond, long commits, long aborts, long storeBytes, Latency latency) {
    }

    /** One OTM's rates over the last interval, and its latency if it reported in it. */
    public record OtmRate(String otmId, double commitsPerSecond, double abortsPerSecond, double beginsPerSecond,
            long commits, long aborts, Latency latency) {
    }

    /**
     * One point of the time series.
     *
     * @param atMs when it was taken (wall clock, for display)
     * @param commitsPerSecond the cluster's
     * @param abortsPerSecond the cluster's
     * @param beginsPerSecond the cluster's (requests: interactive begins and procedure attempts)
     * @param commitsPerSecondByOtm per OTM, by id
     * @param latency the cluster's commit latency over the reports new in this sample, null if none
     * @param latencyByOtm per OTM that sent a new report with commits in it, by id
     * @param issuedCts the last CTS issued, -1 if unknown
     * @param snapshotCts the snapshot announced, -1 if unknown
     */
    public record Sample(long atMs, double commitsPerSecond, double abortsPerSecond, double beginsPerSecond,
            Map<String, Double> commitsPerSecondByOtm, Latency latency, Map<String, Latency> latencyByOtm,
            long issuedCts, long snapshotCts) {
    }

    /**
     * One OTM's commit latency histogram summed over every report the sampler saw, for a
     * Prometheus histogram.
     *
     * @param buckets one count per {@link LatencyHistogram} bucket, a copy
     * @param count their sum
     */
    public record LatencyTotal(String otmId, long[] buckets, long count) {
    }

    private record Key(String otmId, long partitionId) {
    }

    private final int samplesMax;
    private final ArrayDeque<Sample> samples;
    /** The counters of the previous record, by OTM and partition. */
    private Map<Key, PartitionLoad> previous = Map.of();
    /** The report objects of the previous record, by OTM: the same object again is no new report. */
    private Map<String, OtmLoad> previousReports = Map.of();
    private long previousAtMs = Long.MIN_VALUE;
    private List<PartitionRate> partitionRates = List.of();
    private Map<String, OtmRate> otmRates = Map.of();
    /** By OTM id; OTMs no longer reporting are dropped; at most {@link #OTMS_MAX}. */
    private final TreeMap<String, long[]> latencyTotals = new TreeMap<>();

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
     * Records the reports seen at {@code nowMs}. The first call (and a call whose time is not after
     * the previous one) only sets the baseline and adds no sample.
     *
     * @param loads each OTM's last report, as {@code Master.loads()} returns them (the same object for
     *     a report already seen)
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
            previousReports = Map.copyOf(loads);
            previousAtMs = nowMs;
            return;
        }
        double seconds = intervalMs / 1_000.0;
        List<PartitionRate> partitions = new ArrayList<>();
        Map<String, OtmRate> otms = new TreeMap<>();
        long[] clusterBuckets = new long[LatencyHistogram.BUCKETS];
        long clusterMaxMicros = 0;
        Map<String, Latency> latencyByOtm = new TreeMap<>();
        for (Map.Entry<String, OtmLoad> o : new TreeMap<>(loads).entrySet()) {
            String otmId = o.getKey();
            boolean newReport = previousReports.get(otmId) != o.getValue();
            long[] otmBuckets = new long[LatencyHistogram.BUCKETS];
            long otmMaxMicros = 0;
            double commitsPerSecond = 0;
            double abortsPerSecond = 0;
            double beginsPerSecond = 0;
            long commitsTotal = 0;
            long abortsTotal = 0;
            for (PartitionLoad now : o.getValue().partitions()) {
                PartitionLoad before = previous.get(new Key(otmId, now.partitionId()));
                double commits = before == null ? 0 : Math.max(0, now.commits() - before.commits()) / seconds;
                double aborts = before == null ? 0 : Math.max(0, now.aborts() - before.aborts()) / seconds;
                double begins = before == null ? 0 : Math.max(0, now.begins() - before.begins()) / seconds;
                Latency latency = null;
                LatencyHistogram h = now.commitLatency();
                if (newReport && h != null) {
                    long[] partitionBuckets = new long[LatencyHistogram.BUCKETS];
                    h.addTo(partitionBuckets);
                    latency = Latency.of(partitionBuckets, h.maxMicros());
                    h.addTo(otmBuckets);
                    otmMaxMicros = Math.max(otmMaxMicros, h.maxMicros());
                }
                partitions.add(new PartitionRate(now.partitionId(), otmId, commits, aborts, begins, now.commits(),
                        now.aborts(), now.storeBytes(), latency));
                commitsPerSecond += commits;
                abortsPerSecond += aborts;
                beginsPerSecond += begins;
                commitsTotal += now.commits();
                abortsTotal += now.aborts();
            }
            Latency otmLatency = Latency.of(otmBuckets, otmMaxMicros);
            if (otmLatency != null) {
                latencyByOtm.put(otmId, otmLatency);
                addInto(clusterBuckets, otmBuckets);
                clusterMaxMicros = Math.max(clusterMaxMicros, otmMaxMicros);
                if (latencyTotals.containsKey(otmId) || latencyTotals.size() < OTMS_MAX) {
                    addInto(latencyTotals.computeIfAbsent(otmId, id -> new long[LatencyHistogram.BUCKETS]), otmBuckets);
                }
            }
            otms.put(otmId, new OtmRate(otmId, commitsPerSecond, abortsPerSecond, beginsPerSecond, commitsTotal,
                    abortsTotal, otmLatency));
        }
        latencyTotals.keySet().retainAll(loads.keySet());
        partitions.sort(Comparator.comparingLong(PartitionRate::partitionId).thenComparing(PartitionRate::otmId));
        double clusterCommits = 0;
        double clusterAborts = 0;
        double clusterBegins = 0;
        Map<String, Double> byOtm = new TreeMap<>();
        for (OtmRate r : otms.values()) {
            clusterCommits += r.commitsPerSecond();
            clusterAborts += r.abortsPerSecond();
            clusterBegins += r.beginsPerSecond();
            byOtm.put(r.otmId(), r.commitsPerSecond());
        }
        if (samples.size() == samplesMax) {
            samples.removeFirst();
        }
        samples.addLast(new Sample(nowMs, clusterCommits, clusterAborts, clusterBegins, byOtm,
                Latency.of(clusterBuckets, clusterMaxMicros), latencyByOtm, issuedCts, snapshotCts));
        partitionRates = List.copyOf(partitions);
        otmRates = otms;
        previous = current;
        previousReports = Map.copyOf(loads);
        previousAtMs = nowMs;
    }

    private static void addInto(long[] sum, long[] add) {
        for (int i = 0; i < sum.length; i++) {
            sum[i] += add[i];
        }
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

    /** Each reporting OTM's commit latency histogram summed over the reports seen, by id. */
    public synchronized List<LatencyTotal> latencyTotals() {
        List<LatencyTotal> out = new ArrayList<>(latencyTotals.size());
        latencyTotals.forEach((otmId, buckets) -> {
            long count = 0;
            for (long c : buckets) {
                count += c;
            }
            out.add(new LatencyTotal(otmId, buckets.clone(), count));
        });
        return out;
    }

    public int samplesMax() {
        return samplesMax;
    }
}
