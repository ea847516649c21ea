package org.elastras.master.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.reflect.Field;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.test.TestingServer;
import org.apache.zookeeper.Watcher;
import org.apache.zookeeper.ZooKeeper;
import org.elastras.catalog.meta.CatalogSchemas;
import org.elastras.catalog.schema.ColumnType;
import org.elastras.catalog.schema.DatabaseSchema;
import org.elastras.client.OtmClient;
import org.elastras.client.protocol.BeginRequest;
import org.elastras.client.protocol.CommitRequest;
import org.elastras.client.protocol.GetRequest;
import org.elastras.client.protocol.Isolation;
import org.elastras.client.protocol.PartitionStatus;
import org.elastras.client.protocol.PutRequest;
import org.elastras.otm.server.OtmConfig;
import org.elastras.otm.server.OtmNode;
import org.elastras.storage.dfs.Dfs;
import org.elastras.storage.wal.WalNames;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A real ZooKeeper, the local DFS, three in-process OTMs and two masters: databases created
 * through the leader are assigned and serve; an OTM whose session expires is fenced and its
 * partitions serve elsewhere with every committed row; the standby takes over when the leader
 * closes, rebuilds from ZooKeeper and handles the next OTM failure.
 */
class MasterReassignsAFailedOtmsPartitionsTest {

    private static final long FAILOVER_BOUND_MS = 15_000;
    private static final long ROWS_PER_PARTITION = 10;

    @TempDir
    Path temp;

    private TestingServer zk;
    private final Map<String, OtmNode> otms = new TreeMap<>();
    private final List<Master> masters = new ArrayList<>();

    /** The catalog takes ids 1 and 2; the tenant created first gets 3, the tree database 4 to 7. */
    private static final long BANK_PARTITION = 3;

    @AfterEach
    void stop() throws Exception {
        masters.forEach(Master::close);
        otms.values().forEach(OtmNode::close);
        if (zk != null) {
            zk.close();
        }
    }

    static DatabaseSchema bank() {
        return DatabaseSchema.singlePartition("BANK")
                .plain("ACCOUNTS", t -> t.column("ID", ColumnType.BIGINT).column("BALANCE", ColumnType.BIGINT).key("ID"))
                .build();
    }

    static DatabaseSchema shop() {
        return DatabaseSchema.tree("SHOP")
                .root("WAREHOUSE", t -> t.column("W_ID", ColumnType.INT).column("W_NAME", ColumnType.varchar(20)).key("W_ID"))
                .child("STOCK", t -> t.column("W_ID", ColumnType.INT).column("I_ID", ColumnType.INT)
                        .column("QUANTITY", ColumnType.INT).key("W_ID", "I_ID"))
                .build();
    }

