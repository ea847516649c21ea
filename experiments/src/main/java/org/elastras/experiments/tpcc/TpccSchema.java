package org.elastras.experiments.tpcc;

import java.util.List;
import org.elastras.catalog.schema.ColumnType;
import org.elastras.catalog.schema.DatabaseSchema;
import org.elastras.catalog.schema.TableSchema;

/**
 * The TPC-C tables (clause 1.3) as an ElasTraS tree schema rooted at WAREHOUSE, and the same
 * tables as Derby DDL. Immutable constants and pure functions.
 *
 * <p>Deviations from clause 1.3, all forced by the tree schema or by the absence of secondary
 * indexes in ElasTraS:
 * <ul>
 *   <li>Every table's warehouse column is named {@code W_ID}, the root key's name, as the catalog
 *       requires of CHILD tables: D_W_ID, C_W_ID, H_W_ID, NO_W_ID, O_W_ID, OL_W_ID and S_W_ID are
 *       all called W_ID. H_C_W_ID and OL_SUPPLY_W_ID keep their names (they are not the partition
 *       key). Derby uses the same names so that one set of column constants serves both.</li>
 *   <li>ORDER is called ORDERS (ORDER is an SQL keyword).</li>
 *   <li>HISTORY has no primary key in the spec (clause 1.3, "Primary Key: none"). Here its key is
 *       (W_ID, H_D_ID, H_ID) with H_ID a synthetic BIGINT: the customer id for loaded rows, and a
 *       per-terminal unique number ({@link TpccInputGenerator}) for rows Payment inserts. Its W_ID is
 *       the spec's H_W_ID, the warehouse that took the payment, so a HISTORY row lives in the
 *       partition of the paying warehouse and district, with W_YTD and D_YTD (conditions 8 and 9 read
 *       one partition); a remote Payment's customer (H_C_W_ID) is in another partition, and
 *       condition 10 sums the HISTORY of every warehouse ({@link DistrictAudit}).</li>
 *   <li>CUSTOMER_BY_LAST (W_ID, C_D_ID, C_LAST, C_FIRST, C_ID) is an index table for the 60% of
 *       Payment and Order-Status that select a customer by last name (clause 2.5.2.2): its key
 *       order is exactly the order the spec asks for (by C_FIRST within a last name). The loader
 *       writes it; nothing changes it later because no transaction changes a name or adds a
 *       customer.</li>
 *   <li>ORDERS_BY_CUSTOMER (W_ID, O_D_ID, O_C_ID, O_ID) is an index table for Order-Status's
 *       "most recent order of the customer" (clause 2.6.2.2); the loader and New-Order write it.</li>
 *   <li>Column types follow the catalog: numeric(n) columns that are counters or ids are INT,
 *       money and rates are DECIMAL(p,s) with the spec's precision and scale, dates are TIMESTAMP
 *       (microseconds since the epoch), fixed text (CHAR) is VARCHAR of that length.</li>
 * </ul>
 * In Derby the index tables are real indexes instead (an index on CUSTOMER(W_ID, C_D_ID, C_LAST,
 * C_FIRST) and on ORDERS(W_ID, O_D_ID, O_C_ID, O_ID)): the loader generates their rows for every
 * target and Derby's writer drops them.
 */
public final class TpccSchema {

    public static final String DATABASE = "TPCC";

    public static final String WAREHOUSE = "WAREHOUSE";
    public static final String DISTRICT = "DISTRICT";
    public static final String CUSTOMER = "CUSTOMER";
    public static final String CUSTOMER_BY_LAST = "CUSTOMER_BY_LAST";
    public static final String HISTORY = "HISTORY";
    public static final String NEW_ORDER = "NEW_ORDER";
    public static final String ORDERS = "ORDERS";
    public static final String ORDERS_BY_CUSTOMER = "ORDERS_BY_CUSTOMER";
    public static final String ORDER_LINE = "ORDER_LINE";
    public static final String STOCK = "STOCK";
    public static final String ITEM = "ITEM";

