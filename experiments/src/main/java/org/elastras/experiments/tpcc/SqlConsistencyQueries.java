package org.elastras.experiments.tpcc;

import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

/**
 * The consistency conditions of clause 3.3.2 as SQL that Derby and PostgreSQL both run: each query
 * returns the rows that break its condition. Independent of {@link DistrictAudit} on purpose, so that the two checkers
 * cross-check each other through the same tests. Used on one connection by one thread.
 */
final class SqlConsistencyQueries {

    private static final String DELIVERED_PER_CUSTOMER = "(SELECT O.W_ID, O.O_D_ID, O.O_C_ID, SUM(L.OL_AMOUNT) AS S"
            + " FROM ORDERS O JOIN ORDER_LINE L ON L.W_ID = O.W_ID AND L.OL_D_ID = O.O_D_ID AND L.OL_O_ID = O.O_ID"
            + " WHERE L.OL_DELIVERY_D IS NOT NULL GROUP BY O.W_ID, O.O_D_ID, O.O_C_ID) OL";
    /** Per customer: sum of delivered OL_AMOUNT minus sum of H_AMOUNT (condition 10's right side). */
    private static final String NET_PER_CUSTOMER = "(SELECT K.W_ID, K.D_ID, K.C_ID, SUM(K.A) AS S FROM"
            + " (SELECT O.W_ID AS W_ID, O.O_D_ID AS D_ID, O.O_C_ID AS C_ID, L.OL_AMOUNT AS A FROM ORDERS O JOIN ORDER_LINE L"
            + " ON L.W_ID = O.W_ID AND L.OL_D_ID = O.O_D_ID AND L.OL_O_ID = O.O_ID WHERE L.OL_DELIVERY_D IS NOT NULL"
            + " UNION ALL SELECT H_C_W_ID, H_C_D_ID, H_C_ID, -H_AMOUNT FROM HISTORY) AS K (W_ID, D_ID, C_ID, A) GROUP BY K.W_ID, K.D_ID, K.C_ID) N";

    private final Connection c;
    private final List<ConsistencyViolation> violations = new ArrayList<>();

    SqlConsistencyQueries(Connection c) {
        this.c = c;
    }

