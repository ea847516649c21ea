package org.elastras.otm.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.curator.test.TestingServer;
import org.elastras.client.OtmClient;
import org.elastras.client.protocol.CallRequest;
import org.elastras.client.protocol.Isolation;
import org.elastras.client.protocol.OpenPartitionRequest;
import org.elastras.client.protocol.RegisterDatabaseRequest;
import org.elastras.client.protocol.SchemaSpec;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An OTM stops with a cross-partition transaction's branch in doubt (its prepare record logged,
 * its outcome never delivered). The next OTM to open the partitions holds the branch as in doubt
 * (its intents held, readers at or above its CTS waiting) until the coordinator partition, opened
 * in any order, tells the outcome: committed if the decision record was logged, else aborted.
 */
class BranchesInDoubtAtACrashAreDecidedByTheNextOwnerTest {

    private static final int SESSION_TIMEOUT_MS = 15_000;
    private static final long START = 1_000;

    @TempDir
    Path temp;

    private OtmNode start(TestingServer zk, String id) throws Exception {
        return OtmNode.start(new OtmConfig(id, zk.getConnectString(), "/elastras", temp.resolve("dfs").toUri(), "127.0.0.1",
                0, SESSION_TIMEOUT_MS));
    }

    private static Object call(OtmClient client, long partition, String procedure, List<Object> args) {
        return client.call(new CallRequest(TreeBankProcedures.DATABASE, partition, procedure, args, Isolation.SERIALIZABLE, 0))
                .result();
    }

    /** Opens the participant's partition (11) before the coordinator's (10): it must not wait for it. */
    private static void openParticipantFirst(OtmClient client) {
        client.registerDatabase(new RegisterDatabaseRequest(SchemaSpec.of(TreeBankProcedures.schema())));
        client.openPartition(new OpenPartitionRequest(TreeBankProcedures.DATABASE, 11, List.of(100L), null));
        client.openPartition(new OpenPartitionRequest(TreeBankProcedures.DATABASE, 10, null, List.of(100L)));
    }

    /** Reads both accounts at one snapshot until account 101 holds {@code expected}; the sum never changes. */
    private static void awaitBalance(OtmClient client, long expected) throws InterruptedException {
        long deadline = System.nanoTime() + 20_000_000_000L;
        while (true) {
            long sum = ((Number) call(client, 10, "sum", List.of(1L, 101L))).longValue();
            assertEquals(2 * START, sum, "a reader saw half of the transfer");
            long b = ((Number) call(client, 11, "sum", List.of(101L))).longValue();
            if (b == expected) {
                return;
            }
            assertTrue(System.nanoTime() < deadline, "account 101 holds " + b + ", expected " + expected);
            Thread.sleep(50);
        }
    }

    private OtmClient prepareAccounts(OtmNode otm) {
        OtmClient client = new OtmClient("127.0.0.1", otm.port());
        client.registerDatabase(new RegisterDatabaseRequest(SchemaSpec.of(TreeBankProcedures.schema())));
        client.openPartition(new OpenPartitionRequest(TreeBankProcedures.DATABASE, 10, null, List.of(100L)));
        client.openPartition(new OpenPartitionRequest(TreeBankProcedures.DATABASE, 11, List.of(100L), null));
        call(client, 10, "open", List.of(1L, START));
        call(client, 11, "open", List.of(101L, START));
        return client;
    }

    @Test
    void aDecidedTransactionWhoseBranchNeverHeardCommitsOnTheNextOwner() throws Exception {
        try (TestingServer zk = new TestingServer(true)) {
            OtmNode first = start(zk, "otm-a");
            try (OtmClient client = prepareAccounts(first)) {
                first.commitFaults().loseDecisions(true);
                assertEquals(START - 30, ((Number) call(client, 10, "transfer", List.of(1L, 101L, 30L))).longValue());
            } finally {
                first.close(); // at once: the branch on partition 11 never heard (nor asked: 2 s)
            }
            OtmNode second = start(zk, "otm-b");
            try (OtmClient client = new OtmClient("127.0.0.1", second.port())) {
                openParticipantFirst(client);
                awaitBalance(client, START + 30);
                assertEquals(START - 30, ((Number) call(client, 10, "sum", List.of(1L))).longValue());
            } finally {
                second.close();
            }
        }
    }

    @Test
    void anUndecidedTransactionWhoseCoordinatorStoppedIsDroppedByTheNextOwner() throws Exception {
        try (TestingServer zk = new TestingServer(true)) {
            OtmNode first = start(zk, "otm-a");
            AtomicReference<Throwable> outcome = new AtomicReference<>();
            Thread transfer;
            try (OtmClient client = prepareAccounts(first)) {
                first.commitFaults().holdBeforeDecision();
                transfer = new Thread(() -> {
                    try {
                        call(client, 10, "transfer", List.of(1L, 101L, 30L));
                        outcome.set(new AssertionError("the transfer was acknowledged"));
                    } catch (RuntimeException e) {
                        outcome.set(e);
                    }
                });
                transfer.start();
                long deadline = System.nanoTime() + 20_000_000_000L;
                while (first.commitFaults().heldBeforeDecision() == 0) {
                    assertTrue(System.nanoTime() < deadline, "the coordinator never collected its votes");
                    Thread.sleep(5);
                }
                first.close(); // the branch voted (its prepare record is logged); no decision
                first.commitFaults().releaseBeforeDecision();
                transfer.join(30_000);
            }
            assertTrue(outcome.get() instanceof RuntimeException, "the caller learnt nothing was acknowledged: " + outcome.get());
            OtmNode second = start(zk, "otm-b");
            try (OtmClient client = new OtmClient("127.0.0.1", second.port())) {
                openParticipantFirst(client);
                awaitBalance(client, START);
                assertEquals(START, ((Number) call(client, 10, "sum", List.of(1L))).longValue());
                // The in-doubt branch's intent is gone once decided: a new transfer to 101 commits.
                call(client, 10, "transfer", List.of(1L, 101L, 5L));
                awaitBalance(client, START + 5);
            } finally {
                second.close();
            }
        }
    }
}
