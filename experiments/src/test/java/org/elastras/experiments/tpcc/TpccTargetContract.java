package org.elastras.experiments.tpcc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigDecimal;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What every {@link TpccTarget} must do, run against a tiny scaled-down database (2 warehouses,
 * 200 items, 30 customers a district): loading gives a consistent database, the transactions keep
 * it consistent and do what clauses 2.4-2.8 say, and the checker finds planted corruption.
 */
abstract class TpccTargetContract {

    static final TpccScale SCALE = TpccScale.scaledDown(2, 200, 30);
    static final long SEED = 17;
    static final long LOAD_MICROS = 1_700_000_000_000_000L;

    @TempDir
    Path scratch;
    TpccTarget target;
    TpccDataGenerator generator;
    private final AtomicLong clock = new AtomicLong(LOAD_MICROS + 1_000_000);

    /** A target holding the database {@link #load} loads, in {@code directory}. */
    abstract TpccTarget loadedTarget(Path directory) throws Exception;

    /** Loads {@link #SCALE} from {@link #SEED} into an empty target, checking the loader's report. */
    static void load(TpccTarget empty) throws Exception {
        AtomicLong lastProgress = new AtomicLong();
        TpccLoader.Report report = new TpccLoader(new TpccDataGenerator(SCALE, SEED, LOAD_MICROS), 2)
                .load(empty, (rows, expected) -> lastProgress.set(rows));
        assertEquals(report.rows(), lastProgress.get());
        assertTrue(report.rows() > 5_000, "rows loaded " + report.rows());
    }

    @BeforeEach
    void open() throws Exception {
        generator = new TpccDataGenerator(SCALE, SEED, LOAD_MICROS);
        target = loadedTarget(scratch);
    }

    @AfterEach
    void close() throws Exception {
        target.close();
    }

    long tick() {
        return clock.addAndGet(1_000);
    }

    List<ConsistencyViolation> check(boolean afterLoad) throws Exception {
        return target.checkConsistency(SCALE.warehouses(), afterLoad, SCALE.firstNewOrderId() - 1);
    }

    @Test
    void loadedDatabaseMeetsAllTwelveConditions() throws Exception {
        assertEquals(List.of(), check(true));
        assertEquals(SCALE.newOrdersPerDistrict(), target.countRows(TpccSchema.NEW_ORDER, 2, 10));
        assertEquals(SCALE.customersPerDistrict(), target.countRows(TpccSchema.CUSTOMER, 1, 3));
        assertNotNull(target.readRow(TpccSchema.ITEM, List.of(SCALE.items())));
        assertNull(target.readRow(TpccSchema.ITEM, List.of(SCALE.items() + 1)));
    }

    @Test
    void mixedTransactionsKeepTheDatabaseConsistent() throws Exception {
        long newOrders = runMix(target, generator, 4, 60, 1);
        assertTrue(newOrders > 80, "committed New-Orders " + newOrders);
        assertEquals(List.of(), check(false));
    }

