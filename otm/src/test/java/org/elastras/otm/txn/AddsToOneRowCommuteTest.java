package org.elastras.otm.txn;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.elastras.otm.txn.TransactionException.Reason;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * {@link RowTransaction#add}: adds to one row commute (no conflicts among adders, no update lost,
 * also after a crash), and conflict with writers and with SERIALIZABLE readers as writes do.
 */
class AddsToOneRowCommuteTest {

    private static final long P = 1;
    private static final int THREADS = 8;
    private static final int CALLS_PER_THREAD = 150;

    private TxnTestbed bed;
    private TableAccess shop;

    @AfterEach
    void close() throws Exception {
        if (bed != null) {
            bed.close();
        }
    }

    private void start() throws Exception {
        bed = new TxnTestbed(P);
        shop = new TableAccess(TestSchemas.SHOP, TestSchemas.shopPartition(P, 0, 10), new GlobalTables(1));
        RowTransaction setup = shop.begin(bed.manager, Isolation.SERIALIZABLE, "setup");
        setup.put("warehouse", Arrays.asList(1, "hot", 0L));
        setup.put("district", Arrays.asList(1, 1, 5, null));
        setup.commit();
    }

    private long ytd() {
        RowTransaction t = shop.begin(bed.manager, Isolation.SNAPSHOT, "check");
        long value = (Long) t.get("warehouse", List.of(1)).get(2);
        t.commit();
        return value;
    }

    @ParameterizedTest
    @EnumSource(Isolation.class)
    void concurrentAddersNeverConflictAndLoseNothing(Isolation isolation) throws Exception {
        start();
        ProcedureRegistry registry = new ProcedureRegistry(4);
        registry.register("shop", "pay", (txn, args) -> {
            // Reads the hot row's name and adds to its ytd: what a Payment does with W_YTD. The
            // read of part of the row is validated by value, so adders do not fail one another
            // even under SERIALIZABLE.
            txn.get("district", List.of(1, 1));
            txn.get("warehouse", List.of(1), List.of("name"));
            txn.add("warehouse", List.of(1), "ytd", 3L);
            return null;
        });
        ProcedureRunner runner = new ProcedureRunner(bed.manager, registry, 100, 1_000);
        AtomicInteger committed = new AtomicInteger();
        Throwable failure = TxnTestbed.runClients(THREADS, CALLS_PER_THREAD, (client, c) -> {
            ProcedureResult r = runner.run(shop, "pay", List.of(), isolation, client);
            if (r.outcome() == ProcedureResult.Outcome.COMMITTED) {
                committed.incrementAndGet();
            }
        });
        assertTrue(failure == null, () -> "a thread failed: " + failure);
        assertEquals(THREADS * CALLS_PER_THREAD, committed.get(), "every call committed");
        assertEquals(0, runner.retryCount(), "adders of one row never conflict: " + runner.retriesByCause());
        assertEquals(3L * committed.get(), ytd());
        assertEquals(0, bed.manager.openTransactions());
        assertEquals(bed.timestamps.last(), bed.snapshots.snapshot(), "no CTS left unreported");
        assertTheLogHoldsEachSumOnTheOneBefore(committed.get());

        bed.crashAndRecover();
        shop = new TableAccess(TestSchemas.SHOP, TestSchemas.shopPartition(P, 0, 10), new GlobalTables(1));
        assertEquals(3L * committed.get(), ytd(), "every acknowledged add survived the crash");
    }

    /**
     * The adders' records are in the log in CTS order, each row value its predecessor's plus its
     * own add: what makes a record lost with the log take every later one with it.
     */
    private void assertTheLogHoldsEachSumOnTheOneBefore(int adds) throws Exception {
        TableAccess.Table warehouse = shop.table("warehouse");
        byte[] encodedKey = shop.encodeKey(warehouse, List.of(1));
        byte[] hot = StorageKeys.rowKey(warehouse.id(), encodedKey);
        long lastCts = 0;
        long lastYtd = 0;
        int records = 0;
        try (org.elastras.storage.util.CloseableIterator<org.elastras.storage.wal.WalEntry> it =
                org.elastras.storage.wal.WalReader.replay(bed.dfs, "wal/otm-1", org.elastras.storage.wal.WalPosition.START)) {
            while (it.hasNext()) {
                var record = it.next().record();
                for (var m : record.mutations()) {
                    if (java.util.Arrays.equals(m.key(), hot) && record.cts() > 0) {
                        long ytd = (Long) warehouse.codec().decode(encodedKey, m.value()).get(2);
                        if (ytd == 0) {
                            continue; // the setup's row
                        }
                        assertTrue(record.cts() > lastCts, "records in CTS order: " + record.cts() + " after " + lastCts);
                        assertEquals(lastYtd + 3, ytd, "each logged sum builds on the one logged before it");
                        lastCts = record.cts();
                        lastYtd = ytd;
                        records++;
                    }
                }
            }
        }
        assertEquals(adds, records);
    }

