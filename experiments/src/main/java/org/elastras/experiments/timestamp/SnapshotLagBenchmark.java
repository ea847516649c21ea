package org.elastras.experiments.timestamp;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.HdrHistogram.Histogram;
import org.apache.curator.test.TestingServer;
import org.elastras.catalog.schema.ColumnType;
import org.elastras.catalog.schema.DatabaseSchema;
import org.elastras.client.OtmClient;
import org.elastras.client.protocol.BeginRequest;
import org.elastras.client.protocol.CommitRequest;
import org.elastras.client.protocol.Isolation;
import org.elastras.client.protocol.PutRequest;
import org.elastras.experiments.ResultFiles;
import org.elastras.master.cluster.Master;
import org.elastras.master.cluster.MasterConfig;
import org.elastras.master.cluster.PartitionRecord;
import org.elastras.master.cluster.PartitionState;
import org.elastras.master.cluster.PartitionView;
import org.elastras.otm.server.OtmConfig;
import org.elastras.otm.server.OtmNode;

/**
 * Snapshot visibility lag: how long after a commit is acknowledged the global snapshot includes it.
 * A real cluster in this process (ZooKeeper, a master, two OTMs talking over loopback, local DFS):
 * one client commits on the first OTM, one transaction at a time; after each acknowledgement the
 * driver spins until the master's snapshot reaches the commit's CTS ("at the master") and until the
 * other OTM has been told so in its heartbeat reply ("at another OTM", when a transaction there
 * could read at it). Heartbeat period as the OTMs' default unless given.
 *
 * <p>Arguments: [output directory (experiments/results)] [commits (2000)] [heartbeat ms (default)].
 */
public final class SnapshotLagBenchmark {

    public static void main(String[] args) throws Exception {
        Path out = Path.of(args.length > 0 ? args[0] : "experiments/results");
        int commits = args.length > 1 ? Integer.parseInt(args[1]) : 2_000;
        int heartbeatMs = args.length > 2 ? Integer.parseInt(args[2]) : OtmConfig.DEFAULT_HEARTBEAT_MS;
        Path temp = Files.createTempDirectory("snapshot-lag");
        Histogram atMaster = new Histogram(TimeUnit.SECONDS.toNanos(10), 3);
        Histogram atOtherOtm = new Histogram(TimeUnit.SECONDS.toNanos(10), 3);
        Histogram commitLatency = new Histogram(TimeUnit.SECONDS.toNanos(10), 3);
        try (TestingServer zk = new TestingServer(true)) {
            String root = "/elastras";
            OtmNode first = OtmNode.start(cluster("otm-a", zk, root, temp, heartbeatMs));
            OtmNode second = OtmNode.start(cluster("otm-b", zk, root, temp, heartbeatMs));
            try (first; second; Master master = Master.start(MasterConfig.defaults("master-1", zk.getConnectString(), root,
                    temp.resolve("dfs").toUri()))) {
                await(master::active);
                master.createTenant(DatabaseSchema.singlePartition("LAG")
                        .plain("T", t -> t.column("K", ColumnType.BIGINT).column("V", ColumnType.BIGINT).key("K")).build());
                await(() -> master.partitions().stream().allMatch(v -> v.state() == PartitionState.SERVING));
                PartitionRecord lag = master.partitions().stream().map(PartitionView::record)
                        .filter(r -> r.database().equals("LAG")).findFirst().orElseThrow();
                String owner = lag.owner();
                OtmNode committer = owner.equals(first.otmId()) ? first : second;
                OtmNode other = committer == first ? second : first;
                try (OtmClient client = new OtmClient("127.0.0.1", committer.port())) {
                    int warmup = commits / 5;
                    for (int i = 0; i < warmup + commits; i++) {
                        long started = System.nanoTime();
                        long txn = client.begin(new BeginRequest("LAG", lag.partitionId(), Isolation.SERIALIZABLE, 0)).txnId();
                        client.put(new PutRequest(txn, "T", Map.of("K", (long) i % 100, "V", (long) i)));
                        long cts = client.commit(new CommitRequest(txn)).cts();
                        long acknowledged = System.nanoTime();
                        long masterAt = 0;
                        long otherAt = 0;
                        while (masterAt == 0 || otherAt == 0) {
                            long now = System.nanoTime();
                            if (masterAt == 0 && master.snapshotCts() >= cts) {
                                masterAt = now;
                            }
                            if (otherAt == 0 && other.globalSnapshot() >= cts) {
                                otherAt = now;
                            }
                            if (now - acknowledged > TimeUnit.SECONDS.toNanos(10)) {
                                throw new IllegalStateException("the snapshot did not reach CTS " + cts + " within 10 s");
                            }
                            Thread.onSpinWait();
                        }
                        if (i >= warmup) {
                            commitLatency.recordValue(acknowledged - started);
                            atMaster.recordValue(masterAt - acknowledged);
                            atOtherOtm.recordValue(otherAt - acknowledged);
                        }
                    }
                }
            }
        } finally {
            ResultFiles.deleteTree(temp);
        }
        String report = String.format("snapshot visibility lag, %d commits, heartbeat period %d ms (2 OTMs, loopback)%n"
                + "%-22s %8s %8s %8s %8s%n%s%s%s", commits, heartbeatMs, "ms after the ack", "p50", "p90", "p99", "max",
                row("snapshot at master", atMaster), row("snapshot at other OTM", atOtherOtm),
                row("(commit latency)", commitLatency));
        System.out.print(report);
        Files.createDirectories(out);
        Path file = out.resolve("snapshot-lag-" + heartbeatMs + "ms.txt");
        Files.writeString(file, report, StandardCharsets.UTF_8);
        System.out.println("written to " + file);
    }

    private static OtmConfig cluster(String id, TestingServer zk, String root, Path temp, int heartbeatMs) {
        return new OtmConfig(id, zk.getConnectString(), root, temp.resolve("dfs").toUri(), "127.0.0.1", 0,
                OtmConfig.DEFAULT_SESSION_TIMEOUT_MS, false, heartbeatMs);
    }

    private static String row(String name, Histogram h) {
        return String.format("%-22s %8.2f %8.2f %8.2f %8.2f%n", name, h.getValueAtPercentile(50) / 1e6,
                h.getValueAtPercentile(90) / 1e6, h.getValueAtPercentile(99) / 1e6, h.getMaxValue() / 1e6);
    }

    private interface Condition {
        boolean holds() throws Exception;
    }

    private static void await(Condition condition) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (!condition.holds()) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("the cluster did not come up within 60 s");
            }
            Thread.sleep(10);
        }
    }
}
