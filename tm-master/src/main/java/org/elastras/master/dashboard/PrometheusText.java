package org.elastras.master.dashboard;

import java.math.BigDecimal;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import org.elastras.client.protocol.LatencyHistogram;
import org.elastras.client.protocol.OtmLoad;
import org.elastras.client.protocol.PartitionLoad;
import org.elastras.master.cluster.MoveView;
import org.elastras.master.cluster.OtmView;
import org.elastras.master.cluster.PartitionState;
import org.elastras.master.cluster.PartitionView;
import org.elastras.otm.http.PrometheusLabels;

/**
 * Writes the master's metrics in the Prometheus text exposition format (version 0.0.4): one
 * {@code # HELP} and {@code # TYPE} line per metric, then its samples. Stateless.
 *
 * <p>Commit latency is a Prometheus histogram per OTM, {@code elastras_otm_commit_latency_seconds},
 * summed from the heartbeat histograms the dashboard saw ({@link MetricsHistory#latencyTotals}).
 * Its {@code le} bounds are powers of two in microseconds, which are bounds of the heartbeat's
 * log-linear buckets too, so each cumulative count is exact: values are whole microseconds, and
 * one below {@code 2^k} µs is at most {@code 2^k} µs. It has no {@code _sum}: the heartbeats carry
 * buckets, not sums, and a sum made up from bucket midpoints would be a guess.
 */
final class PrometheusText {

    static final String CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8";
    /** The smallest and largest finite {@code le} bound, as powers of two of microseconds: 128 µs to 16.8 s. */
    static final int LATENCY_LE_EXPONENT_MIN = 7;
    static final int LATENCY_LE_EXPONENT_MAX = 24;

    /**
     * What one scrape shows besides the master's state: the moves under way, the moves finished,
     * the OTMs being drained, and the latency histograms summed so far.
     */
    record Extras(List<MoveView> moves, long movesFinished, List<String> drainingOtms,
            List<MetricsHistory.LatencyTotal> latencyTotals) {
    }

    private PrometheusText() {
    }

