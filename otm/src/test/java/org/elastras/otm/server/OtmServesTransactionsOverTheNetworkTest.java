package org.elastras.otm.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.RetryOneTime;
import org.apache.curator.test.TestingServer;
import org.elastras.client.OtmClient;
import org.elastras.client.protocol.AbortRequest;
import org.elastras.client.protocol.BeginRequest;
import org.elastras.client.protocol.CallRequest;
import org.elastras.client.protocol.CommitRequest;
import org.elastras.client.protocol.ElasTrasException;
import org.elastras.client.protocol.ErrorCode;
import org.elastras.client.protocol.GetRequest;
import org.elastras.client.protocol.Isolation;
import org.elastras.client.protocol.OpenPartitionRequest;
import org.elastras.client.protocol.PutRequest;
import org.elastras.client.protocol.RegisterDatabaseRequest;
import org.elastras.client.protocol.ScanRequest;
import org.elastras.client.protocol.SchemaSpec;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An OTM on real sockets with a real ZooKeeper and the local DFS: transactions from concurrent
 * clients, isolation, bad input, and a lost lease.
 */
class OtmServesTransactionsOverTheNetworkTest {

    @TempDir
    Path temp;

    private TestingServer zk;
    private OtmNode otm;
    private OtmClient client;

    @BeforeEach
    void start() throws Exception {
        zk = new TestingServer(true);
        otm = OtmNode.start(new OtmConfig("otm-a", zk.getConnectString(), "/elastras", temp.resolve("dfs").toUri(),
                "127.0.0.1", 0, 4_000));
        client = new OtmClient("127.0.0.1", otm.port());
        client.registerDatabase(new RegisterDatabaseRequest(SchemaSpec.of(BankProcedures.schema())));
        client.openPartition(new OpenPartitionRequest("BANK", 1, null, null));
    }

    @AfterEach
    void stop() throws Exception {
        client.close();
        otm.close();
        zk.close();
    }

    private long balance(long id) {
        long txn = client.begin(new BeginRequest("BANK", 1, Isolation.SERIALIZABLE, 0)).txnId();
        var row = client.get(new GetRequest(txn, "ACCOUNTS", List.of(id)));
        client.commit(new CommitRequest(txn));
        return row.found() ? ((Number) row.row().get("BALANCE")).longValue() : 0;
    }

    @Test
    void concurrentIncrementsFromManyClientsLoseNoUpdate() throws Exception {
        AtomicInteger committed = new AtomicInteger();
        ConcurrentLinkedQueue<Throwable> failures = new ConcurrentLinkedQueue<>();
        List<Thread> threads = new ArrayList<>();
        for (int t = 0; t < 8; t++) {
            boolean interactive = t % 2 == 0;
            threads.add(new Thread(() -> {
                try (OtmClient own = new OtmClient("127.0.0.1", otm.port())) {
                    for (int i = 0; i < 40; i++) {
                        if (interactive) {
                            incrementInteractively(own, committed);
                        } else {
                            own.call(new CallRequest("BANK", 1, "increment", List.of(7L), Isolation.SERIALIZABLE, 0));
                            committed.incrementAndGet();
                        }
                    }
                } catch (Throwable e) {
                    failures.add(e);
                }
            }));
        }
        threads.forEach(Thread::start);
        for (Thread t : threads) {
            t.join();
        }
        assertTrue(failures.isEmpty(), () -> "failures: " + failures.peek());
        assertEquals(320, committed.get());
        assertEquals(320, balance(7), "every committed increment counted exactly once");
    }

    /** read-modify-write with the client retrying on conflicts, as an application would. */
    private static void incrementInteractively(OtmClient c, AtomicInteger committed) {
        for (int attempt = 0; attempt < 1000; attempt++) {
            long txn = c.begin(new BeginRequest("BANK", 1, Isolation.SERIALIZABLE, 0)).txnId();
            try {
                var row = c.get(new GetRequest(txn, "ACCOUNTS", List.of(7L)));
                long balance = row.found() ? ((Number) row.row().get("BALANCE")).longValue() : 0;
                c.put(new PutRequest(txn, "ACCOUNTS", Map.of("ID", 7L, "BALANCE", balance + 1)));
                c.commit(new CommitRequest(txn));
                committed.incrementAndGet();
                return;
            } catch (ElasTrasException e) {
                if (!e.retryable()) {
                    throw e;
                }
                abortQuietly(c, txn);
            }
        }
        throw new AssertionError("no increment committed in 1000 attempts");
    }

