package org.elastras.master.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.RetryOneTime;
import org.apache.curator.test.TestingServer;
import org.elastras.catalog.meta.CatalogSchemas;
import org.elastras.catalog.schema.ColumnType;
import org.elastras.catalog.schema.DatabaseSchema;
import org.elastras.client.CatalogRows;
import org.elastras.client.ElasTrasClient;
import org.elastras.client.OtmClient;
import org.elastras.master.cluster.Master;
import org.elastras.master.cluster.MasterConfig;
import org.elastras.master.cluster.PartitionState;
import org.elastras.master.cluster.PartitionView;
import org.elastras.otm.server.OtmConfig;
import org.elastras.otm.server.OtmNode;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The catalog is data in partitions like any other, and must survive what data survives: the
 * active master and the OTMs serving ROOT and META stop at the same time. The standby finds ROOT's
 * owner gone in ZooKeeper, fences it, reopens ROOT on the surviving OTM, reads it, reopens META,
 * reads it, and reassigns the user partitions; every committed increment is still there, the
 * client never saw an error, and nothing of the map is kept in ZooKeeper but ROOT's record.
 */
class CatalogSurvivesItsOwnersAndTheMasterFailingTogetherTest {

    @TempDir
    Path temp;

    private TestingServer zk;
    private final Map<String, OtmNode> otms = new TreeMap<>();
    private final List<Master> masters = new ArrayList<>();

    @AfterEach
    void stop() throws Exception {
        masters.forEach(Master::close);
        otms.values().forEach(OtmNode::close);
        if (zk != null) {
            zk.close();
        }
    }

    @Test
    void theStandbyRebuildsFromTheCatalogAfterItsOwnersAndTheLeaderStopped() throws Exception {
        zk = new TestingServer(true);
        for (String id : List.of("otm-1", "otm-2", "otm-3", "otm-4")) {
            otms.put(id, OtmNode.start(new OtmConfig(id, zk.getConnectString(), "/elastras", temp.resolve("dfs").toUri(),
                    "127.0.0.1", 0, OtmConfig.DEFAULT_SESSION_TIMEOUT_MS).inCluster()));
        }
        for (String id : List.of("master-1", "master-2")) {
            masters.add(Master.start(MasterConfig.defaults(id, zk.getConnectString(), "/elastras",
                    temp.resolve("dfs").toUri())));
        }
        Master leader = awaitLeader();
        leader.createDatabase(LedgerProcedures.schema(), ClientTestCluster.BOUNDARIES);
        ClientTestCluster.awaitAllServing(leader, 4);

        int[] accounts = {5, 150, 250, 350};
        try (ElasTrasClient client = ElasTrasClient.connect(zk.getConnectString())) {
            for (int round = 1; round <= 3; round++) {
                for (int a : accounts) {
                    assertEquals((long) round, number(client.call("LEDGER", "increment", List.of(a), List.of(a))));
                }
            }

            // The OTMs that serve the catalog stop, and so does the leader, at once.
            Set<String> catalogOwners = new TreeSet<>();
            for (PartitionView v : leader.partitions()) {
                if (CatalogSchemas.reserved(v.record().database())) {
                    catalogOwners.add(v.record().owner());
                }
            }
            assertEquals(2, catalogOwners.size(), "ROOT and META on two OTMs (least-loaded first): " + catalogOwners);
            long stoppedAt = System.nanoTime();
            leader.close();
            masters.remove(leader);
            for (String id : catalogOwners) {
                otms.remove(id).close();
            }

            Master next = awaitLeader();
            ClientTestCluster.awaitAllServing(next, 4);
            long rebuiltMs = (System.nanoTime() - stoppedAt) / 1_000_000;
            for (PartitionView v : next.partitions()) {
                assertFalse(catalogOwners.contains(v.record().owner()), "served by a stopped OTM: " + v);
            }
            System.out.printf("CATALOG: leader and the OTMs serving ROOT and META %s stopped -> the standby rebuilt"
                    + " ZooKeeper -> ROOT -> META and every partition serves again in %d ms%n", catalogOwners, rebuiltMs);

            // Every increment survived, and the client goes on without an error.
            for (int a : accounts) {
                assertEquals(4L, number(client.call("LEDGER", "increment", List.of(a), List.of(a))), "account " + a);
            }
            // The catalog is writable again: a new database, found by a new client.
            next.createTenant(DatabaseSchema.singlePartition("BANK")
                    .plain("ACCOUNTS", t -> t.column("ID", ColumnType.BIGINT).column("BALANCE", ColumnType.BIGINT).key("ID"))
                    .build());
            ClientTestCluster.awaitAllServing(next, 5);
        }
        try (ElasTrasClient fresh = ElasTrasClient.connect(zk.getConnectString())) {
            assertEquals(5L, number(fresh.call("LEDGER", "increment", List.of(150), List.of(150))));
            assertEquals("BANK", fresh.admin().partitions("BANK").get(0).database());
        }

        // ZooKeeper holds ROOT's record only; the rows are in the catalog partitions.
        try (CuratorFramework curator = CuratorFrameworkFactory.newClient(zk.getConnectString(), new RetryOneTime(100))) {
            curator.start();
            assertNull(curator.checkExists().forPath("/elastras/assign"), "no partition map in ZooKeeper");
            assertTrue(new String(curator.getData().forPath("/elastras/root")).contains("\"ROOT\""));
        }
        Master active = awaitLeader();
        PartitionView meta = active.partitions().stream()
                .filter(v -> v.record().partitionId() == CatalogSchemas.FIRST_META_PARTITION_ID).findFirst().orElseThrow();
        OtmNode metaOwner = otms.get(meta.record().owner());
        try (OtmClient otm = new OtmClient("127.0.0.1", metaOwner.port())) {
            List<CatalogRows.PartitionRow> ledger = CatalogRows.scan(otm, CatalogSchemas.META_DATABASE,
                    CatalogSchemas.FIRST_META_PARTITION_ID, "LEDGER");
            assertEquals(4, ledger.size());
            for (CatalogRows.PartitionRow row : ledger) {
                PartitionView view = active.partitions().stream()
                        .filter(v -> v.record().partitionId() == row.row().partition().id().value()).findFirst().orElseThrow();
                assertEquals(view.record().owner(), row.row().owner(), "META says what the master says");
                assertEquals(view.record().epoch(), row.row().partition().epoch());
                assertEquals(PartitionState.SERVING, view.state());
            }
        }
    }

    private Master awaitLeader() throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (System.nanoTime() < deadline) {
            for (Master m : masters) {
                if (m.active()) {
                    return m;
                }
            }
            Thread.sleep(10);
        }
        throw new AssertionError("no master became active");
    }

    private static long number(Object o) {
        return ((Number) o).longValue();
    }
}
