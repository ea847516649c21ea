package org.elastras.master.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.CompletableFuture;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.RetryOneTime;
import org.apache.curator.test.TestingServer;
import org.elastras.client.ClientTransaction;
import org.elastras.client.ElasTrasClient;
import org.elastras.client.OtmClient;
import org.elastras.client.PartitionLocation;
import org.elastras.client.TransactionAbortedException;
import org.elastras.client.protocol.ClosePartitionRequest;
import org.elastras.client.protocol.OpenPartitionRequest;
import org.elastras.client.protocol.RegisterDatabaseRequest;
import org.elastras.client.protocol.SchemaSpec;
import org.elastras.master.cluster.PartitionRecord;
import org.elastras.otm.server.OtmConfig;
import org.elastras.otm.server.OtmNode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Partitions change owner under the client, with no master: the test plays it, opening and closing
 * partitions on the OTMs and writing the catalog as the master does ({@link CatalogFixture}: ROOT
 * and META served by the first OTM). No error reaches the
 * application in either case:
 * <ul>
 *   <li>a partition moves while the client has its old location cached (closed on one OTM, opened
 *       on another, the catalog updated a while later): requests meet NOT_OWNER, read the catalog
 *       again until it names the new owner, and succeed there with every earlier write;</li>
 *   <li>a transaction's OTM stops before its commit: the transaction is aborted with a retryable
 *       error, and {@code runInTransaction} runs it again at the next owner.</li>
 * </ul>
 */
class ClientFollowsMovedAndOrphanedPartitionsTest {

    private static final long CATALOG_LAG_MS = 300;

    @TempDir
    Path temp;

    @Test
    void requestsFollowAMovedPartitionWithoutAnError() throws Exception {
        try (TestingServer zk = new TestingServer(true);
                CuratorFramework admin = CuratorFrameworkFactory.newClient(zk.getConnectString(), new RetryOneTime(100));
                OtmNode origin = startOtm("otm-1", zk);
                OtmNode destination = startOtm("otm-2", zk)) {
            admin.start();
            CatalogFixture map = new CatalogFixture(admin, "otm-1", origin.port());
            SchemaSpec schema = SchemaSpec.of(LedgerProcedures.schema());
            PartitionRecord low = new PartitionRecord("LEDGER", 11, null, List.of(100), "otm-1", 1);
            PartitionRecord high = new PartitionRecord("LEDGER", 12, List.of(100), null, "otm-1", 1);
            map.createDatabase(schema, List.of(low, high));
            try (OtmClient o = new OtmClient("127.0.0.1", origin.port())) {
                o.registerDatabase(new RegisterDatabaseRequest(schema));
                o.openPartition(new OpenPartitionRequest("LEDGER", 11, null, List.of(100)));
                o.openPartition(new OpenPartitionRequest("LEDGER", 12, List.of(100), null));
            }

            try (ElasTrasClient client = ElasTrasClient.connect(zk.getConnectString())) {
                for (int i = 1; i <= 5; i++) {
                    assertEquals((long) i, number(client.call("LEDGER", "increment", List.of(150), List.of(150))));
                }
                PartitionLocation before = client.locate("LEDGER", List.of(150));
                assertEquals("otm-1", before.otmId());
                assertEquals(12, before.partitionId());

                // The move: close at the origin (flushes), open at the destination, and only then,
                // CATALOG_LAG_MS later, the catalog names the new owner.
                try (OtmClient o = new OtmClient("127.0.0.1", origin.port());
                        OtmClient d = new OtmClient("127.0.0.1", destination.port())) {
                    o.closePartition(new ClosePartitionRequest(12));
                    d.registerDatabase(new RegisterDatabaseRequest(schema));
                    d.openPartition(new OpenPartitionRequest("LEDGER", 12, List.of(100), null));
                }
                CompletableFuture<Void> catalogUpdate = CompletableFuture.runAsync(() -> {
                    try {
                        Thread.sleep(CATALOG_LAG_MS);
                        map.write(high.assignedTo("otm-2"));
                    } catch (Exception e) {
                        throw new IllegalStateException(e);
                    }
                });

                long started = System.nanoTime();
                // The cached location still says otm-1: the first attempt meets NOT_OWNER there.
                assertEquals(6L, number(client.call("LEDGER", "increment", List.of(150), List.of(150))));
                long tookMs = (System.nanoTime() - started) / 1_000_000;
                catalogUpdate.join();
                PartitionLocation after = client.locate("LEDGER", List.of(150));
                assertEquals("otm-2", after.otmId());
                assertEquals(2, after.epoch(), "the epoch the catalog wrote with the move");
                assertTrue(tookMs >= CATALOG_LAG_MS - 50, "it had to wait for the catalog: " + tookMs + " ms");
                System.out.printf("MOVE: a call with a stale cached location succeeded at the new owner after %d ms%n",
                        tookMs);

                // An interactive transaction and the other partition are unaffected.
                long total = client.runInTransaction("LEDGER", List.of(150), txn ->
                        (Long) txn.get("ACCOUNT", List.of(150)).orElseThrow().get("TOTAL"));
                assertEquals(6L, total);
                assertEquals(1L, number(client.call("LEDGER", "increment", List.of(5), List.of(5))));
                assertEquals("otm-1", client.locate("LEDGER", List.of(5)).otmId());
                try (ClientTransaction txn = client.transaction("LEDGER", List.of(150))) {
                    assertEquals("otm-2", txn.location().otmId());
                }
            }
            assertEquals(6L, number(ClientTestCluster.readDirect(destination.port(), 12, "ACCOUNT", List.of(150))
                    .row().get("TOTAL")));
        }
    }