    private static void abortQuietly(OtmClient c, long txn) {
        try {
            c.abort(new AbortRequest(txn));
        } catch (ElasTrasException ignored) {
            // Already ended by the conflict.
        }
    }

    @Test
    void writeSkewCommitsUnderSnapshotAndIsPreventedUnderSerializable() {
        for (Isolation isolation : List.of(Isolation.SNAPSHOT, Isolation.SERIALIZABLE)) {
            long x = isolation == Isolation.SNAPSHOT ? 100 : 200;
            long y = x + 1;
            setBalance(x, 50);
            setBalance(y, 50);
            // Each withdraws 80 from "its" account if the two together hold at least 80.
            long t1 = client.begin(new BeginRequest("BANK", 1, isolation, 0)).txnId();
            long t2 = client.begin(new BeginRequest("BANK", 1, isolation, 0)).txnId();
            assertEquals(100, read(t1, x) + read(t1, y));
            assertEquals(100, read(t2, x) + read(t2, y));
            client.put(new PutRequest(t1, "ACCOUNTS", Map.of("ID", x, "BALANCE", 50 - 80)));
            client.put(new PutRequest(t2, "ACCOUNTS", Map.of("ID", y, "BALANCE", 50 - 80)));
            int commits = 0;
            for (long t : List.of(t1, t2)) {
                try {
                    client.commit(new CommitRequest(t));
                    commits++;
                } catch (ElasTrasException e) {
                    assertEquals(ErrorCode.SERIALIZATION_FAILURE, e.code(), e.getMessage());
                }
            }
            if (isolation == Isolation.SNAPSHOT) {
                assertEquals(2, commits, "snapshot isolation allows write skew");
                assertEquals(-60, balance(x) + balance(y));
            } else {
                assertEquals(1, commits, "serializable lets exactly one commit");
                assertEquals(20, balance(x) + balance(y));
            }
        }
    }

    private long read(long txn, long id) {
        var row = client.get(new GetRequest(txn, "ACCOUNTS", List.of(id)));
        return row.found() ? ((Number) row.row().get("BALANCE")).longValue() : 0;
    }

    private void setBalance(long id, long balance) {
        long txn = client.begin(new BeginRequest("BANK", 1, Isolation.SERIALIZABLE, 0)).txnId();
        client.put(new PutRequest(txn, "ACCOUNTS", Map.of("ID", id, "BALANCE", balance)));
        client.commit(new CommitRequest(txn));
    }

    @Test
    void aTransactionReadsItsOwnWritesAndAnAbortLeavesNothing() {
        long txn = client.begin(new BeginRequest("BANK", 1, Isolation.SERIALIZABLE, 0)).txnId();
        client.put(new PutRequest(txn, "ACCOUNTS", Map.of("ID", 1L, "BALANCE", 10L)));
        client.put(new PutRequest(txn, "ACCOUNTS", Map.of("ID", 2L, "BALANCE", 20L)));
        assertEquals(10, read(txn, 1));
        var scan = client.scan(new ScanRequest(txn, "ACCOUNTS", null, null, 10));
        assertEquals(2, scan.rows().size());
        assertFalse(scan.more());
        client.abort(new AbortRequest(txn));
        assertEquals(0, balance(1));
        long check = client.begin(new BeginRequest("BANK", 1, Isolation.SERIALIZABLE, 0)).txnId();
        assertEquals(0, client.scan(new ScanRequest(check, "ACCOUNTS", null, null, 10)).rows().size());
    }