    @Test
    void anAddAppliesToTheNewestRowNotToItsSnapshot() throws Exception {
        start();
        RowTransaction early = shop.begin(bed.manager, Isolation.SERIALIZABLE, "early");
        RowTransaction other = shop.begin(bed.manager, Isolation.SERIALIZABLE, "other");
        early.add("warehouse", List.of(1), "ytd", 10L);
        other.add("warehouse", List.of(1), "ytd", 5L);
        other.add("warehouse", List.of(1), "ytd", 1L);
        assertEquals(6L, other.get("warehouse", List.of(1)).get(2), "its own adds on its snapshot's row");
        assertEquals(List.of(6L), other.scan("warehouse", List.of(), List.of(), 10).stream().map(r -> r.get(2)).toList());
        other.commit();
        // A writer committed after early's snapshot and did not touch ytd: the add keeps its change.
        RowTransaction renamer = shop.begin(bed.manager, Isolation.SERIALIZABLE, "renamer");
        assertThrows(TransactionException.class, () -> renamer.put("warehouse", Arrays.asList(1, "renamed", 6L)),
                "a writer conflicts with an adder still open");
        early.commit();
        assertEquals(16L, ytd());
        RowTransaction reader = shop.begin(bed.manager, Isolation.SNAPSHOT, "reader");
        assertEquals(Arrays.asList(1, "hot", 16L), reader.get("warehouse", List.of(1)));
        reader.commit();
    }

    @Test
    void writersAndAddersConflictFirstUpdaterWins() throws Exception {
        start();
        RowTransaction writer = shop.begin(bed.manager, Isolation.SNAPSHOT, "writer");
        writer.put("warehouse", Arrays.asList(1, "w", 100L));
        RowTransaction adder = shop.begin(bed.manager, Isolation.SNAPSHOT, "adder");
        TransactionException e = assertThrows(TransactionException.class, () -> adder.add("warehouse", List.of(1), "ytd", 1L));
        assertEquals(Reason.CONFLICT, e.reason());
        assertTrue(e.transactionAborted());
        writer.commit();

        RowTransaction adder2 = shop.begin(bed.manager, Isolation.SNAPSHOT, "adder2");
        adder2.add("warehouse", List.of(1), "ytd", 1L);
        RowTransaction writer2 = shop.begin(bed.manager, Isolation.SNAPSHOT, "writer2");
        e = assertThrows(TransactionException.class, () -> writer2.put("warehouse", Arrays.asList(1, "w2", 0L)));
        assertEquals(Reason.CONFLICT, e.reason());
        adder2.commit();
        assertEquals(101L, ytd());
        assertEquals(0, bed.manager.intentsHeld(P));
    }

    @Test
    void aWriteAfterItsOwnAddReplacesIt() throws Exception {
        start();
        RowTransaction t = shop.begin(bed.manager, Isolation.SNAPSHOT, "t");
        t.add("warehouse", List.of(1), "ytd", 7L);
        List<Object> row = new ArrayList<>(t.get("warehouse", List.of(1)));
        row.set(1, "renamed");
        t.put("warehouse", row);
        t.add("warehouse", List.of(1), "ytd", 1L); // on its own written value now
        t.commit();
        RowTransaction reader = shop.begin(bed.manager, Isolation.SNAPSHOT, "reader");
        assertEquals(Arrays.asList(1, "renamed", 8L), reader.get("warehouse", List.of(1)));
        reader.commit();
    }

    @Test
    void aSerializableReaderOfTheRowFailsWhenAnAddCommittedAfterItsSnapshot() throws Exception {
        start();
        RowTransaction reader = shop.begin(bed.manager, Isolation.SERIALIZABLE, "reader");
        assertEquals(0L, reader.get("warehouse", List.of(1)).get(2));
        RowTransaction adder = shop.begin(bed.manager, Isolation.SERIALIZABLE, "adder");
        adder.add("warehouse", List.of(1), "ytd", 2L);
        adder.commit();
        reader.put("district", Arrays.asList(1, 1, 6, "saw ytd 0"));
        TransactionException e = assertThrows(TransactionException.class, reader::commit);
        assertEquals(Reason.SERIALIZATION_FAILURE, e.reason());

        // Under SNAPSHOT the same reader commits: it wrote nothing an adder touched.
        RowTransaction si = shop.begin(bed.manager, Isolation.SNAPSHOT, "si");
        si.get("warehouse", List.of(1));
        RowTransaction adder2 = shop.begin(bed.manager, Isolation.SNAPSHOT, "adder2");
        adder2.add("warehouse", List.of(1), "ytd", 2L);
        adder2.commit();
        si.put("district", Arrays.asList(1, 1, 6, "saw ytd 2"));
        si.commit();
        assertEquals(4L, ytd());
    }

