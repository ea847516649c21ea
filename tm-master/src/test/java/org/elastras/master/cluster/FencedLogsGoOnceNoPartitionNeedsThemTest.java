package org.elastras.master.cluster;

import static org.elastras.master.cluster.AnOtmRestartedUnderItsIdLosesNoCommitTest.BANK_PARTITION;
import static org.elastras.master.cluster.AnOtmRestartedUnderItsIdLosesNoCommitTest.ROWS_PER_RUN;
import static org.elastras.master.cluster.AnOtmRestartedUnderItsIdLosesNoCommitTest.assertRows;
import static org.elastras.master.cluster.AnOtmRestartedUnderItsIdLosesNoCommitTest.await;
import static org.elastras.master.cluster.AnOtmRestartedUnderItsIdLosesNoCommitTest.commitRows;
import static org.elastras.master.cluster.AnOtmRestartedUnderItsIdLosesNoCommitTest.moveTo;
import static org.elastras.master.cluster.AnOtmRestartedUnderItsIdLosesNoCommitTest.serves;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import org.apache.curator.test.InstanceSpec;
import org.apache.curator.test.TestingServer;
import org.elastras.client.OtmClient;
import org.elastras.client.protocol.FlushPartitionRequest;
import org.elastras.client.protocol.PartitionStatus;
import org.elastras.otm.server.OtmConfig;
import org.elastras.otm.server.OtmNode;
import org.elastras.otm.server.PartitionDirectories;
import org.elastras.storage.dfs.Dfs;
import org.elastras.storage.store.PartitionStore;
import org.elastras.storage.wal.WalNames;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The fenced log of a killed OTM stays while a partition's manifest names it (its recovery may
 * still need to replay it) and is deleted by the master once none does; the partitions recover
 * from the DFS without it afterwards, every commit there.
 */
class FencedLogsGoOnceNoPartitionNeedsThemTest {

    private static final long COLLECT_PERIOD_MS = 200;

    @TempDir
    Path temp;

    private TestingServer zk;
    private OtmProcess killed;
    private Master master;
    private OtmNode b;
    private OtmNode c;

    @AfterEach
    void stop() throws Exception {
        if (killed != null) {
            killed.close();
        }
        if (master != null) {
            master.close();
        }
        for (OtmNode otm : new OtmNode[] {b, c}) {
            if (otm != null) {
                otm.close();
            }
        }
        if (zk != null) {
            zk.close();
        }
    }

    @Test
    void aKilledOtmsLogIsDeletedOnlyOnceNoManifestNamesIt() throws Exception {
        zk = new TestingServer(new InstanceSpec(temp.resolve("zk").toFile(), -1, -1, -1, true, 1, 2_000, 0), true);
        Path dfsRoot = temp.resolve("dfs");
        killed = OtmProcess.start("otm-a", zk.getConnectString(), dfsRoot, temp);
        b = startInProcess("otm-b", dfsRoot);
        master = Master.start(MasterConfig.defaults("master-1", zk.getConnectString(), "/elastras", dfsRoot.toUri())
                .withLogCollectPeriodMs(COLLECT_PERIOD_MS));
        await("the master active", () -> master.active());
        master.createTenant(MasterReassignsAFailedOtmsPartitionsTest.bank());
        moveTo(master, "otm-a");
        commitRows(killed.port(), 0);
        killed.close();
        await("partition " + BANK_PARTITION + " serving on otm-b", () -> serves(b.port()));
        await("otm-a recovered", () -> master.otms().stream().noneMatch(o -> o.otmId().equals("otm-a") && o.recovering()));

        try (Dfs dfs = Dfs.open(dfsRoot.toUri())) {
            List<String> logs = WalNames.logsOf(dfs, "otm-a");
            assertEquals(1, logs.size(), logs.toString());
            String log = logs.get(0);
            String bank = PartitionDirectories.of("BANK", BANK_PARTITION);
            // The recovered partition names the dead run's log until its new owner flushes it.
            assertTrue(PartitionStore.readManifest(dfs, bank).replayPoints().containsKey(log),
                    "the recovered manifest names " + log + ": " + PartitionStore.readManifest(dfs, bank).replayPoints());
            // Two rounds finished from here: at least one read the manifests after the recovery.
            long rounds = master.logCollectionsDone();
            await("two more rounds of the log collection", () -> master.logCollectionsDone() >= rounds + 2);
            assertTrue(dfs.exists(WalNames.fencedDirectory(log)), "a log a manifest names was deleted");

            // Every partition otm-b serves flushes: no manifest names the dead run's log any more.
            try (OtmClient client = new OtmClient("127.0.0.1", b.port())) {
                for (PartitionStatus p : client.status().partitions()) {
                    client.flushPartition(new FlushPartitionRequest(p.partitionId()));
                }
            }
            await("the fenced log " + log + " deleted", () -> !dfs.exists(WalNames.fencedDirectory(log)));
            // Recorded by the collecting thread after the delete returns: wait for it, not just look.
            await("the deletion of " + log + " reported to the operators", () -> master.events().after(0, 10_000).stream()
                    .anyMatch(e -> e.kind() == MasterEvents.Kind.LOGS_DELETED && e.subject().equals(log)));
        }

        // Recovered from the DFS again, on another OTM: nothing needed the deleted log.
        c = startInProcess("otm-c", dfsRoot);
        await("otm-c live", () -> master.otms().stream().anyMatch(o -> o.otmId().equals("otm-c") && o.live()));
        b.close();
        b = null;
        await("partition " + BANK_PARTITION + " serving on otm-c", () -> serves(c.port()));
        assertRows(c.port(), ROWS_PER_RUN);
    }

    private OtmNode startInProcess(String id, Path dfsRoot) throws Exception {
        return OtmNode.start(new OtmConfig(id, zk.getConnectString(), "/elastras", dfsRoot.toUri(), "127.0.0.1", 0,
                OtmConfig.DEFAULT_SESSION_TIMEOUT_MS).inCluster());
    }
}
