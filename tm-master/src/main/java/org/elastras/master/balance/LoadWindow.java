package org.elastras.master.balance;

import java.util.HashMap;
import java.util.Iterator;
import java.util.Map;
import java.util.TreeMap;
import org.elastras.client.protocol.LatencyHistogram;
import org.elastras.client.protocol.OtmLoad;
import org.elastras.client.protocol.PartitionLoad;

/**
 * Turns the cumulative counters OTMs report in their heartbeats into rates per partition and per
 * OTM over a sliding window of fixed slices ({@link LoadWindowConfig}). Plain logic: the caller
 * passes the time with every call; no clock, no IO. Not thread-safe: one thread (the master's
 * event loop) calls it.
 *
 * <p>Two successive reports of one OTM make an interval; the counts a partition gained in it are
 * spread over the slices the interval overlaps, and the slices count as covered by it. What cannot
 * be measured covers nothing, so it never shows as a rate, high or low:
 * <ul>
 *   <li>an OTM's first report, and a partition's first report from an OTM (it just opened it,
 *       moved there, or this master just started), only set a baseline;
 *   <li>a counter that went down (the OTM reopened the partition, or restarted under the same id)
 *       sets a new baseline;
 *   <li>an interval longer than the window (an OTM silent that long) sets a new baseline;
 *   <li>a lost report makes one longer interval, whose counts are spread over it.
 * </ul>
 * A partition's load follows it across OTMs: it is tracked by partition id, whoever served it.
 * Requests are transactions begun; for an OTM that does not report begins, commits plus aborts.
 *
 * <p>Memory: per partition and per OTM a ring of {@code slices + 1} cells; at most
 * {@code partitionsMax} partitions (newer ones are ignored until older ones expire); a partition
 * or OTM with nothing in the window is forgotten.
 */
public final class LoadWindow {

    private final LoadWindowConfig config;
    /** By partition id. */
    private final Map<Long, SliceRing> partitions = new HashMap<>();
    /** By OTM id. */
    private final Map<String, SliceRing> otms = new HashMap<>();
    /** Each OTM's last report, the baseline of its next interval. */
    private final Map<String, LastReport> lastReports = new HashMap<>();
    /** Each partition's store size at its last report. */
    private final Map<Long, Long> storeBytes = new HashMap<>();
    private long latestMs = Long.MIN_VALUE;
    private long lastExpirySlice = Long.MIN_VALUE;
    private long partitionsIgnored;

    private record LastReport(long atMs, OtmLoad load, Map<Long, PartitionLoad> byPartition) {
    }

    public LoadWindow(LoadWindowConfig config) {
        if (config == null) {
            throw new IllegalArgumentException("config is required");
        }
        this.config = config;
    }

    public LoadWindowConfig config() {
        return config;
    }

    /** Partitions left out of a report (counted once per report) because {@code partitionsMax} were tracked. */
    public long partitionsIgnored() {
        return partitionsIgnored;
    }

    /**
     * Takes one load report of {@code otmId}, received at {@code nowMs} (the master's clock). A
     * report not later than the OTM's previous one only replaces the baseline.
     */
    public void report(String otmId, long nowMs, OtmLoad load) {
        if (otmId == null || load == null) {
            throw new IllegalArgumentException("otmId and load are required");
        }
        latestMs = Math.max(latestMs, nowMs);
        Map<Long, PartitionLoad> byPartition = new HashMap<>();
        for (PartitionLoad p : load.partitions()) {
            byPartition.put(p.partitionId(), p);
        }
        LastReport previous = lastReports.put(otmId, new LastReport(nowMs, load, byPartition));
        SliceRing otmRing = otms.computeIfAbsent(otmId, id -> newRing());
        Map<Long, SliceRing> rings = new HashMap<>();
        for (PartitionLoad p : load.partitions()) {
            SliceRing ring = partitionRing(p.partitionId());
            if (ring != null) {
                rings.put(p.partitionId(), ring);
                storeBytes.put(p.partitionId(), p.storeBytes());
                ring.addLatency(nowMs, p.commitLatency());
            }
            otmRing.addLatency(nowMs, p.commitLatency());
        }
        if (previous != null && nowMs > previous.atMs() && nowMs - previous.atMs() <= config.windowMs()) {
            addInterval(otmRing, rings, previous, nowMs, load);
        }
        expire();
    }

    /** Adds the interval from {@code previous} to {@code toMs}; {@code rings}: the partitions tracked. */
    private void addInterval(SliceRing otmRing, Map<Long, SliceRing> rings, LastReport previous, long toMs, OtmLoad load) {
        long fromMs = previous.atMs();
        double otmRequests = 0;
        double otmCommits = 0;
        double otmAborts = 0;
        for (PartitionLoad now : load.partitions()) {
            PartitionLoad before = previous.byPartition().get(now.partitionId());
            if (before == null || now.commits() < before.commits() || now.aborts() < before.aborts()
                    || now.begins() < before.begins()) {
                continue; // a baseline: nothing measurable for this partition in this interval
            }
            long commits = now.commits() - before.commits();
            long aborts = now.aborts() - before.aborts();
            long requests = Math.max(now.begins() - before.begins(), commits + aborts);
            SliceRing ring = rings.get(now.partitionId());
            if (ring != null) {
                ring.add(fromMs, toMs, requests, commits, aborts, -1);
            }
            otmRequests += requests;
            otmCommits += commits;
            otmAborts += aborts;
        }
        otmRing.add(fromMs, toMs, otmRequests, otmCommits, otmAborts, load.processCpuLoad());
    }

