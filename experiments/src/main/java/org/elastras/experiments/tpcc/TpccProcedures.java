package org.elastras.experiments.tpcc;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.function.Consumer;
import org.elastras.catalog.schema.Column;
import org.elastras.catalog.schema.TableSchema;
import org.elastras.client.protocol.WireValues;
import org.elastras.otm.server.ProcedureLibrary;
import org.elastras.otm.txn.Procedure;
import org.elastras.otm.txn.ProcedureAbort;
import org.elastras.otm.txn.RowTransaction;

/**
 * The stored procedures of database TPCC ({@link TpccSchema}): the five TPC-C transactions
 * (clauses 2.4-2.8), the loader's batch insert, the consistency audits (clause 3.3.2) and row
 * access for tests. Found by the OTM through
 * {@code META-INF/services/org.elastras.otm.server.ProcedureLibrary}. Immutable; procedures run on
 * many threads at once, each in its own transaction, and may be re-run after a conflict.
 *
 * <p>Arguments are wire values (any integer box, BigDecimal, String, null; lists for order
 * lines); results are lists of wire values. {@link OtmTpccTarget} builds and reads them;
 * {@link DerbyTpccTarget} runs the same logic as JDBC.
 * <ul>
 *   <li>{@code newOrder(w, d, c, entryMicros, [itemIds], [supplyWs], [quantities])} -> [O_ID, total,
 *       C_LAST, C_CREDIT, C_DISCOUNT, W_TAX, D_TAX, [brand-generic per line]]; an unused item
 *       rolls back (PROCEDURE_ABORTED, "Item number is not valid")</li>
 *   <li>{@code payment(w, d, cW, cD, cId or 0, cLast or null/"" for by id, amount, dateMicros, historyId)} ->
 *       [C_ID, C_BALANCE, C_CREDIT]</li>
 *   <li>{@code orderStatus(w, d, cId or 0, cLast or null/"")} -> [C_ID, C_BALANCE, O_ID, O_CARRIER_ID,
 *       [[OL_I_ID, OL_SUPPLY_W_ID, OL_QUANTITY, OL_AMOUNT, OL_DELIVERY_D] per line]]</li>
 *   <li>{@code delivery(w, carrierId, deliveryMicros)} -> [delivered O_ID per district 1..10, 0 if none]</li>
 *   <li>{@code stockLevel(w, d, threshold)} -> low-stock count</li>
 *   <li>{@code loadRows(table, [row], [row], ...)} -> rows written</li>
 *   <li>{@code auditDistrict(w, d, afterLoad, loadedDeliveredOrders, warehouses)} and {@code auditWarehouse(w)} ->
 *       [[condition, detail]...]; run them at SNAPSHOT. auditDistrict also reads the HISTORY of every
 *       other warehouse (other partitions, at the same snapshot), for the remote payments condition 10
 *       counts: its cost grows with the warehouses times their HISTORY</li>
 *   <li>{@code readRow(table, key values...)} -> row or null; {@code writeRow(table, [row])};
 *       {@code countRows(table, w, d)} -> rows whose key starts with (w, d): for tests</li>
 * </ul>
 */
public final class TpccProcedures implements ProcedureLibrary {

    /** Rows one {@code loadRows} call may carry: the protocol's argument limit less the table name. */
    static final int LOAD_ROWS_MAX = 1_000;
    /**
     * Page size of the audits' scans, below the OTM's scan limit (10,000, scanRowsMax): a page read
     * from another OTM's partition is a protocol scan, for which that OTM's server asks its
     * transaction for one row more than the limit (to say whether more follow), and 10,001 is
     * refused (LIMIT_EXCEEDED).
     */
    static final int SCAN_PAGE_ROWS = 9_999;
    /** Most orders of one customer Order-Status looks through to find the newest. */
    static final int CUSTOMER_ORDERS_MAX = 10_000;

    @Override
    public String database() {
        return TpccSchema.DATABASE;
    }

    @Override
    public Map<String, Procedure> procedures() {
        return Map.ofEntries(Map.entry("newOrder", (Procedure) TpccProcedures::newOrder),
                Map.entry("payment", (Procedure) TpccProcedures::payment),
                Map.entry("orderStatus", (Procedure) TpccProcedures::orderStatus),
                Map.entry("delivery", (Procedure) TpccProcedures::delivery),
                Map.entry("stockLevel", (Procedure) TpccProcedures::stockLevel),
                Map.entry("loadRows", (Procedure) TpccProcedures::loadRows),
                Map.entry("auditDistrict", (Procedure) TpccProcedures::auditDistrict),
                Map.entry("auditWarehouse", (Procedure) TpccProcedures::auditWarehouse),
                Map.entry("readRow", (Procedure) TpccProcedures::readRow),
                Map.entry("writeRow", (Procedure) TpccProcedures::writeRow),
                Map.entry("countRows", (Procedure) TpccProcedures::countRows));
    }