    /**
     * Runs {@code terminals} threads of {@code perTerminal} transactions from the mix on
     * {@code target}; returns the committed New-Orders. History streams start at {@code firstStream}.
     */
    long runMix(TpccTarget on, TpccDataGenerator loaded, int terminals, int perTerminal, int firstStream) throws Exception {
        NuRandConstants run = loaded.loadConstants().forRun(SEED);
        ExecutorService pool = Executors.newFixedThreadPool(terminals);
        try {
            List<Future<long[]>> done = new ArrayList<>();
            for (int t = 0; t < terminals; t++) {
                int terminal = t;
                done.add(pool.submit(() -> {
                    int w = terminal % SCALE.warehouses() + 1;
                    TpccInputGenerator in = new TpccInputGenerator(SCALE, run, SEED + terminal, w, terminal % 10 + 1,
                            firstStream + terminal, RemoteWarehouses.SPEC, this::tick);
                    TransactionMix mix = new TransactionMix(SEED * 7 + terminal);
                    long[] counts = new long[2];
                    try (TpccTarget.Session s = on.openSession()) {
                        for (int i = 0; i < perTerminal; i++) {
                            switch (mix.next()) {
                                case NEW_ORDER -> {
                                    TpccInputs.NewOrder o = in.newOrder();
                                    TpccTarget.NewOrderResult r = s.newOrder(o);
                                    assertEquals(o.rollback(), r.rolledBack());
                                    counts[r.rolledBack() ? 1 : 0]++;
                                }
                                case PAYMENT -> s.payment(in.payment());
                                case ORDER_STATUS -> s.orderStatus(in.orderStatus());
                                case DELIVERY -> s.delivery(in.delivery());
                                case STOCK_LEVEL -> assertTrue(s.stockLevel(in.stockLevel()).lowStock() >= 0);
                            }
                        }
                    }
                    return counts;
                }));
            }
            long newOrders = 0;
            for (Future<long[]> f : done) {
                newOrders += f.get()[0];
            }
            return newOrders;
        } finally {
            pool.shutdownNow();
        }
    }

    private TpccInputs.NewOrder order(int w, int d, int c, boolean rollback) {
        int[] items = {3, 9, 27, 81, rollback ? SCALE.items() + 1 : 100};
        return new TpccInputs.NewOrder(w, d, c, items, new int[] {w, w, w, w, w}, new int[] {1, 2, 3, 4, 5}, tick(), rollback);
    }

    @Test
    void newOrderTakesTheNextOrderIdAndInsertsItsRows() throws Exception {
        int w = 2;
        int d = 4;
        int next = (Integer) target.readRow(TpccSchema.DISTRICT, List.of(w, d)).get(TpccSchema.D_NEXT_O_ID);
        assertEquals(SCALE.ordersPerDistrict() + 1, next);
        int stockBefore = (Integer) target.readRow(TpccSchema.STOCK, List.of(w, 27)).get(TpccSchema.S_QUANTITY);
        TpccInputs.NewOrder in = order(w, d, 5, false);
        TpccTarget.NewOrderResult r;
        try (TpccTarget.Session s = target.openSession()) {
            r = s.newOrder(in);
        }
        assertFalse(r.rolledBack());
        assertEquals(next, r.orderId());
        assertTrue(r.total().signum() > 0);
        assertEquals(next + 1, target.readRow(TpccSchema.DISTRICT, List.of(w, d)).get(TpccSchema.D_NEXT_O_ID));
        List<Object> order = target.readRow(TpccSchema.ORDERS, List.of(w, d, next));
        assertEquals(5, order.get(TpccSchema.O_C_ID));
        assertEquals(5, order.get(TpccSchema.O_OL_CNT));
        assertEquals(1, order.get(TpccSchema.O_ALL_LOCAL));
        assertNull(order.get(TpccSchema.O_CARRIER_ID));
        assertEquals(in.entryMicros(), order.get(TpccSchema.O_ENTRY_D));
        assertNotNull(target.readRow(TpccSchema.NEW_ORDER, List.of(w, d, next)));
        BigDecimal sum = BigDecimal.ZERO;
        for (int l = 1; l <= 5; l++) {
            List<Object> line = target.readRow(TpccSchema.ORDER_LINE, List.of(w, d, next, l));
            assertEquals(in.itemIds()[l - 1], line.get(TpccSchema.OL_I_ID));
            assertEquals(l, line.get(TpccSchema.OL_QUANTITY));
            BigDecimal price = (BigDecimal) target.readRow(TpccSchema.ITEM, List.of(in.itemIds()[l - 1])).get(TpccSchema.I_PRICE);
            assertEquals(price.multiply(BigDecimal.valueOf(l)), line.get(TpccSchema.OL_AMOUNT));
            sum = sum.add((BigDecimal) line.get(TpccSchema.OL_AMOUNT));
        }
        assertNull(target.readRow(TpccSchema.ORDER_LINE, List.of(w, d, next, 6)));
        assertEquals(TpccRules.stockQuantityAfter(stockBefore, 3),
                target.readRow(TpccSchema.STOCK, List.of(w, 27)).get(TpccSchema.S_QUANTITY));
        List<Object> stock = target.readRow(TpccSchema.STOCK, List.of(w, 27));
        assertEquals(3, stock.get(TpccSchema.S_YTD));
        assertEquals(1, stock.get(TpccSchema.S_ORDER_CNT));
        List<Object> customer = target.readRow(TpccSchema.CUSTOMER, List.of(w, d, 5));
        List<Object> warehouse = target.readRow(TpccSchema.WAREHOUSE, List.of(w));
        List<Object> district = target.readRow(TpccSchema.DISTRICT, List.of(w, d));
        assertEquals(TpccRules.orderTotal(sum, (BigDecimal) customer.get(TpccSchema.C_DISCOUNT),
                (BigDecimal) warehouse.get(TpccSchema.W_TAX), (BigDecimal) district.get(TpccSchema.D_TAX)), r.total());
        assertEquals(List.of(), check(false));
    }

