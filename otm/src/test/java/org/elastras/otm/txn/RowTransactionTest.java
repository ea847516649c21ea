package org.elastras.otm.txn;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.List;
import org.elastras.otm.txn.TransactionException.Reason;
import org.elastras.storage.wal.WalPosition;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Typed rows over the byte-level manager: tables, codecs, partition ranges and global tables. */
class RowTransactionTest {

    private static final long P = 3;

    private TxnTestbed bed;
    private TableAccess shop;
    private GlobalTables globals;

    @BeforeEach
    void open() throws Exception {
        bed = new TxnTestbed(P);
        globals = new GlobalTables(1000);
        shop = new TableAccess(TestSchemas.SHOP, TestSchemas.shopPartition(P, 10, 20), globals);
    }

    @AfterEach
    void close() throws Exception {
        bed.close();
    }

    private RowTransaction begin() {
        return shop.begin(bed.manager, Isolation.SERIALIZABLE, "test");
    }

    @Test
    void rowsRoundTripAndScanByKeyPrefix() {
        RowTransaction t = begin();
        t.put("warehouse", Arrays.asList(10, "ten", 0L));
        t.put("WAREHOUSE", Arrays.asList(11, "eleven", 5L));
        for (int d = 1; d <= 3; d++) {
            t.put("district", Arrays.asList(10, d, 3000 + d, null));
            t.put("district", Arrays.asList(11, d, 4000 + d, "n" + d));
        }
        t.delete("district", List.of(11, 2));
        assertEquals(List.of(10, "ten", 0L), t.get("warehouse", List.of(10)));
        assertEquals(Arrays.asList(10, 2, 3002, null), t.get("district", List.of(10, 2)));
        assertNull(t.get("district", List.of(11, 2)));
        t.commit();

        RowTransaction r = begin();
        assertEquals(List.of(List.of(11, 1, 4001, "n1"), List.of(11, 3, 4003, "n3")),
                r.scan("district", List.of(11), List.of(11), 100), "every district of warehouse 11");
        assertEquals(List.of(List.of(10, 2, 3002), List.of(10, 3, 3003)),
                r.scan("district", List.of(10, 2), List.of(10), 100).stream().map(row -> row.subList(0, 3)).toList());
        assertEquals(5, r.scan("district", null, null, 100).size(), "a table scan stays inside its table");
        assertEquals(2, r.scan("warehouse", List.of(), List.of(), 100).size());
        assertEquals(1, r.scan("district", null, null, 1).size());
        assertTrue(r.commit().readOnly());
    }

    @Test
    void badInputIsAClearErrorThatChangesNothing() {
        RowTransaction t = begin();
        t.put("warehouse", Arrays.asList(12, "twelve", 0L));
        WalPosition before = bed.wal.endPosition();

        TransactionException unknown = assertThrows(TransactionException.class,
                () -> t.put("nosuch", List.of(1)));
        assertEquals(Reason.UNKNOWN_TABLE, unknown.reason());
        assertFalse(unknown.transactionAborted());

        TransactionException type = assertThrows(TransactionException.class,
                () -> t.put("warehouse", Arrays.asList(13, 42, 0L)));
        assertEquals(Reason.TYPE_MISMATCH, type.reason());
        assertTrue(type.getMessage().contains("column name"), type.getMessage());
        assertEquals(Reason.TYPE_MISMATCH, assertThrows(TransactionException.class,
                () -> t.get("district", List.of(10))).reason(), "a key with too few values");
        assertEquals(Reason.TYPE_MISMATCH, assertThrows(TransactionException.class,
                () -> t.put("warehouse", Arrays.asList(13L << 40, "big", 0L))).reason(), "INT overflow");

        TransactionException outside = assertThrows(TransactionException.class,
                () -> t.put("district", Arrays.asList(20, 1, 1, null)));
        assertEquals(Reason.KEY_OUTSIDE_PARTITION, outside.reason());
        assertEquals(Reason.KEY_OUTSIDE_PARTITION, assertThrows(TransactionException.class,
                () -> t.get("warehouse", List.of(9))).reason());

        assertEquals(Reason.READ_ONLY_TABLE, assertThrows(TransactionException.class,
                () -> t.put("item", Arrays.asList(1, 1.0))).reason());

        assertEquals(1, bed.manager.intentsHeld(P), "only the good put holds an intent");
        t.commit();
        assertTrue(bed.wal.endPosition().compareTo(before) > 0);
        RowTransaction r = begin();
        assertEquals(1, r.scan("warehouse", null, null, 10).size());
        assertEquals(0, r.scan("district", null, null, 10).size());
        r.commit();
    }

