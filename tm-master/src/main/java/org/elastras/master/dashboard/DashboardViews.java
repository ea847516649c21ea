package org.elastras.master.dashboard;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.elastras.catalog.schema.Names;
import org.elastras.client.protocol.OtmLoad;
import org.elastras.client.protocol.SchemaSpec;
import org.elastras.client.protocol.TableSpec;
import org.elastras.master.cluster.Master;
import org.elastras.master.cluster.MasterEvents;
import org.elastras.master.cluster.OtmView;
import org.elastras.master.cluster.PartitionRecord;
import org.elastras.master.cluster.PartitionView;

/**
 * The answers of the dashboard's read API, as JSON-ready maps and lists, built from what the
 * master knows now and from the {@link MetricsHistory}. Thread-safe: it holds only final references
 * to thread-safe objects; each call reads the master afresh.
 *
 * <p>What the master does not know yet is named in {@link #placeholders()} rather than shown as a
 * number: moves in flight (issue 8) and latency percentiles (the OTMs do not report them).
 */
final class DashboardViews {

    /** Most events one answer carries. */
    static final int EVENTS_PER_ANSWER_MAX = 200;
    /** Most partitions in the hot list. */
    static final int HOT_PARTITIONS_MAX = 10;

    private final Master master;
    private final MetricsHistory history;
    private final long sampleIntervalMs;

    DashboardViews(Master master, MetricsHistory history, long sampleIntervalMs) {
        this.master = master;
        this.history = history;
        this.sampleIntervalMs = sampleIntervalMs;
    }

    /** Everything the page shows, in one answer (the page polls this). */
    Map<String, Object> overview(long eventsAfter) throws Exception {
        List<PartitionView> partitions = master.partitions();
        List<OtmView> otms = master.otms();
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("summary", summary(partitions, otms));
        out.put("otms", otms(otms, partitions));
        out.put("partitions", partitions(partitions));
        out.put("databases", databases(partitions));
        out.put("hotPartitions", hot(partitions));
        out.put("timestamps", timestamps());
        out.put("series", series());
        out.put("events", events(eventsAfter, EVENTS_PER_ANSWER_MAX));
        out.put("placeholders", placeholders());
        return out;
    }

    Map<String, Object> summary() throws Exception {
        return summary(master.partitions(), master.otms());
    }

    List<Map<String, Object>> otms() throws Exception {
        return otms(master.otms(), master.partitions());
    }

    List<Map<String, Object>> partitions() throws Exception {
        return partitions(master.partitions());
    }

    List<Map<String, Object>> databases() throws Exception {
        return databases(master.partitions());
    }

    List<Map<String, Object>> hot() throws Exception {
        return hot(master.partitions());
    }

    private Map<String, Object> summary(List<PartitionView> partitions, List<OtmView> otms) {
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("masterId", master.masterId());
        out.put("role", master.active() ? "active" : "standby");
        int live = 0;
        int alive = 0;
        for (OtmView o : otms) {
            if (o.live()) {
                live++;
                if (liveness(o).equals("alive")) {
                    alive++;
                }
            }
        }
        out.put("otmsLive", live);
        out.put("otmsAlive", alive);
        out.put("otmsFailed", otms.size() - live);
        Map<String, Integer> byState = new TreeMap<>();
        for (PartitionView p : partitions) {
            byState.merge(p.state().name(), 1, Integer::sum);
        }
        out.put("partitions", partitions.size());
        out.put("partitionsByState", byState);
        out.put("databases", master.databases().size());
        MetricsHistory.Sample latest = history.latest();
        out.put("commitsPerSecond", latest == null ? null : latest.commitsPerSecond());
        out.put("abortsPerSecond", latest == null ? null : latest.abortsPerSecond());
        out.put("heartbeatTimeoutMs", master.heartbeatTimeoutMs());
        out.put("lastEventSequence", master.events().lastSequence());
        return out;
    }

    private List<Map<String, Object>> otms(List<OtmView> otms, List<PartitionView> partitions) {
        Map<String, OtmLoad> loads = master.loads();
        Map<String, MetricsHistory.OtmRate> rates = history.otmRates();
        List<Map<String, Object>> out = new ArrayList<>();
        for (OtmView o : otms) {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("otmId", o.otmId());
            m.put("address", o.host() == null ? null : o.host() + ":" + o.port());
            m.put("liveness", liveness(o));
            m.put("msSinceHeartbeat", o.msSinceHeartbeat() < 0 ? null : o.msSinceHeartbeat());
            m.put("partitions", partitions.stream().filter(p -> o.otmId().equals(p.record().owner())
                    && o.live()).count());
            MetricsHistory.OtmRate rate = rates.get(o.otmId());
            m.put("commitsPerSecond", rate == null ? null : rate.commitsPerSecond());
            m.put("abortsPerSecond", rate == null ? null : rate.abortsPerSecond());
            OtmLoad load = loads.get(o.otmId());
            m.put("cpuLoad", load == null || load.processCpuLoad() < 0 ? null : load.processCpuLoad());
            m.put("heapUsedBytes", load == null ? null : load.heapUsedBytes());
            m.put("heapMaxBytes", load == null ? null : load.heapMaxBytes());
            out.add(m);
        }
        return out;
    }