    @Test
    void failedOtmsPartitionsServeElsewhereWithEveryRowAlsoAfterMasterFailover() throws Exception {
        zk = new TestingServer(true);
        for (String id : List.of("otm-1", "otm-2", "otm-3")) {
            otms.put(id, OtmNode.start(new OtmConfig(id, zk.getConnectString(), "/elastras", temp.resolve("dfs").toUri(),
                    "127.0.0.1", 0, OtmConfig.DEFAULT_SESSION_TIMEOUT_MS).inCluster()));
        }
        for (String id : List.of("master-1", "master-2")) {
            masters.add(Master.start(MasterConfig.defaults(id, zk.getConnectString(), "/elastras",
                    temp.resolve("dfs").toUri())));
        }
        Master leader = awaitLeader();
        Master standby = masters.get(0) == leader ? masters.get(1) : masters.get(0);
        assertThrows(IllegalStateException.class, () -> standby.createTenant(bank()), "only the leader acts");

        leader.createTenant(bank());
        List<PartitionView> shopPartitions = leader.createDatabase(shop(), List.of(List.of(100), List.of(200), List.of(300)));
        assertEquals(4, shopPartitions.size());
        assertThrows(IllegalArgumentException.class, () -> leader.createTenant(bank()), "names are unique");
        assertThrows(IllegalArgumentException.class,
                () -> leader.createDatabase(shop(), List.of(List.of(300), List.of(100))), "boundaries ascend");

        awaitAllServing(leader, 5);
        Map<Long, String> owners = servedByOtms();
        assertEquals(7, owners.size(), "every partition (ROOT, META and 5 of the databases) served by exactly one OTM: "
                + owners);
        Map<String, Integer> perOtm = new TreeMap<>();
        owners.values().forEach(o -> perOtm.merge(o, 1, Integer::sum));
        assertEquals(3, perOtm.size(), "spread over the three OTMs: " + perOtm);
        assertTrue(perOtm.values().stream().allMatch(n -> n == 2 || n == 3), "balanced: " + perOtm);

        Map<Long, List<Object>> rows = commitRows(owners);

        // An OTM's session expires (a long network partition): the process lives on as a zombie. It
        // serves ROOT, so the catalog must come back first.
        String victim = owners.get(CatalogSchemas.ROOT_PARTITION_ID);
        long failedAt = System.nanoTime();
        expireSession(otms.get(victim));
        Set<Long> moved = partitionsOf(owners, victim);
        long ms = awaitServedElsewhere(moved, victim, failedAt);
        System.out.printf("FAILOVER: OTM %s session expired -> its %d partitions %s serving elsewhere in %d ms%n",
                victim, moved.size(), moved, ms);
        assertFalse(otms.get(victim).serving(), "the zombie stopped serving");
        try (Dfs dfs = Dfs.open(temp.resolve("dfs").toUri())) {
            String log = otms.get(victim).walId();
            assertTrue(dfs.exists(WalNames.fencedDirectory(log)), "its log was fenced");
            assertFalse(dfs.exists(WalNames.liveDirectory(log)));
        }
        otms.remove(victim).close();
        owners = servedByOtms();
        assertEquals(7, owners.size());
        assertRows(owners, rows);

        // The leader goes away: the standby takes over from ZooKeeper.
        leader.close();
        masters.remove(leader);
        Master next = awaitLeader();
        assertTrue(next == standby);
        awaitAllServing(next, 5);
        for (PartitionView v : next.partitions()) {
            assertEquals(owners.get(v.record().partitionId()), v.record().owner(), "rebuilt owner of " + v);
        }

        // A later OTM failure (a clean close this time) is handled by the new master.
        String second = owners.get(CatalogSchemas.FIRST_META_PARTITION_ID); // Serves META.
        Set<Long> movedAgain = partitionsOf(owners, second);
        long closedAt = System.nanoTime();
        otms.remove(second).close();
        long msAgain = awaitServedElsewhere(movedAgain, second, closedAt);
        System.out.printf("FAILOVER: OTM %s closed under the new master -> its %d partitions %s serving elsewhere in %d ms%n",
                second, movedAgain.size(), movedAgain, msAgain);
        owners = servedByOtms();
        assertEquals(7, owners.size());
        assertEquals(Set.of(otms.keySet().iterator().next()), Set.copyOf(owners.values()));
        assertRows(owners, rows);
        awaitAllServing(next, 5);
    }

    // ---------------------------------------------------------------- helpers

    private Master awaitLeader() throws InterruptedException {
        await(() -> masters.stream().anyMatch(Master::active), 20_000, "no master became active");
        List<Master> active = masters.stream().filter(Master::active).toList();
        assertEquals(1, active.size(), "exactly one active master");
        return active.get(0);
    }

