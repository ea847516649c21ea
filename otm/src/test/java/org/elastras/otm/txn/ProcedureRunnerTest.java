package org.elastras.otm.txn;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.elastras.otm.txn.TransactionException.Reason;
import org.elastras.storage.wal.WalPosition;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Stored procedures: one transaction per call, re-run on conflicts, deliberate rollback. */
class ProcedureRunnerTest {

    private static final long P = 5;

    private TxnTestbed bed;
    private TableAccess shop;
    private ProcedureRegistry registry;
    private ProcedureRunner runner;

    @BeforeEach
    void open() throws Exception {
        bed = new TxnTestbed(P);
        shop = new TableAccess(TestSchemas.SHOP, TestSchemas.shopPartition(P, 0, 100), new GlobalTables(10));
        registry = new ProcedureRegistry(10);
        runner = new ProcedureRunner(bed.manager, registry, 5, 1_000);
        RowTransaction setup = shop.begin(bed.manager, Isolation.SERIALIZABLE, "setup");
        setup.put("warehouse", Arrays.asList(1, "one", 0L));
        setup.commit();
    }

    @AfterEach
    void close() throws Exception {
        bed.close();
    }

    private long ytd() {
        RowTransaction t = shop.begin(bed.manager, Isolation.SNAPSHOT, "check");
        long ytd = (Long) t.get("warehouse", List.of(1)).get(2);
        t.commit();
        return ytd;
    }

    @Test
    void aProcedureIsReRunOnANewerSnapshotAfterAConflict() {
        AtomicInteger runs = new AtomicInteger();
        registry.register("SHOP", "pay", (txn, args) -> {
            List<Object> w = txn.get("warehouse", List.of(1));
            if (runs.incrementAndGet() == 1) {
                // Another client pays first, after this run's snapshot: this run's write conflicts.
                RowTransaction other = shop.begin(bed.manager, Isolation.SERIALIZABLE, "other");
                other.put("warehouse", Arrays.asList(1, "one", 100L));
                other.commit();
            }
            long ytd = (Long) w.get(2) + (Long) args.get(0);
            txn.put("warehouse", Arrays.asList(1, "one", ytd));
            return ytd;
        });
        ProcedureResult r = runner.run(shop, "pay", List.of(7L), Isolation.SERIALIZABLE, "client");
        assertEquals(ProcedureResult.Outcome.COMMITTED, r.outcome());
        assertEquals(2, r.attempts());
        assertEquals(107L, r.value(), "the second run saw the other payment");
        assertEquals(107L, ytd());
        assertEquals(1, runner.retryCount());
        assertEquals(Map.of(new ProcedureRunner.RetryCause(shop.schema().name(), "pay", Reason.CONFLICT), 1L),
                runner.retriesByCause(), "the re-run is counted under its procedure and the abort's reason");
    }

    @Test
    void reRunsAreCountedByCauseInABoundedMap() {
        ProcedureRegistry registry = new ProcedureRegistry(ProcedureRunner.RETRY_CAUSES_MAX + 10);
        ProcedureRunner many = new ProcedureRunner(bed.manager, registry, 2, 1_000);
        int procedures = ProcedureRunner.RETRY_CAUSES_MAX + 5;
        for (int i = 0; i < procedures; i++) {
            AtomicInteger runs = new AtomicInteger();
            registry.register("shop", "p" + i, (txn, args) -> {
                txn.get("warehouse", List.of(1));
                if (runs.incrementAndGet() == 1) {
                    RowTransaction other = shop.begin(bed.manager, Isolation.SERIALIZABLE, "other");
                    other.put("warehouse", Arrays.asList(1, "one", 5L));
                    other.commit();
                }
                txn.put("warehouse", Arrays.asList(1, "one", 6L));
                return null;
            });
            assertEquals(ProcedureResult.Outcome.COMMITTED, many.run(shop, "p" + i, List.of(), Isolation.SERIALIZABLE, "c")
                    .outcome());
        }
        Map<ProcedureRunner.RetryCause, Long> byCause = many.retriesByCause();
        assertEquals(ProcedureRunner.RETRY_CAUSES_MAX + 1, byCause.size(), "every key up to the bound, then one for the rest");
        assertEquals(5L, byCause.get(new ProcedureRunner.RetryCause(ProcedureRunner.OTHER_PROCEDURES,
                ProcedureRunner.OTHER_PROCEDURES, Reason.CONFLICT)));
        assertEquals(procedures, byCause.values().stream().mapToLong(Long::longValue).sum());
        assertEquals(procedures, many.retryCount());
    }