    /**
     * New-Orders and Payments of one district at once: every committed New-Order took its own
     * order id, D_NEXT_O_ID grew by exactly their number, D_YTD by exactly the payments, and every
     * condition holds (New-Order's D_NEXT_O_ID and Payment's D_YTD are changed in one row by
     * transactions that must neither fail each other forever nor lose a change).
     */
    @Test
    void newOrdersAndPaymentsOfOneDistrictAtOnceTakeEachOrderIdOnceAndLoseNoPayment() throws Exception {
        int w = 1;
        int d = 6;
        int next = (Integer) target.readRow(TpccSchema.DISTRICT, List.of(w, d)).get(TpccSchema.D_NEXT_O_ID);
        BigDecimal ytd = (BigDecimal) target.readRow(TpccSchema.DISTRICT, List.of(w, d)).get(TpccSchema.D_YTD);
        int terminals = 6;
        int each = 15;
        BigDecimal amount = new BigDecimal("3.25");
        ExecutorService pool = Executors.newFixedThreadPool(terminals);
        List<Integer> orderIds = new ArrayList<>();
        try {
            List<Future<List<Integer>>> done = new ArrayList<>();
            for (int t = 0; t < terminals; t++) {
                int terminal = t;
                done.add(pool.submit(() -> {
                    List<Integer> ids = new ArrayList<>();
                    try (TpccTarget.Session s = target.openSession()) {
                        for (int i = 0; i < each; i++) {
                            if (terminal % 2 == 0) {
                                ids.add(s.newOrder(order(w, d, 1 + (terminal * each + i) % 30, false)).orderId());
                            } else {
                                s.payment(new TpccInputs.Payment(w, d, w, d, TpccInputs.CustomerSelector.byId(1 + i % 30),
                                        amount, tick(), (990L + terminal) << 32 | i));
                            }
                        }
                    }
                    return ids;
                }));
            }
            for (Future<List<Integer>> f : done) {
                orderIds.addAll(f.get());
            }
        } finally {
            pool.shutdownNow();
        }
        int newOrders = terminals / 2 * each;
        assertEquals(newOrders, new TreeSet<>(orderIds).size(), "each New-Order took its own order id: " + orderIds);
        assertEquals(next, Collections.min(orderIds));
        assertEquals(next + newOrders - 1, Collections.max(orderIds));
        List<Object> district = target.readRow(TpccSchema.DISTRICT, List.of(w, d));
        assertEquals(next + newOrders, district.get(TpccSchema.D_NEXT_O_ID));
        assertEquals(ytd.add(amount.multiply(BigDecimal.valueOf((long) terminals / 2 * each))), district.get(TpccSchema.D_YTD));
        assertEquals(List.of(), check(false));
    }