    // ---- Clause 2.4: New-Order ----

    private static Object newOrder(RowTransaction txn, List<Object> args) {
        int w = integer(args, 0);
        int d = integer(args, 1);
        int c = integer(args, 2);
        long entry = longValue(args, 3);
        List<?> items = (List<?>) args.get(4);
        List<?> supply = (List<?>) args.get(5);
        List<?> quantities = (List<?>) args.get(6);
        // Reads of part of a row: Payments add to W_YTD meanwhile, which does not change W_TAX.
        BigDecimal wTax = (BigDecimal) requiredColumns(txn, TpccSchema.WAREHOUSE, NEW_ORDER_WAREHOUSE, w).get(0);
        // D_NEXT_O_ID grows by an add made at commit on the newest row, as Payment's D_YTD does: a
        // New-Order and a Payment of the same district no longer fail each other (whichever came
        // second ran again: 17 % of all transactions were re-run so or for other conflicts). Two
        // New-Orders that read the same D_NEXT_O_ID still do: both insert that ORDERS key, and the
        // second insert conflicts (first updater wins); under SERIALIZABLE the partial read of
        // D_NEXT_O_ID is validated too, so the add always turns the value read into the next one.
        List<Object> district = requiredColumns(txn, TpccSchema.DISTRICT, NEW_ORDER_DISTRICT, w, d);
        int orderId = (Integer) district.get(0);
        txn.add(TpccSchema.DISTRICT, List.of(w, d), "D_NEXT_O_ID", 1);
        List<Object> customer = requiredColumns(txn, TpccSchema.CUSTOMER, NEW_ORDER_CUSTOMER, w, d, c);
        int lines = items.size();
        int allLocal = 1;
        for (Object s : supply) {
            allLocal &= ((Number) s).intValue() == w ? 1 : 0;
        }
        txn.put(TpccSchema.ORDERS, Arrays.asList(w, d, orderId, c, entry, null, lines, allLocal));
        txn.put(TpccSchema.NEW_ORDER, List.of(w, d, orderId));
        txn.put(TpccSchema.ORDERS_BY_CUSTOMER, List.of(w, d, c, orderId));
        BigDecimal sum = BigDecimal.ZERO;
        List<Object> brands = new ArrayList<>(lines);
        for (int l = 0; l < lines; l++) {
            int itemId = ((Number) items.get(l)).intValue();
            int supplyW = ((Number) supply.get(l)).intValue();
            int quantity = ((Number) quantities.get(l)).intValue();
            List<Object> item = txn.get(TpccSchema.ITEM, List.of(itemId));
            if (item == null) {
                // Clause 2.4.2.3: an unused item id rolls the whole transaction back.
                throw new ProcedureAbort(TpccRules.ITEM_NOT_VALID + ": " + itemId);
            }
            // Only the stock's numbers change: its ten S_DIST strings and S_DATA are copied, not decoded
            // and encoded again, except the district's S_DIST and S_DATA, which the line needs.
            boolean remoteLine = supplyW != w;
            List<Object> stock = txn.update(TpccSchema.STOCK, List.of(supplyW, itemId), STOCK_READ.get(d - 1),
                    remoteLine ? STOCK_CHANGED_REMOTE : STOCK_CHANGED_LOCAL, s -> stockAfter(s, quantity, remoteLine));
            if (stock == null) {
                throw missing(TpccSchema.STOCK, supplyW, itemId);
            }
            BigDecimal amount = TpccRules.lineAmount(quantity, (BigDecimal) item.get(TpccSchema.I_PRICE));
            sum = sum.add(amount);
            brands.add(TpccRules.brandGeneric((String) item.get(TpccSchema.I_DATA), (String) stock.get(STOCK_READ_DATA)));
            txn.put(TpccSchema.ORDER_LINE, Arrays.asList(w, d, orderId, l + 1, itemId, supplyW, null, quantity, amount,
                    stock.get(STOCK_READ_DIST)));
        }
        BigDecimal discount = (BigDecimal) customer.get(0);
        BigDecimal dTax = (BigDecimal) district.get(1);
        return List.of(orderId, TpccRules.orderTotal(sum, discount, wTax, dTax), customer.get(1),
                customer.get(2), discount, wTax, dTax, brands);
    }

