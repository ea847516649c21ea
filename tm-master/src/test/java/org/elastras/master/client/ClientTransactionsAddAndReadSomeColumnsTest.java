package org.elastras.master.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigDecimal;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.elastras.catalog.schema.ColumnType;
import org.elastras.catalog.schema.DatabaseSchema;
import org.elastras.client.ClientTransaction;
import org.elastras.client.ElasTrasClient;
import org.elastras.client.TransactionAbortedException;
import org.elastras.client.protocol.ElasTrasException;
import org.elastras.client.protocol.ErrorCode;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link ClientTransaction#add} and {@link ClientTransaction#get(String, List, List)} through the
 * routing client against two in-process OTMs and a master: concurrent adders of one row all commit
 * and their sum is exact, values come back typed, a SERIALIZABLE read of some columns is failed
 * only by a change to them, bad input leaves the transaction open, and an add reaches a row of
 * another partition through the transaction's branch there.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ClientTransactionsAddAndReadSomeColumnsTest {

    private static final String SHOP = "SHOP";

    @TempDir
    static Path temp;

    private ClientTestCluster cluster;
    private ElasTrasClient client;

    @BeforeAll
    void start() throws Exception {
        cluster = new ClientTestCluster(temp, List.of("otm-1", "otm-2"));
        client = ElasTrasClient.connect(cluster.connectString());
        client.admin().createTenant(DatabaseSchema.singlePartition(SHOP)
                .plain("WAREHOUSE", t -> t.column("W_ID", ColumnType.INT).column("W_NAME", ColumnType.varchar(10))
                        .column("W_YTD", ColumnType.decimal(12, 2)).column("W_ORDERS", ColumnType.BIGINT).key("W_ID"))
                .build());
    }

    @AfterAll
    void stop() throws Exception {
        if (client != null) {
            client.close();
        }
        if (cluster != null) {
            cluster.close();
        }
    }

    private void putWarehouse(int id, String name) {
        client.runInTransaction(SHOP, List.of(), txn -> {
            txn.put("WAREHOUSE", Map.of("W_ID", id, "W_NAME", name, "W_YTD", BigDecimal.ZERO, "W_ORDERS", 0L));
            return null;
        });
    }

    private void add(int id, String column, Number amount) {
        try (ClientTransaction txn = client.transaction(SHOP, List.of())) {
            txn.add("WAREHOUSE", List.of(id), column, amount);
            txn.commit();
        }
    }

    @Test
    void concurrentAddersAllCommitAndAPartialReadComesBackTyped() throws Exception {
        putWarehouse(1, "north");
        int threads = 4;
        int transactionsEach = 15;
        AtomicLong cents = new AtomicLong();
        ConcurrentLinkedQueue<Throwable> failures = new ConcurrentLinkedQueue<>();
        List<Thread> workers = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            int thread = t;
            workers.add(new Thread(() -> {
                try {
                    for (int i = 0; i < transactionsEach; i++) {
                        long amount = 10L * thread + i + 1;
                        // Not runInTransaction: an abort for a conflict must fail the test, not be re-run.
                        try (ClientTransaction txn = client.transaction(SHOP, List.of())) {
                            txn.add("WAREHOUSE", List.of(1), "W_YTD", BigDecimal.valueOf(amount, 2));
                            txn.add("WAREHOUSE", List.of(1), "W_ORDERS", 1L);
                            txn.commit();
                        }
                        cents.addAndGet(amount);
                    }
                } catch (Throwable e) {
                    failures.add(e);
                }
            }));
        }
        workers.forEach(Thread::start);
        for (Thread w : workers) {
            w.join(TimeUnit.SECONDS.toMillis(60));
            assertFalse(w.isAlive(), "an adder is stuck");
        }
        assertTrue(failures.isEmpty(), () -> failures.size() + " adders failed, the first with " + failures.peek());
        Map<String, Object> row = client.runInTransaction(SHOP, List.of(), txn ->
                txn.get("WAREHOUSE", List.of(1), List.of("W_ORDERS", "w_ytd")).orElseThrow());
        assertEquals(List.of("W_ORDERS", "W_YTD"), List.copyOf(row.keySet()), "the columns named, in that order");
        assertEquals((long) threads * transactionsEach, row.get("W_ORDERS"), "a BIGINT comes back a Long");
        assertEquals(BigDecimal.valueOf(cents.get(), 2), row.get("W_YTD"), "every add counted once, as a BigDecimal");
    }

    @Test
    void aSerializableReadOfSomeColumnsIsFailedOnlyByAChangeToThem() {
        putWarehouse(2, "south");
        putWarehouse(3, "east");
        try (ClientTransaction reader = client.transaction(SHOP, List.of())) {
            assertEquals(Optional.of(Map.of("W_NAME", "south")), reader.get("WAREHOUSE", List.of(2), List.of("W_NAME")));
            add(2, "W_YTD", new BigDecimal("3.00"));
            reader.put("WAREHOUSE", Map.of("W_ID", 3, "W_NAME", "east-1", "W_YTD", BigDecimal.ZERO, "W_ORDERS", 0L));
            reader.commit();
        }
        try (ClientTransaction reader = client.transaction(SHOP, List.of())) {
            assertEquals(new BigDecimal("3.00"), reader.get("WAREHOUSE", List.of(2), List.of("W_YTD")).orElseThrow()
                    .get("W_YTD"));
            add(2, "W_YTD", new BigDecimal("1.00"));
            reader.put("WAREHOUSE", Map.of("W_ID", 3, "W_NAME", "never", "W_YTD", BigDecimal.ZERO, "W_ORDERS", 0L));
            TransactionAbortedException e = assertThrows(TransactionAbortedException.class, reader::commit);
            assertEquals(ErrorCode.SERIALIZATION_FAILURE, e.code(), e.getMessage());
            assertTrue(e.retryable());
        }
        assertEquals("east-1", client.runInTransaction(SHOP, List.of(), txn ->
                txn.get("WAREHOUSE", List.of(3), List.of("W_NAME")).orElseThrow().get("W_NAME")));
    }

    @Test
    void badAddsAndReadsLeaveTheTransactionOpenAndChangeNothing() {
        putWarehouse(4, "west");
        try (ClientTransaction txn = client.transaction(SHOP, List.of())) {
            for (Runnable bad : List.<Runnable>of(
                    () -> txn.add("WAREHOUSE", List.of(4), "W_NAME", 1),
                    () -> txn.add("WAREHOUSE", List.of(4), "W_ORDERS", 0.5),
                    () -> txn.add("WAREHOUSE", List.of(99), "W_ORDERS", 1L),
                    () -> txn.get("WAREHOUSE", List.of(4), List.of("W_NOPE")))) {
                ElasTrasException e = assertThrows(ElasTrasException.class, bad::run);
                assertEquals(ErrorCode.TYPE_MISMATCH, e.code(), e.getMessage());
                assertTrue(txn.isOpen(), "bad input leaves the transaction open: " + e.getMessage());
            }
            txn.add("WAREHOUSE", List.of(4), "W_ORDERS", 5);
            assertEquals(5L, txn.get("WAREHOUSE", List.of(4), List.of("W_ORDERS")).orElseThrow().get("W_ORDERS"),
                    "the transaction sees its own add");
            txn.commit();
        }
        Map<String, Object> row = client.runInTransaction(SHOP, List.of(), txn -> txn.get("WAREHOUSE", List.of(4)).orElseThrow());
        assertEquals(5L, row.get("W_ORDERS"));
        assertEquals(new BigDecimal("0.00"), row.get("W_YTD"));
        assertEquals("west", row.get("W_NAME"));
    }

    @Test
    void anAddReachesARowOfAnotherPartitionThroughTheBranch() {
        for (int a : new int[] {20, 120}) {
            client.runInTransaction("LEDGER", List.of(a), txn -> {
                txn.put("ACCOUNT", Map.of("A_ID", a, "TOTAL", 100L));
                return null;
            });
        }
        try (ClientTransaction txn = client.transaction("LEDGER", List.of(20))) {
            txn.add("ACCOUNT", List.of(20), "TOTAL", -30L);
            txn.add("ACCOUNT", List.of(120), "TOTAL", 30L);
            txn.commit();
        }
        assertEquals(List.of(70L, 130L), client.runInTransaction("LEDGER", List.of(20), txn -> List.of(
                txn.get("ACCOUNT", List.of(20)).orElseThrow().get("TOTAL"),
                txn.get("ACCOUNT", List.of(120)).orElseThrow().get("TOTAL"))));
    }
}
