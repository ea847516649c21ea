package org.elastras.master.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
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
import org.apache.curator.test.InstanceSpec;
import org.apache.curator.test.TestingServer;
import org.elastras.client.OtmClient;
import org.elastras.client.protocol.BeginRequest;
import org.elastras.client.protocol.CommitRequest;
import org.elastras.client.protocol.GetRequest;
import org.elastras.client.protocol.Isolation;
import org.elastras.client.protocol.PartitionStatus;
import org.elastras.client.protocol.PutRequest;
import org.elastras.otm.server.OtmConfig;
import org.elastras.otm.server.OtmNode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An OTM in its own JVM is killed with SIGKILL: nothing closes its session, so the master learns
 * of the failure when its heartbeats stop for the heartbeat timeout or ZooKeeper expires its
 * session (the OTM's default session timeout, on a server with ZooKeeper's usual 2 s tick so that
 * timeout is granted), whichever comes first. Measures kill -> all its partitions
 * serving on the other OTMs, and checks that every acknowledged commit is there.
 */
class KilledOtmProcessFailsOverWithinSecondsTest {

    private static final long FAILOVER_BOUND_MS = 20_000;

    @TempDir
    Path temp;

    @Test
    void partitionsOfAKilledOtmServeElsewhereWithEveryAcknowledgedCommit() throws Exception {
        InstanceSpec spec = new InstanceSpec(temp.resolve("zk").toFile(), -1, -1, -1, true, 1, 2_000, 0);
        try (TestingServer zk = new TestingServer(spec, true);
                CuratorFramework watcher = CuratorFrameworkFactory.newClient(zk.getConnectString(), new RetryOneTime(100))) {
            watcher.start();
            Path dfs = temp.resolve("dfs");
            // "otm-a" sorts first, so the least-loaded rule gives it partitions 1 and 4 of 5.
            OtmProcess otmA = OtmProcess.start("otm-a", zk.getConnectString(), dfs, temp);
            Process killed = otmA.process();
            List<OtmNode> survivors = new ArrayList<>();
            Master master = null;
            try {
                for (String id : List.of("otm-b", "otm-c")) {
                    survivors.add(OtmNode.start(new OtmConfig(id, zk.getConnectString(), "/elastras", dfs.toUri(),
                            "127.0.0.1", 0, OtmConfig.DEFAULT_SESSION_TIMEOUT_MS).inCluster()));
                }
                master = Master.start(MasterConfig.defaults("master-1", zk.getConnectString(), "/elastras", dfs.toUri()));
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
                while (!master.active() && System.nanoTime() < deadline) {
                    Thread.sleep(10);
                }
                master.createTenant(MasterReassignsAFailedOtmsPartitionsTest.bank());
                master.createDatabase(MasterReassignsAFailedOtmsPartitionsTest.shop(),
                        List.of(List.of(100), List.of(200), List.of(300)));
                Master m = master;
                deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
                while (!m.partitions().stream().allMatch(v -> v.state() == PartitionState.SERVING)) {
                    assertTrue(System.nanoTime() < deadline, "not all serving: " + m.partitions());
                    Thread.sleep(10);
                }
                Set<Long> onKilled = new TreeSet<>();
                int killedPort = -1;
                for (PartitionView v : master.partitions()) {
                    if ("otm-a".equals(v.record().owner())) {
                        onKilled.add(v.record().partitionId());
                    }
                }
                // ROOT (1), META (2), BANK (3), SHOP (4: W_ID < 100, 5, 6, 7: W_ID >= 300), round robin.
                assertEquals(Set.of(1L, 4L, 7L), onKilled, "the killed OTM serves ROOT and two SHOP partitions");
                killedPort = otmA.port();

                // Acknowledged commits that live only in the killed OTM's log.
                try (OtmClient client = new OtmClient("127.0.0.1", killedPort)) {
                    for (long i = 0; i < 50; i++) {
                        long txn = client.begin(new BeginRequest("SHOP", 4, Isolation.SERIALIZABLE, 0)).txnId();
                        client.put(new PutRequest(txn, "WAREHOUSE", Map.of("W_ID", (int) i, "W_NAME", "w" + i)));
                        client.commit(new CommitRequest(txn));
                        txn = client.begin(new BeginRequest("SHOP", 7, Isolation.SERIALIZABLE, 0)).txnId();
                        client.put(new PutRequest(txn, "WAREHOUSE", Map.of("W_ID", 300 + (int) i, "W_NAME", "w" + i)));
                        client.commit(new CommitRequest(txn));
                    }
                }

                long killedAt = System.nanoTime();
                killed.destroyForcibly();
                assertTrue(killed.waitFor(30, TimeUnit.SECONDS));
                Map<Long, OtmNode> owners;
                long expiredAt = 0;
                while (true) {
                    if (expiredAt == 0 && watcher.checkExists().forPath("/elastras/otms/otm-a") == null) {
                        expiredAt = System.nanoTime();
                    }
                    owners = servedBy(survivors);
                    if (owners.keySet().containsAll(onKilled)) {
                        break;
                    }
                    assertTrue(System.nanoTime() - killedAt < TimeUnit.MILLISECONDS.toNanos(FAILOVER_BOUND_MS),
                            "partitions " + onKilled + " not serving within " + FAILOVER_BOUND_MS + " ms: " + owners.keySet());
                    Thread.sleep(10);
                }
                long servingAt = System.nanoTime();
                System.out.printf("FAILOVER: OTM process otm-a killed (SIGKILL) -> its partitions %s serving on the"
                        + " others in %d ms: %d ms until its znode was gone (heartbeat timeout %d ms or ZooKeeper session"
                        + " timeout %d ms, whichever came first), %d ms for the master to fence and reopen%n", onKilled,
                        (servingAt - killedAt) / 1_000_000, (expiredAt - killedAt) / 1_000_000,
                        MasterConfig.DEFAULT_HEARTBEAT_TIMEOUT_MS, OtmConfig.DEFAULT_SESSION_TIMEOUT_MS,
                        (servingAt - expiredAt) / 1_000_000);

                try (OtmClient low = new OtmClient("127.0.0.1", owners.get(4L).port());
                        OtmClient high = new OtmClient("127.0.0.1", owners.get(7L).port())) {
                    long b = low.begin(new BeginRequest("SHOP", 4, Isolation.SERIALIZABLE, 0)).txnId();
                    long s = high.begin(new BeginRequest("SHOP", 7, Isolation.SERIALIZABLE, 0)).txnId();
                    for (long i = 0; i < 50; i++) {
                        assertTrue(low.get(new GetRequest(b, "WAREHOUSE", List.of((int) i))).found(), "warehouse " + i + " lost");
                        assertTrue(high.get(new GetRequest(s, "WAREHOUSE", List.of(300 + (int) i))).found(),
                                "warehouse " + (300 + i) + " lost");
                    }
                    low.commit(new CommitRequest(b));
                    high.commit(new CommitRequest(s));
                }
            } finally {
                killed.destroyForcibly();
                if (master != null) {
                    master.close();
                }
                survivors.forEach(OtmNode::close);
            }
        }
    }

    private static Map<Long, OtmNode> servedBy(List<OtmNode> otms) {
        Map<Long, OtmNode> owners = new TreeMap<>();
        for (OtmNode otm : otms) {
            try (OtmClient client = new OtmClient("127.0.0.1", otm.port())) {
                for (PartitionStatus p : client.status().partitions()) {
                    if (p.state().equals("SERVING")) {
                        owners.put(p.partitionId(), otm);
                    }
                }
            }
        }
        return owners;
    }
}
