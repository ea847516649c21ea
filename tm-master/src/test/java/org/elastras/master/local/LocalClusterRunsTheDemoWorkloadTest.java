package org.elastras.master.local;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.elastras.client.protocol.PartitionInfo;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A local cluster as {@code bin/elastras local} runs it, but small: 3 OTM processes and 2 master
 * processes, the demo workload through the routing client. While it runs, the process of an OTM
 * that serves partitions is killed (SIGKILL), then the active master's: its partitions serve again
 * elsewhere, the standby takes over, the workload sees no error, and afterwards the rows hold
 * exactly the increments of the committed transactions (none lost, none doubled). The cluster
 * replaces the dead processes (a new OTM id; the master under its id). No process outlives
 * {@link LocalCluster#close}.
 */
class LocalClusterRunsTheDemoWorkloadTest {

    private static final long RECOVERY_BOUND_MS = 30_000;

    @TempDir
    Path temp;

    @Test
    void workloadSurvivesAKilledOtmAndAKilledMasterWithoutErrorsOrLostCommits() throws Exception {
        LocalClusterConfig config = new LocalClusterConfig(temp.resolve("local"), 3, System.getProperty("java.class.path"),
                256, 200, 12, 10, 3, 3, 150, 1_000, 7, 0, 20);
        ByteArrayOutputStream progress = new ByteArrayOutputStream();
        LocalCluster cluster = LocalCluster.start(config, new PrintStream(progress, true, StandardCharsets.UTF_8),
                logs -> { });
        List<Long> pids;
        long[] counts;
        LocalCluster.Status last;
        try {
            pids = cluster.pids();
            assertEquals(5, pids.size(), "3 OTMs and 2 masters");
            LocalCluster.Status s = settle(cluster, 2);
            assertEquals(2, s.mastersAlive());

            // The OTM serving ROOT (the first partition): the catalog itself fails over.
            String victim = s.partitions().stream().filter(p -> p.state().equals("SERVING")).map(PartitionInfo::owner)
                    .findFirst().orElseThrow();
            long killedAt = System.nanoTime();
            cluster.killOtm(victim);
            s = awaitStatus(cluster, "partitions of " + victim + " to serve elsewhere", x -> x.allServing()
                    && x.partitions().stream().noneMatch(p -> victim.equals(p.owner())));
            System.out.printf("OTM %s killed -> all its partitions serving elsewhere in %d ms%n", victim,
                    (System.nanoTime() - killedAt) / 1_000_000);
            awaitStatus(cluster, "a new OTM in place of " + victim, x -> x.otmsAlive() == 3);

            long committedBefore = s.committed();
            killedAt = System.nanoTime();
            String deposed = cluster.killActiveMaster();
            s = awaitStatus(cluster, "the standby to take over", x -> x.activeMaster() != null
                    && !x.activeMaster().equals(deposed));
            long failoverMs = (System.nanoTime() - killedAt) / 1_000_000;
            System.out.printf("MASTER FAILOVER: active master %s killed -> %s active in %d ms%n", deposed,
                    s.activeMaster(), failoverMs);
            assertNotNull(s.activeMaster());
            assertNotEquals(deposed, s.activeMaster());
            s = settle(cluster, 2);
            assertTrue(s.committed() > committedBefore, "no commit after the master failover");
            awaitStatus(cluster, "the killed master to be started again as a standby", x -> x.mastersAlive() == 2);
            last = s;
            System.out.println(LocalMain.line(last, 0));
            pids = new java.util.ArrayList<>(pids);
            pids.addAll(cluster.pids()); // the replacements too
            counts = cluster.stopWorkloadAndCount();
        } finally {
            cluster.close();
        }
        System.out.print(progress.toString(StandardCharsets.UTF_8));
        assertEquals(6, last.partitions().size(), "the catalog's ROOT and META + 1 tenant partition + 3 shop partitions");
        assertEquals(0, last.errors(), "the workload saw errors, last: " + last.lastError());
        assertTrue(counts[0] > 0, "no transaction committed");
        assertEquals(counts[0], counts[1], "committed transactions vs increments the rows hold");
        assertFalse(cluster.anyOtmProcessAlive());
        for (long pid : pids) {
            assertFalse(ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false), "process " + pid + " outlived stop");
        }
    }

    /** Waits {@code seconds} of steady running, checking that every partition serves throughout. */
    private static LocalCluster.Status settle(LocalCluster cluster, int seconds) throws Exception {
        LocalCluster.Status s = awaitStatus(cluster, "every partition to serve", LocalCluster.Status::allServing);
        for (int second = 0; second < seconds; second++) {
            Thread.sleep(1_000);
            s = cluster.status();
            System.out.println(LocalMain.line(s, 0));
        }
        return s;
    }

    private interface StatusCondition {
        boolean holds(LocalCluster.Status s);
    }

    private static LocalCluster.Status awaitStatus(LocalCluster cluster, String what, StatusCondition condition)
            throws Exception {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(RECOVERY_BOUND_MS);
        while (true) {
            LocalCluster.Status s = cluster.status();
            if (condition.holds(s)) {
                return s;
            }
            assertTrue(System.nanoTime() < deadline, "gave up waiting for " + what + ": " + LocalMain.line(s, 0));
            Thread.sleep(20);
        }
    }
}
