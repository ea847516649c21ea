package org.elastras.otm.txn;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.elastras.catalog.schema.TableSchema;
import org.elastras.otm.txn.TransactionException.Reason;
import org.elastras.storage.dfs.Dfs;
import org.elastras.storage.dfs.MemoryDfs;
import org.junit.jupiter.api.Test;

/**
 * A global table loaded in chunks: staged chunks are invisible until the last one publishes; a
 * refused chunk (out of order, a bad row, a key repeated from an earlier chunk, too many rows)
 * changes nothing and the load goes on; the table is written once to the DFS, where another OTM's
 * {@link GlobalTables} (a new owner) reads it; a second publish is refused; a corrupt file is an
 * error naming it, not an empty table.
 */
class GlobalTablesLoadInChunksAndPublishOnceTest {

    private static final TableSchema ITEM = TestSchemas.SHOP.table("item");

    private static List<List<Object>> items(int from, int toInclusive) {
        List<List<Object>> rows = new ArrayList<>();
        for (int i = from; i <= toInclusive; i++) {
            rows.add(List.of(i, i / 100.0));
        }
        return rows;
    }

    private static byte[] key(int itemId) {
        return new org.elastras.catalog.row.RowCodec(ITEM).encodeKey(List.of(itemId, 0.0));
    }

    @Test
    void aHundredThousandRowsLoadInChunksAndAnotherOtmReadsThemFromTheDfs() {
        MemoryDfs dfs = new MemoryDfs();
        GlobalTables first = new GlobalTables(200_000, new GlobalTableFiles(dfs));
        for (int c = 0; c < 5; c++) {
            boolean last = c == 4;
            long staged = first.loadChunk(TestSchemas.SHOP, "ITEM", "load-1", c, items(c * 20_000 + 1, (c + 1) * 20_000), last);
            assertEquals((c + 1) * 20_000L, staged);
            if (!last) {
                assertFalse(first.isLoaded("shop", "item"), "staged chunks are not readable");
                assertEquals(Reason.UNKNOWN_TABLE, assertThrows(TransactionException.class,
                        () -> first.get(TestSchemas.SHOP, ITEM, key(1))).reason());
            }
        }
        assertTrue(first.isLoaded("shop", "item"));
        assertEquals(List.of(100_000, 1000.0), first.get(TestSchemas.SHOP, ITEM, key(100_000)));
        assertNull(first.get(TestSchemas.SHOP, ITEM, key(100_001)));

        // Another OTM, which took no load, reads the published file on first use.
        GlobalTables second = new GlobalTables(200_000, new GlobalTableFiles(dfs));
        assertFalse(second.isLoaded("shop", "item"));
        assertEquals(List.of(54_321, 543.21), second.get(TestSchemas.SHOP, ITEM, key(54_321)));
        assertEquals(100_000, second.scan(TestSchemas.SHOP, ITEM, key(1), null, 200_000).size());
        assertEquals(items(99_999, 100_000), second.scan(TestSchemas.SHOP, ITEM, key(99_999), null, 10));

        // Published once per database: from either OTM, a second load is refused and changes nothing.
        GlobalTables.LoadRefused again = assertThrows(GlobalTables.LoadRefused.class,
                () -> second.load(TestSchemas.SHOP, "item", items(1, 3)));
        assertEquals(GlobalTables.LoadRefused.Why.ALREADY_PUBLISHED, again.why());
        assertEquals(100_000, new GlobalTables(200_000, new GlobalTableFiles(dfs))
                .scan(TestSchemas.SHOP, ITEM, key(1), null, 200_000).size());
    }

