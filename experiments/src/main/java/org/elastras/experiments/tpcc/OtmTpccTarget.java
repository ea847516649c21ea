package org.elastras.experiments.tpcc;

import java.math.BigDecimal;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.elastras.catalog.schema.TableSchema;
import org.elastras.client.OtmClient;
import org.elastras.client.protocol.CallRequest;
import org.elastras.client.protocol.CallResponse;
import org.elastras.client.protocol.ElasTrasException;
import org.elastras.client.protocol.ErrorCode;
import org.elastras.client.protocol.Isolation;
import org.elastras.client.protocol.LoadGlobalTableRequest;

/**
 * TPC-C on ElasTraS: an {@link InProcessTpccOtm} with one partition per
 * {@code warehousesPerPartition} warehouses, every transaction one {@code call} of a
 * {@link TpccProcedures} procedure on the partition of its home warehouse
 * ({@link WarehouseRouter}), over one shared {@link OtmClient} (calls multiplexed on one
 * connection). New-Order, Payment and Delivery run SERIALIZABLE (or SNAPSHOT, see {@link #start});
 * Order-Status and Stock-Level SNAPSHOT (read-only, one consistent snapshot; clause 3.4.1 asks less of them). Commits are
 * acknowledged after the WAL group-commit sync. The OTM re-runs a procedure after a conflict; the
 * response's {@code attempts} says how often.
 *
 * <p>ITEM is a global table loaded with {@code loadGlobalTable} in chunks of
 * {@link #ITEMS_PER_CHUNK} rows, each request well under the OTM's 4 MiB body limit; the last
 * chunk publishes the table (see {@link #itemRequests}). Thread-safe.
 */
public final class OtmTpccTarget implements TpccTarget {

    private final InProcessTpccOtm otm;
    private final WarehouseRouter router;
    /** Isolation of New-Order, Payment and Delivery. */
    private final Isolation writers;

    private OtmTpccTarget(InProcessTpccOtm otm, WarehouseRouter router, Isolation writers) {
        this.otm = otm;
        this.router = router;
        this.writers = writers;
    }

    /**
     * Starts an OTM in this JVM with its scratch data under {@code scratch} and opens the partitions.
     *
     * @param writers the isolation of New-Order, Payment and Delivery: SERIALIZABLE is what clause
     *     3.4 asks for; SNAPSHOT is the alternative that Fekete et al., "Making Snapshot Isolation
     *     Serializable" (ACM TODS 30(2), 2005), showed to give serializable executions for the
     *     TPC-C mix (its static dependency graph has no dangerous structure). On the OTM, SERIALIZABLE
     *     also aborts a New-Order whose WAREHOUSE or DISTRICT read (W_TAX, D_TAX) was overwritten by a
     *     Payment's W_YTD / D_YTD, because validation is per row, not per column.
     */
    public static OtmTpccTarget start(Path scratch, int warehouses, int warehousesPerPartition, Isolation writers) throws Exception {
        WarehouseRouter router = new WarehouseRouter(warehouses, warehousesPerPartition);
        return new OtmTpccTarget(InProcessTpccOtm.start(scratch, router), router, writers);
    }

    /** As {@link #start(Path, int, int, Isolation)}, with a ZooKeeper server that outlives the target, under {@code zkRoot}. */
    public static OtmTpccTarget start(Path scratch, int warehouses, int warehousesPerPartition, Isolation writers,
            String zkConnect, String zkRoot) throws Exception {
        WarehouseRouter router = new WarehouseRouter(warehouses, warehousesPerPartition);
        return new OtmTpccTarget(InProcessTpccOtm.start(scratch, router, zkConnect, zkRoot), router, writers);
    }

    @Override
    public String name() {
        return writers == Isolation.SERIALIZABLE ? "elastras" : "elastras-si";
    }

    @Override
    public String description() {
        return "ElasTraS OTM in this JVM over the framed transport on 127.0.0.1, one shared OtmClient, " + router.partitions()
                + " partition(s), stored procedures, New-Order/Payment/Delivery " + writers
                + " (Order-Status and Stock-Level SNAPSHOT), WAL sync per group commit";
    }

