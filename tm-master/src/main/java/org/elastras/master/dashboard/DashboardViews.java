package org.elastras.master.dashboard;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.LongSupplier;
import org.elastras.catalog.schema.Names;
import org.elastras.client.protocol.OtmLoad;
import org.elastras.client.protocol.SchemaSpec;
import org.elastras.client.protocol.TableSpec;
import org.elastras.master.balance.BalancePlan;
import org.elastras.master.balance.Move;
import org.elastras.master.cluster.Master;
import org.elastras.master.cluster.MasterEvents;
import org.elastras.master.cluster.MoveView;
import org.elastras.master.cluster.OtmView;
import org.elastras.master.cluster.PartitionRecord;
import org.elastras.master.cluster.PartitionView;

/**
 * The answers of the dashboard's read API, as JSON-ready maps and lists, built from what the
 * master knows now and from the {@link MetricsHistory}. Thread-safe: each call reads the master
 * afresh; the only state of its own is the cached balance plan, guarded by this.
 *
 * <p>A number nobody measured is null (shown as a dash), never zero: a rate before two samples, a
 * latency in an interval with no commits.
 */
final class DashboardViews {

    /** Most events one answer carries. */
    static final int EVENTS_PER_ANSWER_MAX = 200;
    /** Most partitions in the hot list. */
    static final int HOT_PARTITIONS_MAX = 10;
    /** Most moves one answer lists (the master bounds moves in flight far lower). */
    static final int MOVES_PER_ANSWER_MAX = 1_000;

    private final Master master;
    private final MetricsHistory history;
    private final long sampleIntervalMs;
    /** The clock of {@link MoveView#startedNanos()}: the master's JVM's {@code System.nanoTime}. */
    private final LongSupplier monotonicNanos;
    /** Guarded by this: the balance plan, asked of the master at most once a sample interval. */
    private Map<String, Object> balancer;
    private long balancerAtNanos;