    @Test
    void aSlowCallIsLoggedWithWhereItsTimeWentAndAFastOneIsNot() {
        List<LogRecord> logged = new CopyOnWriteArrayList<>();
        Handler capture = new Handler() {
            @Override
            public void publish(LogRecord record) {
                logged.add(record);
            }

            @Override
            public void flush() {
            }

            @Override
            public void close() {
            }
        };
        Logger log = Logger.getLogger(ProcedureRunner.class.getName());
        log.addHandler(capture);
        try {
            AtomicInteger runs = new AtomicInteger();
            registry.register("SHOP", "slowFirstRun", (txn, args) -> {
                List<Object> w = txn.get("warehouse", List.of(1));
                if (runs.incrementAndGet() == 1) {
                    try {
                        Thread.sleep(ProcedureRunner.SLOW_CALL_MS + 100); // a procedure that takes this long
                    } catch (InterruptedException e) {
                        throw new IllegalStateException(e);
                    }
                    RowTransaction other = shop.begin(bed.manager, Isolation.SERIALIZABLE, "other");
                    other.put("warehouse", Arrays.asList(1, "one", 100L));
                    other.commit();
                }
                txn.put("warehouse", Arrays.asList(1, "one", (Long) w.get(2) + 1));
                return null;
            });
            registry.register("SHOP", "fast", (txn, args) -> txn.get("warehouse", List.of(1)));

            assertEquals(ProcedureResult.Outcome.COMMITTED, runner.run(shop, "fast", List.of(), Isolation.SERIALIZABLE,
                    "client").outcome());
            assertEquals(List.of(), logged, "a fast call is not logged");

            ProcedureResult r = runner.run(shop, "slowFirstRun", List.of(), Isolation.SERIALIZABLE, "client");
            assertEquals(2, r.attempts());
            assertEquals(1, logged.size());
            assertEquals(Level.WARNING, logged.get(0).getLevel());
            String message = logged.get(0).getMessage();
            assertTrue(message.startsWith("slow call: procedure 'slowFirstRun' of database " + shop.schema().name() + " ran "), message);
            assertTrue(message.contains(" in 2 attempts, "), message);
            long longestMs = Long.parseLong(message.replaceAll(".*longest aborted attempt took (\\d+) ms.*", "$1"));
            assertTrue(longestMs >= ProcedureRunner.SLOW_CALL_MS, message);
            assertTrue(message.contains(" ms and ended CONFLICT: "), message);
            assertFalse(message.contains("inside its attempts"), "it slept, it waited for nothing: " + message);

            // A call whose attempt waited inside (here: as a commit timestamp's wait accounts it).
            registry.register("SHOP", "waitsForTimestamps", (txn, args) -> {
                CallWaits.since(CallWaits.Cause.COMMIT_TIMESTAMP, System.nanoTime() - (ProcedureRunner.SLOW_CALL_MS + 200) * 1_000_000L);
                try {
                    Thread.sleep(ProcedureRunner.SLOW_CALL_MS + 100);
                } catch (InterruptedException e) {
                    throw new IllegalStateException(e);
                }
                return txn.get("warehouse", List.of(1));
            });
            assertEquals(ProcedureResult.Outcome.COMMITTED, runner.run(shop, "waitsForTimestamps", List.of(), Isolation.SERIALIZABLE,
                    "client").outcome());
            assertEquals(2, logged.size());
            String waited = logged.get(1).getMessage();
            assertTrue(waited.contains("; inside its attempts it waited " + (ProcedureRunner.SLOW_CALL_MS + 200)
                    + " ms for commit timestamps"), waited);
        } finally {
            log.removeHandler(capture);
        }
    }

