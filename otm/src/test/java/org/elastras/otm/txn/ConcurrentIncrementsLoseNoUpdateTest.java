package org.elastras.otm.txn;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Many threads increment one counter through a stored procedure with conflict retries: the final
 * value equals the number of committed increments, also after the OTM crashes and a new owner
 * recovers the partition from the WAL.
 */
class ConcurrentIncrementsLoseNoUpdateTest {

    private static final long P = 1;
    private static final int THREADS = 8;
    private static final int CALLS_PER_THREAD = 150;

    @ParameterizedTest
    @EnumSource(Isolation.class)
    void finalValueIsTheNumberOfCommittedIncrements(Isolation isolation) throws Exception {
        try (TxnTestbed bed = new TxnTestbed(P)) {
            TableAccess shop = new TableAccess(TestSchemas.SHOP, TestSchemas.shopPartition(P, 0, 10), new GlobalTables(1));
            RowTransaction setup = shop.begin(bed.manager, Isolation.SERIALIZABLE, "setup");
            setup.put("warehouse", Arrays.asList(1, "hot", 0L));
            setup.commit();

            ProcedureRegistry registry = new ProcedureRegistry(4);
            registry.register("shop", "increment", (txn, args) -> {
                List<Object> row = txn.get("warehouse", List.of(1));
                long next = (Long) row.get(2) + 1;
                txn.put("warehouse", Arrays.asList(1, "hot", next));
                return next;
            });
            ProcedureRunner runner = new ProcedureRunner(bed.manager, registry, 100, 1_000);
            AtomicInteger committed = new AtomicInteger();
            AtomicInteger exhausted = new AtomicInteger();
            ConcurrentLinkedQueue<Long> valuesSeen = new ConcurrentLinkedQueue<>();
            Throwable failure = TxnTestbed.runClients(THREADS, CALLS_PER_THREAD, (client, c) -> {
                ProcedureResult r = runner.run(shop, "increment", List.of(), isolation, client);
                if (r.outcome() == ProcedureResult.Outcome.COMMITTED) {
                    committed.incrementAndGet();
                    valuesSeen.add((Long) r.value());
                } else {
                    exhausted.incrementAndGet();
                }
            });
            assertTrue(failure == null, () -> "a thread failed: " + failure);
            assertTrue(committed.get() > 0);
            assertEquals(THREADS * CALLS_PER_THREAD, committed.get() + exhausted.get());
            assertEquals(committed.get(), valuesSeen.stream().distinct().count(),
                    "every committed increment produced a distinct value: none was lost or doubled");
            assertEquals(committed.get(), counter(bed, shop));
            assertEquals(0, bed.manager.openTransactions());
            assertEquals(0, bed.manager.intentsHeld(P));
            assertEquals(bed.timestamps.last(), bed.snapshots.snapshot(), "no CTS left unreported");
            System.out.println(isolation + ": " + committed.get() + " committed, " + exhausted.get()
                    + " gave up, " + runner.retryCount() + " retries");

            bed.crashAndRecover();
            assertEquals(committed.get(), counter(bed, shop), "every acknowledged increment survived the crash");
        }
    }

    private static long counter(TxnTestbed bed, TableAccess shop) {
        RowTransaction t = shop.begin(bed.manager, Isolation.SNAPSHOT, "check");
        long value = (Long) t.get("warehouse", List.of(1)).get(2);
        t.commit();
        return value;
    }
}