    @Test
    void badRequestsGetClearErrorsAndChangeNothing() {
        long txn = client.begin(new BeginRequest("BANK", 1, Isolation.SERIALIZABLE, 0)).txnId();
        ElasTrasException e = assertThrows(ElasTrasException.class,
                () -> client.put(new PutRequest(txn, "ACCOUNTS", Map.of("ID", "not a number", "BALANCE", 1L))));
        assertEquals(ErrorCode.TYPE_MISMATCH, e.code());
        assertTrue(e.getMessage().contains("ID"), e.getMessage());
        e = assertThrows(ElasTrasException.class, () -> client.put(new PutRequest(txn, "NOPE", Map.of("ID", 1L))));
        assertEquals(ErrorCode.UNKNOWN_TABLE, e.code());
        e = assertThrows(ElasTrasException.class,
                () -> client.put(new PutRequest(txn, "ACCOUNTS", Map.of("ID", 1L, "COLOUR", "red"))));
        assertEquals(ErrorCode.TYPE_MISMATCH, e.code());
        assertTrue(e.getMessage().contains("COLOUR"), e.getMessage());
        e = assertThrows(ElasTrasException.class, () -> client.begin(new BeginRequest("NOSUCHDB", 1, Isolation.SERIALIZABLE, 0)));
        assertEquals(ErrorCode.NOT_OWNER, e.code());
        e = assertThrows(ElasTrasException.class, () -> client.begin(new BeginRequest("BANK", 99, Isolation.SERIALIZABLE, 0)));
        assertEquals(ErrorCode.NOT_OWNER, e.code());
        e = assertThrows(ElasTrasException.class, () -> client.openPartition(new OpenPartitionRequest("NOSUCHDB", 5, null, null)));
        assertEquals(ErrorCode.UNKNOWN_DATABASE, e.code());
        e = assertThrows(ElasTrasException.class, () -> client.call(new CallRequest("BANK", 1, "nope", List.of(), null, 0)));
        assertEquals(ErrorCode.UNKNOWN_PROCEDURE, e.code());
        e = assertThrows(ElasTrasException.class, () -> client.call(new CallRequest("BANK", 1, "transfer", List.of(1L, 2L, 5L), null, 0)));
        assertEquals(ErrorCode.PROCEDURE_ABORTED, e.code());
        e = assertThrows(ElasTrasException.class, () -> client.get(new GetRequest(987654321L, "ACCOUNTS", List.of(1L))));
        assertEquals(ErrorCode.UNKNOWN_TRANSACTION, e.code());
        // The transaction that saw the errors still works; nothing was written.
        client.put(new PutRequest(txn, "ACCOUNTS", Map.of("ID", 3L, "BALANCE", 3L)));
        client.commit(new CommitRequest(txn));
        assertEquals(3, balance(3));
        assertEquals(0, balance(1));
    }

    @Test
    void anOtmWhoseSessionExpiresRefusesEveryRequestFromThenOn() throws Exception {
        long txn = client.begin(new BeginRequest("BANK", 1, Isolation.SERIALIZABLE, 0)).txnId();
        client.put(new PutRequest(txn, "ACCOUNTS", Map.of("ID", 1L, "BALANCE", 1L)));
        try (CuratorFramework observer = CuratorFrameworkFactory.newClient(zk.getConnectString(), new RetryOneTime(100))) {
            observer.start();
            assertTrue(observer.checkExists().forPath("/elastras/otms/otm-a") != null);
            ZkSessions.expire(otmCurator(), zk.getConnectString());
            LeaseKeeperTest.await(() -> !otm.serving(), 10_000, "the OTM notices its lost session");
            for (int i = 0; i < 3; i++) {
                ElasTrasException e = assertThrows(ElasTrasException.class, () -> client.commit(new CommitRequest(txn)));
                assertEquals(ErrorCode.NOT_SERVING, e.code());
                e = assertThrows(ElasTrasException.class, () -> client.begin(new BeginRequest("BANK", 1, Isolation.SERIALIZABLE, 0)));
                assertEquals(ErrorCode.NOT_SERVING, e.code());
                Thread.sleep(500);
            }
            assertFalse(client.status().serving());
            LeaseKeeperTest.await(() -> client.status().partitions().isEmpty(), 10_000,
                    "the OTM let go of its partitions' stores (no flush or compaction after the lease)");
            assertTrue(observer.checkExists().forPath("/elastras/otms/otm-a") == null, "the lease znode is gone");
        }
    }

    private CuratorFramework otmCurator() throws Exception {
        var field = OtmNode.class.getDeclaredField("zk");
        field.setAccessible(true);
        return (CuratorFramework) field.get(otm);
    }
}
