package org.elastras.experiments.tpcc;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Generates the initial database of clause 4.3.3.1 as rows in {@link TpccSchema} column order
 * (canonical catalog values: Integer, Long microseconds, BigDecimal at the column's scale,
 * String). Deterministic: the rows of warehouse w depend only on the seed, w and the scale, so
 * warehouses may be generated in parallel and every target gets the same bytes. Immutable; the
 * generate methods may be called from several threads at once.
 */
public final class TpccDataGenerator {

    /** Where generated rows go; called from the generating thread only. */
    @FunctionalInterface
    public interface RowSink {
        void accept(String table, List<Object> row) throws Exception;
    }

    private static final BigDecimal CREDIT_LIMIT = new BigDecimal("50000.00");
    private static final BigDecimal C_BALANCE_INITIAL = new BigDecimal("-10.00");
    private static final BigDecimal C_YTD_PAYMENT_INITIAL = new BigDecimal("10.00");
    private static final BigDecimal H_AMOUNT_INITIAL = new BigDecimal("10.00");
    private static final BigDecimal ZERO_AMOUNT = new BigDecimal("0.00");

    private final TpccScale scale;
    private final long seed;
    private final NuRandConstants load;
    private final long loadTimeMicros;

    /**
     * @param loadTimeMicros "the current date and time" of the load (C_SINCE, H_DATE, O_ENTRY_D),
     *     passed in so that a load replays exactly
     */
    public TpccDataGenerator(TpccScale scale, long seed, long loadTimeMicros) {
        this.scale = scale;
        this.seed = seed;
        this.load = NuRandConstants.forLoad(seed);
        this.loadTimeMicros = loadTimeMicros;
    }

    public TpccScale scale() {
        return scale;
    }

    /** The NURand constants the load used; the run derives its own from them (clause 2.1.6.1). */
    public NuRandConstants loadConstants() {
        return load;
    }

    /** The ITEM rows 1..items (clause 4.3.3.1). */
    public List<List<Object>> items() {
        TpccRandom r = new TpccRandom(seed * 31 + 7);
        List<List<Object>> rows = new ArrayList<>(scale.items());
        for (int i = 1; i <= scale.items(); i++) {
            rows.add(Arrays.asList(i, r.uniform(1, 10_000), r.aString(14, 24), r.uniformDecimal("1.00", "100.00", 2),
                    r.dataWithOriginal()));
        }
        return rows;
    }

    /**
     * Every row of warehouse {@code w}: WAREHOUSE, STOCK, DISTRICT, then per district CUSTOMER
     * with its CUSTOMER_BY_LAST and HISTORY rows, and ORDERS with ORDERS_BY_CUSTOMER, ORDER_LINE
     * and NEW_ORDER rows.
     */
    public void warehouse(int w, RowSink sink) throws Exception {
        if (w < 1 || w > scale.warehouses()) {
            throw new IllegalArgumentException("warehouse must be 1.." + scale.warehouses() + ", got " + w);
        }
        TpccRandom r = new TpccRandom(seed * 1_000_003L + w);
        sink.accept(TpccSchema.WAREHOUSE, Arrays.asList(w, r.aString(6, 10), r.aString(10, 20), r.aString(10, 20),
                r.aString(10, 20), r.state(), r.zip(), r.uniformDecimal("0.0000", "0.2000", 4), warehouseYtdInitial()));
        for (int i = 1; i <= scale.items(); i++) {
            List<Object> stock = new ArrayList<>(17);
            stock.add(w);
            stock.add(i);
            stock.add(r.uniform(10, 100));
            for (int d = 1; d <= 10; d++) {
                stock.add(r.aString(24, 24));
            }
            stock.add(0);
            stock.add(0);
            stock.add(0);
            stock.add(r.dataWithOriginal());
            sink.accept(TpccSchema.STOCK, stock);
        }
        for (int d = 1; d <= TpccScale.DISTRICTS_PER_WAREHOUSE; d++) {
            sink.accept(TpccSchema.DISTRICT, Arrays.asList(w, d, r.aString(6, 10), r.aString(10, 20), r.aString(10, 20),
                    r.aString(10, 20), r.state(), r.zip(), r.uniformDecimal("0.0000", "0.2000", 4), districtYtdInitial(),
                    scale.ordersPerDistrict() + 1));
            customers(w, d, r, sink);
            orders(w, d, r, sink);
        }
    }

