package org.elastras.otm.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeUnit;
import org.apache.curator.test.TestingServer;
import org.elastras.client.OtmClient;
import org.elastras.client.protocol.CallRequest;
import org.elastras.client.protocol.ClosePartitionRequest;
import org.elastras.client.protocol.ClosePartitionResponse;
import org.elastras.client.protocol.ElasTrasException;
import org.elastras.client.protocol.ErrorCode;
import org.elastras.client.protocol.Isolation;
import org.elastras.client.protocol.MoveDestination;
import org.elastras.client.protocol.OpenPartitionRequest;
import org.elastras.client.protocol.RegisterDatabaseRequest;
import org.elastras.client.protocol.SchemaSpec;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * While a live move settles, new work on its partition is held instead of refused into the
 * client's backoff: at the origin during the pause, then answered NOT_OWNER naming the next owner
 * (so the client goes there without reading the catalog); at the destination while its complete
 * copy waits for the master's open, then served. Two OTMs over real sockets; the test plays the
 * master and holds the move in its pause ({@link MoveFaults.Step#IN_PAUSE}).
 */
class LiveMoveHoldsNewWorkUntilItSettlesTest {

    private static final long PARTITION = 10;
    private static final long START = 1_000;

    @TempDir
    Path temp;

    private OtmNode start(TestingServer zk, String id) throws Exception {
        return OtmNode.start(new OtmConfig(id, zk.getConnectString(), "/elastras", temp.resolve("dfs").toUri(), "127.0.0.1",
                0, 15_000));
    }

    private static OtmClient client(OtmNode otm) {
        OtmClient client = new OtmClient("127.0.0.1", otm.port());
        client.registerDatabase(new RegisterDatabaseRequest(SchemaSpec.of(TreeBankProcedures.schema())));
        return client;
    }

    /** Opens the partition at {@code otm}'s client with accounts 10 and 20, {@link #START} each. */
    private static void openWithTwoAccounts(OtmClient otm) {
        otm.openPartition(new OpenPartitionRequest(TreeBankProcedures.DATABASE, PARTITION, null, List.of(100L)));
        otm.call(call("open", List.of(10L, START)));
        otm.call(call("open", List.of(20L, START)));
    }

    private static CallRequest call(String procedure, List<Object> args) {
        return new CallRequest(TreeBankProcedures.DATABASE, PARTITION, procedure, args, Isolation.SERIALIZABLE, 0);
    }

    @Test
    void theOriginHoldsNewWorkThroughThePauseThenNamesTheNextOwnerWhichHoldsItUntilItServes() throws Exception {
        try (TestingServer zk = new TestingServer(true)) {
            OtmNode a = start(zk, "otm-a");
            OtmNode b = start(zk, "otm-b");
            try (OtmClient toA = client(a); OtmClient toB = client(b); OtmClient mover = new OtmClient("127.0.0.1", a.port());
                    OtmClient opener = new OtmClient("127.0.0.1", b.port())) {
                openWithTwoAccounts(toA);

                // A request at the destination before it holds a complete copy is refused at once.
                ElasTrasException early = assertThrows(ElasTrasException.class, () -> toB.call(call("sum", List.of(10L))));
                assertEquals(ErrorCode.NOT_OWNER, early.code());
                assertNull(early.movedTo());

                a.moveFaults().holdAt(MoveFaults.Step.IN_PAUSE);
                CompletableFuture<ClosePartitionResponse> move = CompletableFuture.supplyAsync(() -> mover.closePartition(
                        new ClosePartitionRequest(PARTITION, new MoveDestination("otm-b", "127.0.0.1", b.port()))));
                assertTrue(a.moveFaults().awaitHeld(MoveFaults.Step.IN_PAUSE, 30_000), "the move reached its pause");

                // New work at the origin during the pause is held, not refused.
                CompletableFuture<Long> atOrigin = CompletableFuture.supplyAsync(
                        () -> ((Number) toA.call(call("transfer", List.of(10L, 20L, 1L))).result()).longValue());
                awaitHeld(a, 1);
                assertFalse(atOrigin.isDone(), "held while the pause lasts");

                // The pause ends with the hand-over: the held request learns the next owner.
                a.moveFaults().release();
                ElasTrasException redirected = assertThrows(CompletionException.class, () -> atOrigin.join()).getCause()
                        instanceof ElasTrasException e ? e : null;
                assertNotNull(redirected, "the held call failed with a protocol error");
                assertEquals(ErrorCode.NOT_OWNER, redirected.code(), redirected.toString());
                assertNotNull(redirected.movedTo(), "NOT_OWNER names the next owner: " + redirected);
                assertEquals("otm-b", redirected.movedTo().otmId());
                assertEquals(b.port(), redirected.movedTo().port());
                assertNotNull(move.get(30, TimeUnit.SECONDS).live(), "the move finished live");
                assertEquals(0, heldRequests(a));

                // So does new work sent to the origin afterwards, at once.
                ElasTrasException later = assertThrows(ElasTrasException.class, () -> toA.call(call("sum", List.of(10L))));
                assertEquals("otm-b", later.movedTo().otmId());

                // The destination holds its complete copy until the master opens it there, and holds
                // new work meanwhile; the open serves it.
                CompletableFuture<Long> atDestination = CompletableFuture.supplyAsync(
                        () -> ((Number) toB.call(call("transfer", List.of(10L, 20L, 1L))).result()).longValue());
                awaitHeld(b, 1);
                assertFalse(atDestination.isDone(), "held until the destination serves");
                opener.openPartition(new OpenPartitionRequest(TreeBankProcedures.DATABASE, PARTITION, null, List.of(100L)));
                assertEquals(START - 1, atDestination.get(30, TimeUnit.SECONDS), "the held transfer ran at the destination");
                assertEquals(START - 1, ((Number) toB.call(call("sum", List.of(10L))).result()).longValue());
                assertEquals(START + 1, ((Number) toB.call(call("sum", List.of(20L))).result()).longValue());
                assertEquals(0, heldRequests(b));
            } finally {
                a.moveFaults().release();
                b.close();
                a.close();
            }
        }
    }

    /**
     * A stored procedure call still running when the pause begins does not hold the pause up: its
     * transaction is aborted (nothing of it written), the call waits for the move's outcome and is
     * answered NOT_OWNER naming the next owner, where it runs again.
     */
    @Test
    void aCallRunningAtThePauseIsAbortedAndRunsAgainAtTheNextOwner() throws Exception {
        try (TestingServer zk = new TestingServer(true)) {
            OtmNode a = start(zk, "otm-a");
            OtmNode b = start(zk, "otm-b");
            try (OtmClient toA = client(a); OtmClient toB = client(b); OtmClient mover = new OtmClient("127.0.0.1", a.port());
                    OtmClient opener = new OtmClient("127.0.0.1", b.port())) {
                openWithTwoAccounts(toA);

                // The call reads account 10, then sleeps 3 s (the pause's grace is 100 ms; the
                // origin names the next owner for 10 s).
                long slowMs = 3_000;
                long started = System.nanoTime();
                CompletableFuture<Object> slow = CompletableFuture.supplyAsync(
                        () -> toA.call(call("slowTransfer", List.of(10L, 20L, 1L, slowMs))).result());
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
                while (toA.status().partitions().stream().noneMatch(p -> p.partitionId() == PARTITION
                        && p.openTransactions() > 0)) {
                    assertTrue(System.nanoTime() < deadline, "the slow call never began");
                    Thread.sleep(5);
                }
                ClosePartitionResponse moved = mover.closePartition(
                        new ClosePartitionRequest(PARTITION, new MoveDestination("otm-b", "127.0.0.1", b.port())));
                assertTrue(moved.live().pausePhases().contains("1 calls to re-run, 0 branches to re-run, 0 still open"),
                        moved.live().pausePhases());
                assertTrue(moved.live().pausedMs() < slowMs, "the pause did not wait for the call: " + moved.live());

                ElasTrasException redirected = assertThrows(CompletionException.class, slow::join).getCause()
                        instanceof ElasTrasException e ? e : null;
                assertNotNull(redirected, "the call failed with a protocol error");
                assertEquals(ErrorCode.NOT_OWNER, redirected.code(), redirected.toString());
                assertEquals("otm-b", redirected.movedTo().otmId(), "NOT_OWNER names the next owner: " + redirected);
                assertTrue(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started) < PartitionHost.MOVED_HINT_MS);

                // Nothing of the aborted call was written; it runs again at the next owner.
                opener.openPartition(new OpenPartitionRequest(TreeBankProcedures.DATABASE, PARTITION, null, List.of(100L)));
                assertEquals(START, ((Number) toB.call(call("sum", List.of(10L))).result()).longValue());
                assertEquals(START + START, ((Number) toB.call(call("sum", List.of(10L, 20L))).result()).longValue());
                assertEquals(START - 1, ((Number) toB.call(call("slowTransfer", List.of(10L, 20L, 1L, 0L))).result())
                        .longValue());
                assertEquals(START + 1, ((Number) toB.call(call("sum", List.of(20L))).result()).longValue());
            } finally {
                b.close();
                a.close();
            }
        }
    }

    /** Waits until {@code otm} holds {@code count} requests (its {@code elastras_otm_admission_held}). */
    private static void awaitHeld(OtmNode otm, int count) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (heldRequests(otm) < count) {
            assertTrue(System.nanoTime() < deadline, "no request was held at " + otm.otmId());
            Thread.sleep(5);
        }
    }

    private static long heldRequests(OtmNode otm) throws Exception {
        HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
        String text = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + otm.port() + "/metrics")).GET().build(),
                HttpResponse.BodyHandlers.ofString()).body();
        for (String line : text.split("\n")) {
            if (line.startsWith("elastras_otm_admission_held{")) {
                return Long.parseLong(line.substring(line.lastIndexOf(' ') + 1));
            }
        }
        throw new AssertionError("no elastras_otm_admission_held in the metrics of " + otm.otmId() + ":\n" + text);
    }
}