    /**
     * Whether Payment or Order-Status selects its customer by last name. "By id" is a null or empty
     * last name: the routing client cannot send a null argument (its Session copies the arguments
     * with List.copyOf), and no customer's last name is empty (clause 4.3.2.3).
     */
    private static boolean byLastName(String cLast) {
        return cLast != null && !cLast.isEmpty();
    }

    // ---- Clause 2.5: Payment ----

    private static Object payment(RowTransaction txn, List<Object> args) {
        int w = integer(args, 0);
        int d = integer(args, 1);
        int cW = integer(args, 2);
        int cD = integer(args, 3);
        int cId = integer(args, 4);
        String cLast = (String) args.get(5);
        BigDecimal amount = decimal(args, 6);
        long date = longValue(args, 7);
        long historyId = longValue(args, 8);
        // W_YTD and D_YTD grow by adds made at commit on the newest row: every Payment of a
        // warehouse adds to its one row, and adds do not conflict with one another.
        // The columns read are not the ones added to, so concurrent Payments do not fail each other
        // even under SERIALIZABLE.
        List<Object> warehouse = requiredColumns(txn, TpccSchema.WAREHOUSE, PAYMENT_WAREHOUSE, w);
        txn.add(TpccSchema.WAREHOUSE, List.of(w), "W_YTD", amount);
        List<Object> district = requiredColumns(txn, TpccSchema.DISTRICT, PAYMENT_DISTRICT, w, d);
        txn.add(TpccSchema.DISTRICT, List.of(w, d), "D_YTD", amount);
        if (byLastName(cLast)) {
            cId = customerByLastName(txn, cW, cD, cLast);
        }
        // The customer's numbers change in place; C_DATA (up to 500 characters) is read and
        // rewritten only for a customer with bad credit.
        List<Object> customerKey = List.of(cW, cD, cId);
        List<Object> customer = txn.update(TpccSchema.CUSTOMER, customerKey, PAYMENT_CUSTOMER_READ, PAYMENT_CUSTOMER_CHANGED,
                c -> List.of(((BigDecimal) c.get(0)).subtract(amount), ((BigDecimal) c.get(1)).add(amount),
                        (Integer) c.get(2) + 1));
        if (customer == null) {
            throw missing(TpccSchema.CUSTOMER, cW, cD, cId);
        }
        String credit = (String) customer.get(3);
        if ("BC".equals(credit)) {
            int paidId = cId;
            txn.update(TpccSchema.CUSTOMER, customerKey, C_DATA_ONLY, C_DATA_ONLY,
                    c -> List.of(TpccRules.badCreditData(paidId, cD, cW, d, w, amount, (String) c.get(0))));
        }
        txn.put(TpccSchema.HISTORY, List.of(w, d, historyId, cId, cD, cW, date, amount,
                TpccRules.historyData((String) warehouse.get(0), (String) district.get(0))));
        return List.of(cId, ((BigDecimal) customer.get(0)).subtract(amount), credit);
    }

    /** Clause 2.5.2.2: the customer at position ceil(n/2) of those with the last name, by C_FIRST. */
    private static int customerByLastName(RowTransaction txn, int w, int d, String last) {
        List<List<Object>> rows = txn.scan(TpccSchema.CUSTOMER_BY_LAST, List.of(w, d, last), List.of(w, d, last), SCAN_PAGE_ROWS);
        if (rows.isEmpty()) {
            throw new ProcedureAbort("no customer named " + last + " in district (" + w + ", " + d + ")");
        }
        return (Integer) rows.get(TpccRules.middleIndex(rows.size())).get(TpccSchema.CL_C_ID);
    }

    // ---- Clause 2.6: Order-Status ----

