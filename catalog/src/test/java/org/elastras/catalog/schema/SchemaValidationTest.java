package org.elastras.catalog.schema;

import static org.elastras.catalog.schema.ColumnType.BIGINT;
import static org.elastras.catalog.schema.ColumnType.INT;
import static org.elastras.catalog.schema.ColumnType.varchar;
import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

/** Every schema rule refuses what it should, with a message that says what and where. */
class SchemaValidationTest {

    private static void assertRefused(Executable build, String... fragments) {
        SchemaException e = assertThrows(SchemaException.class, build);
        for (String f : fragments) {
            assertTrue(e.getMessage().contains(f), "message '" + e.getMessage() + "' should contain '" + f + "'");
        }
    }

    private static TableSchema.Builder plain(String name) {
        return TableSchema.builder(name, TableKind.PLAIN);
    }

    @Test
    void namesFollowIdentifierRules() {
        assertRefused(() -> plain("1abc").column("ID", INT).key("ID").build(), "table name '1abc'", "'1' at position 0");
        assertRefused(() -> plain("a-b").column("ID", INT).key("ID").build(), "'-' at position 1");
        assertRefused(() -> plain("").column("ID", INT).key("ID").build(), "table name is missing");
        assertRefused(() -> plain("T").column("x y", INT).key("ID").build(), "column name 'x y'");
        String longName = "N".repeat(SchemaLimits.NAME_LENGTH_MAX + 1);
        assertRefused(() -> plain(longName).column("ID", INT).key("ID").build(), "65 characters long", "limit is 64");
        assertDoesNotThrow(() -> plain("_t9" + "x".repeat(SchemaLimits.NAME_LENGTH_MAX - 3)).column("ID", INT).key("ID").build());
        assertRefused(() -> DatabaseSchema.singlePartition("db.1"), "database name 'db.1'");
    }

    @Test
    void columnNamesAreUniqueIgnoringCase() {
        assertRefused(() -> plain("T").column("Id", INT).column("ID", BIGINT).key("Id").build(),
                "table T declares column ID twice", "ignoring case");
    }

    @Test
    void tableNamesAreUniqueIgnoringCase() {
        assertRefused(() -> DatabaseSchema.singlePartition("D")
                .plain("Orders", t -> t.column("ID", INT).key("ID"))
                .plain("ORDERS", t -> t.column("ID", INT).key("ID"))
                .build(), "database D declares table ORDERS twice");
    }

    @Test
    void keyRules() {
        assertRefused(() -> plain("T").column("ID", INT).build(), "table T has an empty primary key");
        assertRefused(() -> plain("T").column("ID", INT).key("NOPE").build(),
                "table T primary key names unknown column NOPE", "[ID]");
        assertRefused(() -> plain("T").nullable("ID", INT).key("ID").build(),
                "table T primary key column ID is nullable", "declare it NOT NULL");
        assertRefused(() -> plain("T").column("ID", INT).key("ID", "id").build(), "names column ID twice");
        assertRefused(() -> plain("T").column("S", varchar(2000)).key("S").build(),
                "can encode to 8002 bytes", "limit of " + SchemaLimits.KEY_BYTES_MAX);
        TableSchema ok = plain("T").column("Id", INT).column("V", INT).key("ID").build();
        assertEquals(List.of("Id"), ok.primaryKey(), "key names take the column's declared spelling");
    }

    @Test
    void columnAndKeyCountLimits() {
        TableSchema.Builder wide = plain("T");
        for (int i = 0; i <= SchemaLimits.COLUMNS_PER_TABLE_MAX; i++) {
            wide.column("C" + i, INT);
        }
        assertRefused(() -> wide.key("C0").build(), "has 257 columns", "limit is 256");
        TableSchema.Builder longKey = plain("T");
        String[] key = new String[SchemaLimits.KEY_COLUMNS_MAX + 1];
        for (int i = 0; i < key.length; i++) {
            key[i] = "K" + i;
            longKey.column(key[i], INT);
        }
        assertRefused(() -> longKey.key(key).build(), "17 primary key columns", "limit is 16");
        assertRefused(() -> plain("T").key("ID").build(), "table T has no columns");
    }

    @Test
    void tableCountLimit() {
        List<TableSchema> tables = new ArrayList<>();
        for (int i = 0; i <= SchemaLimits.TABLES_PER_DATABASE_MAX; i++) {
            tables.add(plain("T" + i).column("ID", INT).key("ID").build());
        }
        assertRefused(() -> new DatabaseSchema("D", PartitioningKind.SINGLE_PARTITION, tables), "257 tables", "limit is 256");
        assertRefused(() -> DatabaseSchema.singlePartition("D").build(), "database D has no tables");
    }

