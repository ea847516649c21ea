package org.elastras.experiments.tpcc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.curator.test.TestingServer;
import org.elastras.experiments.cluster.ElasticLoad;
import org.elastras.master.cluster.Master;
import org.elastras.master.cluster.MasterConfig;
import org.elastras.master.cluster.PartitionState;
import org.elastras.master.cluster.PartitionView;
import org.elastras.master.local.LocalProvisioner;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The elasticity experiment's TPC-C load against a real cluster (ZooKeeper, a master, two OTM
 * processes): loaded and checked, paced, sampled; its warehouse partitions are moved both ways
 * (coordinated, then live) while the terminals run, and at the end no terminal saw a failure and
 * every consistency condition holds.
 */
class ElasticTpccLoadSurvivesMovesTest {

    @TempDir
    Path temp;

    @Test
    void tpccUnderMovesLosesNothingAndSurfacesNoError() throws Exception {
        try (TestingServer zk = new TestingServer(true);
                LocalProvisioner otms = new LocalProvisioner(System.getProperty("java.class.path"), zk.getConnectString(),
                        temp.resolve("dfs").toUri(), 256, temp.resolve("logs"), "otm-", 1, 2)) {
            String first = otms.addOtm().get(120, TimeUnit.SECONDS);
            String second = otms.addOtm().get(120, TimeUnit.SECONDS);
            try (Master master = Master.start(MasterConfig.defaults("master-1", zk.getConnectString(), "/elastras",
                    temp.resolve("dfs").toUri()))) {
                await(master::active, 60, "the master to be elected");
                try (ElasticTpccLoad load = ElasticTpccLoad.start(zk.getConnectString(), 2, 2, 40, 25, System.out)) {
                    List<PartitionView> tpcc = master.partitions().stream()
                            .filter(v -> v.record().database().equals(TpccSchema.DATABASE)).toList();
                    assertEquals(2, tpcc.size(), "one partition per warehouse: " + tpcc);
                    ElasticLoad.Interval warm = awaitCommits(load, "the terminals to commit");
                    assertTrue(warm.commits() > 0, "the terminals commit: " + warm);
                    load.offer(80);
                    int movesDone = 0;
                    long committedAfterMoves = 0;
                    ElasticLoad.Interval afterMove = null;
                    for (PartitionView v : tpcc) {
                        for (Boolean live : new Boolean[] {false, true}) {
                            long id = v.record().partitionId();
                            String from = owner(master, id);
                            String to = from.equals(first) ? second : first;
                            long before = master.movesFinished();
                            master.movePartition(id, to, live);
                            await(() -> master.movesFinished() > before && serving(master, id), 60, "partition " + id
                                    + " to serve on " + to);
                            assertEquals(to, owner(master, id));
                            movesDone++;
                            // The terminals commit again before the next move.
                            afterMove = awaitCommits(load, "the terminals to commit after moving partition " + id);
                            committedAfterMoves += afterMove.commits();
                        }
                    }
                    assertEquals(4, movesDone);
                    ElasticLoad.Interval during = new ElasticLoad.Interval(committedAfterMoves, afterMove.p50Ms(),
                            afterMove.p99Ms(), afterMove.maxMs());
                    assertTrue(during.commits() > 0 && during.p99Ms() > 0, "the terminals went on through the moves: " + during);
                    Map<String, Object> outcome = load.finish();
                    assertEquals(0L, outcome.get("client_visible_failures"), "no terminal saw an error: " + outcome);
                    assertTrue((Long) outcome.get("transactions_completed") > warm.commits() + during.commits() / 2, outcome.toString());
                    assertEquals("[]", outcome.get("consistency_violations_after_run"), "every consistency condition holds");
                    assertNotEquals(0L, outcome.get("new_orders_committed"));
                }
            }
        }
    }

    private static String owner(Master master, long partitionId) throws Exception {
        return master.partitions().stream().filter(v -> v.record().partitionId() == partitionId).findFirst().orElseThrow()
                .record().owner();
    }

    private static boolean serving(Master master, long partitionId) throws Exception {
        return master.partitions().stream().anyMatch(v -> v.record().partitionId() == partitionId
                && v.state() == PartitionState.SERVING);
    }

    /** Samples {@code load} until it has committed since the last sample; returns the samples' commits summed, the last one's latencies. */
    private static ElasticLoad.Interval awaitCommits(ElasticLoad load, String what) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        ElasticLoad.Interval last = load.interval();
        long commits = last.commits();
        while (commits == 0) {
            assertTrue(System.nanoTime() < deadline, "timed out after 30 s waiting for " + what);
            Thread.sleep(20);
            last = load.interval();
            commits += last.commits();
        }
        return new ElasticLoad.Interval(commits, last.p50Ms(), last.p99Ms(), last.maxMs());
    }

    private interface Condition {
        boolean holds() throws Exception;
    }

    private static void await(Condition condition, int seconds, String what) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
        while (!condition.holds()) {
            assertTrue(System.nanoTime() < deadline, "timed out after " + seconds + " s waiting for " + what);
            Thread.sleep(50);
        }
    }
}