    private static Object orderStatus(RowTransaction txn, List<Object> args) {
        int w = integer(args, 0);
        int d = integer(args, 1);
        int cId = integer(args, 2);
        String cLast = (String) args.get(3);
        if (byLastName(cLast)) {
            cId = customerByLastName(txn, w, d, cLast);
        }
        // Clause 2.6.2.2 retrieves C_BALANCE, C_FIRST, C_MIDDLE and C_LAST; not C_DATA's 500 characters.
        List<Object> customer = requiredColumns(txn, TpccSchema.CUSTOMER, ORDER_STATUS_CUSTOMER, w, d, cId);
        List<List<Object>> orders = txn.scan(TpccSchema.ORDERS_BY_CUSTOMER, List.of(w, d, cId), List.of(w, d, cId),
                CUSTOMER_ORDERS_MAX);
        if (orders.isEmpty()) {
            return Arrays.asList(cId, customer.get(0), 0, null, List.of());
        }
        int orderId = (Integer) orders.get(orders.size() - 1).get(TpccSchema.OC_O_ID);
        List<Object> order = required(txn, TpccSchema.ORDERS, w, d, orderId);
        // The order's lines by primary key, OL_NUMBER 1 to O_OL_CNT (condition 3.3.2.8), not by
        // a scan: see ORDER_STATUS_LINE.
        int lineCount = (Integer) order.get(TpccSchema.O_OL_CNT);
        List<Object> lines = new ArrayList<>(lineCount);
        for (int l = 1; l <= lineCount; l++) {
            lines.add(requiredColumns(txn, TpccSchema.ORDER_LINE, ORDER_STATUS_LINE, w, d, orderId, l));
        }
        return Arrays.asList(cId, customer.get(0), orderId, order.get(TpccSchema.O_CARRIER_ID), lines);
    }

    // ---- Clause 2.7: Delivery ----

    private static Object delivery(RowTransaction txn, List<Object> args) {
        int w = integer(args, 0);
        int carrier = integer(args, 1);
        long date = longValue(args, 2);
        List<Object> delivered = new ArrayList<>(TpccScale.DISTRICTS_PER_WAREHOUSE);
        for (int d = 1; d <= TpccScale.DISTRICTS_PER_WAREHOUSE; d++) {
            int orderId = oldestNewOrder(txn, w, d);
            if (orderId < 0) {
                // Clause 2.7.4.2: a district with no undelivered order is skipped.
                delivered.add(0);
                continue;
            }
            txn.delete(TpccSchema.NEW_ORDER, List.of(w, d, orderId));
            // The order's carrier and the customer's numbers change in place: the customer's
            // strings (C_DATA up to 500 characters) are neither decoded nor encoded again.
            List<Object> order = txn.update(TpccSchema.ORDERS, List.of(w, d, orderId), DELIVERY_ORDER, ORDER_CARRIER,
                    o -> List.of(carrier));
            if (order == null) {
                throw missing(TpccSchema.ORDERS, w, d, orderId);
            }
            // Each line's OL_DELIVERY_D changes in place; the lines by primary key (ORDER_STATUS_LINE).
            BigDecimal sum = BigDecimal.ZERO;
            int lineCount = (Integer) order.get(1);
            for (int l = 1; l <= lineCount; l++) {
                List<Object> line = txn.update(TpccSchema.ORDER_LINE, List.of(w, d, orderId, l), LINE_AMOUNT, LINE_DELIVERY_D,
                        ol -> List.of(date));
                if (line == null) {
                    throw missing(TpccSchema.ORDER_LINE, w, d, orderId, l);
                }
                sum = sum.add((BigDecimal) line.get(0));
            }
            int customerId = (Integer) order.get(0);
            BigDecimal amount = sum;
            if (txn.update(TpccSchema.CUSTOMER, List.of(w, d, customerId), DELIVERY_CUSTOMER, DELIVERY_CUSTOMER,
                    c -> List.of(((BigDecimal) c.get(0)).add(amount), (Integer) c.get(1) + 1)) == null) {
                throw missing(TpccSchema.CUSTOMER, w, d, customerId);
            }
            delivered.add(orderId);
        }
        return delivered;
    }

