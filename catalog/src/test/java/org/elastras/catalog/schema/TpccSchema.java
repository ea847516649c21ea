package org.elastras.catalog.schema;

import static org.elastras.catalog.schema.ColumnType.BIGINT;
import static org.elastras.catalog.schema.ColumnType.INT;
import static org.elastras.catalog.schema.ColumnType.TIMESTAMP;
import static org.elastras.catalog.schema.ColumnType.decimal;
import static org.elastras.catalog.schema.ColumnType.varchar;

/**
 * The TPC-C schema as a tree-partitioned database: WAREHOUSE is the root, ITEM is global, and the
 * other seven tables are children keyed by warehouse id. A test fixture; stateless.
 *
 * <p>The catalog ties a child to the root by key column name, so the warehouse id column is called
 * {@code W_ID} in every child table, where the TPC-C specification says {@code D_W_ID}, {@code C_W_ID}
 * and so on. Column sets follow the specification (clause 1.3) with its types mapped to ours.
 */
public final class TpccSchema {

    private TpccSchema() {
    }

    /** The TPC-C database, named {@code name}. */
    public static DatabaseSchema database(String name) {
        return DatabaseSchema.tree(name)
                .root("WAREHOUSE", t -> t
                        .column("W_ID", INT)
                        .nullable("W_NAME", varchar(10))
                        .nullable("W_STREET_1", varchar(20))
                        .nullable("W_STREET_2", varchar(20))
                        .nullable("W_CITY", varchar(20))
                        .nullable("W_STATE", varchar(2))
                        .nullable("W_ZIP", varchar(9))
                        .column("W_TAX", decimal(4, 4))
                        .column("W_YTD", decimal(12, 2))
                        .key("W_ID"))
                .child("DISTRICT", t -> t
                        .column("W_ID", INT)
                        .column("D_ID", INT)
                        .nullable("D_NAME", varchar(10))
                        .nullable("D_STREET_1", varchar(20))
                        .nullable("D_STREET_2", varchar(20))
                        .nullable("D_CITY", varchar(20))
                        .nullable("D_STATE", varchar(2))
                        .nullable("D_ZIP", varchar(9))
                        .column("D_TAX", decimal(4, 4))
                        .column("D_YTD", decimal(12, 2))
                        .column("D_NEXT_O_ID", INT)
                        .key("W_ID", "D_ID"))
                .child("CUSTOMER", t -> t
                        .column("W_ID", INT)
                        .column("D_ID", INT)
                        .column("C_ID", INT)
                        .nullable("C_FIRST", varchar(16))
                        .nullable("C_MIDDLE", varchar(2))
                        .nullable("C_LAST", varchar(16))
                        .nullable("C_STREET_1", varchar(20))
                        .nullable("C_STREET_2", varchar(20))
                        .nullable("C_CITY", varchar(20))
                        .nullable("C_STATE", varchar(2))
                        .nullable("C_ZIP", varchar(9))
                        .nullable("C_PHONE", varchar(16))
                        .nullable("C_SINCE", TIMESTAMP)
                        .nullable("C_CREDIT", varchar(2))
                        .column("C_CREDIT_LIM", decimal(12, 2))
                        .column("C_DISCOUNT", decimal(4, 4))
                        .column("C_BALANCE", decimal(12, 2))
                        .column("C_YTD_PAYMENT", decimal(12, 2))
                        .column("C_PAYMENT_CNT", INT)
                        .column("C_DELIVERY_CNT", INT)
                        .nullable("C_DATA", varchar(500))
                        .key("W_ID", "D_ID", "C_ID"))
                // HISTORY has no primary key in the specification. It gets a synthetic one that starts
                // with the warehouse id (so its rows live with their warehouse): H_SEQ, unique within
                // the warehouse, drawn by the loader and the Payment procedure.
                .child("HISTORY", t -> t
                        .column("W_ID", INT)
                        .column("H_SEQ", BIGINT)
                        .column("H_C_ID", INT)
                        .column("H_C_D_ID", INT)
                        .column("H_C_W_ID", INT)
                        .column("H_D_ID", INT)
                        .nullable("H_DATE", TIMESTAMP)
                        .column("H_AMOUNT", decimal(6, 2))
                        .nullable("H_DATA", varchar(24))
                        .key("W_ID", "H_SEQ"))
                .child("NEW_ORDER", t -> t
                        .column("W_ID", INT)
                        .column("D_ID", INT)
                        .column("O_ID", INT)
                        .key("W_ID", "D_ID", "O_ID"))
                .child("ORDERS", t -> t
                        .column("W_ID", INT)
                        .column("D_ID", INT)
                        .column("O_ID", INT)
                        .column("O_C_ID", INT)
                        .nullable("O_ENTRY_D", TIMESTAMP)
                        .nullable("O_CARRIER_ID", INT)
                        .column("O_OL_CNT", INT)
                        .column("O_ALL_LOCAL", INT)
                        .key("W_ID", "D_ID", "O_ID"))
                .child("ORDER_LINE", t -> t
                        .column("W_ID", INT)
                        .column("D_ID", INT)
                        .column("O_ID", INT)
                        .column("OL_NUMBER", INT)
                        .column("OL_I_ID", INT)
                        .column("OL_SUPPLY_W_ID", INT)
                        .nullable("OL_DELIVERY_D", TIMESTAMP)
                        .column("OL_QUANTITY", INT)
                        .column("OL_AMOUNT", decimal(6, 2))
                        .nullable("OL_DIST_INFO", varchar(24))
                        .key("W_ID", "D_ID", "O_ID", "OL_NUMBER"))
                .child("STOCK", t -> t
                        .column("W_ID", INT)
                        .column("S_I_ID", INT)
                        .column("S_QUANTITY", INT)
                        .nullable("S_DIST_01", varchar(24))
                        .nullable("S_DIST_02", varchar(24))
                        .nullable("S_DIST_03", varchar(24))
                        .nullable("S_DIST_04", varchar(24))
                        .nullable("S_DIST_05", varchar(24))
                        .nullable("S_DIST_06", varchar(24))
                        .nullable("S_DIST_07", varchar(24))
                        .nullable("S_DIST_08", varchar(24))
                        .nullable("S_DIST_09", varchar(24))
                        .nullable("S_DIST_10", varchar(24))
                        .column("S_YTD", INT)
                        .column("S_ORDER_CNT", INT)
                        .column("S_REMOTE_CNT", INT)
                        .nullable("S_DATA", varchar(50))
                        .key("W_ID", "S_I_ID"))
                .global("ITEM", t -> t
                        .column("I_ID", INT)
                        .nullable("I_IM_ID", INT)
                        .nullable("I_NAME", varchar(24))
                        .column("I_PRICE", decimal(5, 2))
                        .nullable("I_DATA", varchar(50))
                        .key("I_ID"))
                .build();
    }
}