    /** Every table, in schema order (the order of the tree schema's table ids). */
    public static final List<String> TABLES = List.of(WAREHOUSE, DISTRICT, CUSTOMER, CUSTOMER_BY_LAST, HISTORY,
            NEW_ORDER, ORDERS, ORDERS_BY_CUSTOMER, ORDER_LINE, STOCK, ITEM);
    /** Index tables that exist only for ElasTraS; Derby has real indexes instead. */
    public static final List<String> INDEX_TABLES = List.of(CUSTOMER_BY_LAST, ORDERS_BY_CUSTOMER);

    // Column positions in rows (lists in column order), per table.
    public static final int W_ID = 0;
    public static final int W_NAME = 1;
    public static final int W_STREET_1 = 2;
    public static final int W_STREET_2 = 3;
    public static final int W_CITY = 4;
    public static final int W_STATE = 5;
    public static final int W_ZIP = 6;
    public static final int W_TAX = 7;
    public static final int W_YTD = 8;

    public static final int D_W_ID = 0;
    public static final int D_ID = 1;
    public static final int D_NAME = 2;
    public static final int D_STREET_1 = 3;
    public static final int D_STREET_2 = 4;
    public static final int D_CITY = 5;
    public static final int D_STATE = 6;
    public static final int D_ZIP = 7;
    public static final int D_TAX = 8;
    public static final int D_YTD = 9;
    public static final int D_NEXT_O_ID = 10;

    public static final int C_W_ID = 0;
    public static final int C_D_ID = 1;
    public static final int C_ID = 2;
    public static final int C_FIRST = 3;
    public static final int C_MIDDLE = 4;
    public static final int C_LAST = 5;
    public static final int C_STREET_1 = 6;
    public static final int C_STREET_2 = 7;
    public static final int C_CITY = 8;
    public static final int C_STATE = 9;
    public static final int C_ZIP = 10;
    public static final int C_PHONE = 11;
    public static final int C_SINCE = 12;
    public static final int C_CREDIT = 13;
    public static final int C_CREDIT_LIM = 14;
    public static final int C_DISCOUNT = 15;
    public static final int C_BALANCE = 16;
    public static final int C_YTD_PAYMENT = 17;
    public static final int C_PAYMENT_CNT = 18;
    public static final int C_DELIVERY_CNT = 19;
    public static final int C_DATA = 20;

    /** CUSTOMER_BY_LAST: W_ID, C_D_ID, C_LAST, C_FIRST, C_ID. */
    public static final int CL_C_ID = 4;

    public static final int H_W_ID = 0;
    public static final int H_D_ID = 1;
    public static final int H_ID = 2;
    public static final int H_C_ID = 3;
    public static final int H_C_D_ID = 4;
    public static final int H_C_W_ID = 5;
    public static final int H_DATE = 6;
    public static final int H_AMOUNT = 7;
    public static final int H_DATA = 8;

    public static final int NO_W_ID = 0;
    public static final int NO_D_ID = 1;
    public static final int NO_O_ID = 2;

    public static final int O_W_ID = 0;
    public static final int O_D_ID = 1;
    public static final int O_ID = 2;
    public static final int O_C_ID = 3;
    public static final int O_ENTRY_D = 4;
    public static final int O_CARRIER_ID = 5;
    public static final int O_OL_CNT = 6;
    public static final int O_ALL_LOCAL = 7;

    /** ORDERS_BY_CUSTOMER: W_ID, O_D_ID, O_C_ID, O_ID. */
    public static final int OC_O_ID = 3;

    public static final int OL_W_ID = 0;
    public static final int OL_D_ID = 1;
    public static final int OL_O_ID = 2;
    public static final int OL_NUMBER = 3;
    public static final int OL_I_ID = 4;
    public static final int OL_SUPPLY_W_ID = 5;
    public static final int OL_DELIVERY_D = 6;
    public static final int OL_QUANTITY = 7;
    public static final int OL_AMOUNT = 8;
    public static final int OL_DIST_INFO = 9;

    public static final int S_W_ID = 0;
    public static final int S_I_ID = 1;
    public static final int S_QUANTITY = 2;
    /** S_DIST_01 .. S_DIST_10 are columns S_DIST_01 + 0 .. S_DIST_01 + 9. */
    public static final int S_DIST_01 = 3;
    public static final int S_YTD = 13;
    public static final int S_ORDER_CNT = 14;
    public static final int S_REMOTE_CNT = 15;
    public static final int S_DATA = 16;