    /** Clause 2.4.2.2: a line from another supply warehouse updates that warehouse's STOCK and its S_REMOTE_CNT. */
    @Test
    void newOrderTakesRemoteLinesFromTheSupplyWarehousesStock() throws Exception {
        int w = 1;
        int d = 2;
        int[] items = {5, 6, 7, 8, 9};
        int[] supply = {1, 2, 1, 2, 2};
        List<List<Object>> stockBefore = new ArrayList<>();
        for (int l = 0; l < items.length; l++) {
            stockBefore.add(target.readRow(TpccSchema.STOCK, List.of(supply[l], items[l])));
        }
        List<Object> otherHomeStock = target.readRow(TpccSchema.STOCK, List.of(1, 6));
        TpccInputs.NewOrder in = new TpccInputs.NewOrder(w, d, 11, items, supply, new int[] {1, 2, 3, 4, 5}, tick(), false);
        assertEquals(3, in.remoteLines());
        TpccTarget.NewOrderResult r;
        try (TpccTarget.Session s = target.openSession()) {
            r = s.newOrder(in);
        }
        assertFalse(r.rolledBack());
        assertEquals(0, target.readRow(TpccSchema.ORDERS, List.of(w, d, r.orderId())).get(TpccSchema.O_ALL_LOCAL));
        for (int l = 0; l < items.length; l++) {
            List<Object> before = stockBefore.get(l);
            List<Object> after = target.readRow(TpccSchema.STOCK, List.of(supply[l], items[l]));
            int quantity = l + 1;
            assertEquals(TpccRules.stockQuantityAfter((Integer) before.get(TpccSchema.S_QUANTITY), quantity),
                    after.get(TpccSchema.S_QUANTITY), "line " + (l + 1));
            assertEquals((Integer) before.get(TpccSchema.S_YTD) + quantity, after.get(TpccSchema.S_YTD));
            assertEquals((Integer) before.get(TpccSchema.S_ORDER_CNT) + 1, after.get(TpccSchema.S_ORDER_CNT));
            assertEquals((Integer) before.get(TpccSchema.S_REMOTE_CNT) + (supply[l] == w ? 0 : 1), after.get(TpccSchema.S_REMOTE_CNT),
                    "S_REMOTE_CNT of line " + (l + 1));
            List<Object> line = target.readRow(TpccSchema.ORDER_LINE, List.of(w, d, r.orderId(), l + 1));
            assertEquals(supply[l], line.get(TpccSchema.OL_SUPPLY_W_ID));
            assertEquals(before.get(TpccSchema.S_DIST_01 + d - 1), line.get(TpccSchema.OL_DIST_INFO));
        }
        assertEquals(otherHomeStock, target.readRow(TpccSchema.STOCK, List.of(1, 6)), "item 6 came from warehouse 2");
        assertEquals(List.of(), check(false));
    }