    private CallResponse call(int warehouseId, String procedure, List<Object> args, Isolation isolation) {
        return otm.client().call(new CallRequest(TpccSchema.DATABASE, router.partitionOf(warehouseId), procedure, args, isolation, 0));
    }

    // ---- Loading and row access ----

    /**
     * Rows per {@code loadRows} call, one transaction each: within the procedure argument limit
     * (1,024), far below the write-set limits (10,000 keys, 16 MiB) and, at well under 1 MiB for
     * the widest table (CUSTOMER, C_DATA up to 500 characters), the 4 MiB request body limit
     * ({@code OtmLoadRequestsFitTheProtocolLimitsTest} checks all three).
     */
    static final int LOAD_BATCH_ROWS = 500;
    /**
     * ITEM rows per {@code loadGlobalTable} chunk: about 1.7 MB at about 109 bytes an item, under
     * half the 4 MiB body limit ({@code OtmLoadRequestsFitTheProtocolLimitsTest}); the spec's
     * 100,000 items are 7 chunks.
     */
    static final int ITEMS_PER_CHUNK = 16_000;
    /** The load id of ITEM's chunks: one load per database, so a fixed name. */
    static final String ITEM_LOAD_ID = "tpcc-item";

    @Override
    public int loadBatchRowsMax() {
        return LOAD_BATCH_ROWS;
    }

    /**
     * ITEM's rows as the chunks of one load ({@link #ITEM_LOAD_ID}): {@link #ITEMS_PER_CHUNK} rows
     * each, numbered from 0, the last one publishing.
     */
    static List<LoadGlobalTableRequest> itemRequests(List<List<Object>> rows) {
        if (rows.isEmpty()) {
            throw new IllegalArgumentException("ITEM has no rows to load");
        }
        TableSchema item = TpccSchema.table(TpccSchema.ITEM);
        List<LoadGlobalTableRequest> chunks = new ArrayList<>();
        for (int from = 0; from < rows.size(); from += ITEMS_PER_CHUNK) {
            int to = Math.min(rows.size(), from + ITEMS_PER_CHUNK);
            List<Map<String, Object>> wire = new ArrayList<>(to - from);
            for (List<Object> row : rows.subList(from, to)) {
                Map<String, Object> m = new LinkedHashMap<>();
                for (int i = 0; i < row.size(); i++) {
                    m.put(item.columns().get(i).name(), row.get(i));
                }
                wire.add(m);
            }
            chunks.add(LoadGlobalTableRequest.chunk(TpccSchema.DATABASE, TpccSchema.ITEM, ITEM_LOAD_ID, chunks.size(),
                    to == rows.size(), wire));
        }
        return chunks;
    }

    /**
     * Sends ITEM's chunks ({@link #itemRequests}) to {@code otm}, which publishes the table to the
     * DFS for every OTM; checks that the published table has every row.
     */
    static void loadItems(OtmClient otm, List<List<Object>> rows) {
        long published = 0;
        for (LoadGlobalTableRequest chunk : itemRequests(rows)) {
            published = otm.loadGlobalTable(chunk).rows();
        }
        if (published != rows.size()) {
            throw new IllegalStateException("the OTM published ITEM with " + published + " rows, " + rows.size() + " were sent");
        }
    }

    @Override
    public void loadItems(List<List<Object>> rows) {
        loadItems(otm.client(), rows);
    }

    @Override
    public TpccLoader.BatchWriter openBatchWriter() {
        return new TpccLoader.BatchWriter() {
            @Override
            public void write(String table, List<List<Object>> rows) {
                if (rows.isEmpty()) {
                    return;
                }
                int w = (Integer) rows.get(0).get(0);
                List<Object> args = TpccLoader.loadRowsArguments(table, rows);
                call(w, "loadRows", args, Isolation.SERIALIZABLE);
            }

            @Override
            public void close() {
            }
        };
    }