    DashboardViews(Master master, MetricsHistory history, long sampleIntervalMs, LongSupplier monotonicNanos) {
        this.master = master;
        this.history = history;
        this.sampleIntervalMs = sampleIntervalMs;
        this.monotonicNanos = monotonicNanos;
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
        out.put("moves", moves(partitions));
        out.put("balancer", balancer());
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

    Map<String, Object> moves() throws Exception {
        return moves(master.partitions());
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
        out.put("beginsPerSecond", latest == null ? null : latest.beginsPerSecond());
        out.put("latency", latest == null ? null : latest.latency());
        out.put("movesInFlight", master.moves().size());
        out.put("movesFinished", master.movesFinished());
        out.put("heartbeatTimeoutMs", master.heartbeatTimeoutMs());
        out.put("lastEventSequence", master.events().lastSequence());
        return out;
    }

    private List<Map<String, Object>> otms(List<OtmView> otms, List<PartitionView> partitions) throws Exception {
        List<String> draining = master.drainingOtms();
        Map<String, OtmLoad> loads = master.loads();
        Map<String, MetricsHistory.OtmRate> rates = history.otmRates();
        List<Map<String, Object>> out = new ArrayList<>();
        for (OtmView o : otms) {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("otmId", o.otmId());
            m.put("address", o.host() == null ? null : o.host() + ":" + o.port());
            m.put("run", o.run());
            m.put("liveness", liveness(o));
            m.put("draining", draining.contains(o.otmId()));
            m.put("msSinceHeartbeat", o.msSinceHeartbeat() < 0 ? null : o.msSinceHeartbeat());
            m.put("partitions", partitions.stream().filter(p -> o.otmId().equals(p.record().owner())
                    && o.live()).count());
            MetricsHistory.OtmRate rate = rates.get(o.otmId());
            m.put("commitsPerSecond", rate == null ? null : rate.commitsPerSecond());
            m.put("abortsPerSecond", rate == null ? null : rate.abortsPerSecond());
            m.put("beginsPerSecond", rate == null ? null : rate.beginsPerSecond());
            m.put("latency", rate == null ? null : rate.latency());
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
        Map<Long, String> movingTo = new TreeMap<>();
        for (MoveView move : master.moves()) {
            movingTo.put(move.partitionId(), move.to());
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
            m.put("beginsPerSecond", reportedByOwner ? rate.beginsPerSecond() : null);
            m.put("commits", reportedByOwner ? rate.commits() : null);
            m.put("storeBytes", reportedByOwner ? rate.storeBytes() : null);
            m.put("latency", reportedByOwner ? rate.latency() : null);
            m.put("movingTo", movingTo.get(r.partitionId()));
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
            m.put("beginsPerSecond", r.beginsPerSecond());
            m.put("latency", r.latency());
            out.add(m);
        }
        return out;
    }

    /**
     * The moves under way (oldest first, with the partition's state as the move's phase: CLOSING on
     * the origin, then OPENING on the destination), how many this master finished, and the OTMs
     * being drained.
     */
    private Map<String, Object> moves(List<PartitionView> partitions) throws Exception {
        Map<Long, PartitionView> byId = new TreeMap<>();
        partitions.forEach(p -> byId.put(p.record().partitionId(), p));
        long nowNanos = monotonicNanos.getAsLong();
        List<Map<String, Object>> inFlight = new ArrayList<>();
        List<MoveView> moves = new ArrayList<>(master.moves());
        moves.sort(Comparator.comparingLong(MoveView::startedNanos).thenComparingLong(MoveView::partitionId));
        for (MoveView move : moves.subList(0, Math.min(moves.size(), MOVES_PER_ANSWER_MAX))) {
            PartitionView p = byId.get(move.partitionId());
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("partitionId", move.partitionId());
            m.put("database", p == null ? null : p.record().database());
            m.put("from", move.from());
            m.put("to", move.to());
            m.put("reason", move.reason());
            m.put("phase", p == null ? null : p.state().name());
            m.put("startedAtMs", move.startedAtMs());
            m.put("elapsedMs", Math.max(0, (nowNanos - move.startedNanos()) / 1_000_000));
            inFlight.add(m);
        }
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("inFlight", inFlight);
        out.put("finished", master.movesFinished());
        out.put("drainingOtms", master.drainingOtms());
        return out;
    }

    /**
     * What the balancer would do now (read-only: nothing is carried out), asked of the master at
     * most once a sample interval however many pages poll.
     */
    synchronized Map<String, Object> balancer() throws Exception {
        long now = monotonicNanos.getAsLong();
        if (balancer != null && now - balancerAtNanos < sampleIntervalMs * 1_000_000) {
            return balancer;
        }
        Map<String, Object> out = new LinkedHashMap<>();
        try {
            BalancePlan plan = master.balancePlan();
            List<Map<String, Object>> moves = new ArrayList<>();
            for (Move m : plan.moves()) {
                Map<String, Object> move = new LinkedHashMap<>();
                move.put("partitionId", m.partitionId());
                move.put("from", m.fromOtm());
                move.put("to", m.toOtm());
                move.put("reason", m.reason().name());
                move.put("why", m.why());
                moves.add(move);
            }
            out.put("moves", moves);
            out.put("otmsToAdd", plan.otmsToAdd());
            out.put("otmsToRemove", plan.otmsToRemove());
            out.put("notes", plan.notes());
            out.put("describe", plan.describe());
        } catch (IllegalStateException e) {
            out.put("error", e.getMessage());
        }
        balancer = out;
        balancerAtNanos = now;
        return out;
    }

    /** What {@code /metrics} shows besides the master's state. */
    PrometheusText.Extras metricsExtras() throws Exception {
        return new PrometheusText.Extras(master.moves(), master.movesFinished(),
                master.active() ? master.drainingOtms() : List.of(), history.latencyTotals());
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
}