    /** alive, joining (no heartbeat yet), late (silent past half the timeout), recovering or failed. */
    private String liveness(OtmView o) {
        if (!o.live()) {
            return o.recovering() ? "recovering" : "failed";
        }
        if (o.msSinceHeartbeat() < 0) {
            return "joining";
        }
        return o.msSinceHeartbeat() * 2 > master.heartbeatTimeoutMs() ? "late" : "alive";
    }

    private List<Map<String, Object>> partitions(List<PartitionView> partitions) {
        Map<Long, MetricsHistory.PartitionRate> rates = new TreeMap<>();
        for (MetricsHistory.PartitionRate r : history.partitionRates()) {
            rates.put(r.partitionId(), r);
        }
        List<Map<String, Object>> out = new ArrayList<>();
        for (PartitionView v : partitions) {
            PartitionRecord r = v.record();
            MetricsHistory.PartitionRate rate = rates.get(r.partitionId());
            boolean reportedByOwner = rate != null && rate.otmId().equals(r.owner());
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("partitionId", r.partitionId());
            m.put("database", r.database());
            m.put("startKey", r.startKey());
            m.put("endKey", r.endKey());
            m.put("owner", r.owner());
            m.put("epoch", r.epoch());
            m.put("state", v.state().name());
            m.put("commitsPerSecond", reportedByOwner ? rate.commitsPerSecond() : null);
            m.put("abortsPerSecond", reportedByOwner ? rate.abortsPerSecond() : null);
            m.put("commits", reportedByOwner ? rate.commits() : null);
            out.add(m);
        }
        return out;
    }

    private List<Map<String, Object>> databases(List<PartitionView> partitions) {
        Map<String, SchemaSpec> schemas = new TreeMap<>(master.databases());
        List<Map<String, Object>> out = new ArrayList<>();
        for (SchemaSpec s : schemas.values()) {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("name", s.name());
            m.put("partitioning", s.partitioning().name());
            m.put("tables", s.tables().stream().map(TableSpec::name).toList());
            m.put("partitions", partitions.stream().filter(p -> Names.same(p.record().database(), s.name())).count());
            out.add(m);
        }
        return out;
    }

    private List<Map<String, Object>> hot(List<PartitionView> partitions) {
        Map<Long, String> databaseOf = new TreeMap<>();
        partitions.forEach(p -> databaseOf.put(p.record().partitionId(), p.record().database()));
        List<Map<String, Object>> out = new ArrayList<>();
        for (MetricsHistory.PartitionRate r : history.hottest(HOT_PARTITIONS_MAX)) {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("partitionId", r.partitionId());
            m.put("database", databaseOf.get(r.partitionId()));
            m.put("otmId", r.otmId());
            m.put("commitsPerSecond", r.commitsPerSecond());
            m.put("abortsPerSecond", r.abortsPerSecond());
            out.add(m);
        }
        return out;
    }

    Map<String, Object> timestamps() {
        long issued = master.issuedUpToCts();
        long snapshot = master.snapshotCts();
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("issuedCts", issued < 0 ? null : issued);
        out.put("snapshotCts", snapshot < 0 ? null : snapshot);
        out.put("snapshotLagCts", issued < 0 || snapshot < 0 ? null : Math.max(0, issued - snapshot));
        return out;
    }

    Map<String, Object> series() {
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("intervalMs", sampleIntervalMs);
        out.put("samplesMax", history.samplesMax());
        out.put("samples", history.samples());
        return out;
    }

    Map<String, Object> events(long after, int limit) {
        Map<String, Object> out = new LinkedHashMap<>();
        MasterEvents events = master.events();
        out.put("lastSequence", events.lastSequence());
        out.put("events", events.after(after, limit));
        return out;
    }

    /** What the dashboard cannot show yet, and why: named, never a made-up number. */
    static Map<String, Object> placeholders() {
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("movesInFlight", "not tracked: partition moves arrive with issue 8");
        out.put("latencyPercentiles", "not reported: OTM heartbeats carry no latency histograms yet");
        return out;
    }
}
