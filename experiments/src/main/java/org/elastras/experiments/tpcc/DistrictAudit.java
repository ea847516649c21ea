package org.elastras.experiments.tpcc;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Checks the district-level consistency conditions of clause 3.3.2 (2-7 and 9-12) from the rows of
 * one district, fed table by table in any order, then {@link #finish}. Used by the ElasTraS audit
 * procedure, which feeds it from snapshot scans; Derby's checker is SQL ({@link DerbyTpccTarget}).
 * Not thread-safe; one per district check.
 *
 * <p>HISTORY rows live in the partition of the warehouse that took the payment (their W_ID is
 * H_W_ID, see {@link TpccSchema}), so conditions 8 and 9 read one partition; a customer's
 * payments, which condition 10 sums by (H_C_W_ID, H_C_D_ID, H_C_ID), are in the HISTORY of this
 * district ({@link #history}) and, for remote payments (clause 2.5.1.2), of every other
 * warehouse ({@link #historyOfAnotherWarehouse}): the audit must be fed both.
 */
final class DistrictAudit {

    private final int warehouseId;
    private final int districtId;
    private final boolean afterLoad;
    private final int loadedDeliveredOrders;
    private final List<ConsistencyViolation> violations = new ArrayList<>();
    private final int[] perCondition = new int[ConsistencyViolation.CONDITIONS + 1];

    private List<Object> district;
    /** O_ID -> ORDERS row. */
    private final TreeMap<Integer, List<Object>> orders = new TreeMap<>();
    private final TreeSet<Integer> newOrders = new TreeSet<>();
    /** O_ID -> ORDER_LINE rows of that order seen. */
    private final Map<Integer, Integer> linesPerOrder = new TreeMap<>();
    /** O_ID -> whether any of its lines has a null / a non-null OL_DELIVERY_D. */
    private final Map<Integer, boolean[]> deliveryDates = new HashMap<>();
    /** O_ID -> sum of OL_AMOUNT of delivered lines. */
    private final Map<Integer, BigDecimal> deliveredAmount = new HashMap<>();
    private long orderLines;
    private final TreeMap<Integer, List<Object>> customers = new TreeMap<>();
    /** C_ID -> sum of H_AMOUNT of the rows paying for that customer, in any warehouse's HISTORY. */
    private final Map<Integer, BigDecimal> historyPerCustomer = new HashMap<>();
    private BigDecimal historySum = BigDecimal.ZERO;

    /**
     * @param afterLoad whether the database is as loaded (condition 11 is checked only then)
     * @param loadedDeliveredOrders the delivered orders a loaded district has (spec: 2,100)
     */
    DistrictAudit(int warehouseId, int districtId, boolean afterLoad, int loadedDeliveredOrders) {
        this.warehouseId = warehouseId;
        this.districtId = districtId;
        this.afterLoad = afterLoad;
        this.loadedDeliveredOrders = loadedDeliveredOrders;
    }

    void district(List<Object> row) {
        district = row;
    }

    void order(List<Object> row) {
        orders.put((Integer) row.get(TpccSchema.O_ID), row);
    }

    void newOrder(List<Object> row) {
        newOrders.add((Integer) row.get(TpccSchema.NO_O_ID));
    }

    void orderLine(List<Object> row) {
        int o = (Integer) row.get(TpccSchema.OL_O_ID);
        orderLines++;
        linesPerOrder.merge(o, 1, Integer::sum);
        boolean[] seen = deliveryDates.computeIfAbsent(o, k -> new boolean[2]);
        if (row.get(TpccSchema.OL_DELIVERY_D) == null) {
            seen[0] = true;
        } else {
            seen[1] = true;
            deliveredAmount.merge(o, (BigDecimal) row.get(TpccSchema.OL_AMOUNT), BigDecimal::add);
        }
    }

    void customer(List<Object> row) {
        customers.put((Integer) row.get(TpccSchema.C_ID), row);
    }

    /** A HISTORY row of this district (W_ID, H_D_ID): a payment this district took. */
    void history(List<Object> row) {
        if ((Integer) row.get(TpccSchema.H_W_ID) != warehouseId || (Integer) row.get(TpccSchema.H_D_ID) != districtId) {
            throw new IllegalArgumentException("HISTORY row of district (" + row.get(TpccSchema.H_W_ID) + ", "
                    + row.get(TpccSchema.H_D_ID) + ") fed to the audit of (" + warehouseId + ", " + districtId + ")");
        }
        BigDecimal amount = (BigDecimal) row.get(TpccSchema.H_AMOUNT);
        historySum = historySum.add(amount);
        customerPaid(row);
    }

    /**
     * A HISTORY row of another warehouse: counted for condition 10 when it pays for a customer of
     * this district (a remote payment), else ignored.
     */
    void historyOfAnotherWarehouse(List<Object> row) {
        if ((Integer) row.get(TpccSchema.H_W_ID) == warehouseId) {
            throw new IllegalArgumentException("HISTORY row of warehouse " + warehouseId + " fed as another warehouse's");
        }
        customerPaid(row);
    }

    private void customerPaid(List<Object> row) {
        if ((Integer) row.get(TpccSchema.H_C_W_ID) == warehouseId && (Integer) row.get(TpccSchema.H_C_D_ID) == districtId) {
            historyPerCustomer.merge((Integer) row.get(TpccSchema.H_C_ID), (BigDecimal) row.get(TpccSchema.H_AMOUNT), BigDecimal::add);
        }
    }

    /** The violations found, at most {@link ConsistencyViolation#DETAILS_PER_CONDITION_MAX} per condition plus a count line. */
    List<ConsistencyViolation> finish() {
        String where = "district (" + warehouseId + ", " + districtId + ")";
        if (district == null) {
            add(2, where + " has no DISTRICT row");
            return result();
        }
        int nextOrderId = (Integer) district.get(TpccSchema.D_NEXT_O_ID);
        // 3.3.2.2: D_NEXT_O_ID - 1 = max(O_ID) = max(NO_O_ID).
        int maxOrder = orders.isEmpty() ? 0 : orders.lastKey();
        if (nextOrderId - 1 != maxOrder || (!newOrders.isEmpty() && newOrders.last() != maxOrder)) {
            add(2, where + ": D_NEXT_O_ID - 1 = " + (nextOrderId - 1) + ", max(O_ID) = " + maxOrder + ", max(NO_O_ID) = "
                    + (newOrders.isEmpty() ? "none" : newOrders.last()));
        }
        // 3.3.2.3: max(NO_O_ID) - min(NO_O_ID) + 1 = rows in NEW_ORDER.
        if (!newOrders.isEmpty() && newOrders.last() - newOrders.first() + 1 != newOrders.size()) {
            add(3, where + ": max(NO_O_ID) - min(NO_O_ID) + 1 = " + (newOrders.last() - newOrders.first() + 1) + " but "
                    + newOrders.size() + " NEW_ORDER rows");
        }
        // 3.3.2.4: sum(O_OL_CNT) = rows in ORDER_LINE.
        long olCountSum = 0;
        for (List<Object> o : orders.values()) {
            olCountSum += (Integer) o.get(TpccSchema.O_OL_CNT);
        }
        if (olCountSum != orderLines) {
            add(4, where + ": sum(O_OL_CNT) = " + olCountSum + " but " + orderLines + " ORDER_LINE rows");
        }
        Map<Integer, BigDecimal> deliveredPerCustomer = new HashMap<>();
        for (List<Object> o : orders.values()) {
            int id = (Integer) o.get(TpccSchema.O_ID);
            boolean undelivered = o.get(TpccSchema.O_CARRIER_ID) == null;
            // 3.3.2.5: O_CARRIER_ID is null exactly when a NEW_ORDER row exists.
            if (undelivered != newOrders.contains(id)) {
                add(5, where + " order " + id + ": O_CARRIER_ID " + o.get(TpccSchema.O_CARRIER_ID)
                        + (newOrders.contains(id) ? " with" : " without") + " a NEW_ORDER row");
            }
            // 3.3.2.6: O_OL_CNT = its ORDER_LINE rows.
            int lines = linesPerOrder.getOrDefault(id, 0);
            if (lines != (Integer) o.get(TpccSchema.O_OL_CNT)) {
                add(6, where + " order " + id + ": O_OL_CNT " + o.get(TpccSchema.O_OL_CNT) + " but " + lines + " ORDER_LINE rows");
            }
            // 3.3.2.7: OL_DELIVERY_D is null exactly when O_CARRIER_ID is null.
            boolean[] seen = deliveryDates.getOrDefault(id, new boolean[2]);
            if (undelivered ? seen[1] : seen[0]) {
                add(7, where + " order " + id + ": O_CARRIER_ID " + o.get(TpccSchema.O_CARRIER_ID) + " but a line with OL_DELIVERY_D "
                        + (undelivered ? "set" : "null"));
            }
            BigDecimal amount = deliveredAmount.get(id);
            if (amount != null) {
                deliveredPerCustomer.merge((Integer) o.get(TpccSchema.O_C_ID), amount, BigDecimal::add);
            }
        }
        for (Integer o : linesPerOrder.keySet()) {
            if (!orders.containsKey(o)) {
                add(6, where + ": ORDER_LINE rows of order " + o + ", which has no ORDERS row");
            }
        }
        // 3.3.2.9: D_YTD = sum(H_AMOUNT) of the district.
        BigDecimal ytd = (BigDecimal) district.get(TpccSchema.D_YTD);
        if (ytd.compareTo(historySum) != 0) {
            add(9, where + ": D_YTD " + ytd.toPlainString() + " but sum(H_AMOUNT) " + historySum.toPlainString());
        }
        for (List<Object> c : customers.values()) {
            int id = (Integer) c.get(TpccSchema.C_ID);
            BigDecimal balance = (BigDecimal) c.get(TpccSchema.C_BALANCE);
            BigDecimal delivered = deliveredPerCustomer.getOrDefault(id, BigDecimal.ZERO);
            BigDecimal paid = historyPerCustomer.getOrDefault(id, BigDecimal.ZERO);
            // 3.3.2.10: C_BALANCE = sum(delivered OL_AMOUNT) - sum(H_AMOUNT).
            if (balance.compareTo(delivered.subtract(paid)) != 0) {
                add(10, where + " customer " + id + ": C_BALANCE " + balance.toPlainString() + " but delivered "
                        + delivered.toPlainString() + " - paid " + paid.toPlainString());
            }
            // 3.3.2.12: C_BALANCE + C_YTD_PAYMENT = sum(delivered OL_AMOUNT).
            BigDecimal ytdPayment = (BigDecimal) c.get(TpccSchema.C_YTD_PAYMENT);
            if (balance.add(ytdPayment).compareTo(delivered) != 0) {
                add(12, where + " customer " + id + ": C_BALANCE + C_YTD_PAYMENT = " + balance.add(ytdPayment).toPlainString()
                        + " but delivered " + delivered.toPlainString());
            }
        }
        // 3.3.2.11 (after the initial load only): rows in ORDERS - rows in NEW_ORDER = 2,100.
        if (afterLoad && orders.size() - newOrders.size() != loadedDeliveredOrders) {
            add(11, where + ": " + orders.size() + " ORDERS - " + newOrders.size() + " NEW_ORDER = "
                    + (orders.size() - newOrders.size()) + ", expected " + loadedDeliveredOrders);
        }
        return result();
    }

    private void add(int condition, String detail) {
        if (++perCondition[condition] <= ConsistencyViolation.DETAILS_PER_CONDITION_MAX) {
            violations.add(new ConsistencyViolation(condition, detail));
        }
    }

    private List<ConsistencyViolation> result() {
        for (int c = 1; c <= ConsistencyViolation.CONDITIONS; c++) {
            if (perCondition[c] > ConsistencyViolation.DETAILS_PER_CONDITION_MAX) {
                violations.add(new ConsistencyViolation(c, "district (" + warehouseId + ", " + districtId + "): "
                        + (perCondition[c] - ConsistencyViolation.DETAILS_PER_CONDITION_MAX) + " more violations not listed"));
            }
        }
        return violations;
    }
}