    @Test
    void aPartialReadFailsOnlyWhenAColumnItReadChanged() throws Exception {
        start();
        RowTransaction nameReader = shop.begin(bed.manager, Isolation.SERIALIZABLE, "nameReader");
        assertEquals(List.of("hot"), nameReader.get("warehouse", List.of(1), List.of("name")));
        RowTransaction ytdReader = shop.begin(bed.manager, Isolation.SERIALIZABLE, "ytdReader");
        assertEquals(List.of(0L, "hot"), ytdReader.get("warehouse", List.of(1), List.of("ytd", "name")));
        RowTransaction adder = shop.begin(bed.manager, Isolation.SERIALIZABLE, "adder");
        adder.add("warehouse", List.of(1), "ytd", 2L);
        adder.commit();
        nameReader.put("district", Arrays.asList(1, 2, 6, "saw the name"));
        nameReader.commit();
        ytdReader.put("district", Arrays.asList(1, 3, 7, "saw ytd 0"));
        assertEquals(Reason.SERIALIZATION_FAILURE, assertThrows(TransactionException.class, ytdReader::commit).reason(),
                "the column it read was added to");

        RowTransaction again = shop.begin(bed.manager, Isolation.SERIALIZABLE, "again");
        assertEquals(List.of("hot"), again.get("warehouse", List.of(1), List.of("name")));
        RowTransaction renamer = shop.begin(bed.manager, Isolation.SERIALIZABLE, "renamer");
        renamer.put("warehouse", Arrays.asList(1, "cold", 2L));
        renamer.commit();
        again.put("district", Arrays.asList(1, 4, 8, "saw hot"));
        assertEquals(Reason.SERIALIZATION_FAILURE, assertThrows(TransactionException.class, again::commit).reason(),
                "the name it read changed");

        RowTransaction gone = shop.begin(bed.manager, Isolation.SERIALIZABLE, "gone");
        assertEquals(List.of("cold"), gone.get("warehouse", List.of(1), List.of("name")));
        assertEquals(null, gone.get("warehouse", List.of(2), List.of("name")), "no such row");
        RowTransaction deleter = shop.begin(bed.manager, Isolation.SERIALIZABLE, "deleter");
        deleter.delete("warehouse", List.of(1));
        deleter.put("warehouse", Arrays.asList(2, "new", 0L));
        deleter.commit();
        gone.put("district", Arrays.asList(1, 5, 9, "saw cold"));
        assertEquals(Reason.SERIALIZATION_FAILURE, assertThrows(TransactionException.class, gone::commit).reason(),
                "the row it read was deleted and the one it missed was inserted");
        assertEquals(Reason.TYPE_MISMATCH, assertThrows(TransactionException.class,
                () -> shop.begin(bed.manager, Isolation.SERIALIZABLE, "x").get("warehouse", List.of(1), List.of("nope")))
                .reason());
    }

    @Test
    void badAddsAreClearErrorsThatChangeNothing() throws Exception {
        start();
        RowTransaction t = shop.begin(bed.manager, Isolation.SERIALIZABLE, "t");
        assertEquals(Reason.TYPE_MISMATCH, assertThrows(TransactionException.class,
                () -> t.add("warehouse", List.of(2), "ytd", 1L)).reason(), "no such row");
        assertEquals(Reason.TYPE_MISMATCH, assertThrows(TransactionException.class,
                () -> t.add("warehouse", List.of(1), "name", 1L)).reason(), "not a number");
        assertEquals(Reason.TYPE_MISMATCH, assertThrows(TransactionException.class,
                () -> t.add("warehouse", List.of(1), "w_id", 1)).reason(), "a key column");
        assertEquals(Reason.TYPE_MISMATCH, assertThrows(TransactionException.class,
                () -> t.add("warehouse", List.of(1), "ytd", 1.5)).reason(), "a double for a BIGINT");
        assertEquals(Reason.TYPE_MISMATCH, assertThrows(TransactionException.class,
                () -> t.add("warehouse", List.of(1), "nope", 1L)).reason(), "no such column");
        assertEquals(Reason.TYPE_MISMATCH, assertThrows(TransactionException.class,
                () -> t.add("district", List.of(1, 1), "next_o_id", Integer.MAX_VALUE)).reason(), "INT overflow");
        assertFalse(t.abortCause() != null, "none of them aborted the transaction");
        t.add("warehouse", List.of(1), "ytd", 1L);
        t.commit();
        assertEquals(1L, ytd());
    }

    @Test
    void aRowDeletedAfterTheSnapshotAbortsTheAddAtCommit() throws Exception {
        start();
        RowTransaction adder = shop.begin(bed.manager, Isolation.SNAPSHOT, "adder");
        RowTransaction deleter = shop.begin(bed.manager, Isolation.SNAPSHOT, "deleter");
        deleter.delete("warehouse", List.of(1));
        deleter.commit();
        adder.add("warehouse", List.of(1), "ytd", 1L); // its snapshot still has the row
        TransactionException e = assertThrows(TransactionException.class, adder::commit);
        assertEquals(Reason.CONFLICT, e.reason());
        assertEquals(bed.timestamps.last(), bed.snapshots.snapshot(), "the aborted commit's CTS was reported unused");
        RowTransaction reader = shop.begin(bed.manager, Isolation.SNAPSHOT, "reader");
        assertEquals(null, reader.get("warehouse", List.of(1)));
        reader.commit();
    }
}