    /**
     * Clause 2.5.2.2 with a remote customer: the home warehouse and district take the payment (W_YTD,
     * D_YTD, the HISTORY row, whose H_W_ID is the home warehouse and H_C_W_ID the customer's), the
     * customer's own warehouse holds the customer row that changes; condition 10 must count the
     * HISTORY row of the other warehouse.
     */
    @Test
    void remotePaymentPaysTheOtherWarehousesCustomerAndRecordsHistoryAtHome() throws Exception {
        List<Object> customerBefore = target.readRow(TpccSchema.CUSTOMER, List.of(2, 7, 4));
        List<Object> homeCustomerBefore = target.readRow(TpccSchema.CUSTOMER, List.of(1, 3, 4));
        BigDecimal homeYtd = (BigDecimal) target.readRow(TpccSchema.WAREHOUSE, List.of(1)).get(TpccSchema.W_YTD);
        BigDecimal otherYtd = (BigDecimal) target.readRow(TpccSchema.WAREHOUSE, List.of(2)).get(TpccSchema.W_YTD);
        BigDecimal amount = new BigDecimal("77.10");
        long historyId = (997L << 32) | 1;
        TpccTarget.PaymentResult r;
        try (TpccTarget.Session s = target.openSession()) {
            r = s.payment(new TpccInputs.Payment(1, 3, 2, 7, TpccInputs.CustomerSelector.byId(4), amount, tick(), historyId));
        }
        assertEquals(4, r.customerId());
        BigDecimal balance = ((BigDecimal) customerBefore.get(TpccSchema.C_BALANCE)).subtract(amount);
        assertEquals(balance, r.balance());
        List<Object> customer = target.readRow(TpccSchema.CUSTOMER, List.of(2, 7, 4));
        assertEquals(balance, customer.get(TpccSchema.C_BALANCE));
        assertEquals((Integer) customerBefore.get(TpccSchema.C_PAYMENT_CNT) + 1, customer.get(TpccSchema.C_PAYMENT_CNT));
        assertEquals(homeCustomerBefore, target.readRow(TpccSchema.CUSTOMER, List.of(1, 3, 4)));
        assertEquals(homeYtd.add(amount), target.readRow(TpccSchema.WAREHOUSE, List.of(1)).get(TpccSchema.W_YTD));
        assertEquals(otherYtd, target.readRow(TpccSchema.WAREHOUSE, List.of(2)).get(TpccSchema.W_YTD));
        List<Object> history = target.readRow(TpccSchema.HISTORY, List.of(1, 3, historyId));
        assertNotNull(history, "the HISTORY row is the home warehouse's");
        assertEquals(List.of(4, 7, 2), List.of(history.get(TpccSchema.H_C_ID), history.get(TpccSchema.H_C_D_ID),
                history.get(TpccSchema.H_C_W_ID)));
        assertNull(target.readRow(TpccSchema.HISTORY, List.of(2, 7, historyId)));
        assertEquals(List.of(), check(false));

        // Undo the payment on the customer row only: its balance no longer matches delivered -
        // paid (10), which only a checker that sums the other warehouse's HISTORY can see; C_BALANCE
        // + C_YTD_PAYMENT still equals what was delivered (12 holds).
        target.writeRow(TpccSchema.CUSTOMER, new ArrayList<>(customerBefore));
        List<ConsistencyViolation> v = check(false);
        assertEquals(Set.of(10), conditions(v), v.toString());
        assertTrue(v.get(0).detail().contains("(2, 7) customer 4"), v.toString());
    }

    @Test
    void newOrderWithAnUnusedItemRollsBackWithoutATrace() throws Exception {
        int w = 1;
        int d = 7;
        List<Object> districtBefore = target.readRow(TpccSchema.DISTRICT, List.of(w, d));
        List<Object> stockBefore = target.readRow(TpccSchema.STOCK, List.of(w, 3));
        int next = (Integer) districtBefore.get(TpccSchema.D_NEXT_O_ID);
        TpccTarget.NewOrderResult r;
        try (TpccTarget.Session s = target.openSession()) {
            r = s.newOrder(order(w, d, 9, true));
        }
        assertTrue(r.rolledBack());
        assertEquals(districtBefore, target.readRow(TpccSchema.DISTRICT, List.of(w, d)));
        assertEquals(stockBefore, target.readRow(TpccSchema.STOCK, List.of(w, 3)));
        assertNull(target.readRow(TpccSchema.ORDERS, List.of(w, d, next)));
        assertNull(target.readRow(TpccSchema.NEW_ORDER, List.of(w, d, next)));
        assertNull(target.readRow(TpccSchema.ORDER_LINE, List.of(w, d, next, 1)));
        assertEquals(List.of(), check(true));
    }