    List<ConsistencyViolation> check(boolean afterLoad, int loadedDeliveredOrders) throws SQLException {
        rows(1, "SELECT W.W_ID, W.W_YTD, SUM(D.D_YTD) FROM WAREHOUSE W JOIN DISTRICT D ON D.W_ID = W.W_ID"
                + " GROUP BY W.W_ID, W.W_YTD HAVING W.W_YTD <> SUM(D.D_YTD)", "warehouse %s: W_YTD %s but sum(D_YTD) %s");
        try (Statement s = c.createStatement(); ResultSet r = s.executeQuery("SELECT D.W_ID, D.D_ID, D.D_NEXT_O_ID,"
                + " (SELECT MAX(O_ID) FROM ORDERS O WHERE O.W_ID = D.W_ID AND O.O_D_ID = D.D_ID),"
                + " (SELECT MAX(NO_O_ID) FROM NEW_ORDER N WHERE N.W_ID = D.W_ID AND N.NO_D_ID = D.D_ID),"
                + " (SELECT COUNT(*) FROM ORDERS O WHERE O.W_ID = D.W_ID AND O.O_D_ID = D.D_ID),"
                + " (SELECT COUNT(*) FROM NEW_ORDER N WHERE N.W_ID = D.W_ID AND N.NO_D_ID = D.D_ID)"
                + " FROM DISTRICT D ORDER BY D.W_ID, D.D_ID")) {
            while (r.next()) {
                String where = "district (" + r.getInt(1) + ", " + r.getInt(2) + ")";
                int next = r.getInt(3);
                int maxOrder = r.getInt(4);
                int maxNew = r.getInt(5);
                boolean noNew = r.wasNull();
                // 3.3.2.2: D_NEXT_O_ID - 1 = max(O_ID) = max(NO_O_ID).
                if (next - 1 != maxOrder || (!noNew && maxNew != maxOrder)) {
                    add(2, where + ": D_NEXT_O_ID - 1 = " + (next - 1) + ", max(O_ID) = " + maxOrder + ", max(NO_O_ID) = "
                            + (noNew ? "none" : maxNew));
                }
                // 3.3.2.11, right after loading only: rows in ORDERS - rows in NEW_ORDER = 2,100.
                long delivered = r.getLong(6) - r.getLong(7);
                if (afterLoad && delivered != loadedDeliveredOrders) {
                    add(11, where + ": " + r.getLong(6) + " ORDERS - " + r.getLong(7) + " NEW_ORDER = " + delivered
                            + ", expected " + loadedDeliveredOrders);
                }
            }
        }
        rows(3, "SELECT W_ID, NO_D_ID, MAX(NO_O_ID) - MIN(NO_O_ID) + 1, COUNT(*) FROM NEW_ORDER GROUP BY W_ID, NO_D_ID"
                + " HAVING MAX(NO_O_ID) - MIN(NO_O_ID) + 1 <> COUNT(*)",
                "district (%s, %s): max(NO_O_ID) - min(NO_O_ID) + 1 = %s but %s NEW_ORDER rows");
        rows(4, "SELECT O.W_ID, O.O_D_ID, O.S, COALESCE(L.N, 0) FROM (SELECT W_ID, O_D_ID, SUM(O_OL_CNT) AS S FROM ORDERS"
                + " GROUP BY W_ID, O_D_ID) O LEFT JOIN (SELECT W_ID, OL_D_ID, COUNT(*) AS N FROM ORDER_LINE GROUP BY W_ID, OL_D_ID) L"
                + " ON L.W_ID = O.W_ID AND L.OL_D_ID = O.O_D_ID WHERE O.S <> COALESCE(L.N, 0)",
                "district (%s, %s): sum(O_OL_CNT) = %s but %s ORDER_LINE rows");
        rows(5, "SELECT O.W_ID, O.O_D_ID, O.O_ID, O.O_CARRIER_ID, N.NO_O_ID FROM ORDERS O LEFT JOIN NEW_ORDER N"
                + " ON N.W_ID = O.W_ID AND N.NO_D_ID = O.O_D_ID AND N.NO_O_ID = O.O_ID"
                + " WHERE (O.O_CARRIER_ID IS NULL AND N.NO_O_ID IS NULL) OR (O.O_CARRIER_ID IS NOT NULL AND N.NO_O_ID IS NOT NULL)",
                "district (%s, %s) order %s: O_CARRIER_ID %s, NEW_ORDER row %s");
        rows(6, "SELECT O.W_ID, O.O_D_ID, O.O_ID, O.O_OL_CNT, COUNT(L.OL_NUMBER) FROM ORDERS O LEFT JOIN ORDER_LINE L"
                + " ON L.W_ID = O.W_ID AND L.OL_D_ID = O.O_D_ID AND L.OL_O_ID = O.O_ID"
                + " GROUP BY O.W_ID, O.O_D_ID, O.O_ID, O.O_OL_CNT HAVING O.O_OL_CNT <> COUNT(L.OL_NUMBER)",
                "district (%s, %s) order %s: O_OL_CNT %s but %s ORDER_LINE rows");
        rows(7, "SELECT O.W_ID, O.O_D_ID, O.O_ID, O.O_CARRIER_ID, L.OL_NUMBER, L.OL_DELIVERY_D FROM ORDERS O JOIN ORDER_LINE L"
                + " ON L.W_ID = O.W_ID AND L.OL_D_ID = O.O_D_ID AND L.OL_O_ID = O.O_ID"
                + " WHERE (O.O_CARRIER_ID IS NULL AND L.OL_DELIVERY_D IS NOT NULL)"
                + " OR (O.O_CARRIER_ID IS NOT NULL AND L.OL_DELIVERY_D IS NULL)",
                "district (%s, %s) order %s: O_CARRIER_ID %s but line %s has OL_DELIVERY_D %s");
        rows(8, "SELECT W.W_ID, W.W_YTD, COALESCE(H.S, 0) FROM WAREHOUSE W LEFT JOIN (SELECT W_ID, SUM(H_AMOUNT) AS S FROM HISTORY"
                + " GROUP BY W_ID) H ON H.W_ID = W.W_ID WHERE W.W_YTD <> COALESCE(H.S, 0)",
                "warehouse %s: W_YTD %s but sum(H_AMOUNT) %s");
        rows(9, "SELECT D.W_ID, D.D_ID, D.D_YTD, COALESCE(H.S, 0) FROM DISTRICT D LEFT JOIN (SELECT W_ID, H_D_ID, SUM(H_AMOUNT) AS S"
                + " FROM HISTORY GROUP BY W_ID, H_D_ID) H ON H.W_ID = D.W_ID AND H.H_D_ID = D.D_ID WHERE D.D_YTD <> COALESCE(H.S, 0)",
                "district (%s, %s): D_YTD %s but sum(H_AMOUNT) %s");
        // One derived table of delivered amounts and (negated) payments per customer: Derby
        // plans two separate derived tables here as nested loops, 30x slower.
        rows(10, "SELECT C.W_ID, C.C_D_ID, C.C_ID, C.C_BALANCE, COALESCE(N.S, 0) FROM CUSTOMER C LEFT JOIN " + NET_PER_CUSTOMER
                + " ON N.W_ID = C.W_ID AND N.D_ID = C.C_D_ID AND N.C_ID = C.C_ID WHERE C.C_BALANCE <> COALESCE(N.S, 0)",
                "district (%s, %s) customer %s: C_BALANCE %s but delivered - paid = %s");
        rows(12, "SELECT C.W_ID, C.C_D_ID, C.C_ID, C.C_BALANCE + C.C_YTD_PAYMENT, COALESCE(OL.S, 0) FROM CUSTOMER C"
                + " LEFT JOIN " + DELIVERED_PER_CUSTOMER + " ON OL.W_ID = C.W_ID AND OL.O_D_ID = C.C_D_ID AND OL.O_C_ID = C.C_ID"
                + " WHERE C.C_BALANCE + C.C_YTD_PAYMENT <> COALESCE(OL.S, 0)",
                "district (%s, %s) customer %s: C_BALANCE + C_YTD_PAYMENT = %s but delivered %s");
        violations.sort(java.util.Comparator.comparingInt(ConsistencyViolation::condition));
        return violations;
    }

    /** Every row of {@code sql} is a violation of {@code condition}, described by {@code format} over its columns. */
    private void rows(int condition, String sql, String format) throws SQLException {
        int found = 0;
        try (Statement s = c.createStatement(); ResultSet r = s.executeQuery(sql)) {
            int columns = r.getMetaData().getColumnCount();
            while (r.next()) {
                if (++found > ConsistencyViolation.DETAILS_PER_CONDITION_MAX) {
                    continue;
                }
                Object[] values = new Object[columns];
                for (int i = 0; i < columns; i++) {
                    Object v = r.getObject(i + 1);
                    values[i] = v instanceof BigDecimal b ? b.toPlainString() : v;
                }
                add(condition, String.format(format, values));
            }
        }
        if (found > ConsistencyViolation.DETAILS_PER_CONDITION_MAX) {
            add(condition, (found - ConsistencyViolation.DETAILS_PER_CONDITION_MAX) + " more violations not listed");
        }
    }

    private void add(int condition, String detail) {
        violations.add(new ConsistencyViolation(condition, detail));
    }
}
