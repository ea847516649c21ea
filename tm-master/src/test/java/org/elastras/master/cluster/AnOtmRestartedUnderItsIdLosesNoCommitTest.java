package org.elastras.master.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.curator.test.InstanceSpec;
import org.apache.curator.test.TestingServer;
import org.elastras.client.OtmClient;
import org.elastras.client.protocol.BeginRequest;
import org.elastras.client.protocol.CommitRequest;
import org.elastras.client.protocol.GetRequest;
import org.elastras.client.protocol.GetResponse;
import org.elastras.client.protocol.Isolation;
import org.elastras.client.protocol.PartitionStatus;
import org.elastras.client.protocol.PutRequest;
import org.elastras.otm.server.OtmConfig;
import org.elastras.otm.server.OtmNode;
import org.elastras.storage.dfs.Dfs;
import org.elastras.storage.wal.WalFenceMarker;
import org.elastras.storage.wal.WalNames;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An operator restarts a killed OTM under the same id (as a service manager would), after the
 * master fenced its first run's log. Each run must log on its own: the second run's acknowledged
 * commits, which live only in its log, must come back when it is killed in turn, which takes a
 * fence of a log whose OTM id was fenced before.
 */
class AnOtmRestartedUnderItsIdLosesNoCommitTest {

    private static final long FAILOVER_BOUND_MS = 30_000;
    static final int ROWS_PER_RUN = 30;
    /** The catalog takes ids 1 and 2; the tenant gets 3. */
    static final long BANK_PARTITION = 3;

    @TempDir
    Path temp;

    private TestingServer zk;
    private OtmProcess run;
    private OtmNode survivor;
    private Master master;

    @AfterEach
    void stop() throws Exception {
        if (run != null) {
            run.close();
        }
        if (master != null) {
            master.close();
        }
        if (survivor != null) {
            survivor.close();
        }
        if (zk != null) {
            zk.close();
        }
    }

    /**
     * ZooKeeper (ticks of 2 s, so the OTMs' sessions are granted as asked), the first run of
     * otm-a, {@code withSurvivor} an in-process otm-b, and a master that created the tenant BANK;
     * the tenant's partition serves on otm-a with rows committed there.
     */
    private void startWithRowsOnTheFirstRun(boolean withSurvivor) throws Exception {
        zk = new TestingServer(new InstanceSpec(temp.resolve("zk").toFile(), -1, -1, -1, true, 1, 2_000, 0), true);
        run = startRun();
        if (withSurvivor) {
            survivor = OtmNode.start(new OtmConfig("otm-b", zk.getConnectString(), "/elastras", dfs().toUri(),
                    "127.0.0.1", 0, OtmConfig.DEFAULT_SESSION_TIMEOUT_MS).inCluster());
        }
        master = Master.start(MasterConfig.defaults("master-1", zk.getConnectString(), "/elastras", dfs().toUri()));
        await("the master active", () -> master.active());
        master.createTenant(MasterReassignsAFailedOtmsPartitionsTest.bank());
        moveTo(master, "otm-a");
        commitRows(run.port(), 0);
    }

    private OtmProcess startRun() throws Exception {
        return OtmProcess.start("otm-a", zk.getConnectString(), dfs(), temp);
    }

    private Path dfs() {
        return temp.resolve("dfs");
    }

    @Test
    void theSecondRunsCommitsSurviveItsKillToo() throws Exception {
        startWithRowsOnTheFirstRun(true);
        run.close();
        await("partition " + BANK_PARTITION + " serving on otm-b after the first kill", () -> serves(survivor.port()));
        assertRows(survivor.port(), ROWS_PER_RUN);

        // Second run, same id: the partition comes back to it and takes rows only its log holds.
        run = startRun();
        moveTo(master, "otm-a");
        commitRows(run.port(), ROWS_PER_RUN);
        long killedAt = System.nanoTime();
        run.close();
        await("partition " + BANK_PARTITION + " serving on otm-b after the second kill", () -> serves(survivor.port()));
        System.out.printf("RESTARTED-ID: the second run of otm-a killed -> its partition serving on otm-b in %d ms%n",
                (System.nanoTime() - killedAt) / 1_000_000);
        assertRows(survivor.port(), 2 * ROWS_PER_RUN);

        try (Dfs dfs = Dfs.open(dfs().toUri())) {
            List<String> logs = WalNames.logsOf(dfs, "otm-a");
            assertEquals(2, logs.size(), "a log per run: " + logs);
            for (String walId : logs) {
                assertNotNull(WalFenceMarker.readOrNull(dfs, WalNames.fencedDirectory(walId)), walId + " fenced");
                assertTrue(!dfs.exists(WalNames.liveDirectory(walId)), walId + " not live");
            }
        }
    }