    private SliceRing partitionRing(long partitionId) {
        SliceRing ring = partitions.get(partitionId);
        if (ring == null) {
            if (partitions.size() >= config.partitionsMax()) {
                partitionsIgnored++;
                return null;
            }
            ring = newRing();
            partitions.put(partitionId, ring);
        }
        return ring;
    }

    private SliceRing newRing() {
        return new SliceRing(config.slices() + 1, config.sliceMs());
    }

    /**
     * Forgets an OTM that is gone (lost or removed): its next report, if it ever comes back under
     * this id, is a baseline. What it reported stays in the window until it ages out.
     */
    public void otmGone(String otmId) {
        lastReports.remove(otmId);
    }

    /** Drops partitions and OTMs with nothing in the window, once per slice. */
    private void expire() {
        long current = Math.floorDiv(latestMs, config.sliceMs());
        if (current == lastExpirySlice) {
            return;
        }
        lastExpirySlice = current;
        long oldest = current - config.slices();
        for (Iterator<Map.Entry<Long, SliceRing>> it = partitions.entrySet().iterator(); it.hasNext(); ) {
            Map.Entry<Long, SliceRing> e = it.next();
            if (!e.getValue().holdsAnySince(oldest) && !reportedNow(e.getKey())) {
                it.remove();
                storeBytes.remove(e.getKey());
            }
        }
        otms.entrySet().removeIf(e -> !e.getValue().holdsAnySince(oldest) && !lastReports.containsKey(e.getKey()));
    }

    private boolean reportedNow(long partitionId) {
        for (LastReport r : lastReports.values()) {
            if (r.byPartition().containsKey(partitionId)) {
                return true;
            }
        }
        return false;
    }

    /**
     * The window's load at {@code nowMs}: the {@code slices} whole slices before the one
     * {@code nowMs} falls in (slice 0 the oldest).
     */
    public LoadView view(long nowMs) {
        long current = Math.floorDiv(nowMs, config.sliceMs());
        long first = current - config.slices();
        TreeMap<Long, WindowLoad> partitionViews = new TreeMap<>();
        for (Map.Entry<Long, SliceRing> e : partitions.entrySet()) {
            Long bytes = storeBytes.get(e.getKey());
            WindowLoad w = summarize(e.getValue(), first, false, 0, 0, bytes == null ? 0 : bytes);
            if (w != null) {
                partitionViews.put(e.getKey(), w);
            }
        }
        TreeMap<String, WindowLoad> otmViews = new TreeMap<>();
        for (Map.Entry<String, SliceRing> e : otms.entrySet()) {
            LastReport last = lastReports.get(e.getKey());
            long bytes = 0;
            if (last != null) {
                for (PartitionLoad p : last.load().partitions()) {
                    bytes += p.storeBytes();
                }
            }
            WindowLoad w = summarize(e.getValue(), first, true,
                    last == null ? 0 : last.load().heapUsedBytes(), last == null ? 0 : last.load().heapMaxBytes(), bytes);
            if (w != null) {
                otmViews.put(e.getKey(), w);
            }
        }
        return new LoadView(nowMs, config.windowMs(), config.sliceMs(), partitionViews, otmViews);
    }

    /** The ring's window from absolute slice {@code first}; null if it has nothing there. */
    private WindowLoad summarize(SliceRing ring, long first, boolean otm, long heapUsed, long heapMax, long bytes) {
        int n = config.slices();
        double[] bySlice = new double[n];
        double requests = 0;
        double commits = 0;
        double aborts = 0;
        double covered = 0;
        double cpuTimes = 0;
        double cpuCovered = 0;
        long[] latency = new long[LatencyHistogram.BUCKETS];
        long latencyMax = 0;
        boolean any = false;
        for (int i = 0; i < n; i++) {
            SliceRing.Slice s = ring.slice(first + i);
            if (s == null) {
                bySlice[i] = Double.NaN;
                continue;
            }
            any = true;
            bySlice[i] = s.coveredMs() > 0 ? s.requests() * 1_000 / s.coveredMs() : Double.NaN;
            requests += s.requests();
            commits += s.commits();
            aborts += s.aborts();
            covered += s.coveredMs();
            cpuTimes += s.cpuTimesMs();
            cpuCovered += s.cpuCoveredMs();
            if (s.latency() != null) {
                s.latency().addTo(latency);
                latencyMax = Math.max(latencyMax, s.latency().maxMicros());
            }
        }
        if (!any) {
            return null;
        }
        long measured = 0;
        for (long c : latency) {
            measured += c;
        }
        double perSecond = covered > 0 ? 1_000 / covered : Double.NaN;
        double cpu = !otm || cpuCovered == 0 ? -1 : cpuTimes / cpuCovered;
        return new WindowLoad(bySlice, requests * perSecond, commits * perSecond, aborts * perSecond, (long) covered,
                LatencyHistogram.percentileMicros(latency, 0.5, latencyMax),
                LatencyHistogram.percentileMicros(latency, 0.99, latencyMax), latencyMax, measured, cpu, heapUsed, heapMax,
                bytes);
    }
}
