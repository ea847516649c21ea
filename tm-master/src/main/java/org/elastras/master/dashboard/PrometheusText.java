package org.elastras.master.dashboard;

import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import org.elastras.client.protocol.OtmLoad;
import org.elastras.client.protocol.PartitionLoad;
import org.elastras.master.cluster.OtmView;
import org.elastras.master.cluster.PartitionState;
import org.elastras.master.cluster.PartitionView;

/**
 * Writes the master's metrics in the Prometheus text exposition format (version 0.0.4): one
 * {@code # HELP} and {@code # TYPE} line per metric, then its samples. Stateless.
 */
final class PrometheusText {

    static final String CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8";

    private PrometheusText() {
    }

    /** The exposition for one scrape. */
    static String render(String masterId, boolean active, List<OtmView> otms, List<PartitionView> partitions,
            Map<String, OtmLoad> loads, long issuedCts, long snapshotCts, long eventsTotal) {
        StringBuilder out = new StringBuilder(4_096);
        String master = "master=\"" + escape(masterId) + "\"";
        metric(out, "elastras_master_active", "gauge", "1 if this master is the active one, else 0");
        sample(out, "elastras_master_active", master, active ? 1 : 0);
        metric(out, "elastras_master_events_total", "counter", "events this master process recorded");
        sample(out, "elastras_master_events_total", master, eventsTotal);
        metric(out, "elastras_otm_live", "gauge", "1 for an OTM the master counts live, 0 for one declared failed");
        for (OtmView o : otms) {
            sample(out, "elastras_otm_live", "otm=\"" + escape(o.otmId()) + "\"", o.live() ? 1 : 0);
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
        metric(out, "elastras_otm_heap_used_bytes", "gauge", "the OTM's Java heap in use");
        sorted.forEach((otm, load) -> sample(out, "elastras_otm_heap_used_bytes", "otm=\"" + escape(otm) + "\"",
                load.heapUsedBytes()));
        metric(out, "elastras_otm_cpu_load", "gauge", "the OTM process's CPU use, 0..1 of its machine");
        sorted.forEach((otm, load) -> {
            if (load.processCpuLoad() >= 0) {
                out.append("elastras_otm_cpu_load{otm=\"").append(escape(otm)).append("\"} ")
                        .append(String.format(Locale.ROOT, "%.4f", load.processCpuLoad())).append('\n');
            }
        });
        return out.toString();
    }

    private static String labels(String otm, PartitionLoad p) {
        return "otm=\"" + escape(otm) + "\",partition=\"" + p.partitionId() + "\"";
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

    /** A label value with backslash, double quote and newline escaped, as the format requires. */
    static String escape(String value) {
        return value.replace("\\", "\\\\").replace("\"", "\\\"").replace("\n", "\\n");
    }
}
