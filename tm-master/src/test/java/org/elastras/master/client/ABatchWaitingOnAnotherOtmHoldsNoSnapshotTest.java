package org.elastras.master.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.elastras.client.ElasTrasClient;
import org.elastras.client.OtmClient;
import org.elastras.client.protocol.BeginRequest;
import org.elastras.client.protocol.CallBatchRequest;
import org.elastras.client.protocol.CallBatchResponse;
import org.elastras.client.protocol.CallRequest;
import org.elastras.client.protocol.CallResponse;
import org.elastras.client.protocol.CommitId;
import org.elastras.client.protocol.CommitRequest;
import org.elastras.client.protocol.GetResponse;
import org.elastras.client.protocol.Isolation;
import org.elastras.otm.server.MoveFaults;
import org.elastras.otm.server.OtmNode;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A batch of calls logs its commits together, so the commits of its first calls stay prepared,
 * their CTSs taken, while the later calls run. When a later call's procedure waits on another OTM
 * (here: a branch on a partition whose live move is held after the hand-over, before its
 * destination serves it), those CTSs must not hold the OTM's snapshot: every
 * session on the OTM waits for it, and every branch begun there. A TPC-C run with remote
 * warehouses stalled the whole cluster for about 10 s so (BENCHMARKS.md, "Live moves under
 * TPC-C"). Real ZooKeeper, master and three OTMs over sockets.
 */
class ABatchWaitingOnAnotherOtmHoldsNoSnapshotTest {

    private static final long START = 1_000;

    @TempDir
    Path temp;

    private ClientTestCluster cluster;
    private final List<OtmNode> held = new ArrayList<>();

    @AfterEach
    void stop() throws Exception {
        held.forEach(otm -> otm.moveFaults().release());
        if (cluster != null) {
            cluster.close();
        }
    }

    @Test
    void aSessionOnTheBatchsOtmSeesNewCommitsWhileTheBatchWaits() throws Exception {
        cluster = new ClientTestCluster(temp, List.of("otm-1", "otm-2", "otm-3"));
        cluster.openAccounts(START, 10, 20, 110, 210, 310);
        Map<Long, OtmNode> owners = ClientTestCluster.servedBy(cluster.otms.values());
        OtmNode home = owners.get(3L); // accounts 10 and 20
        int remoteAccount = -1;
        for (int a : new int[] {110, 210, 310}) {
            if (owners.get(ClientTestCluster.partitionOf(a)) != home) {
                remoteAccount = a;
                break;
            }
        }
        assertTrue(remoteAccount > 0, "some LEDGER partition is served away from partition 3's OTM: " + owners);
        long remotePartition = ClientTestCluster.partitionOf(remoteAccount);
        OtmNode origin = owners.get(remotePartition);
        String destination = cluster.otms.entrySet().stream()
                .filter(e -> e.getValue() != home && e.getValue() != origin).findFirst().orElseThrow().getKey();

        // The remote partition's live move stops once its destination recorded itself in the
        // catalog, before it serves: its old owner refuses it and the new one does not serve it
        // yet, until the test releases the move.
        OtmNode next = cluster.otms.get(destination);
        next.moveFaults().holdAt(MoveFaults.Step.AFTER_RECORD);
        held.add(next);
        cluster.master.movePartition(remotePartition, destination, true);
        assertTrue(next.moveFaults().awaitHeld(MoveFaults.Step.AFTER_RECORD, 30_000), "the move reached the hand-over");

        try (OtmClient batchClient = new OtmClient("127.0.0.1", home.port());
                OtmClient other = new OtmClient("127.0.0.1", home.port())) {
            // Call 1 commits on account 10 (prepared, its CTS taken); call 2 transfers from account
            // 20 to the remote account, and its branch waits for the moving partition.
            int to = remoteAccount;
            long retriesBefore = procedureRetries(home);
            CompletableFuture<CallBatchResponse> batch = CompletableFuture.supplyAsync(() -> batchClient.callBatch(
                    new CallBatchRequest(List.of(
                            new CallRequest(LedgerProcedures.DATABASE, 3, "increment", List.of(10), Isolation.SERIALIZABLE, 0),
                            new CallRequest(LedgerProcedures.DATABASE, 3, "transfer", List.of(20, to, 1L, "held"),
                                    Isolation.SERIALIZABLE, 0, CommitId.next())))));
            // Call 1's commit is applied while call 2 waits: a new transaction on the partition sees
            // it, and not because call 2's attempt gave up (after 10 s) and its re-run finished it.
            awaitTotal(home, 10, START + 1);
            assertEquals(retriesBefore, procedureRetries(home), "call 1 was applied before call 2 gave up its first attempt");

            // Another client commits on the same partition; a session that must see that commit
            // begins at once, although the batch still waits.
            CallResponse later = other.call(new CallRequest(LedgerProcedures.DATABASE, 3, "increment", List.of(30),
                    Isolation.SERIALIZABLE, 0));
            long txn = other.begin(new BeginRequest(LedgerProcedures.DATABASE, 3, Isolation.SNAPSHOT, later.cts())).txnId();
            other.commit(new CommitRequest(txn));
            assertTrue(!batch.isDone(), "the batch still waits for the moving partition");

            next.moveFaults().release();
            CallBatchResponse answer = batch.get(60, TimeUnit.SECONDS);
            assertNull(answer.outcomes().get(0).error(), "call 1: " + answer.outcomes().get(0));
            assertEquals(START + 1, ((Number) answer.outcomes().get(0).response().result()).longValue());
            assertNull(answer.outcomes().get(1).error(), "call 2: " + answer.outcomes().get(1));
            assertNotNull(answer.outcomes().get(1).response());
            assertEquals(START - 1, ((Number) answer.outcomes().get(1).response().result()).longValue());
            // The OTM shows its snapshot, the cluster's and what waits behind a gap.
            assertTrue(metric(home, "elastras_otm_snapshot_cts") >= later.cts());
            assertTrue(metric(home, "elastras_otm_global_snapshot_cts") > 0);
            assertTrue(metric(home, "elastras_otm_snapshot_pending_ranges") >= 0);
        }
        try (ElasTrasClient client = ElasTrasClient.connect(cluster.connectString())) {
            int remote = remoteAccount;
            long[] totals = client.runInTransaction(LedgerProcedures.DATABASE, List.of(10), txn -> new long[] {
                    (Long) txn.get("ACCOUNT", List.of(10)).orElseThrow().get("TOTAL"),
                    (Long) txn.get("ACCOUNT", List.of(20)).orElseThrow().get("TOTAL"),
                    (Long) txn.get("ACCOUNT", List.of(remote)).orElseThrow().get("TOTAL")});
            assertEquals(START + 1, totals[0]);
            assertEquals(START - 1, totals[1]);
            assertEquals(START + 1, totals[2]);
        }
    }

    private static long procedureRetries(OtmNode otm) throws Exception {
        return metric(otm, "elastras_otm_procedure_retries_total");
    }

    /** One of the OTM's samples, from its {@code /metrics}. */
    private static long metric(OtmNode otm, String name) throws Exception {
        HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
        String text = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + otm.port() + "/metrics")).GET().build(),
                HttpResponse.BodyHandlers.ofString()).body();
        for (String line : text.split("\n")) {
            if (line.startsWith(name + "{")) {
                return Long.parseLong(line.substring(line.lastIndexOf(' ') + 1));
            }
        }
        throw new AssertionError("no " + name + " in the OTM's metrics:\n" + text);
    }

    /** Waits until a new transaction on partition 3 at {@code otm} reads {@code total} in account {@code a}. */
    private static void awaitTotal(OtmNode otm, int a, long total) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (true) {
            GetResponse read = ClientTestCluster.readDirect(otm.port(), 3, "ACCOUNT", List.of(a));
            long seen = ((Number) read.row().get("TOTAL")).longValue();
            if (seen == total) {
                return;
            }
            assertTrue(System.nanoTime() < deadline, "call 1's commit never became visible while the batch waited"
                    + " (account " + a + " still reads " + seen + ")");
            Thread.sleep(10);
        }
    }
}