    @Test
    void aRefusedChunkChangesNothingAndTheLoadGoesOn() {
        GlobalTables globals = new GlobalTables(100, new GlobalTableFiles(new MemoryDfs()));
        assertEquals(10, globals.loadChunk(TestSchemas.SHOP, "item", "L", 0, items(1, 10), false));

        GlobalTables.LoadRefused skipped = assertThrows(GlobalTables.LoadRefused.class,
                () -> globals.loadChunk(TestSchemas.SHOP, "item", "L", 2, items(11, 20), false));
        assertEquals(GlobalTables.LoadRefused.Why.OUT_OF_SEQUENCE, skipped.why());
        assertTrue(skipped.getMessage().contains("expects chunk 1"), skipped.getMessage());
        assertEquals(GlobalTables.LoadRefused.Why.OUT_OF_SEQUENCE, assertThrows(GlobalTables.LoadRefused.class,
                () -> globals.loadChunk(TestSchemas.SHOP, "item", "never-begun", 1, items(11, 20), false)).why());

        List<List<Object>> badRow = new ArrayList<>(items(11, 19));
        badRow.add(List.of("twenty", 0.2));
        assertEquals(Reason.TYPE_MISMATCH, assertThrows(TransactionException.class,
                () -> globals.loadChunk(TestSchemas.SHOP, "item", "L", 1, badRow, false)).reason());
        TransactionException repeated = assertThrows(TransactionException.class,
                () -> globals.loadChunk(TestSchemas.SHOP, "item", "L", 1, items(10, 20), false));
        assertEquals(Reason.TYPE_MISMATCH, repeated.reason());
        assertTrue(repeated.getMessage().contains("repeats an earlier chunk"), repeated.getMessage());
        assertEquals(Reason.LIMIT_EXCEEDED, assertThrows(TransactionException.class,
                () -> globals.loadChunk(TestSchemas.SHOP, "item", "L", 1, items(11, 101), true)).reason());
        assertEquals(Reason.UNKNOWN_TABLE, assertThrows(TransactionException.class,
                () -> globals.loadChunk(TestSchemas.SHOP, "warehouse", "L", 1, items(11, 20), false)).reason());

        // Every refusal left chunk 0 staged and chunk 1 expected.
        assertEquals(20, globals.loadChunk(TestSchemas.SHOP, "item", "L", 1, items(11, 20), false));
        assertEquals(30, globals.loadChunk(TestSchemas.SHOP, "item", "L", 2, items(21, 30), true));
        assertEquals(30, globals.scan(TestSchemas.SHOP, ITEM, key(1), null, 100).size());
    }

    @Test
    void onlyTheNewestLoadsStayStaged() {
        GlobalTables globals = new GlobalTables(1_000, null);
        for (int l = 0; l <= GlobalTables.STAGED_LOADS_MAX; l++) {
            globals.loadChunk(TestSchemas.SHOP, "item", "L" + l, 0, items(1, 5), false);
        }
        assertEquals(GlobalTables.LoadRefused.Why.OUT_OF_SEQUENCE, assertThrows(GlobalTables.LoadRefused.class,
                () -> globals.loadChunk(TestSchemas.SHOP, "item", "L0", 1, items(6, 10), true)).why(), "the oldest was dropped");
        assertEquals(10, globals.loadChunk(TestSchemas.SHOP, "item", "L1", 1, items(6, 10), true));
    }

    @Test
    void aCorruptPublishedFileIsAnErrorNamingIt() throws Exception {
        MemoryDfs dfs = new MemoryDfs();
        new GlobalTables(1_000, new GlobalTableFiles(dfs)).load(TestSchemas.SHOP, "item", items(1, 50));
        String path = Dfs.join(GlobalTableFiles.directory("shop", "item"), GlobalTableFiles.PUBLISHED);
        dfs.corrupt(path, 40, (byte) 0x5a);
        TransactionException e = assertThrows(TransactionException.class,
                () -> new GlobalTables(1_000, new GlobalTableFiles(dfs)).get(TestSchemas.SHOP, ITEM, key(1)));
        assertEquals(Reason.STORAGE_FAILED, e.reason());
        assertTrue(e.getMessage().contains(path), e.getMessage());
    }

    @Test
    void aFailedDfsWritePublishesNothingAndTheLastChunkCanBeSentAgain() {
        MemoryDfs dfs = new MemoryDfs();
        GlobalTables globals = new GlobalTables(1_000, new GlobalTableFiles(dfs));
        globals.loadChunk(TestSchemas.SHOP, "item", "L", 0, items(1, 10), false);
        dfs.failWrites(true);
        assertEquals(Reason.STORAGE_FAILED, assertThrows(TransactionException.class,
                () -> globals.loadChunk(TestSchemas.SHOP, "item", "L", 1, items(11, 20), true)).reason());
        assertFalse(globals.isLoaded("shop", "item"));
        dfs.failWrites(false);
        assertEquals(20, globals.loadChunk(TestSchemas.SHOP, "item", "L", 1, items(11, 20), true));
        assertEquals(20, new GlobalTables(1_000, new GlobalTableFiles(dfs)).scan(TestSchemas.SHOP, ITEM, key(1), null, 100).size());
    }
}