    private static void awaitAllServing(Master master, int count) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(20_000);
        while (true) {
            List<PartitionView> views = master.partitions();
            long user = views.stream().filter(v -> CatalogSchemas.level(v.record().database()) == 2).count();
            // The catalog's ROOT and META partitions serve too.
            if (user == count && views.size() == count + 2 && views.stream().allMatch(v -> v.state() == PartitionState.SERVING)) {
                return;
            }
            if (System.nanoTime() > deadline) {
                throw new AssertionError("not all partitions serving: " + views);
            }
            Thread.sleep(20);
        }
    }

    /** Partition -> the OTM that reports it SERVING, asked of every running OTM. */
    private Map<Long, String> servedByOtms() {
        Map<Long, String> owners = new TreeMap<>();
        for (OtmNode otm : otms.values()) {
            if (!otm.serving()) {
                continue;
            }
            try (OtmClient client = new OtmClient("127.0.0.1", otm.port())) {
                for (PartitionStatus p : client.status().partitions()) {
                    if (p.state().equals("SERVING")) {
                        String previous = owners.put(p.partitionId(), otm.otmId());
                        assertEquals(null, previous, "partition " + p.partitionId() + " served twice");
                    }
                }
            }
        }
        return owners;
    }

    private long awaitServedElsewhere(Set<Long> partitions, String failed, long sinceNanos) throws InterruptedException {
        long deadline = sinceNanos + TimeUnit.MILLISECONDS.toNanos(FAILOVER_BOUND_MS);
        while (true) {
            Map<Long, String> owners = servedByOtms();
            if (partitions.stream().allMatch(p -> owners.containsKey(p) && !owners.get(p).equals(failed))) {
                return (System.nanoTime() - sinceNanos) / 1_000_000;
            }
            if (System.nanoTime() > deadline) {
                throw new AssertionError("partitions " + partitions + " of " + failed + " not serving elsewhere within "
                        + FAILOVER_BOUND_MS + " ms: " + owners);
            }
            Thread.sleep(10);
        }
    }

    private static Set<Long> partitionsOf(Map<Long, String> owners, String otmId) {
        Set<Long> out = new TreeSet<>();
        owners.forEach((p, o) -> {
            if (o.equals(otmId)) {
                out.add(p);
            }
        });
        assertFalse(out.isEmpty(), otmId + " owns no partition");
        return out;
    }

    /** Commits ROWS_PER_PARTITION rows into every partition; returns partition -> the keys written. */
    private Map<Long, List<Object>> commitRows(Map<Long, String> owners) {
        Map<Long, List<Object>> rows = new HashMap<>();
        for (Map.Entry<Long, String> e : owners.entrySet()) {
            long partition = e.getKey();
            if (partition <= CatalogSchemas.FIRST_META_PARTITION_ID) {
                continue; // The catalog's.
            }
            try (OtmClient client = new OtmClient("127.0.0.1", otms.get(e.getValue()).port())) {
                List<Object> keys = new ArrayList<>();
                for (long i = 0; i < ROWS_PER_PARTITION; i++) {
                    boolean bank = partition == BANK_PARTITION;
                    long txn = client.begin(new BeginRequest(bank ? "BANK" : "SHOP", partition, Isolation.SERIALIZABLE, 0))
                            .txnId();
                    if (bank) {
                        client.put(new PutRequest(txn, "ACCOUNTS", Map.of("ID", i, "BALANCE", 1000 + i)));
                        keys.add(i);
                    } else {
                        // Partition 4 covers W_ID < 100, 5 [100, 200), 6 [200, 300), 7 from 300.
                        int warehouse = (int) ((partition - BANK_PARTITION - 1) * 100 + i);
                        client.put(new PutRequest(txn, "WAREHOUSE", Map.of("W_ID", warehouse, "W_NAME", "w" + warehouse)));
                        keys.add(warehouse);
                    }
                    client.commit(new CommitRequest(txn));
                }
                rows.put(partition, keys);
            }
        }
        return rows;
    }

    private void assertRows(Map<Long, String> owners, Map<Long, List<Object>> rows) {
        for (Map.Entry<Long, List<Object>> e : rows.entrySet()) {
            long partition = e.getKey();
            boolean bank = partition == BANK_PARTITION;
            String owner = owners.get(partition);
            assertNotNull(owner, "partition " + partition + " not served");
            try (OtmClient client = new OtmClient("127.0.0.1", otms.get(owner).port())) {
                long txn = client.begin(new BeginRequest(bank ? "BANK" : "SHOP", partition, Isolation.SERIALIZABLE, 0))
                        .txnId();
                for (Object key : e.getValue()) {
                    var row = client.get(new GetRequest(txn, bank ? "ACCOUNTS" : "WAREHOUSE", List.of(key)));
                    assertTrue(row.found(), "committed row " + key + " of partition " + partition + " lost");
                }
                client.commit(new CommitRequest(txn));
            }
        }
    }

    /**
     * Test fault: expires an OTM's ZooKeeper session on the server (as a long network partition
     * would) by opening a second handle on the same session and closing it. The OTM's Curator
     * client is private, hence the reflection; the idea is otm's test utility {@code ZkSessions}.
     */
    private void expireSession(OtmNode otm) throws Exception {
        Field field = OtmNode.class.getDeclaredField("zk");
        field.setAccessible(true);
        ZooKeeper victim = ((CuratorFramework) field.get(otm)).getZookeeperClient().getZooKeeper();
        CountDownLatch connected = new CountDownLatch(1);
        ZooKeeper twin = new ZooKeeper(zk.getConnectString(), 10_000, event -> {
            if (event.getState() == Watcher.Event.KeeperState.SyncConnected) {
                connected.countDown();
            }
        }, victim.getSessionId(), victim.getSessionPasswd());
        assertTrue(connected.await(10, TimeUnit.SECONDS), "could not attach to the victim's session");
        twin.close();
    }

    static void await(BooleanSupplier condition, long timeoutMs, String message) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMs);
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError(message);
            }
            Thread.sleep(10);
        }
    }
}
