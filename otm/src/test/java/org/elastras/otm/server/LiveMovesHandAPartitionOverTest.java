package org.elastras.otm.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLongArray;
import org.apache.curator.test.TestingServer;
import org.elastras.client.OtmClient;
import org.elastras.client.protocol.CallRequest;
import org.elastras.client.protocol.CatalogHandOver;
import org.elastras.client.protocol.ClosePartitionRequest;
import org.elastras.client.protocol.ClosePartitionResponse;
import org.elastras.client.protocol.ElasTrasException;
import org.elastras.client.protocol.ErrorCode;
import org.elastras.client.protocol.FlushPartitionRequest;
import org.elastras.client.protocol.HandOverOutcome;
import org.elastras.client.protocol.Isolation;
import org.elastras.client.protocol.LiveMoveReport;
import org.elastras.client.protocol.MoveDestination;
import org.elastras.client.protocol.OpenPartitionRequest;
import org.elastras.client.protocol.RegisterDatabaseRequest;
import org.elastras.client.protocol.SchemaSpec;
import org.elastras.client.protocol.StatusRequest;
import org.elastras.otm.http.FakeOtmService;
import org.elastras.otm.http.ProtocolServer;
import org.elastras.otm.http.ProtocolServerConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Live moves between two OTM processes' worth of nodes over real sockets (the test plays the
 * master: it asks the origin to move the partition live, then opens it at the destination).
 * Writers keep transferring meanwhile and switch OTM on NOT_OWNER, as the routing client does.
 */
class LiveMovesHandAPartitionOverTest {

    private static final int SESSION_TIMEOUT_MS = 15_000;
    private static final long START = 1_000_000;
    private static final int WRITERS = 3;
    private static final long PARTITION = 10;

    @TempDir
    Path temp;

    private OtmNode start(TestingServer zk, String id) throws Exception {
        return OtmNode.start(new OtmConfig(id, zk.getConnectString(), "/elastras", temp.resolve("dfs").toUri(), "127.0.0.1",
                0, SESSION_TIMEOUT_MS));
    }

    private static OtmClient client(OtmNode otm) {
        OtmClient client = new OtmClient("127.0.0.1", otm.port());
        client.registerDatabase(new RegisterDatabaseRequest(SchemaSpec.of(TreeBankProcedures.schema())));
        return client;
    }

    private static void open(OtmClient client) {
        client.openPartition(new OpenPartitionRequest(TreeBankProcedures.DATABASE, PARTITION, null, List.of(100L)));
    }

    private static long call(OtmClient client, String procedure, List<Object> args) {
        Object r = client.call(new CallRequest(TreeBankProcedures.DATABASE, PARTITION, procedure, args,
                Isolation.SERIALIZABLE, 0)).result();
        return r == null ? 0 : ((Number) r).longValue();
    }

    /** Writers moving 1 from account 10+i to 20+i, each success counted, at whichever OTM serves. */
    private static final class Writers implements AutoCloseable {
        final AtomicLongArray done = new AtomicLongArray(WRITERS);
        final AtomicBoolean stop = new AtomicBoolean();
        final ConcurrentLinkedQueue<Throwable> errors = new ConcurrentLinkedQueue<>();
        final List<Thread> threads = new ArrayList<>();
        volatile long reroutes;

        Writers(OtmClient... otms) {
            for (int i = 0; i < WRITERS; i++) {
                int w = i;
                Thread t = new Thread(() -> {
                    int at = 0;
                    while (!stop.get()) {
                        try {
                            call(otms[at], "transfer", List.of(10L + w, 20L + w, 1L));
                            done.incrementAndGet(w);
                        } catch (ElasTrasException e) {
                            if (e.code() != ErrorCode.NOT_OWNER && e.code() != ErrorCode.NOT_SERVING) {
                                errors.add(e);
                                return;
                            }
                            reroutes++;
                            at = (at + 1) % otms.length;
                            Thread.onSpinWait();
                        } catch (RuntimeException e) {
                            errors.add(e);
                            return;
                        }
                    }
                }, "writer-" + i);
                threads.add(t);
                t.start();
            }
        }

        long total() {
            long sum = 0;
            for (int i = 0; i < WRITERS; i++) {
                sum += done.get(i);
            }
            return sum;
        }

        void awaitMore(long atLeast) throws InterruptedException {
            long deadline = System.nanoTime() + 30_000_000_000L;
            while (total() < atLeast) {
                assertTrue(errors.isEmpty(), "a writer failed: " + errors);
                assertTrue(System.nanoTime() < deadline, "the writers made " + total() + " transfers, expected " + atLeast);
                Thread.sleep(5);
            }
        }