    @Test
    void theOnlyOtmRestartedUnderItsIdTakesBackEveryPartitionWithEveryCommit() throws Exception {
        startWithRowsOnTheFirstRun(false);
        run.close();
        await("otm-a declared failed", () -> master.otms().stream().noneMatch(o -> o.live()));

        // Nowhere to recover its partitions (the catalog's too) but on its own next run.
        long restartedAt = System.nanoTime();
        run = startRun();
        await("every partition serving again", () -> master.partitions().size() == 3
                && master.partitions().stream().allMatch(v -> v.state() == PartitionState.SERVING
                        && "otm-a".equals(v.record().owner())));
        System.out.printf("RESTARTED-ID: the only OTM restarted under its id -> all 3 partitions serving on it %d ms"
                + " after the restart began%n", (System.nanoTime() - restartedAt) / 1_000_000);
        assertRows(run.port(), ROWS_PER_RUN);
        commitRows(run.port(), ROWS_PER_RUN);
        assertRows(run.port(), 2 * ROWS_PER_RUN);
    }

    @Test
    void aRestartAtOnceKeepsItsOwnLogThroughTheFenceOfThePreviousRun() throws Exception {
        // As a service manager restarts: at once. The new run opens its log, then waits for the
        // dead run's registration to go, which happens when the master fences the dead run.
        startWithRowsOnTheFirstRun(false);
        run.close();
        run = startRun();
        await("every partition serving on the new run", () -> master.partitions().size() == 3
                && master.partitions().stream().allMatch(v -> v.state() == PartitionState.SERVING
                        && "otm-a".equals(v.record().owner())));
        assertRows(run.port(), ROWS_PER_RUN);
        commitRows(run.port(), ROWS_PER_RUN);
        assertRows(run.port(), 2 * ROWS_PER_RUN);
        assertTrue(run.process().isAlive(), "the new run still serves");
        try (Dfs dfs = Dfs.open(dfs().toUri())) {
            List<String> logs = WalNames.logsOf(dfs, "otm-a");
            assertEquals(2, logs.size(), logs.toString());
            assertNotNull(WalFenceMarker.readOrNull(dfs, WalNames.fencedDirectory(logs.get(0))), "the dead run's log fenced");
            assertTrue(dfs.exists(WalNames.liveDirectory(logs.get(1))) && !dfs.exists(WalNames.fencedDirectory(logs.get(1))),
                    "the new run's log is live");
        }
    }

    @Test
    void aNewMasterFencesAnEarlierRunsLogBeforeTheNextRunOfItsIdJoins() throws Exception {
        startWithRowsOnTheFirstRun(false);
        // No master sees the first run go: it freezes (a zombie) while there is none, its session
        // expires, and the next run of its id registers before a new master is elected.
        master.close();
        master = null;
        OtmProcess zombie = run;
        zombie.signal("STOP");
        run = null;
        try {
            run = startRun();
            master = Master.start(MasterConfig.defaults("master-2", zk.getConnectString(), "/elastras", dfs().toUri()));
            // The catalog names otm-a, which is live: the partitions reopen on the new run, from the
            // old run's log, which must be fenced first (the zombie could still acknowledge into it).
            await("every partition serving on the new run", () -> master.active() && master.partitions().size() == 3
                    && master.partitions().stream().allMatch(v -> v.state() == PartitionState.SERVING
                            && "otm-a".equals(v.record().owner())));
            assertRows(run.port(), ROWS_PER_RUN);
            try (Dfs dfs = Dfs.open(dfs().toUri())) {
                List<String> logs = WalNames.logsOf(dfs, "otm-a");
                assertEquals(2, logs.size(), logs.toString());
                String first = logs.get(0);
                assertNotNull(WalFenceMarker.readOrNull(dfs, WalNames.fencedDirectory(first)), first + " fenced");
                assertTrue(!dfs.exists(WalNames.liveDirectory(first)), first + " not live");
                assertTrue(dfs.exists(WalNames.liveDirectory(logs.get(1))), "the new run's log is its own, live");
            }
            // The zombie wakes up: whatever it is asked, nothing it does is seen.
            zombie.signal("CONT");
            try (OtmClient client = new OtmClient("127.0.0.1", zombie.port())) {
                long txn = client.begin(new BeginRequest("BANK", BANK_PARTITION, Isolation.SERIALIZABLE, 0)).txnId();
                client.put(new PutRequest(txn, "ACCOUNTS", Map.of("ID", 999L, "BALANCE", 1L)));
                client.commit(new CommitRequest(txn));
                System.out.println("RESTARTED-ID: the zombie acknowledged a commit");
            } catch (RuntimeException refused) {
                System.out.println("RESTARTED-ID: the zombie refused: " + refused.getMessage());
            }
            try (OtmClient client = new OtmClient("127.0.0.1", run.port())) {
                long txn = client.begin(new BeginRequest("BANK", BANK_PARTITION, Isolation.SERIALIZABLE, 0)).txnId();
                assertFalse(client.get(new GetRequest(txn, "ACCOUNTS", List.of(999L))).found(),
                        "a zombie's write is visible");
                client.commit(new CommitRequest(txn));
            }
        } finally {
            zombie.close();
        }
    }