    public static final int I_ID = 0;
    public static final int I_IM_ID = 1;
    public static final int I_NAME = 2;
    public static final int I_PRICE = 3;
    public static final int I_DATA = 4;

    /** DECIMAL(12,2): W_YTD, D_YTD, C_CREDIT_LIM, C_BALANCE, C_YTD_PAYMENT. */
    static final ColumnType MONEY = ColumnType.decimal(12, 2);
    /** DECIMAL(6,2): H_AMOUNT, OL_AMOUNT. */
    static final ColumnType AMOUNT = ColumnType.decimal(6, 2);
    /** DECIMAL(4,4): W_TAX, D_TAX, C_DISCOUNT. */
    static final ColumnType RATE = ColumnType.decimal(4, 4);

    private static final DatabaseSchema SCHEMA = build();

    private TpccSchema() {
    }

    /** The tree schema; its table order is {@link #TABLES}. */
    public static DatabaseSchema schema() {
        return SCHEMA;
    }

    /** A table of the schema. */
    public static TableSchema table(String name) {
        return SCHEMA.table(name);
    }

    private static DatabaseSchema build() {
        ColumnType i = ColumnType.INT;
        ColumnType ts = ColumnType.TIMESTAMP;
        DatabaseSchema s = DatabaseSchema.tree(DATABASE)
                .root(WAREHOUSE, t -> address(t.column("W_ID", i).column("W_NAME", ColumnType.varchar(10)), "W")
                        .column("W_TAX", RATE).column("W_YTD", MONEY).key("W_ID"))
                .child(DISTRICT, t -> address(t.column("W_ID", i).column("D_ID", i).column("D_NAME", ColumnType.varchar(10)), "D")
                        .column("D_TAX", RATE).column("D_YTD", MONEY).column("D_NEXT_O_ID", i).key("W_ID", "D_ID"))
                .child(CUSTOMER, t -> address(t.column("W_ID", i).column("C_D_ID", i).column("C_ID", i)
                                .column("C_FIRST", ColumnType.varchar(16)).column("C_MIDDLE", ColumnType.varchar(2))
                                .column("C_LAST", ColumnType.varchar(16)), "C")
                        .column("C_PHONE", ColumnType.varchar(16)).column("C_SINCE", ts).column("C_CREDIT", ColumnType.varchar(2))
                        .column("C_CREDIT_LIM", MONEY).column("C_DISCOUNT", RATE).column("C_BALANCE", MONEY)
                        .column("C_YTD_PAYMENT", MONEY).column("C_PAYMENT_CNT", i).column("C_DELIVERY_CNT", i)
                        .column("C_DATA", ColumnType.varchar(500)).key("W_ID", "C_D_ID", "C_ID"))
                .child(CUSTOMER_BY_LAST, t -> t.column("W_ID", i).column("C_D_ID", i).column("C_LAST", ColumnType.varchar(16))
                        .column("C_FIRST", ColumnType.varchar(16)).column("C_ID", i).key("W_ID", "C_D_ID", "C_LAST", "C_FIRST", "C_ID"))
                .child(HISTORY, t -> t.column("W_ID", i).column("H_D_ID", i).column("H_ID", ColumnType.BIGINT)
                        .column("H_C_ID", i).column("H_C_D_ID", i).column("H_C_W_ID", i).column("H_DATE", ts)
                        .column("H_AMOUNT", AMOUNT).column("H_DATA", ColumnType.varchar(24)).key("W_ID", "H_D_ID", "H_ID"))
                .child(NEW_ORDER, t -> t.column("W_ID", i).column("NO_D_ID", i).column("NO_O_ID", i).key("W_ID", "NO_D_ID", "NO_O_ID"))
                .child(ORDERS, t -> t.column("W_ID", i).column("O_D_ID", i).column("O_ID", i).column("O_C_ID", i)
                        .column("O_ENTRY_D", ts).nullable("O_CARRIER_ID", i).column("O_OL_CNT", i).column("O_ALL_LOCAL", i)
                        .key("W_ID", "O_D_ID", "O_ID"))
                .child(ORDERS_BY_CUSTOMER, t -> t.column("W_ID", i).column("O_D_ID", i).column("O_C_ID", i).column("O_ID", i)
                        .key("W_ID", "O_D_ID", "O_C_ID", "O_ID"))
                .child(ORDER_LINE, t -> t.column("W_ID", i).column("OL_D_ID", i).column("OL_O_ID", i).column("OL_NUMBER", i)
                        .column("OL_I_ID", i).column("OL_SUPPLY_W_ID", i).nullable("OL_DELIVERY_D", ts).column("OL_QUANTITY", i)
                        .column("OL_AMOUNT", AMOUNT).column("OL_DIST_INFO", ColumnType.varchar(24))
                        .key("W_ID", "OL_D_ID", "OL_O_ID", "OL_NUMBER"))
                .child(STOCK, t -> {
                    t.column("W_ID", i).column("S_I_ID", i).column("S_QUANTITY", i);
                    for (int d = 1; d <= 10; d++) {
                        t.column(distColumn(d), ColumnType.varchar(24));
                    }
                    t.column("S_YTD", i).column("S_ORDER_CNT", i).column("S_REMOTE_CNT", i)
                            .column("S_DATA", ColumnType.varchar(50)).key("W_ID", "S_I_ID");
                })
                .global(ITEM, t -> t.column("I_ID", i).column("I_IM_ID", i).column("I_NAME", ColumnType.varchar(24))
                        .column("I_PRICE", ColumnType.decimal(5, 2)).column("I_DATA", ColumnType.varchar(50)).key("I_ID"))
                .build();
        for (int t = 0; t < TABLES.size(); t++) {
            if (!s.tables().get(t).name().equals(TABLES.get(t))) {
                throw new IllegalStateException("TABLES is out of order with the schema at " + t);
            }
        }
        return s;
    }

