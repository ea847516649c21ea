package org.elastras.experiments.torture;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A short torture against a real cluster (two master processes, three OTM processes, embedded
 * ZooKeeper, local DFS): list-append and bank workloads through the routing client while an OTM is
 * killed, the active master is killed, an OTM is paused past its heartbeat timeout and an OTM's
 * ZooKeeper session is expired, each once, in the order seed 7 draws; each zombie is asked to
 * commit. No anomaly, no lost acknowledged commit, no zombie commit, the bank's totals unchanged,
 * and transactions begun after each fault commit. Takes about 90 s.
 */
class ShortTortureLosesNothingTest {

    @TempDir
    Path temp;

    @Test
    void listAppendAndBankSurviveAnOtmKillAMasterKillAnOtmPauseAndASessionExpiry() throws Exception {
        TortureRun.Options options = TortureRun.Options.defaults(temp.resolve("out"), temp.resolve("cluster"))
                .withRun(600, 7).withFaults(FaultKind.values().length, 3_000, 4_000);
        TortureResult result = TortureRun.run(options);
        System.out.print(result.render());

        assertEquals(FaultKind.values().length, result.faultsInjected(), "faults injected: " + result.faults());
        for (FaultKind kind : FaultKind.values()) {
            assertEquals(1L, result.faultsByKind().get(kind.name()), "one " + kind);
        }
        assertEquals("VALID", result.checkerVerdict(), result.checkerReport());
        assertEquals(0, result.anomalies(), result.render());
        assertEquals(0, result.lostCommits(), "lost: " + result.lostCommitExamples());
        assertEquals(result.expectedGrandTotal(), result.finalGrandTotal(), "bank grand total");
        result.finalPartitionTotals().forEach((p, total) -> assertEquals(result.expectedPartitionTotal(), total, "bank partition " + p));
        assertEquals(0, result.wrongBankTotals(), "wrong totals: " + result.wrongBankTotalExamples());
        assertTrue(result.harnessErrors().isEmpty(), "harness: " + result.harnessErrors());
        assertTrue(result.zombieProbes() > 0, "no zombie was asked to commit");
        assertEquals(0, result.zombieViolations(), "zombie commits: " + result.zombieProbeAnswers());
        for (int i = 0; i < result.commitsAfterFault().size(); i++) {
            assertTrue(result.commitsAfterFault().get(i) > 0, "no transaction begun after fault " + result.faults().get(i)
                    + " committed before the next: " + result.commitsAfterFault());
        }
        assertTrue(result.listOk() > 100, "list-append did little: " + result.listOk());
        assertTrue(result.transfersOk() > 50, "bank did little: " + result.transfersOk());
        assertTrue(result.passed(), result.render());
    }
}