        @Override
        public void close() throws InterruptedException {
            stop.set(true);
            for (Thread t : threads) {
                t.join(30_000);
            }
        }
    }

    private static void openAccounts(OtmClient client) {
        for (int i = 0; i < WRITERS; i++) {
            call(client, "open", List.of(10L + i, START));
            call(client, "open", List.of(20L + i, START));
        }
    }

    private static void assertBalances(OtmClient client, Writers writers) {
        for (int i = 0; i < WRITERS; i++) {
            assertEquals(START - writers.done.get(i), call(client, "sum", List.of(10L + i)), "account " + (10 + i));
            assertEquals(START + writers.done.get(i), call(client, "sum", List.of(20L + i)), "account " + (20 + i));
        }
    }

    @Test
    void aPartitionMovesLiveUnderWritesAndTheNextOwnerRecoversEveryTransfer() throws Exception {
        try (TestingServer zk = new TestingServer(true)) {
            OtmNode a = start(zk, "otm-a");
            OtmNode b = start(zk, "otm-b");
            Writers writers;
            LiveMoveReport report;
            try (OtmClient toA = client(a); OtmClient toB = client(b)) {
                open(toA);
                openAccounts(toA);
                writers = new Writers(toA, toB);
                try {
                    writers.awaitMore(300);
                    report = toA.closePartition(new ClosePartitionRequest(PARTITION,
                            new MoveDestination("otm-b", "127.0.0.1", b.port()))).live();
                    assertThrows(ElasTrasException.class, () -> call(toA, "sum", List.of(10L)),
                            "the origin no longer serves the partition");
                    open(toB); // what the master does next: the destination serves its copy
                    writers.awaitMore(writers.total() + 300);
                } finally {
                    writers.close();
                }
                assertTrue(writers.errors.isEmpty(), "writers saw errors other than NOT_OWNER: " + writers.errors);
                assertNotNull(report, "a live move reports what it did");
                assertFalse(report.forced(), "the copy caught up within its time limit");
                assertTrue(report.commitsShipped() > 0, "commits went on during the copy and were shipped: " + report);
                assertTrue(report.batches() > 0);
                assertBalances(toB, writers);
                call(toB, "transfer", List.of(10L, 20L, 1L));
                writers.done.incrementAndGet(0);
                // The copy's manifest named both logs; the destination's first flush, asked for as
                // it starts serving, leaves only its own, so the origin may delete its segments.
                try (org.elastras.storage.dfs.Dfs dfs = org.elastras.storage.dfs.LocalDfs.open(temp.resolve("dfs"))) {
                    String directory = PartitionDirectories.of(TreeBankProcedures.DATABASE, PARTITION);
                    long deadline = System.nanoTime() + 30_000_000_000L;
                    while (org.elastras.storage.store.PartitionStore.readManifest(dfs, directory).replayPoints()
                            .containsKey(a.walId())) {
                        assertTrue(System.nanoTime() < deadline, "the partition's manifest still names otm-a's log");
                        Thread.sleep(10);
                    }
                    assertEquals(java.util.Set.of(b.walId()), org.elastras.storage.store.PartitionStore.readManifest(dfs,
                            directory).replayPoints().keySet());
                }
            } finally {
                a.close();
            }
            // The destination stops without a clean close: its successor recovers from the
            // manifest on the DFS and the destination's log.
            b.close();
            OtmNode c = start(zk, "otm-c");
            try (OtmClient toC = client(c)) {
                open(toC);
                assertBalances(toC, writers);
                // And the new owner flushes: its manifest then needs neither log.
                toC.flushPartition(new FlushPartitionRequest(PARTITION));
                toC.closePartition(new ClosePartitionRequest(PARTITION));
                open(toC);
                assertBalances(toC, writers);
            } finally {
                c.close();
            }
        }
    }

