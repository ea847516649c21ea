package org.elastras.master.admin;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import org.apache.curator.test.TestingServer;
import org.elastras.catalog.schema.ColumnType;
import org.elastras.catalog.schema.DatabaseSchema;
import org.elastras.client.ElasTrasClient;
import org.elastras.client.OtmClient;
import org.elastras.client.protocol.PartitionInfo;
import org.elastras.client.protocol.PartitionStatus;
import org.elastras.master.cluster.Master;
import org.elastras.master.cluster.MasterConfig;
import org.elastras.otm.server.OtmConfig;
import org.elastras.otm.server.OtmNode;

/**
 * A real ZooKeeper, the local DFS, three in-process OTMs (otm-1..3), an active master and a
 * standby, and the database STOCK split at item 100 (partitions 3 and 4; the catalog's ROOT and
 * META are 1 and 2), created through the admin API. For the admin API and CLI tests.
 */
final class AdminTestCluster implements AutoCloseable {

    static final String DATABASE = "STOCK";
    static final long WAIT_MS = 30_000;

    final TestingServer zk;
    final Map<String, OtmNode> otms = new TreeMap<>();
    final Master master;
    final Master standby;
    final ElasTrasClient client;

    AdminTestCluster(Path temp) throws Exception {
        zk = new TestingServer(true);
        Master active = null;
        Master second = null;
        ElasTrasClient connected = null;
        try {
            for (String id : List.of("otm-1", "otm-2", "otm-3")) {
                otms.put(id, OtmNode.start(new OtmConfig(id, zk.getConnectString(), "/elastras",
                        temp.resolve("dfs").toUri(), "127.0.0.1", 0, OtmConfig.DEFAULT_SESSION_TIMEOUT_MS).inCluster()));
            }
            active = Master.start(MasterConfig.defaults("master-1", zk.getConnectString(), "/elastras",
                    temp.resolve("dfs").toUri()));
            long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(WAIT_MS);
            while (!active.active()) {
                assertTrue(System.nanoTime() < deadline, "master-1 did not become active");
                Thread.sleep(10);
            }
            second = Master.start(MasterConfig.defaults("master-2", zk.getConnectString(), "/elastras",
                    temp.resolve("dfs").toUri()));
            connected = ElasTrasClient.connect(zk.getConnectString());
            connected.admin().createDatabase(schema(), List.of(List.of(100)));
        } catch (Exception | Error e) {
            if (connected != null) {
                connected.close();
            }
            closeAll(second, active);
            throw e;
        }
        master = active;
        standby = second;
        client = connected;
        awaitPartitions("every partition serving", ps -> ps.size() == 4
                && ps.stream().allMatch(p -> p.state().equals("SERVING")));
    }

    static DatabaseSchema schema() {
        return DatabaseSchema.tree(DATABASE)
                .root("ITEM", t -> t.column("I_ID", ColumnType.INT).column("QUANTITY", ColumnType.BIGINT).key("I_ID"))
                .build();
    }

    String connectString() {
        return zk.getConnectString();
    }

    /** Waits until the master's partitions satisfy {@code condition}; returns them. */
    List<PartitionInfo> awaitPartitions(String what, Predicate<List<PartitionInfo>> condition) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(WAIT_MS);
        while (true) {
            List<PartitionInfo> partitions = client.admin().partitions(null);
            if (condition.test(partitions)) {
                return partitions;
            }
            assertTrue(System.nanoTime() < deadline, "not " + what + " within " + WAIT_MS + " ms: " + partitions);
            Thread.sleep(20);
        }
    }

    /** Partition {@code partitionId} in the master's map. */
    PartitionInfo partition(long partitionId) {
        return client.admin().partitions(null).stream().filter(p -> p.partitionId() == partitionId).findFirst()
                .orElseThrow(() -> new AssertionError("no partition " + partitionId));
    }

    /** Whether OTM {@code otmId} itself reports partition {@code partitionId} SERVING (asked over its socket). */
    boolean otmServes(String otmId, long partitionId) {
        try (OtmClient otm = new OtmClient("127.0.0.1", otms.get(otmId).port())) {
            for (PartitionStatus p : otm.status().partitions()) {
                if (p.partitionId() == partitionId && p.state().equals("SERVING")) {
                    return true;
                }
            }
            return false;
        }
    }

    /** A live OTM other than {@code otmId}. */
    String otherThan(String otmId) {
        return otms.keySet().stream().filter(id -> !id.equals(otmId)).findFirst().orElseThrow();
    }

    @Override
    public void close() {
        if (client != null) {
            client.close();
        }
        closeAll(standby, master);
    }

    private void closeAll(Master second, Master active) {
        if (second != null) {
            second.close();
        }
        if (active != null) {
            active.close();
        }
        otms.values().forEach(OtmNode::close);
        try {
            zk.close();
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}