    @Test
    void paymentByLastNamePaysTheMiddleCustomerByFirstName() throws Exception {
        int w = 1;
        int d = 2;
        String last = TpccRandom.lastName(500); // unused: 30 customers have names 0..29
        // Four customers renamed to one last name; by C_FIRST they are 12, 7, 20, 3, so the
        // customer at position ceil(4 / 2) = 2 is 7.
        int[] ids = {3, 7, 12, 20};
        String[] firsts = {"DDDD", "BBBB", "AAAA", "CCCC"};
        for (int i = 0; i < ids.length; i++) {
            List<Object> c = new ArrayList<>(target.readRow(TpccSchema.CUSTOMER, List.of(w, d, ids[i])));
            c.set(TpccSchema.C_LAST, last);
            c.set(TpccSchema.C_FIRST, firsts[i]);
            target.writeRow(TpccSchema.CUSTOMER, c);
            target.writeRow(TpccSchema.CUSTOMER_BY_LAST, new ArrayList<>(List.of(w, d, last, firsts[i], ids[i])));
        }
        BigDecimal before = (BigDecimal) target.readRow(TpccSchema.CUSTOMER, List.of(w, d, 7)).get(TpccSchema.C_BALANCE);
        BigDecimal amount = new BigDecimal("123.45");
        TpccTarget.PaymentResult r;
        TpccTarget.OrderStatusResult status;
        try (TpccTarget.Session s = target.openSession()) {
            r = s.payment(new TpccInputs.Payment(w, d, w, d, TpccInputs.CustomerSelector.byLastName(last), amount, tick(),
                    (999L << 32) | 1));
            status = s.orderStatus(new TpccInputs.OrderStatus(w, d, TpccInputs.CustomerSelector.byLastName(last)));
        }
        assertEquals(7, r.customerId());
        assertEquals(before.subtract(amount), r.balance());
        List<Object> c7 = target.readRow(TpccSchema.CUSTOMER, List.of(w, d, 7));
        assertEquals(before.subtract(amount), c7.get(TpccSchema.C_BALANCE));
        assertEquals(2, c7.get(TpccSchema.C_PAYMENT_CNT));
        assertEquals(new BigDecimal("-10.00"), target.readRow(TpccSchema.CUSTOMER, List.of(w, d, 12)).get(TpccSchema.C_BALANCE));
        assertNotNull(target.readRow(TpccSchema.HISTORY, List.of(w, d, (999L << 32) | 1)));
        assertEquals(7, status.customerId());
        assertTrue(status.orderId() >= 1 && status.lines() >= 5, "customer 7's newest order " + status);
        assertEquals(List.of(), check(false));
    }

    @Test
    void deliveryRemovesTheOldestNewOrderOfEveryDistrict() throws Exception {
        int w = 2;
        int oldest = SCALE.firstNewOrderId();
        List<Object> order = target.readRow(TpccSchema.ORDERS, List.of(w, 3, oldest));
        int customerId = (Integer) order.get(TpccSchema.O_C_ID);
        BigDecimal balanceBefore = (BigDecimal) target.readRow(TpccSchema.CUSTOMER, List.of(w, 3, customerId)).get(TpccSchema.C_BALANCE);
        BigDecimal linesSum = BigDecimal.ZERO;
        for (int l = 1; l <= (Integer) order.get(TpccSchema.O_OL_CNT); l++) {
            linesSum = linesSum.add((BigDecimal) target.readRow(TpccSchema.ORDER_LINE, List.of(w, 3, oldest, l)).get(TpccSchema.OL_AMOUNT));
        }
        TpccTarget.DeliveryResult r;
        long when = tick();
        try (TpccTarget.Session s = target.openSession()) {
            r = s.delivery(new TpccInputs.Delivery(w, 6, when));
        }
        assertEquals(10, r.deliveredOrderIds().size());
        for (int d = 1; d <= 10; d++) {
            assertEquals(oldest, r.deliveredOrderIds().get(d - 1));
            assertNull(target.readRow(TpccSchema.NEW_ORDER, List.of(w, d, oldest)));
            assertNotNull(target.readRow(TpccSchema.NEW_ORDER, List.of(w, d, oldest + 1)));
            assertEquals(SCALE.newOrdersPerDistrict() - 1, target.countRows(TpccSchema.NEW_ORDER, w, d));
            assertEquals(6, target.readRow(TpccSchema.ORDERS, List.of(w, d, oldest)).get(TpccSchema.O_CARRIER_ID));
        }
        assertEquals(when, target.readRow(TpccSchema.ORDER_LINE, List.of(w, 3, oldest, 1)).get(TpccSchema.OL_DELIVERY_D));
        List<Object> customer = target.readRow(TpccSchema.CUSTOMER, List.of(w, 3, customerId));
        assertEquals(balanceBefore.add(linesSum), customer.get(TpccSchema.C_BALANCE));
        assertEquals(1, customer.get(TpccSchema.C_DELIVERY_CNT));
        assertEquals(SCALE.newOrdersPerDistrict(), target.countRows(TpccSchema.NEW_ORDER, 1, 3), "warehouse 1 untouched");
        assertEquals(List.of(), check(false));
        // Condition 11 holds only as loaded: one delivery per district breaks it, as it should.
        assertEquals(Set.of(11), conditions(check(true)));
    }