    /**
     * The lowest NO_O_ID of the district's NEW_ORDER rows (clause 2.7.4.2), or -1 if it has none.
     * Deliveries delete those rows from the low end, so a scan from the district's first key walks
     * every row delivered since the store last compacted (a deleted row stays as a tombstone over
     * its version until then): in a run of minutes, thousands per district, which made Delivery
     * 4 % of the transactions and 16 % of the OTMs' CPU. Orders are delivered in O_ID order and
     * delivered exactly when O_CARRIER_ID is set (conditions 3.3.2.2-3.3.2.7), so the first
     * undelivered order is found by searching ORDERS for the first O_ID that is missing or has no
     * carrier, reads of one column; its NEW_ORDER row is then read to confirm it. If that O_ID has
     * no order, every order is delivered; if it has an undelivered order without a NEW_ORDER row (a
     * database where the conditions do not hold), the scan decides.
     *
     * <p>The search starts from where the last Delivery of the district in this process found the
     * oldest ({@link #OLDEST_HINTS}): O_ID h-1 delivered shows every order below h is, so it
     * gallops up from h, typically three reads (h-1, h, h+1) instead of ~25 from O_ID 1 (Delivery
     * was still 15 % of the OTMs' CPU, half of it this search, session 22). A hint that is too high
     * (h-1 not delivered: another process delivered less, or the database was loaded anew) is
     * dropped for the search from 1. The hint only picks where the reads start; what they read
     * decides, and they are validated like any other.
     */
    private static int oldestNewOrder(RowTransaction txn, int w, int d) {
        long district = districtKey(w, d);
        Integer hint = OLDEST_HINTS.get(district);
        int delivered = 0; // every O_ID in [1, delivered] is known delivered
        int probe = 1;
        if (hint != null && hint > 1 && isDelivered(txn, w, d, hint - 1)) {
            delivered = hint - 1;
            probe = hint;
        }
        int step = 1;
        while (isDelivered(txn, w, d, probe)) {
            delivered = probe;
            probe = delivered > Integer.MAX_VALUE - step ? Integer.MAX_VALUE : delivered + step;
            step = Math.min(step * 2, 1 << 30);
        }
        int notDelivered = probe; // O_ID probe is missing or undelivered
        while (notDelivered - delivered > 1) {
            int middle = delivered + (notDelivered - delivered) / 2;
            if (isDelivered(txn, w, d, middle)) {
                delivered = middle;
            } else {
                notDelivered = middle;
            }
        }
        int first = delivered + 1;
        int oldest;
        if (txn.get(TpccSchema.NEW_ORDER, List.of(w, d, first)) != null) {
            oldest = first;
        } else if (txn.get(TpccSchema.ORDERS, List.of(w, d, first), ORDER_CARRIER) == null) {
            return -1; // every order of the district is delivered
        } else {
            List<List<Object>> scanned = txn.scan(TpccSchema.NEW_ORDER, List.of(w, d), List.of(w, d), 1);
            if (scanned.isEmpty()) {
                return -1;
            }
            oldest = (Integer) scanned.get(0).get(TpccSchema.NO_O_ID);
        }
        if (OLDEST_HINTS.size() < OLDEST_HINTS_MAX || OLDEST_HINTS.containsKey(district)) {
            OLDEST_HINTS.put(district, oldest);
        }
        return oldest;
    }

    /**
     * Per district (w * 11 + d) of this process, the oldest new order its last Delivery found: where
     * the next one's search starts. At most {@link #OLDEST_HINTS_MAX} districts; the others search
     * from O_ID 1.
     */
    private static final Map<Long, Integer> OLDEST_HINTS = new java.util.concurrent.ConcurrentHashMap<>();
    static final int OLDEST_HINTS_MAX = 100_000;

    /** For the benchmark of the search: every Delivery after this searches from O_ID 1 once, as before the hints. */
    static void forgetOldestNewOrderHints() {
        OLDEST_HINTS.clear();
    }

    /** For tests: where the next Delivery's search in district (w, d) starts, as if its last found {@code orderId}. */
    static void hintOldestNewOrder(int w, int d, int orderId) {
        OLDEST_HINTS.put(districtKey(w, d), orderId);
    }

    /** District (w, d) as a key of {@link #OLDEST_HINTS}. */
    private static long districtKey(int w, int d) {
        return (long) w * (TpccScale.DISTRICTS_PER_WAREHOUSE + 1) + d;
    }

    private static boolean isDelivered(RowTransaction txn, int w, int d, int orderId) {
        List<Object> carrier = txn.get(TpccSchema.ORDERS, List.of(w, d, orderId), ORDER_CARRIER);
        return carrier != null && carrier.get(0) != null;
    }

    private static final List<String> ORDER_CARRIER = List.of("O_CARRIER_ID");
    /** Stock-Level reads only S_QUANTITY of each STOCK row, not its ten S_DIST strings and S_DATA. */
    private static final List<String> STOCK_QUANTITY = List.of("S_QUANTITY");

    // ---- Clause 2.8: Stock-Level ----

