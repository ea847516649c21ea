package org.elastras.catalog.schema;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;

import org.junit.jupiter.api.Test;

class TpccSchemaTest {

    private final DatabaseSchema tpcc = TpccSchema.database("tpcc");

    @Test
    void warehouseIsTheRootAndItsKeyIsThePartitionKey() {
        assertEquals(PartitioningKind.TREE, tpcc.partitioning());
        assertEquals("WAREHOUSE", tpcc.rootTable().orElseThrow().name());
        assertEquals(List.of(Column.notNull("W_ID", ColumnType.INT)), tpcc.partitionKeyColumns());
    }

    @Test
    void everyOtherTableIsAChildKeyedByWarehouseIdExceptItemWhichIsGlobal() {
        assertEquals(9, tpcc.tables().size());
        for (String child : List.of("DISTRICT", "CUSTOMER", "HISTORY", "NEW_ORDER", "ORDERS", "ORDER_LINE", "STOCK")) {
            TableSchema t = tpcc.table(child.toLowerCase());
            assertEquals(TableKind.CHILD, t.kind(), child);
            assertEquals("W_ID", t.primaryKey().get(0), child);
        }
        assertEquals(TableKind.GLOBAL, tpcc.table("ITEM").kind());
        assertEquals(List.of("W_ID", "D_ID", "O_ID", "OL_NUMBER"), tpcc.table("ORDER_LINE").primaryKey());
        assertEquals(List.of("W_ID", "H_SEQ"), tpcc.table("HISTORY").primaryKey());
    }
}