    @Test
    void typeParameters() {
        assertRefused(() -> varchar(0), "VARCHAR(0)", "[1, 65535]");
        assertRefused(() -> ColumnType.bytes(SchemaLimits.BYTES_LENGTH_MAX + 1), "BYTES(1048577)");
        assertRefused(() -> ColumnType.decimal(19, 2), "DECIMAL precision 19", "1 to 18");
        assertRefused(() -> ColumnType.decimal(4, 5), "DECIMAL(4,5)");
        assertRefused(() -> new ColumnType(TypeKind.INT, 3, 0, 0), "INT takes no parameters");
    }

    @Test
    void treeDatabaseNeedsExactlyOneRoot() {
        assertRefused(() -> DatabaseSchema.tree("D")
                .child("C", t -> t.column("ID", INT).key("ID"))
                .build(), "tree-partitioned database D has 0 ROOT tables", "exactly one");
        assertRefused(() -> DatabaseSchema.tree("D")
                .root("R1", t -> t.column("ID", INT).key("ID"))
                .root("R2", t -> t.column("ID", INT).key("ID"))
                .build(), "has 2 ROOT tables [R1, R2]");
    }

    @Test
    void childKeyMustStartWithTheRootKey() {
        DatabaseSchema.Builder base = DatabaseSchema.tree("D")
                .root("R", t -> t.column("A", INT).column("B", varchar(5)).key("A", "B"));
        assertRefused(() -> base.child("C", t -> t.column("A", INT).column("X", INT).key("A", "X")).build(),
                "CHILD table C of database D", "must start with the key of ROOT table R: [A INT, B VARCHAR(5)]");
        assertRefused(() -> DatabaseSchema.tree("D")
                        .root("R", t -> t.column("A", INT).column("B", varchar(5)).key("A", "B"))
                        .child("C", t -> t.column("B", varchar(5)).column("A", INT).key("B", "A")).build(),
                "has primary key [B VARCHAR(5), A INT]", "(same names and types, in order)");
        assertRefused(() -> DatabaseSchema.tree("D")
                        .root("R", t -> t.column("A", INT).key("A"))
                        .child("C", t -> t.column("A", BIGINT).key("A")).build(),
                "has primary key [A BIGINT]", "[A INT]");
        assertRefused(() -> DatabaseSchema.tree("D")
                        .root("R", t -> t.column("A", INT).key("A"))
                        .child("C", t -> t.column("A", INT).column("Z", INT).key("Z", "A")).build(),
                "CHILD table C");
        DatabaseSchema ok = assertDoesNotThrow(() -> DatabaseSchema.tree("D")
                .root("R", t -> t.column("A", INT).key("A"))
                .child("C", t -> t.column("a", INT).column("N", INT).key("a", "N"))
                .child("SAME", t -> t.column("A", INT).key("A"))
                .build());
        assertEquals(3, ok.tables().size());
    }

    @Test
    void kindsMustFitThePartitioning() {
        assertRefused(() -> DatabaseSchema.tree("D")
                .root("R", t -> t.column("A", INT).key("A"))
                .plain("P", t -> t.column("A", INT).key("A"))
                .build(), "table P of tree-partitioned database D is PLAIN", "declare it CHILD", "or GLOBAL");
        assertRefused(() -> DatabaseSchema.singlePartition("D")
                .root("R", t -> t.column("A", INT).key("A"))
                .build(), "table R of single-partition database D is ROOT", "declare it PLAIN");
        DatabaseSchema tenant = assertDoesNotThrow(() -> DatabaseSchema.singlePartition("tenant_7")
                .plain("ACCOUNTS", t -> t.column("ID", BIGINT).nullable("NAME", varchar(40)).key("ID"))
                .global("COUNTRIES", t -> t.column("CODE", varchar(2)).key("CODE"))
                .build());
        assertTrue(tenant.rootTable().isEmpty());
        assertEquals(List.of(), tenant.partitionKeyColumns());
    }

    @Test
    void lookupsIgnoreCaseAndNameTheChoicesWhenMissing() {
        DatabaseSchema tpcc = TpccSchema.database("tpcc");
        assertEquals("DISTRICT", tpcc.table("district").name());
        assertEquals(2, tpcc.table("Order_Line").columnIndex("o_id"));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> tpcc.table("NOPE"));
        assertTrue(e.getMessage().contains("database tpcc has no table NOPE"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> tpcc.table("ITEM").column("NOPE"));
        assertTrue(e.getMessage().contains("table ITEM has no column NOPE"), e.getMessage());
    }
}