    /**
     * A transaction's OTM stops before the commit (after a write): the next request of the
     * transaction fails with a retryable {@link TransactionAbortedException}, and
     * {@code runInTransaction} runs the body again at the partition's next owner, where the first
     * run's write never happened.
     */
    @Test
    void aTransactionWhoseOtmStopsBeforeCommitIsAbortedAndRunAgainElsewhere() throws Exception {
        try (TestingServer zk = new TestingServer(true);
                CuratorFramework admin = CuratorFrameworkFactory.newClient(zk.getConnectString(), new RetryOneTime(100));
                OtmNode doomed = startOtm("otm-1", zk);
                OtmNode heir = startOtm("otm-2", zk)) {
            admin.start();
            SchemaSpec schema = SchemaSpec.of(LedgerProcedures.schema());
            PartitionRecord only = new PartitionRecord("LEDGER", 11, null, null, "otm-1", 1);
            // The catalog lives on the OTM that stays.
            CatalogFixture map = new CatalogFixture(admin, "otm-2", heir.port());
            map.createDatabase(schema, List.of(only));
            try (OtmClient o = new OtmClient("127.0.0.1", doomed.port())) {
                o.registerDatabase(new RegisterDatabaseRequest(schema));
                o.openPartition(new OpenPartitionRequest("LEDGER", 11, null, null));
            }
            try (ElasTrasClient client = ElasTrasClient.connect(zk.getConnectString())) {
                // A plain transaction first: its OTM stops under it, and the failure says "run it again".
                ClientTransaction txn = client.transaction("LEDGER", List.of(7));
                txn.put("ACCOUNT", Map.of("A_ID", 7, "TOTAL", 500L));
                doomed.close();
                TransactionAbortedException aborted = assertThrows(TransactionAbortedException.class,
                        () -> txn.put("ACCOUNT", Map.of("A_ID", 8, "TOTAL", 1L)));
                assertTrue(aborted.retryable(), aborted.toString());
                assertFalse(txn.isOpen());
                assertThrows(IllegalStateException.class, txn::commit, "an aborted transaction cannot commit");

                // The partition comes back on the heir a while later (the test plays the master).
                CompletableFuture<Void> reassign = CompletableFuture.runAsync(() -> {
                    try {
                        Thread.sleep(CATALOG_LAG_MS);
                        try (OtmClient h = new OtmClient("127.0.0.1", heir.port())) {
                            h.registerDatabase(new RegisterDatabaseRequest(schema));
                            h.openPartition(new OpenPartitionRequest("LEDGER", 11, null, null));
                        }
                        map.write(only.assignedTo("otm-2"));
                    } catch (Exception e) {
                        throw new IllegalStateException(e);
                    }
                });
                AtomicInteger runs = new AtomicInteger();
                long total = client.runInTransaction("LEDGER", List.of(7), t -> {
                    runs.incrementAndGet();
                    long before = t.get("ACCOUNT", List.of(7)).map(r -> (Long) r.get("TOTAL")).orElse(0L);
                    t.put("ACCOUNT", Map.of("A_ID", 7, "TOTAL", before + 1));
                    return before + 1;
                });
                reassign.join();
                assertEquals(1L, total, "the aborted transaction's write of 500 never happened");
                assertTrue(runs.get() >= 1, "runs " + runs.get());
                assertEquals("otm-2", client.locate("LEDGER", List.of(7)).otmId());
                assertEquals(1L, number(client.call("LEDGER", "total", List.of(7), List.of(7))));
            }
        }
    }

    private OtmNode startOtm(String id, TestingServer zk) throws Exception {
        return OtmNode.start(new OtmConfig(id, zk.getConnectString(), "/elastras", temp.resolve("dfs").toUri(),
                "127.0.0.1", 0, OtmConfig.DEFAULT_SESSION_TIMEOUT_MS));
    }

    private static long number(Object o) {
        return ((Number) o).longValue();
    }

}