    private static Object stockLevel(RowTransaction txn, List<Object> args) {
        int w = integer(args, 0);
        int d = integer(args, 1);
        int threshold = integer(args, 2);
        int next = (Integer) required(txn, TpccSchema.DISTRICT, w, d).get(TpccSchema.D_NEXT_O_ID);
        int from = Math.max(1, next - TpccRules.STOCK_LEVEL_ORDERS);
        // The last 20 orders' lines by primary key, OL_I_ID only (ORDER_STATUS_LINE); O_IDs below
        // D_NEXT_O_ID are all taken (conditions 3.3.2.2 and 3.3.2.3).
        TreeSet<Integer> itemIds = new TreeSet<>();
        for (int o = from; o < next; o++) {
            int lineCount = (Integer) requiredColumns(txn, TpccSchema.ORDERS, ORDER_LINE_COUNT, w, d, o).get(0);
            for (int l = 1; l <= lineCount; l++) {
                itemIds.add((Integer) requiredColumns(txn, TpccSchema.ORDER_LINE, LINE_ITEM, w, d, o, l).get(0));
            }
        }
        int low = 0;
        for (int itemId : itemIds) {
            if ((Integer) requiredColumns(txn, TpccSchema.STOCK, STOCK_QUANTITY, w, itemId).get(0) < threshold) {
                low++;
            }
        }
        return low;
    }

    // ---- Loading, auditing, test access ----

    private static Object loadRows(RowTransaction txn, List<Object> args) {
        String table = (String) args.get(0);
        if (args.size() - 1 > LOAD_ROWS_MAX) {
            throw new ProcedureAbort("loadRows takes at most " + LOAD_ROWS_MAX + " rows, got " + (args.size() - 1));
        }
        TableSchema schema = TpccSchema.table(table);
        for (int i = 1; i < args.size(); i++) {
            txn.put(table, toColumnValues(schema, (List<?>) args.get(i)));
        }
        return args.size() - 1;
    }

    private static Object readRow(RowTransaction txn, List<Object> args) {
        String table = (String) args.get(0);
        TableSchema schema = TpccSchema.table(table);
        List<Object> key = new ArrayList<>();
        List<Column> keyColumns = schema.keyColumns();
        for (int i = 1; i < args.size(); i++) {
            key.add(WireValues.toColumnValue("table " + table, keyColumns.get(i - 1), args.get(i)));
        }
        return txn.get(table, key);
    }

    private static Object writeRow(RowTransaction txn, List<Object> args) {
        String table = (String) args.get(0);
        txn.put(table, toColumnValues(TpccSchema.table(table), (List<?>) args.get(1)));
        return 1;
    }

    private static Object countRows(RowTransaction txn, List<Object> args) {
        long[] count = {0};
        scanAll(txn, (String) args.get(0), List.of(integer(args, 1), integer(args, 2)), row -> count[0]++);
        return count[0];
    }

    private static Object auditWarehouse(RowTransaction txn, List<Object> args) {
        int w = integer(args, 0);
        List<Object> warehouse = txn.get(TpccSchema.WAREHOUSE, List.of(w));
        if (warehouse == null) {
            return List.of(List.of(1, "warehouse " + w + " has no WAREHOUSE row"));
        }
        BigDecimal ytd = (BigDecimal) warehouse.get(TpccSchema.W_YTD);
        BigDecimal[] districtYtd = {BigDecimal.ZERO};
        scanAll(txn, TpccSchema.DISTRICT, List.of(w), row -> districtYtd[0] = districtYtd[0].add((BigDecimal) row.get(TpccSchema.D_YTD)));
        BigDecimal[] history = {BigDecimal.ZERO};
        scanAll(txn, TpccSchema.HISTORY, List.of(w), row -> history[0] = history[0].add((BigDecimal) row.get(TpccSchema.H_AMOUNT)));
        List<Object> violations = new ArrayList<>();
        // 3.3.2.1: W_YTD = sum(D_YTD).
        if (ytd.compareTo(districtYtd[0]) != 0) {
            violations.add(List.of(1, "warehouse " + w + ": W_YTD " + ytd.toPlainString() + " but sum(D_YTD) "
                    + districtYtd[0].toPlainString()));
        }
        // 3.3.2.8: W_YTD = sum(H_AMOUNT).
        if (ytd.compareTo(history[0]) != 0) {
            violations.add(List.of(8, "warehouse " + w + ": W_YTD " + ytd.toPlainString() + " but sum(H_AMOUNT) "
                    + history[0].toPlainString()));
        }
        return violations;
    }