    @Override
    public List<Object> readRow(String table, List<Object> key) {
        List<Object> args = new ArrayList<>(key.size() + 1);
        args.add(table);
        args.addAll(key);
        int w = TpccSchema.ITEM.equals(table) ? 1 : (Integer) key.get(0);
        return decodeRow(table, call(w, "readRow", args, Isolation.SNAPSHOT).result());
    }

    /** The {@code readRow} procedure's result as a row in column order, values of the column types; null if none. */
    static List<Object> decodeRow(String table, Object result) {
        if (result == null) {
            return null;
        }
        TableSchema schema = TpccSchema.table(table);
        List<?> wire = (List<?>) result;
        List<Object> row = new ArrayList<>(wire.size());
        for (int i = 0; i < wire.size(); i++) {
            row.add(wire.get(i) == null ? null : schema.columns().get(i).normalize("table " + table, widen(wire.get(i),
                    schema.columns().get(i).type().kind())));
        }
        return row;
    }

    private static Object widen(Object v, org.elastras.catalog.schema.TypeKind kind) {
        return switch (kind) {
            case DECIMAL -> v instanceof BigDecimal ? v : new BigDecimal(v.toString());
            case BIGINT, TIMESTAMP -> ((Number) v).longValue();
            case INT -> ((Number) v).intValue();
            default -> v;
        };
    }

    @Override
    public void writeRow(String table, List<Object> row) {
        call((Integer) row.get(0), "writeRow", List.of(table, new ArrayList<>(row)), Isolation.SERIALIZABLE);
    }

    @Override
    public long countRows(String table, int warehouseId, int districtId) {
        return ((Number) call(warehouseId, "countRows", List.of(table, warehouseId, districtId), Isolation.SNAPSHOT).result())
                .longValue();
    }

    @Override
    public List<ConsistencyViolation> checkConsistency(int warehouses, boolean afterLoad, int loadedDeliveredOrders) {
        List<ConsistencyViolation> violations = new ArrayList<>();
        for (int w = 1; w <= warehouses; w++) {
            collect(violations, call(w, "auditWarehouse", List.of(w), Isolation.SNAPSHOT));
            for (int d = 1; d <= TpccScale.DISTRICTS_PER_WAREHOUSE; d++) {
                collect(violations, call(w, "auditDistrict", List.of(w, d, afterLoad, loadedDeliveredOrders, warehouses), Isolation.SNAPSHOT));
            }
        }
        violations.sort(java.util.Comparator.comparingInt(ConsistencyViolation::condition));
        return violations;
    }

    private static void collect(List<ConsistencyViolation> into, CallResponse response) {
        collect(into, response.result());
    }

    /** Adds the violations an audit procedure returned. */
    static void collect(List<ConsistencyViolation> into, Object auditResult) {
        for (Object v : (List<?>) auditResult) {
            List<?> pair = (List<?>) v;
            into.add(new ConsistencyViolation(((Number) pair.get(0)).intValue(), (String) pair.get(1)));
        }
    }

    // ---- The transactions ----

    @Override
    public Session openSession() {
        return new Session() {
            @Override
            public NewOrderResult newOrder(TpccInputs.NewOrder in) {
                CallResponse r;
                try {
                    r = call(in.warehouseId(), "newOrder", newOrderArgs(in), writers);
                } catch (ElasTrasException e) {
                    if (isRequestedRollback(e)) {
                        return new NewOrderResult(true, 0, BigDecimal.ZERO, 1);
                    }
                    throw e;
                }
                return newOrderResult(r.result(), r.attempts());
            }

            @Override
            public PaymentResult payment(TpccInputs.Payment in) {
                CallResponse r = call(in.warehouseId(), "payment", paymentArgs(in), writers);
                return paymentResult(r.result(), r.attempts());
            }

            @Override
            public OrderStatusResult orderStatus(TpccInputs.OrderStatus in) {
                CallResponse r = call(in.warehouseId(), "orderStatus", orderStatusArgs(in), Isolation.SNAPSHOT);
                return orderStatusResult(r.result(), r.attempts());
            }

            @Override
            public DeliveryResult delivery(TpccInputs.Delivery in) {
                CallResponse r = call(in.warehouseId(), "delivery", deliveryArgs(in), writers);
                return deliveryResult(r.result(), r.attempts());
            }

            @Override
            public StockLevelResult stockLevel(TpccInputs.StockLevel in) {
                CallResponse r = call(in.warehouseId(), "stockLevel", stockLevelArgs(in), Isolation.SNAPSHOT);
                return new StockLevelResult(((Number) r.result()).intValue(), r.attempts());
            }

            @Override
            public void close() {
            }
        };
    }

