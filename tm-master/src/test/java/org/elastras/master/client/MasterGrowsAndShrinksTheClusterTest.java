package org.elastras.master.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.curator.test.TestingServer;
import org.elastras.client.ElasTrasClient;
import org.elastras.master.balance.BalanceConfig;
import org.elastras.master.balance.LoadWindowConfig;
import org.elastras.master.balance.Provisioner;
import org.elastras.master.balance.ProvisioningException;
import org.elastras.master.balance.ThresholdPolicyConfig;
import org.elastras.master.cluster.Master;
import org.elastras.master.cluster.MasterConfig;
import org.elastras.master.cluster.OtmView;
import org.elastras.otm.server.OtmConfig;
import org.elastras.otm.server.OtmNode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Elasticity end to end (issue 8), thresholds scaled down: one OTM carries every partition; under
 * sustained load above the upper threshold with nowhere to move, the master asks its provisioner
 * for an OTM and moves partitions to it; once the load falls below the lower threshold it drains
 * one OTM and has it removed. The provisioner here starts real OTMs in this JVM (the local one
 * starts processes; it has its own test). Clients see no error and lose no increment.
 */
class MasterGrowsAndShrinksTheClusterTest {

    @TempDir
    Path temp;

    /** Starts and stops real OTM nodes in this JVM. */
    private final class InProcessProvisioner implements Provisioner {
        private final TestingServer zk;
        private final Map<String, OtmNode> running = new ConcurrentHashMap<>();
        private final AtomicInteger next = new AtomicInteger(2);
        final AtomicInteger added = new AtomicInteger();
        final AtomicInteger removed = new AtomicInteger();

        InProcessProvisioner(TestingServer zk) {
            this.zk = zk;
        }

        @Override
        public CompletableFuture<String> addOtm() {
            return CompletableFuture.supplyAsync(() -> {
                String id = "otm-" + next.getAndIncrement();
                try {
                    running.put(id, otm(id, zk));
                } catch (Exception e) {
                    throw new java.util.concurrent.CompletionException(
                            new ProvisioningException("starting " + id + " failed: " + e.getMessage(), e));
                }
                added.incrementAndGet();
                return id;
            });
        }

        @Override
        public CompletableFuture<Void> removeOtm(String otmId) {
            return CompletableFuture.runAsync(() -> {
                OtmNode node = running.remove(otmId);
                if (node == null) {
                    throw new java.util.concurrent.CompletionException(
                            new ProvisioningException("OTM " + otmId + " was not started here"));
                }
                node.close();
                removed.incrementAndGet();
            });
        }

        @Override
        public int pending() {
            return 0;
        }

        @Override
        public int pendingMax() {
            return 2;
        }

        @Override
        public void close() {
            running.values().forEach(OtmNode::close);
        }
    }

    @Test
    void theMasterAddsAnOtmUnderLoadAndRemovesOneWhenTheLoadIsGone() throws Exception {
        BalanceConfig balance = new BalanceConfig(500, new LoadWindowConfig(3_000, 1_000, 1_000_000),
                new ThresholdPolicyConfig(60, 15, 2_000, 2, 1, 2));
        List<ElasTrasClient> clients = new ArrayList<>();
        try (TestingServer zk = new TestingServer(true);
                OtmNode first = otm("otm-1", zk);
                InProcessProvisioner provisioner = new InProcessProvisioner(zk);
                Master master = Master.start(MasterConfig.defaults("master-1", zk.getConnectString(), "/elastras",
                        temp.resolve("dfs").toUri()).withBalance(balance))) {
            master.provisionWith(provisioner);
            ClientTestCluster.awaitActive(master);
            master.createDatabase(LedgerProcedures.schema(), ClientTestCluster.BOUNDARIES);
            ClientTestCluster.awaitAllServing(master, 4);
            for (int c = 0; c < 2; c++) {
                clients.add(ElasTrasClient.connect(zk.getConnectString()));
            }
            IncrementWorkload workload = new IncrementWorkload(clients);
            workload.start();

            // Sustained load on the only OTM: an OTM is added and partitions move to it.
            await(master, "a second OTM serving partitions", 40_000,
                    () -> liveOtms(master) == 2 && master.partitions().stream()
                            .anyMatch(v -> !"otm-1".equals(v.record().owner()) && v.record().owner() != null));
            assertEquals(1, provisioner.added.get());
            workload.awaitOps(5, false, 20_000);

            // The load goes away: the cluster shrinks back to one OTM, which serves everything.
            workload.stop();
            await(master, "the cluster back to one OTM", 40_000, () -> provisioner.removed.get() == 1 && liveOtms(master) == 1);
            ClientTestCluster.awaitAllServing(master, 4);
            String survivor = master.partitions().get(0).record().owner();
            assertTrue(master.partitions().stream().allMatch(v -> survivor.equals(v.record().owner())));
            try (ElasTrasClient reader = ElasTrasClient.connect(zk.getConnectString())) {
                IncrementWorkload.Totals totals = workload.check(reader);
                System.out.printf("ELASTIC: 1 -> 2 -> 1 OTMs on its own (%d added, %d removed); %d increments"
                        + " acknowledged, 0 client errors; slowest request %d ms%n", provisioner.added.get(),
                        provisioner.removed.get(), totals.acknowledged(), workload.latencyMsMax());
            }
        } finally {
            clients.forEach(ElasTrasClient::close);
        }
    }

    private interface Condition {
        boolean holds() throws Exception;
    }

    private static void await(Master master, String what, long ms, Condition c) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(ms);
        while (!c.holds()) {
            assertTrue(System.nanoTime() < deadline, "timed out waiting for " + what + ": " + master.partitions()
                    + "\nplan: " + master.balancePlan().describe());
            Thread.sleep(50);
        }
    }

    private static long liveOtms(Master master) throws Exception {
        return master.otms().stream().filter(OtmView::live).count();
    }

    private OtmNode otm(String id, TestingServer zk) throws Exception {
        return OtmNode.start(new OtmConfig(id, zk.getConnectString(), "/elastras", temp.resolve("dfs").toUri(),
                "127.0.0.1", 0, OtmConfig.DEFAULT_SESSION_TIMEOUT_MS).inCluster());
    }
}