    @Test
    void anUpdateChangesTheNamedColumnsAndLeavesTheRestAsTheyWere() {
        RowTransaction t = begin();
        t.put("district", Arrays.asList(10, 1, 3001, "a note"));
        t.put("district", Arrays.asList(10, 2, 3002, null));
        t.commit();

        RowTransaction u = begin();
        assertEquals(List.of(3001, "a note"), u.update("district", List.of(10, 1), List.of("next_o_id", "note"),
                List.of("next_o_id"), read -> List.of((Integer) read.get(0) + 1)), "the columns read, as they were");
        assertEquals(List.of(10, 1, 3002, "a note"), u.get("district", List.of(10, 1)), "the transaction sees its change");
        assertEquals(List.of(), u.update("district", List.of(10, 2), List.of(), List.of("note"), read -> List.of("noted")));
        assertNull(u.update("district", List.of(10, 3), List.of("note"), List.of("note"), read -> {
            throw new AssertionError("no row: nothing to change");
        }));
        u.commit();
        RowTransaction r = begin();
        assertEquals(List.of(10, 1, 3002, "a note"), r.get("district", List.of(10, 1)));
        assertEquals(List.of(10, 2, 3002, "noted"), r.get("district", List.of(10, 2)));
        assertNull(r.get("district", List.of(10, 3)), "an update makes no row");
        r.commit();

        RowTransaction bad = begin();
        for (var attempt : List.<Runnable>of(
                () -> bad.update("district", List.of(10, 1), List.of(), List.of("d_id"), read -> List.of(5)),
                () -> bad.update("district", List.of(10, 1), List.of("nope"), List.of(), read -> List.of()),
                () -> bad.update("district", List.of(10, 1), List.of(), List.of("next_o_id"), read -> List.of("many")),
                () -> bad.update("district", List.of(10, 1), List.of(), List.of("next_o_id"), read -> List.of()),
                () -> bad.update("district", List.of(10, 1), List.of(), List.of("next_o_id"), read -> Arrays.asList((Object) null)))) {
            TransactionException e = assertThrows(TransactionException.class, attempt::run);
            assertEquals(Reason.TYPE_MISMATCH, e.reason(), e.getMessage());
            assertTrue(e.getMessage().contains("nothing was changed"), e.getMessage());
        }
        assertEquals(Reason.READ_ONLY_TABLE, assertThrows(TransactionException.class,
                () -> bad.update("item", List.of(1), List.of(), List.of("price"), read -> List.of(2.0))).reason());
        assertEquals(Reason.KEY_OUTSIDE_PARTITION, assertThrows(TransactionException.class,
                () -> bad.update("district", List.of(20, 1), List.of(), List.of("note"), read -> List.of("x"))).reason());
        assertEquals(0, bed.manager.intentsHeld(P), "no refused update holds an intent");
        bad.commit();
        assertEquals(List.of(10, 1, 3002, "a note"), begin().get("district", List.of(10, 1)));
    }

    @Test
    void globalTablesAreReadFromTheLoadedCopy() {
        RowTransaction t = begin();
        assertEquals(Reason.UNKNOWN_TABLE, assertThrows(TransactionException.class,
                () -> t.get("item", List.of(1))).reason(), "not loaded yet");
        globals.load(TestSchemas.SHOP, "ITEM", List.of(List.of(1, 1.5), List.of(2, 2.5), List.of(3, 3.5)));
        assertEquals(List.of(2, 2.5), t.get("item", List.of(2)));
        assertNull(t.get("item", List.of(4)));
        assertEquals(List.of(List.of(2, 2.5), List.of(3, 3.5)), t.scan("item", List.of(2), null, 10));
        assertTrue(t.commit().readOnly(), "global reads make no write set");

        assertEquals(Reason.TYPE_MISMATCH, assertThrows(TransactionException.class,
                () -> globals.load(TestSchemas.SHOP, "item", List.of(List.of(9, 9.0), List.of("x", 1.0)))).reason());
        assertEquals(List.of(1, 1.5), begin().get("item", List.of(1)), "a failed load leaves the old table");
        assertEquals(Reason.UNKNOWN_TABLE, assertThrows(TransactionException.class,
                () -> globals.load(TestSchemas.SHOP, "warehouse", List.of())).reason());
    }

    @Test
    void attachRejectsATransactionOfAnotherPartition() throws Exception {
        RowTransaction t = begin();
        assertEquals(t.id(), shop.attach(bed.manager, t.id()).id());
        TableAccess other = new TableAccess(TestSchemas.SHOP, TestSchemas.shopPartition(P + 1, 20, 30), globals);
        assertEquals(Reason.NOT_OWNER, assertThrows(TransactionException.class,
                () -> other.attach(bed.manager, t.id())).reason());
        t.abort();
    }
}