    // ---- Procedure arguments and results, shared with ClusterTpccTarget ----

    /** New-Order's requested rollback (clause 2.4.2.3), as the OTM reports it. */
    static boolean isRequestedRollback(ElasTrasException e) {
        return e.code() == ErrorCode.PROCEDURE_ABORTED && String.valueOf(e.getMessage()).contains(TpccRules.ITEM_NOT_VALID);
    }

    static List<Object> newOrderArgs(TpccInputs.NewOrder in) {
        List<Object> items = new ArrayList<>(in.lines());
        List<Object> supply = new ArrayList<>(in.lines());
        List<Object> quantities = new ArrayList<>(in.lines());
        for (int l = 0; l < in.lines(); l++) {
            items.add(in.itemIds()[l]);
            supply.add(in.supplyWarehouseIds()[l]);
            quantities.add(in.quantities()[l]);
        }
        return List.of(in.warehouseId(), in.districtId(), in.customerId(), in.entryMicros(), items, supply, quantities);
    }

    static NewOrderResult newOrderResult(Object result, int attempts) {
        List<?> out = (List<?>) result;
        return new NewOrderResult(false, ((Number) out.get(0)).intValue(), decimal(out.get(1)), attempts);
    }

    static List<Object> paymentArgs(TpccInputs.Payment in) {
        return java.util.Arrays.asList(in.warehouseId(), in.districtId(), in.customerWarehouseId(), in.customerDistrictId(),
                in.customer().customerId(), in.customer().lastName(), in.amount(), in.dateMicros(), in.historyId());
    }

    static PaymentResult paymentResult(Object result, int attempts) {
        List<?> out = (List<?>) result;
        return new PaymentResult(((Number) out.get(0)).intValue(), decimal(out.get(1)), attempts);
    }

    static List<Object> orderStatusArgs(TpccInputs.OrderStatus in) {
        return java.util.Arrays.asList(in.warehouseId(), in.districtId(), in.customer().customerId(), in.customer().lastName());
    }

    static OrderStatusResult orderStatusResult(Object result, int attempts) {
        List<?> out = (List<?>) result;
        Object carrier = out.get(3);
        return new OrderStatusResult(((Number) out.get(0)).intValue(), decimal(out.get(1)), ((Number) out.get(2)).intValue(),
                carrier == null ? null : ((Number) carrier).intValue(), ((List<?>) out.get(4)).size(), attempts);
    }

    static List<Object> deliveryArgs(TpccInputs.Delivery in) {
        return List.of(in.warehouseId(), in.carrierId(), in.deliveryMicros());
    }

    static DeliveryResult deliveryResult(Object result, int attempts) {
        List<Integer> delivered = new ArrayList<>();
        for (Object o : (List<?>) result) {
            delivered.add(((Number) o).intValue());
        }
        return new DeliveryResult(delivered, attempts);
    }

    static List<Object> stockLevelArgs(TpccInputs.StockLevel in) {
        return List.of(in.warehouseId(), in.districtId(), in.threshold());
    }

    private static BigDecimal decimal(Object v) {
        return v instanceof BigDecimal b ? b : new BigDecimal(v.toString());
    }

    @Override
    public void close() throws Exception {
        otm.close();
    }
}