    /**
     * D_YTD after loading: 30,000.00 in the spec, which is the sum of the district's loaded
     * H_AMOUNTs (3,000 x 10.00); a scaled-down district keeps that equality (condition 3.3.2.9).
     */
    BigDecimal districtYtdInitial() {
        return H_AMOUNT_INITIAL.multiply(BigDecimal.valueOf(scale.customersPerDistrict()));
    }

    /** W_YTD after loading: 300,000.00 in the spec, ten districts' D_YTD (condition 3.3.2.1). */
    BigDecimal warehouseYtdInitial() {
        return districtYtdInitial().multiply(BigDecimal.valueOf(TpccScale.DISTRICTS_PER_WAREHOUSE));
    }

    private void customers(int w, int d, TpccRandom r, RowSink sink) throws Exception {
        for (int c = 1; c <= scale.customersPerDistrict(); c++) {
            // Clause 4.3.3.1: C_LAST of the first 1,000 customers is lastName(C_ID - 1), of the
            // rest lastName(NURand(255, 0, 999)).
            String last = c <= 1_000 ? TpccRandom.lastName(c - 1) : TpccRandom.lastName(r.nuRand(255, 0, 999, load.cLast()));
            String first = r.aString(8, 16);
            String credit = r.uniform(1, 100) <= 10 ? "BC" : "GC";
            sink.accept(TpccSchema.CUSTOMER, Arrays.asList(w, d, c, first, "OE", last, r.aString(10, 20), r.aString(10, 20),
                    r.aString(10, 20), r.state(), r.zip(), r.nString(16, 16), loadTimeMicros, credit, CREDIT_LIMIT,
                    r.uniformDecimal("0.0000", "0.5000", 4), C_BALANCE_INITIAL, C_YTD_PAYMENT_INITIAL, 1, 0,
                    r.aString(300, 500)));
            sink.accept(TpccSchema.CUSTOMER_BY_LAST, Arrays.asList(w, d, last, first, c));
            sink.accept(TpccSchema.HISTORY, Arrays.asList(w, d, (long) c, c, d, w, loadTimeMicros, H_AMOUNT_INITIAL,
                    r.aString(12, 24)));
        }
    }

    private void orders(int w, int d, TpccRandom r, RowSink sink) throws Exception {
        int[] customerOfOrder = r.permutation(scale.ordersPerDistrict());
        int firstNew = scale.firstNewOrderId();
        for (int o = 1; o <= scale.ordersPerDistrict(); o++) {
            boolean delivered = o < firstNew;
            int lines = r.uniform(5, 15);
            int customer = customerOfOrder[o - 1];
            sink.accept(TpccSchema.ORDERS, Arrays.asList(w, d, o, customer, loadTimeMicros,
                    delivered ? r.uniform(1, 10) : null, lines, 1));
            sink.accept(TpccSchema.ORDERS_BY_CUSTOMER, Arrays.asList(w, d, customer, o));
            for (int l = 1; l <= lines; l++) {
                sink.accept(TpccSchema.ORDER_LINE, Arrays.asList(w, d, o, l, r.uniform(1, scale.items()), w,
                        delivered ? loadTimeMicros : null, 5,
                        delivered ? ZERO_AMOUNT : r.uniformDecimal("0.01", "9999.99", 2), r.aString(24, 24)));
            }
            if (!delivered) {
                sink.accept(TpccSchema.NEW_ORDER, Arrays.asList(w, d, o));
            }
        }
    }

    /**
     * About how many rows {@link #warehouse} emits for one warehouse, index rows included (order
     * lines counted at their mean of 10 an order); for progress reports.
     */
    public long rowsPerWarehouseEstimate() {
        long perDistrict = 3L * scale.customersPerDistrict() + 2L * scale.ordersPerDistrict()
                + 10L * scale.ordersPerDistrict() + scale.newOrdersPerDistrict();
        return 1 + scale.items() + TpccScale.DISTRICTS_PER_WAREHOUSE * (1 + perDistrict);
    }
}