    private static Object auditDistrict(RowTransaction txn, List<Object> args) {
        int w = integer(args, 0);
        int d = integer(args, 1);
        DistrictAudit audit = new DistrictAudit(w, d, Boolean.TRUE.equals(args.get(2)), integer(args, 3));
        List<Object> district = txn.get(TpccSchema.DISTRICT, List.of(w, d));
        if (district != null) {
            audit.district(district);
        }
        List<Object> prefix = List.of(w, d);
        scanAll(txn, TpccSchema.ORDERS, prefix, audit::order);
        scanAll(txn, TpccSchema.NEW_ORDER, prefix, audit::newOrder);
        scanAll(txn, TpccSchema.ORDER_LINE, prefix, audit::orderLine);
        scanAll(txn, TpccSchema.CUSTOMER, prefix, audit::customer);
        scanAll(txn, TpccSchema.HISTORY, prefix, audit::history);
        // Remote payments (clause 2.5.1.2) for this district's customers are in the HISTORY of
        // the warehouse that took them: read every other warehouse's, at this snapshot.
        int warehouses = integer(args, 4);
        for (int other = 1; other <= warehouses; other++) {
            if (other != w) {
                scanAll(txn, TpccSchema.HISTORY, List.of(other), audit::historyOfAnotherWarehouse);
            }
        }
        List<Object> violations = new ArrayList<>();
        for (ConsistencyViolation v : audit.finish()) {
            violations.add(List.of(v.condition(), v.detail()));
        }
        return violations;
    }

    /** Every row whose key starts with {@code prefix}, in pages of {@link #SCAN_PAGE_ROWS}. */
    private static void scanAll(RowTransaction txn, String table, List<Object> prefix, Consumer<List<Object>> each) {
        int[] keyIndexes = TpccSchema.table(table).keyColumnIndexes();
        List<Object> from = prefix;
        while (true) {
            List<List<Object>> page = txn.scan(table, from, prefix, SCAN_PAGE_ROWS);
            page.forEach(each);
            if (page.size() < SCAN_PAGE_ROWS) {
                return;
            }
            List<Object> last = page.get(page.size() - 1);
            List<Object> next = new ArrayList<>(keyIndexes.length);
            for (int i : keyIndexes) {
                next.add(last.get(i));
            }
            // The least key above the last one: every TPC-C key ends in an integer column.
            Object end = next.get(next.size() - 1);
            next.set(next.size() - 1, end instanceof Long l ? (Object) (l + 1) : (Object) ((Integer) end + 1));
            from = next;
        }
    }

    private static List<Object> toColumnValues(TableSchema schema, List<?> wireRow) {
        if (wireRow.size() != schema.columns().size()) {
            throw new ProcedureAbort("table " + schema.name() + " has " + schema.columns().size() + " columns, the row has "
                    + wireRow.size());
        }
        List<Object> row = new ArrayList<>(wireRow.size());
        for (int i = 0; i < wireRow.size(); i++) {
            row.add(WireValues.toColumnValue("table " + schema.name(), schema.columns().get(i), wireRow.get(i)));
        }
        return row;
    }

    /** What New-Order reads of its warehouse (clause 2.4.2.2). */
    private static final List<String> NEW_ORDER_WAREHOUSE = List.of("W_TAX");
    /** What New-Order reads of its district, in this order. */
    private static final List<String> NEW_ORDER_DISTRICT = List.of("D_NEXT_O_ID", "D_TAX");
    /** What New-Order reads of its customer, in this order. */
    private static final List<String> NEW_ORDER_CUSTOMER = List.of("C_DISCOUNT", "C_LAST", "C_CREDIT");
    /** What Payment reads of its warehouse (clause 2.5.2.2), W_NAME first. */
    private static final List<String> PAYMENT_WAREHOUSE = List.of("W_NAME", "W_STREET_1", "W_STREET_2", "W_CITY",
            "W_STATE", "W_ZIP");
    /** What Payment reads of its district, D_NAME first. */
    private static final List<String> PAYMENT_DISTRICT = List.of("D_NAME", "D_STREET_1", "D_STREET_2", "D_CITY",
            "D_STATE", "D_ZIP");

    /** What New-Order reads of a STOCK row, per district (index d - 1): the numbers it changes, then S_DIST_d and S_DATA. */
    private static final List<List<String>> STOCK_READ;
    private static final int STOCK_READ_DIST = 4;
    private static final int STOCK_READ_DATA = 5;
    /** What New-Order changes of a STOCK row of its own warehouse, in the order of {@link #stockAfter}. */
    private static final List<String> STOCK_CHANGED_LOCAL = List.of("S_QUANTITY", "S_YTD", "S_ORDER_CNT");
    /** ... and of another warehouse's. */
    private static final List<String> STOCK_CHANGED_REMOTE = List.of("S_QUANTITY", "S_YTD", "S_ORDER_CNT", "S_REMOTE_CNT");