    @Test
    void deliverySkipsADistrictWithNoNewOrder() throws Exception {
        int w = 1;
        try (TpccTarget.Session s = target.openSession()) {
            for (int i = 0; i < SCALE.newOrdersPerDistrict(); i++) {
                s.delivery(new TpccInputs.Delivery(w, 1, tick()));
            }
            TpccTarget.DeliveryResult r = s.delivery(new TpccInputs.Delivery(w, 1, tick()));
            assertEquals(10, r.skippedDistricts());
        }
        assertEquals(0, target.countRows(TpccSchema.NEW_ORDER, w, 5));
        assertEquals(List.of(), check(false));
    }

    @Test
    void checkerReportsACorruptedWarehouseYtd() throws Exception {
        List<Object> warehouse = new ArrayList<>(target.readRow(TpccSchema.WAREHOUSE, List.of(2)));
        warehouse.set(TpccSchema.W_YTD, ((BigDecimal) warehouse.get(TpccSchema.W_YTD)).add(new BigDecimal("0.01")));
        target.writeRow(TpccSchema.WAREHOUSE, warehouse);
        List<ConsistencyViolation> v = check(true);
        assertEquals(Set.of(1, 8), conditions(v), v.toString());
        assertTrue(v.stream().allMatch(x -> x.detail().contains("warehouse 2")), v.toString());
    }

    @Test
    void checkerReportsACarrierSetOnAnUndeliveredOrder() throws Exception {
        int o = SCALE.firstNewOrderId() + 2;
        List<Object> order = new ArrayList<>(target.readRow(TpccSchema.ORDERS, List.of(1, 9, o)));
        order.set(TpccSchema.O_CARRIER_ID, 4);
        target.writeRow(TpccSchema.ORDERS, order);
        List<ConsistencyViolation> v = check(true);
        // 3.3.2.5: a carrier but still a NEW_ORDER row; 3.3.2.7: a carrier but undelivered lines.
        assertEquals(Set.of(5, 7), conditions(v), v.toString());
    }

    @Test
    void checkerReportsACustomerBalanceOff() throws Exception {
        List<Object> customer = new ArrayList<>(target.readRow(TpccSchema.CUSTOMER, List.of(1, 1, 1)));
        customer.set(TpccSchema.C_BALANCE, new BigDecimal("-9.00"));
        target.writeRow(TpccSchema.CUSTOMER, customer);
        assertEquals(Set.of(10, 12), conditions(check(true)));
    }

    static Set<Integer> conditions(List<ConsistencyViolation> violations) {
        Set<Integer> s = new TreeSet<>();
        violations.forEach(v -> s.add(v.condition()));
        return s;
    }
}