    /** The exposition for one scrape. */
    static String render(String masterId, boolean active, List<OtmView> otms, List<PartitionView> partitions,
            Map<String, OtmLoad> loads, long issuedCts, long snapshotCts, long eventsTotal, Extras extras) {
        StringBuilder out = new StringBuilder(4_096);
        String master = "master=\"" + PrometheusLabels.escape(masterId) + "\"";
        metric(out, "elastras_master_active", "gauge", "1 if this master is the active one, else 0");
        sample(out, "elastras_master_active", master, active ? 1 : 0);
        metric(out, "elastras_master_events_total", "counter", "events this master process recorded");
        sample(out, "elastras_master_events_total", master, eventsTotal);
        metric(out, "elastras_otm_live", "gauge", "1 for an OTM the master counts live, 0 for one declared failed");
        for (OtmView o : otms) {
            sample(out, "elastras_otm_live", "otm=\"" + PrometheusLabels.escape(o.otmId()) + "\"", o.live() ? 1 : 0);
        }
        metric(out, "elastras_partitions", "gauge", "partitions by what the master is doing with them");
        Map<PartitionState, Integer> byState = new TreeMap<>();
        for (PartitionState s : PartitionState.values()) {
            byState.put(s, 0);
        }
        partitions.forEach(p -> byState.merge(p.state(), 1, Integer::sum));
        byState.forEach((s, n) -> sample(out, "elastras_partitions", "state=\"" + s.name() + "\"", n));
        if (issuedCts >= 0 && snapshotCts >= 0) {
            metric(out, "elastras_timestamp_issued_cts", "gauge", "the last commit timestamp issued");
            sample(out, "elastras_timestamp_issued_cts", "", issuedCts);
            metric(out, "elastras_timestamp_snapshot_cts", "gauge", "the snapshot timestamp announced");
            sample(out, "elastras_timestamp_snapshot_cts", "", snapshotCts);
            metric(out, "elastras_timestamp_snapshot_lag_cts", "gauge", "issued minus snapshot, in timestamps");
            sample(out, "elastras_timestamp_snapshot_lag_cts", "", Math.max(0, issuedCts - snapshotCts));
        }
        Map<String, OtmLoad> sorted = new TreeMap<>(loads);
        metric(out, "elastras_partition_commits_total", "counter",
                "transactions committed on a partition since its OTM opened it");
        sorted.forEach((otm, load) -> {
            for (PartitionLoad p : load.partitions()) {
                sample(out, "elastras_partition_commits_total", labels(otm, p), p.commits());
            }
        });
        metric(out, "elastras_partition_aborts_total", "counter",
                "transactions aborted on a partition since its OTM opened it");
        sorted.forEach((otm, load) -> {
            for (PartitionLoad p : load.partitions()) {
                sample(out, "elastras_partition_aborts_total", labels(otm, p), p.aborts());
            }
        });
        metric(out, "elastras_partition_begins_total", "counter",
                "transactions begun on a partition (requests: interactive begins, procedure attempts) since its OTM"
                        + " opened it");
        sorted.forEach((otm, load) -> {
            for (PartitionLoad p : load.partitions()) {
                sample(out, "elastras_partition_begins_total", labels(otm, p), p.begins());
            }
        });
        metric(out, "elastras_partition_store_bytes", "gauge", "a partition store's size: memtables plus SSTables");
        sorted.forEach((otm, load) -> {
            for (PartitionLoad p : load.partitions()) {
                sample(out, "elastras_partition_store_bytes", labels(otm, p), p.storeBytes());
            }
        });
        metric(out, "elastras_moves_in_flight", "gauge", "partition moves under way");
        sample(out, "elastras_moves_in_flight", "", extras.moves().size());
        metric(out, "elastras_moves_finished_total", "counter", "partition moves this master process finished");
        sample(out, "elastras_moves_finished_total", master, extras.movesFinished());
        metric(out, "elastras_otm_draining", "gauge", "1 for an OTM being drained (its partitions move away)");
        for (OtmView o : otms) {
            if (o.live()) {
                sample(out, "elastras_otm_draining", "otm=\"" + PrometheusLabels.escape(o.otmId()) + "\"",
                        extras.drainingOtms().contains(o.otmId()) ? 1 : 0);
            }
        }
        latency(out, extras.latencyTotals());
        metric(out, "elastras_otm_heap_used_bytes", "gauge", "the OTM's Java heap in use");
        sorted.forEach((otm, load) -> sample(out, "elastras_otm_heap_used_bytes", "otm=\"" + PrometheusLabels.escape(otm) + "\"",
                load.heapUsedBytes()));
        metric(out, "elastras_otm_cpu_load", "gauge", "the OTM process's CPU use, 0..1 of its machine");
        sorted.forEach((otm, load) -> {
            if (load.processCpuLoad() >= 0) {
                out.append("elastras_otm_cpu_load{otm=\"").append(PrometheusLabels.escape(otm)).append("\"} ")
                        .append(String.format(Locale.ROOT, "%.4f", load.processCpuLoad())).append('\n');
            }
        });
        return out.toString();
    }

    private static void latency(StringBuilder out, List<MetricsHistory.LatencyTotal> totals) {
        String name = "elastras_otm_commit_latency_seconds";
        metric(out, name, "histogram", "begin-to-commit latency of the transactions an OTM committed, from the"
                + " heartbeat reports this master's dashboard saw");
        for (MetricsHistory.LatencyTotal t : totals) {
            String otm = "otm=\"" + PrometheusLabels.escape(t.otmId()) + "\"";
            long[] buckets = t.buckets();
            int bucket = 0;
            long below = 0;
            for (int exponent = LATENCY_LE_EXPONENT_MIN; exponent <= LATENCY_LE_EXPONENT_MAX; exponent++) {
                long boundMicros = 1L << exponent;
                while (bucket < buckets.length && LatencyHistogram.bucketUpperMicros(bucket) <= boundMicros) {
                    below += buckets[bucket++];
                }
                String le = new BigDecimal(boundMicros).movePointLeft(6).toPlainString();
                sample(out, name + "_bucket", otm + ",le=\"" + le + "\"", below);
            }
            sample(out, name + "_bucket", otm + ",le=\"+Inf\"", t.count());
            sample(out, name + "_count", otm, t.count());
        }
    }

    private static String labels(String otm, PartitionLoad p) {
        return "otm=\"" + PrometheusLabels.escape(otm) + "\",partition=\"" + p.partitionId() + "\"";
    }

    private static void metric(StringBuilder out, String name, String type, String help) {
        out.append("# HELP ").append(name).append(' ').append(help).append('\n');
        out.append("# TYPE ").append(name).append(' ').append(type).append('\n');
    }

    private static void sample(StringBuilder out, String name, String labels, long value) {
        out.append(name);
        if (!labels.isEmpty()) {
            out.append('{').append(labels).append('}');
        }
        out.append(' ').append(value).append('\n');
    }
}