    static {
        List<List<String>> reads = new ArrayList<>();
        for (int d = 1; d <= TpccScale.DISTRICTS_PER_WAREHOUSE; d++) {
            reads.add(List.of("S_QUANTITY", "S_YTD", "S_ORDER_CNT", "S_REMOTE_CNT", String.format("S_DIST_%02d", d), "S_DATA"));
        }
        STOCK_READ = List.copyOf(reads);
    }

    /** Clause 2.4.2.2: a STOCK row's changed numbers after a line of {@code quantity}, from what {@link #STOCK_READ} read. */
    private static List<Object> stockAfter(List<Object> read, int quantity, boolean remoteLine) {
        int after = TpccRules.stockQuantityAfter((Integer) read.get(0), quantity);
        int ytd = (Integer) read.get(1) + quantity;
        int orders = (Integer) read.get(2) + 1;
        return remoteLine ? List.of(after, ytd, orders, (Integer) read.get(3) + 1) : List.of(after, ytd, orders);
    }

    /** What Payment reads of its customer: the numbers it changes, then C_CREDIT. */
    private static final List<String> PAYMENT_CUSTOMER_READ = List.of("C_BALANCE", "C_YTD_PAYMENT", "C_PAYMENT_CNT", "C_CREDIT");
    private static final List<String> PAYMENT_CUSTOMER_CHANGED = List.of("C_BALANCE", "C_YTD_PAYMENT", "C_PAYMENT_CNT");
    private static final List<String> C_DATA_ONLY = List.of("C_DATA");
    /** What Order-Status reads of its customer, C_BALANCE first. */
    private static final List<String> ORDER_STATUS_CUSTOMER = List.of("C_BALANCE", "C_FIRST", "C_MIDDLE", "C_LAST");
    /** What Delivery reads of an order (its customer, its line count) and of that customer (and changes), in this order. */
    private static final List<String> DELIVERY_ORDER = List.of("O_C_ID", "O_OL_CNT");
    /**
     * Order-Status, Delivery and Stock-Level read an order's lines by primary key, OL_NUMBER 1 to
     * the order's O_OL_CNT (condition 3.3.2.8 keeps them equal), not by a scan of ORDER_LINE
     * (session 29): a memtable keeps the keys of a table in key order only once a scan reads it,
     * and then every New-Order's ten new lines went into its ordered map too (5 % of an OTM's CPU,
     * and the scans' seeks 3 %). Read by key, ORDER_LINE's new keys are only hashed.
     */
    private static final List<String> ORDER_STATUS_LINE = List.of("OL_I_ID", "OL_SUPPLY_W_ID", "OL_QUANTITY", "OL_AMOUNT",
            "OL_DELIVERY_D");
    private static final List<String> LINE_AMOUNT = List.of("OL_AMOUNT");
    private static final List<String> LINE_DELIVERY_D = List.of("OL_DELIVERY_D");
    private static final List<String> LINE_ITEM = List.of("OL_I_ID");
    private static final List<String> ORDER_LINE_COUNT = List.of("O_OL_CNT");
    private static final List<String> DELIVERY_CUSTOMER = List.of("C_BALANCE", "C_DELIVERY_CNT");

    private static IllegalStateException missing(String table, Object... key) {
        return new IllegalStateException(table + " row " + Arrays.toString(key) + " is missing; is the database loaded?");
    }

    /** {@link #required} of some columns only (see {@link RowTransaction#get(String, List, List)}). */
    private static List<Object> requiredColumns(RowTransaction txn, String table, List<String> columns, Object... key) {
        List<Object> row = txn.get(table, Arrays.asList(key), columns);
        if (row == null) {
            throw new IllegalStateException(table + " row " + Arrays.toString(key) + " is missing; is the database loaded?");
        }
        return row;
    }

    private static List<Object> required(RowTransaction txn, String table, Object... key) {
        List<Object> row = txn.get(table, Arrays.asList(key));
        if (row == null) {
            throw missing(table, key);
        }
        return row;
    }

    private static int integer(List<Object> args, int i) {
        return ((Number) args.get(i)).intValue();
    }

    private static long longValue(List<Object> args, int i) {
        return ((Number) args.get(i)).longValue();
    }

    private static BigDecimal decimal(List<Object> args, int i) {
        Object v = args.get(i);
        return v instanceof BigDecimal b ? b : new BigDecimal(v.toString());
    }

}
