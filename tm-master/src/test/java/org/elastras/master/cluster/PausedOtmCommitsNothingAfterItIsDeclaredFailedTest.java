package org.elastras.master.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.curator.test.InstanceSpec;
import org.apache.curator.test.TestingServer;
import org.elastras.client.OtmClient;
import org.elastras.client.OtmClientConfig;
import org.elastras.client.protocol.BeginRequest;
import org.elastras.client.protocol.CommitRequest;
import org.elastras.client.protocol.ElasTrasException;
import org.elastras.client.protocol.GetRequest;
import org.elastras.client.protocol.Isolation;
import org.elastras.client.protocol.PartitionStatus;
import org.elastras.client.protocol.PutRequest;
import org.elastras.otm.server.OtmConfig;
import org.elastras.otm.server.OtmNode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The zombie case: an OTM process is paused (SIGSTOP) with a transaction open, long enough for the
 * master to declare it failed and reopen its partition elsewhere, then resumed (SIGCONT). Its
 * heartbeats stop while it is paused, so the master acts on the heartbeat timeout; once resumed it
 * must acknowledge nothing — neither the transaction it had open nor a new one — and the new owner
 * must hold every commit acknowledged before the pause and none after.
 */
class PausedOtmCommitsNothingAfterItIsDeclaredFailedTest {

    private static final long FAILOVER_BOUND_MS = 20_000;

    /** The tenant's partition: the catalog's ROOT and META are 1 and 2. */
    private static final long BANK_PARTITION = 3;

    @TempDir
    Path temp;

    @Test
    void aResumedZombieAcknowledgesNothingAndTheNewOwnerHasEveryEarlierCommit() throws Exception {
        // ZooKeeper's usual 2 s tick, so that the OTM's 4 s session timeout is granted and the
        // heartbeat timeout (3 s) is what detects the pause.
        InstanceSpec spec = new InstanceSpec(temp.resolve("zk").toFile(), -1, -1, -1, true, 1, 2_000, 0);
        Path dfs = temp.resolve("dfs");
        try (TestingServer zk = new TestingServer(spec, true);
                OtmProcess zombie = OtmProcess.start("otm-a", zk.getConnectString(), dfs, temp);
                OtmNode survivor = OtmNode.start(new OtmConfig("otm-b", zk.getConnectString(), "/elastras", dfs.toUri(),
                        "127.0.0.1", 0, OtmConfig.DEFAULT_SESSION_TIMEOUT_MS).inCluster());
                Master master = Master.start(MasterConfig.defaults("master-1", zk.getConnectString(), "/elastras",
                        dfs.toUri()))) {
            await("the master to be active", master::active);
            master.createTenant(MasterReassignsAFailedOtmsPartitionsTest.bank());
            // ROOT goes to otm-a, META to otm-b, the tenant to otm-a again (least loaded, ties by id).
            await("the tenant to serve on otm-a", () -> master.partitions().stream()
                    .anyMatch(v -> v.record().partitionId() == BANK_PARTITION && v.state() == PartitionState.SERVING
                            && "otm-a".equals(v.record().owner())));

            OtmClientConfig shortCalls = OtmClientConfig.defaults().withRequestTimeoutMs(5_000);
            try (OtmClient toZombie = new OtmClient("127.0.0.1", zombie.port(), shortCalls)) {
                for (long i = 0; i < 20; i++) {
                    long txn = toZombie.begin(new BeginRequest("BANK", BANK_PARTITION, Isolation.SERIALIZABLE, 0)).txnId();
                    toZombie.put(new PutRequest(txn, "ACCOUNTS", Map.of("ID", i, "BALANCE", 100)));
                    toZombie.commit(new CommitRequest(txn));
                }
                long open = toZombie.begin(new BeginRequest("BANK", BANK_PARTITION, Isolation.SERIALIZABLE, 0)).txnId();
                toZombie.put(new PutRequest(open, "ACCOUNTS", Map.of("ID", 1_000L, "BALANCE", 1)));

                long pausedAt = System.nanoTime();
                zombie.signal("STOP");
                try {
                    await("the tenant to serve on otm-b", () -> servedOn(survivor).contains(BANK_PARTITION));
                } finally {
                    zombie.signal("CONT");
                }
                long ms = (System.nanoTime() - pausedAt) / 1_000_000;
                System.out.printf("PAUSED OTM: otm-a stopped (SIGSTOP) -> its partition serving on otm-b in %d ms%n", ms);

                assertNotAcknowledged(() -> toZombie.commit(new CommitRequest(open)), "the transaction open across the pause");
                assertNotAcknowledged(() -> {
                    long txn = toZombie.begin(new BeginRequest("BANK", BANK_PARTITION, Isolation.SERIALIZABLE, 0)).txnId();
                    toZombie.put(new PutRequest(txn, "ACCOUNTS", Map.of("ID", 2_000L, "BALANCE", 1)));
                    return toZombie.commit(new CommitRequest(txn));
                }, "a transaction begun after the resume");
            }

            try (OtmClient toSurvivor = new OtmClient("127.0.0.1", survivor.port())) {
                long txn = toSurvivor.begin(new BeginRequest("BANK", BANK_PARTITION, Isolation.SERIALIZABLE, 0)).txnId();
                for (long i = 0; i < 20; i++) {
                    assertTrue(toSurvivor.get(new GetRequest(txn, "ACCOUNTS", List.of(i))).found(), "acknowledged row " + i + " lost");
                }
                assertFalse(toSurvivor.get(new GetRequest(txn, "ACCOUNTS", List.of(1_000L))).found(),
                        "the zombie's unacknowledged transaction is visible");
                assertFalse(toSurvivor.get(new GetRequest(txn, "ACCOUNTS", List.of(2_000L))).found(),
                        "a transaction the zombie ran after the resume is visible");
                toSurvivor.commit(new CommitRequest(txn));
            }
            await("the master to be active (it may have lost its session meanwhile on a loaded machine)", master::active);
            List<PartitionView> partitions = master.partitions();
            assertEquals(3, partitions.size(), "ROOT, META and the tenant: " + partitions);
            for (PartitionView v : partitions) {
                assertEquals("otm-b", v.record().owner(), "everything serves on the survivor: " + v);
            }
            PartitionView bank = partitions.get(2);
            assertEquals(BANK_PARTITION, bank.record().partitionId());
            assertNotEquals(1, bank.record().epoch(), "a new epoch for the new owner");
        }
    }

    private interface Call {
        Object run() throws Exception;
    }

    /** The call must fail: a zombie may answer an error or nothing, but never success. */
    private static void assertNotAcknowledged(Call call, String what) {
        try {
            Object answer = call.run();
            throw new AssertionError(what + " was acknowledged by the zombie: " + answer);
        } catch (ElasTrasException expected) {
            System.out.println("zombie refused " + what + ": " + expected.code() + " " + expected.getMessage());
        } catch (Exception e) {
            throw new AssertionError(what + " failed unexpectedly", e);
        }
    }

    private static List<Long> servedOn(OtmNode otm) {
        try (OtmClient client = new OtmClient("127.0.0.1", otm.port())) {
            return client.status().partitions().stream().filter(p -> p.state().equals("SERVING"))
                    .map(PartitionStatus::partitionId).toList();
        }
    }

    private interface Condition {
        boolean holds() throws Exception;
    }

    private static void await(String what, Condition condition) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(FAILOVER_BOUND_MS);
        while (!condition.holds()) {
            assertTrue(System.nanoTime() < deadline, "gave up waiting for " + what);
            Thread.sleep(10);
        }
    }
}