    private static TableSchema.Builder address(TableSchema.Builder t, String prefix) {
        return t.column(prefix + "_STREET_1", ColumnType.varchar(20)).column(prefix + "_STREET_2", ColumnType.varchar(20))
                .column(prefix + "_CITY", ColumnType.varchar(20)).column(prefix + "_STATE", ColumnType.varchar(2))
                .column(prefix + "_ZIP", ColumnType.varchar(9));
    }

    /** S_DIST_01 .. S_DIST_10. */
    static String distColumn(int district) {
        return String.format("S_DIST_%02d", district);
    }

    /**
     * The SQL DDL of the baselines (Derby and PostgreSQL read it alike): every table of {@link #TABLES} but the index
     * tables, with the same columns, types and primary keys (HISTORY's synthetic key included), plus the two indexes
     * that replace the index tables.
     */
    public static List<String> sqlDdl() {
        List<String> ddl = new java.util.ArrayList<>();
        for (TableSchema t : SCHEMA.tables()) {
            if (INDEX_TABLES.contains(t.name())) {
                continue;
            }
            StringBuilder b = new StringBuilder("CREATE TABLE ").append(t.name()).append(" (");
            for (var c : t.columns()) {
                b.append(c.name()).append(' ').append(sqlType(c.type())).append(c.nullable() ? "" : " NOT NULL").append(", ");
            }
            b.append("PRIMARY KEY (").append(String.join(", ", t.primaryKey())).append("))");
            ddl.add(b.toString());
        }
        ddl.add("CREATE INDEX CUSTOMER_LAST ON CUSTOMER (W_ID, C_D_ID, C_LAST, C_FIRST)");
        ddl.add("CREATE INDEX ORDERS_CUSTOMER ON ORDERS (W_ID, O_D_ID, O_C_ID, O_ID)");
        return ddl;
    }

    private static String sqlType(ColumnType type) {
        return switch (type.kind()) {
            case INT -> "INTEGER";
            case BIGINT -> "BIGINT";
            case TIMESTAMP -> "TIMESTAMP";
            case DECIMAL -> "DECIMAL(" + type.precision() + "," + type.scale() + ")";
            case VARCHAR -> "VARCHAR(" + type.length() + ")";
            default -> throw new IllegalStateException("TPC-C uses no " + type);
        };
    }
}
