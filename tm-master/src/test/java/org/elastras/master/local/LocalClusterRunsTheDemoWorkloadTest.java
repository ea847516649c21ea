package org.elastras.master.local;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A local cluster as {@code bin/elastras local} runs it, but short and small: 2 OTM processes, a
 * few hundred rows, a few seconds of workload. Transactions commit, none fails, every partition
 * has a serving owner throughout, and no OTM process outlives {@link LocalCluster#close}.
 */
class LocalClusterRunsTheDemoWorkloadTest {

    @TempDir
    Path temp;

    @Test
    void demoWorkloadCommitsWithoutErrorsAndStopLeavesNoOtmProcess() throws Exception {
        LocalClusterConfig config = new LocalClusterConfig(temp.resolve("local"), 2, System.getProperty("java.class.path"),
                256, 200, 12, 10, 3, 3, 300, 1_000, 7);
        ByteArrayOutputStream progress = new ByteArrayOutputStream();
        LocalCluster cluster = LocalCluster.start(config, new PrintStream(progress, true, StandardCharsets.UTF_8),
                logs -> { });
        List<Long> pids;
        LocalCluster.Status last;
        try {
            pids = cluster.otmPids();
            assertEquals(2, pids.size());
            for (int second = 0; second < 4; second++) {
                Thread.sleep(1_000);
                LocalCluster.Status s = cluster.status();
                assertTrue(s.allServing(), "a partition without a serving owner: " + s.partitions());
                assertEquals(2, s.otmsAlive());
                System.out.println(LocalMain.line(s, 0));
            }
            last = cluster.status();
        } finally {
            cluster.close();
        }
        System.out.print(progress.toString(StandardCharsets.UTF_8));
        assertEquals(4, last.partitions().size(), "1 tenant partition + 3 shop partitions");
        assertTrue(last.committed() > 0, "no transaction committed: " + last);
        assertEquals(0, last.errors(), "workload errors, last: " + last.lastError());
        assertFalse(cluster.anyOtmProcessAlive());
        for (long pid : pids) {
            assertFalse(ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false), "OTM process " + pid + " outlived stop");
        }
    }
}