    /** Moves the tenant's partition to {@code otmId} (once the master sees that OTM) and waits until it serves there. */
    static void moveTo(Master master, String otmId) throws Exception {
        await(otmId + " live at the master", () -> master.otms().stream().anyMatch(o -> o.otmId().equals(otmId) && o.live()));
        await("partition " + BANK_PARTITION + " serving", () -> master.partitions().stream()
                .anyMatch(v -> v.record().partitionId() == BANK_PARTITION && v.state() == PartitionState.SERVING));
        String owner = owner(master);
        if (!owner.equals(otmId)) {
            master.movePartition(BANK_PARTITION, otmId);
        }
        await("partition " + BANK_PARTITION + " serving on " + otmId, () -> otmId.equals(owner(master))
                && master.partitions().stream().anyMatch(v -> v.record().partitionId() == BANK_PARTITION
                        && v.state() == PartitionState.SERVING));
    }

    static String owner(Master master) throws Exception {
        return master.partitions().stream().filter(v -> v.record().partitionId() == BANK_PARTITION).findFirst()
                .orElseThrow().record().owner();
    }

    static boolean serves(int port) {
        try (OtmClient client = new OtmClient("127.0.0.1", port)) {
            for (PartitionStatus p : client.status().partitions()) {
                if (p.partitionId() == BANK_PARTITION && p.state().equals("SERVING")) {
                    return true;
                }
            }
        }
        return false;
    }

    /** Acknowledged commits of rows {@code first} to {@code first + ROWS_PER_RUN - 1}, one transaction each. */
    static void commitRows(int port, long first) {
        try (OtmClient client = new OtmClient("127.0.0.1", port)) {
            for (long id = first; id < first + ROWS_PER_RUN; id++) {
                long txn = client.begin(new BeginRequest("BANK", BANK_PARTITION, Isolation.SERIALIZABLE, 0)).txnId();
                client.put(new PutRequest(txn, "ACCOUNTS", Map.of("ID", id, "BALANCE", 1_000 + id)));
                client.commit(new CommitRequest(txn));
            }
        }
    }

    static void assertRows(int port, long count) {
        try (OtmClient client = new OtmClient("127.0.0.1", port)) {
            long txn = client.begin(new BeginRequest("BANK", BANK_PARTITION, Isolation.SERIALIZABLE, 0)).txnId();
            for (long id = 0; id < count; id++) {
                GetResponse row = client.get(new GetRequest(txn, "ACCOUNTS", List.of(id)));
                assertTrue(row.found(), "account " + id + " lost");
                assertEquals(1_000 + id, ((Number) row.row().get("BALANCE")).longValue(), "account " + id);
            }
            client.commit(new CommitRequest(txn));
        }
    }

    interface Condition {
        boolean holds() throws Exception;
    }

    static void await(String what, Condition condition) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(FAILOVER_BOUND_MS);
        while (!condition.holds()) {
            assertTrue(System.nanoTime() < deadline, "not within " + FAILOVER_BOUND_MS + " ms: " + what);
            Thread.sleep(20);
        }
    }
}