    /**
     * The master hands the origin a catalog write that cannot succeed (the catalog partition it
     * names is not served there), which the origin passes to the destination with the last
     * versions: the hand-over completes, but the destination does not serve the partition, and
     * says so; it holds the complete copy until it is opened there (as the master then does), and
     * serves every transfer.
     */
    @Test
    void theDestinationServesOnlyAfterItsCatalogWriteSwapped() throws Exception {
        try (TestingServer zk = new TestingServer(true)) {
            OtmNode a = start(zk, "otm-a");
            OtmNode b = start(zk, "otm-b");
            Writers writers;
            try (OtmClient toA = client(a); OtmClient toB = client(b)) {
                open(toA);
                openAccounts(toA);
                writers = new Writers(toA, toB);
                ClosePartitionResponse answer;
                try {
                    writers.awaitMore(200);
                    answer = toA.closePartition(new ClosePartitionRequest(PARTITION,
                            new MoveDestination("otm-b", "127.0.0.1", b.port()),
                            new CatalogHandOver("127.0.0.1", a.port(), "META", 2, List.of(List.of(1L), List.of("m"),
                                    List.of("row")))));
                    assertTrue(b.receiving(PARTITION), "the destination holds the copy, not opened");
                    assertFalse(toB.status().partitions().stream().anyMatch(p -> p.partitionId() == PARTITION
                            && p.state().equals("SERVING")), "the destination does not serve it yet");
                    open(toB); // what the master does when the origin did not
                    writers.awaitMore(writers.total() + 200);
                } finally {
                    writers.close();
                }
                assertTrue(writers.errors.isEmpty(), "writers saw errors other than NOT_OWNER: " + writers.errors);
                HandOverOutcome outcome = answer.handOver();
                assertNotNull(answer.live(), "the hand-over itself happened");
                assertNotNull(outcome);
                assertFalse(outcome.recorded(), outcome.toString());
                assertFalse(outcome.serving(), outcome.toString());
                assertEquals(-1, outcome.openMs(), "no open was tried");
                assertTrue(outcome.detail().contains("catalog write failed"), outcome.detail());
                assertBalances(toB, writers);
            } finally {
                a.close();
                b.close();
            }
        }
    }

    /**
     * The origin names the catalog holder in {@code receivePartition}, while the partition still
     * serves, and the destination connects to it then (a {@code status} request), so that the
     * hand-over's catalog write in the pause does not also pay for a client and a connection. A
     * scripted server plays the catalog holder and records what reaches it.
     */
    @Test
    void theDestinationConnectsToTheCatalogHolderWhileThePartitionStillServes() throws Exception {
        FakeOtmService catalog = new FakeOtmService();
        try (TestingServer zk = new TestingServer(true);
                ProtocolServer catalogServer = new ProtocolServer(ProtocolServerConfig.defaults("127.0.0.1", 0), catalog)) {
            catalogServer.start();
            OtmNode a = start(zk, "otm-a");
            OtmNode b = start(zk, "otm-b");
            try (OtmClient toA = client(a); OtmClient toB = client(b)) {
                open(toA);
                openAccounts(toA);
                ClosePartitionResponse answer = toA.closePartition(new ClosePartitionRequest(PARTITION,
                        new MoveDestination("otm-b", "127.0.0.1", b.port()),
                        new CatalogHandOver("127.0.0.1", catalogServer.port(), "META", 2, List.of(List.of(1L), List.of("m"),
                                List.of("row")))));
                assertNotNull(answer.live(), "the hand-over happened");
                long deadline = System.nanoTime() + 10_000_000_000L;
                while (catalog.received.stream().noneMatch(r -> r instanceof StatusRequest)) {
                    assertTrue(System.nanoTime() < deadline, "the destination never connected to the catalog holder: "
                            + catalog.received);
                    Thread.sleep(5);
                }
                assertTrue(catalog.received.stream().anyMatch(r -> !(r instanceof StatusRequest)),
                        "the catalog write went to the holder named: " + catalog.received);
                open(toB);
                assertEquals(START, call(toB, "sum", List.of(10L)), "the partition serves at the destination with its data");
            } finally {
                a.close();
                b.close();
            }
        }
    }

    @Test
    void aMoveToAnUnreachableDestinationIsGivenUpAndThePartitionServesOn() throws Exception {
        try (TestingServer zk = new TestingServer(true)) {
            OtmNode a = start(zk, "otm-a");
            Writers writers;
            try (OtmClient toA = client(a)) {
                open(toA);
                openAccounts(toA);
                writers = new Writers(toA);
                try {
                    writers.awaitMore(100);
                    ElasTrasException e = assertThrows(ElasTrasException.class, () -> toA.closePartition(
                            new ClosePartitionRequest(PARTITION, new MoveDestination("otm-gone", "127.0.0.1", 1))));
                    assertTrue(e.getMessage().contains("otm-gone"), e.getMessage());
                    writers.awaitMore(writers.total() + 100);
                } finally {
                    writers.close();
                }
                assertTrue(writers.errors.isEmpty(), "writers saw errors: " + writers.errors);
                assertBalances(toA, writers);
                // Maintenance resumed: the partition flushes and closes cleanly.
                toA.flushPartition(new FlushPartitionRequest(PARTITION));
                toA.closePartition(new ClosePartitionRequest(PARTITION));
                open(toA);
                assertBalances(toA, writers);
            } finally {
                a.close();
            }
        }
    }
}
