package org.elastras.experiments.tpcc;

import java.util.List;
import java.util.Map;

/**
 * A target that tells a listener, for every transaction a terminal ran, its home warehouse and how
 * long the call took (failed calls included): the live-move experiment splits its per-second
 * latency into the moving warehouse and the others with it, which tells a slowdown of the moving
 * partition from one of the whole machine. Everything else goes to the wrapped target unchanged.
 */
final class WarehouseTimedTarget implements TpccTarget {

    /** Told of every finished call; called on the terminals' threads, so it must be thread-safe and quick. */
    interface Listener {
        void finished(int warehouseId, long micros);
    }

    private final TpccTarget target;
    private final Listener listener;

    WarehouseTimedTarget(TpccTarget target, Listener listener) {
        if (target == null || listener == null) {
            throw new IllegalArgumentException("a timed target needs a target and a listener");
        }
        this.target = target;
        this.listener = listener;
    }

    @Override
    public String name() {
        return target.name();
    }

    @Override
    public String description() {
        return target.description();
    }

    @Override
    public TpccLoader.BatchWriter openBatchWriter() throws Exception {
        return target.openBatchWriter();
    }

    @Override
    public int loadBatchRowsMax() {
        return target.loadBatchRowsMax();
    }

    @Override
    public void loadItems(List<List<Object>> rows) throws Exception {
        target.loadItems(rows);
    }

    @Override
    public List<ConsistencyViolation> checkConsistency(int warehouses, boolean afterLoad, int loadedDeliveredOrders)
            throws Exception {
        return target.checkConsistency(warehouses, afterLoad, loadedDeliveredOrders);
    }

    @Override
    public List<Object> readRow(String table, List<Object> key) throws Exception {
        return target.readRow(table, key);
    }

    @Override
    public void writeRow(String table, List<Object> row) throws Exception {
        target.writeRow(table, row);
    }

    @Override
    public long countRows(String table, int warehouseId, int districtId) throws Exception {
        return target.countRows(table, warehouseId, districtId);
    }

    @Override
    public Map<String, Double> processCpuSeconds() throws Exception {
        return target.processCpuSeconds();
    }

    @Override
    public Map<String, Double> processJitSeconds() throws Exception {
        return target.processJitSeconds();
    }

    @Override
    public Map<String, Long> serverRetries() throws Exception {
        return target.serverRetries();
    }

    @Override
    public Map<String, Long> serverLogCounters() throws Exception {
        return target.serverLogCounters();
    }

    @Override
    public void close() throws Exception {
        target.close();
    }

    @Override
    public Session openSession() throws Exception {
        Session session = target.openSession();
        return new Session() {
            @Override
            public NewOrderResult newOrder(TpccInputs.NewOrder in) throws Exception {
                return timed(in.warehouseId(), () -> session.newOrder(in));
            }

            @Override
            public PaymentResult payment(TpccInputs.Payment in) throws Exception {
                return timed(in.warehouseId(), () -> session.payment(in));
            }

            @Override
            public OrderStatusResult orderStatus(TpccInputs.OrderStatus in) throws Exception {
                return timed(in.warehouseId(), () -> session.orderStatus(in));
            }

            @Override
            public DeliveryResult delivery(TpccInputs.Delivery in) throws Exception {
                return timed(in.warehouseId(), () -> session.delivery(in));
            }

            @Override
            public StockLevelResult stockLevel(TpccInputs.StockLevel in) throws Exception {
                return timed(in.warehouseId(), () -> session.stockLevel(in));
            }

            @Override
            public void close() throws Exception {
                session.close();
            }
        };
    }

    private interface Call<T> {
        T run() throws Exception;
    }

    private <T> T timed(int warehouseId, Call<T> call) throws Exception {
        long started = System.nanoTime();
        try {
            return call.run();
        } finally {
            listener.finished(warehouseId, (System.nanoTime() - started) / 1_000);
        }
    }
}
