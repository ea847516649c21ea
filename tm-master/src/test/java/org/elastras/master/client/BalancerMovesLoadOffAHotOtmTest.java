package org.elastras.master.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.curator.test.TestingServer;
import org.elastras.client.ElasTrasClient;
import org.elastras.master.balance.BalanceConfig;
import org.elastras.master.balance.LoadWindowConfig;
import org.elastras.master.balance.ThresholdPolicyConfig;
import org.elastras.master.cluster.Master;
import org.elastras.master.cluster.MasterConfig;
import org.elastras.master.cluster.MasterEvents;
import org.elastras.master.cluster.PartitionState;
import org.elastras.master.cluster.PartitionView;
import org.elastras.otm.server.OtmConfig;
import org.elastras.otm.server.OtmNode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The master's balancer end to end, with thresholds scaled down so a test can cross them: every
 * LEDGER partition is put on otm-1; a one-second burst of requests moves nothing (the threshold
 * must hold in every slice of the window), sustained load makes the master move hot partitions to
 * the idle otm-2, and the clients see no error throughout.
 */
class BalancerMovesLoadOffAHotOtmTest {

    /** Requests per second an OTM may carry in every slice of the window before partitions move off. */
    private static final double UPPER = 40;

    @TempDir
    Path temp;

    @Test
    void aShortSpikeMovesNothingAndSustainedOverloadMovesPartitionsToTheIdleOtm() throws Exception {
        BalanceConfig balance = new BalanceConfig(500, new LoadWindowConfig(4_000, 1_000, 1_000_000),
                new ThresholdPolicyConfig(UPPER, 0, 60_000, 2, 1, 10));
        List<String> errors = Collections.synchronizedList(new ArrayList<>());
        try (TestingServer zk = new TestingServer(true);
                OtmNode otm1 = otm("otm-1", zk);
                OtmNode otm2 = otm("otm-2", zk);
                Master master = Master.start(MasterConfig.defaults("master-1", zk.getConnectString(), "/elastras",
                        temp.resolve("dfs").toUri()).withBalance(balance));
                ElasTrasClient client = ElasTrasClient.connect(zk.getConnectString())) {
            ClientTestCluster.awaitActive(master);
            master.createDatabase(LedgerProcedures.schema(), ClientTestCluster.BOUNDARIES);
            ClientTestCluster.awaitAllServing(master, 4);
            for (long id = 3; id <= 6; id++) {
                if (!"otm-1".equals(owner(master, id))) {
                    master.movePartition(id, "otm-1");
                }
            }
            awaitOwners(master, "otm-1");
            Map<Long, String> placed = owners(master);
            long eventsBefore = master.events().lastSequence();

            // A burst of about a second: well above the threshold, but not in every slice.
            run(client, 1_200, errors);
            Thread.sleep(5_000);
            assertEquals(placed, owners(master), "a short spike moved partitions");
            assertEquals(0, balancerMoves(master, eventsBefore), "a short spike started a move");

            // Sustained load on otm-1's partitions: the balancer moves some to otm-2.
            AtomicBoolean stop = new AtomicBoolean();
            Thread load = new Thread(() -> {
                while (!stop.get()) {
                    run(client, 500, errors);
                }
            });
            load.start();
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            try {
                while (owners(master).values().stream().noneMatch("otm-2"::equals)) {
                    assertTrue(System.nanoTime() < deadline, "the balancer moved nothing off the hot OTM: "
                            + master.balancePlan().describe());
                    Thread.sleep(100);
                }
            } finally {
                stop.set(true);
                load.join();
            }
            assertTrue(balancerMoves(master, eventsBefore) >= 1);
            ClientTestCluster.awaitAllServing(master, 4);
            assertEquals(List.of(), errors, "errors reached the application");
            System.out.printf("BALANCER: placement %s -> %s; plan now:%n%s%n", placed, owners(master),
                    master.balancePlan().describe());
        }
    }

    /** Increments on all four partitions for {@code ms}, as fast as one thread goes. */
    private static void run(ElasTrasClient client, long ms, List<String> errors) {
        long end = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(ms);
        int[] accounts = {10, 110, 210, 310};
        int i = 0;
        while (System.nanoTime() < end) {
            int a = accounts[i++ % accounts.length];
            try {
                client.call("LEDGER", "increment", List.of(a), List.of(a));
            } catch (RuntimeException e) {
                errors.add(e.toString());
                return;
            }
        }
    }

    private static long balancerMoves(Master master, long afterSequence) {
        return master.events().after(afterSequence, 10_000).stream()
                .filter(e -> e.kind() == MasterEvents.Kind.MOVE_STARTED && e.message().contains("balancer")).count();
    }

    private static String owner(Master master, long id) throws Exception {
        return owners(master).get(id);
    }

    /** LEDGER partition -> owner. */
    private static Map<Long, String> owners(Master master) throws Exception {
        Map<Long, String> out = new TreeMap<>();
        for (PartitionView v : master.partitions()) {
            if (v.record().database().equals("LEDGER")) {
                out.put(v.record().partitionId(), v.record().owner());
            }
        }
        return out;
    }

    private static void awaitOwners(Master master, String owner) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(15);
        while (!(owners(master).values().stream().allMatch(owner::equals)
                && master.partitions().stream().allMatch(v -> v.state() == PartitionState.SERVING))) {
            assertTrue(System.nanoTime() < deadline, "not all on " + owner + ": " + master.partitions());
            Thread.sleep(10);
        }
    }

    private OtmNode otm(String id, TestingServer zk) throws Exception {
        return OtmNode.start(new OtmConfig(id, zk.getConnectString(), "/elastras", temp.resolve("dfs").toUri(),
                "127.0.0.1", 0, OtmConfig.DEFAULT_SESSION_TIMEOUT_MS).inCluster());
    }
}