    @Test
    void retriesAreBounded() {
        registry.register("shop", "alwaysLoses", (txn, args) -> {
            txn.get("warehouse", List.of(1));
            RowTransaction other = shop.begin(bed.manager, Isolation.SERIALIZABLE, "other");
            other.put("warehouse", Arrays.asList(1, "one", 1L));
            other.commit();
            txn.put("warehouse", Arrays.asList(1, "one", 2L));
            return null;
        });
        ProcedureResult r = runner.run(shop, "alwaysLoses", List.of(), Isolation.SERIALIZABLE, "client");
        assertEquals(ProcedureResult.Outcome.RETRIES_EXHAUSTED, r.outcome());
        assertEquals(5, r.attempts());
        assertEquals(1L, ytd(), "no attempt of the loser was written");
    }

    @Test
    void aSwallowedConflictStillCountsAsOne() {
        AtomicInteger runs = new AtomicInteger();
        registry.register("shop", "swallows", (txn, args) -> {
            if (runs.incrementAndGet() == 1) {
                RowTransaction other = shop.begin(bed.manager, Isolation.SERIALIZABLE, "other");
                other.put("warehouse", Arrays.asList(1, "one", 50L));
                try {
                    txn.put("warehouse", Arrays.asList(1, "one", 9L));
                } catch (TransactionException ignored) {
                    // a careless procedure
                }
                other.commit();
                return "first";
            }
            txn.put("warehouse", Arrays.asList(1, "one", 9L));
            return "second";
        });
        ProcedureResult r = runner.run(shop, "swallows", List.of(), Isolation.SERIALIZABLE, "client");
        assertEquals(ProcedureResult.Outcome.COMMITTED, r.outcome());
        assertEquals("second", r.value());
        assertEquals(2, r.attempts());
    }

    @Test
    void aProcedureAbortRollsBackAndIsReportedDistinctly() {
        registry.register("shop", "rollback", (txn, args) -> {
            txn.put("warehouse", Arrays.asList(1, "one", 999L));
            txn.put("district", Arrays.asList(1, 1, 1, null));
            throw new ProcedureAbort("item 42 does not exist");
        });
        WalPosition before = bed.wal.endPosition();
        ProcedureResult r = runner.run(shop, "rollback", List.of(), Isolation.SERIALIZABLE, "client");
        assertEquals(ProcedureResult.Outcome.ROLLED_BACK, r.outcome());
        assertEquals("item 42 does not exist", r.message());
        assertEquals(1, r.attempts());
        assertEquals(0L, ytd());
        assertEquals(before, bed.wal.endPosition(), "nothing logged");
        assertEquals(0, bed.manager.intentsHeld(P));
        assertEquals(0, bed.manager.openTransactions());
        RowTransaction t = shop.begin(bed.manager, Isolation.SNAPSHOT, "check");
        assertNull(t.get("district", List.of(1, 1)));
        t.commit();
    }

    @Test
    void failuresARetryCannotFixAreThrownAfterAborting() {
        registry.register("shop", "buggy", (txn, args) -> {
            txn.put("warehouse", Arrays.asList(1, "one", 5L));
            throw new NullPointerException("bug");
        });
        registry.register("shop", "badType", (txn, args) -> {
            txn.put("warehouse", Arrays.asList(1, "one", 5L));
            txn.put("warehouse", Arrays.asList(1, "one", "five"));
            return null;
        });
        assertEquals(Reason.PROCEDURE_FAILED, assertThrows(TransactionException.class,
                () -> runner.run(shop, "buggy", List.of(), Isolation.SERIALIZABLE, "c")).reason());
        assertEquals(Reason.TYPE_MISMATCH, assertThrows(TransactionException.class,
                () -> runner.run(shop, "badType", List.of(), Isolation.SERIALIZABLE, "c")).reason());
        assertEquals(Reason.UNKNOWN_PROCEDURE, assertThrows(TransactionException.class,
                () -> runner.run(shop, "nosuch", List.of(), Isolation.SERIALIZABLE, "c")).reason());
        assertEquals(0L, ytd());
        assertEquals(0, bed.manager.intentsHeld(P));
        assertEquals(0, bed.manager.openTransactions());
    }
}
