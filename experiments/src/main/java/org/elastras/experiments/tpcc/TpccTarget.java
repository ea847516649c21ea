package org.elastras.experiments.tpcc;

import java.math.BigDecimal;
import java.util.List;
import java.util.Map;

/**
 * A system TPC-C runs on: it loads a database, runs the five transactions for terminals, checks
 * the consistency conditions and reads or writes single rows (for tests and tools). The
 * implementations are {@link DerbyTpccTarget} (the baseline) and {@link OtmTpccTarget}
 * (ElasTraS). Thread-safe: the loader and the terminals call it from many threads; each
 * {@link Session} belongs to one terminal thread.
 */
public interface TpccTarget extends AutoCloseable {

    /** Short name for tables and files, e.g. {@code derby} or {@code elastras}. */
    String name();

    /** What the name does not say: client, isolation, durability, partitioning. */
    String description();

    /** Where the loader's rows go; one per loading thread. */
    TpccLoader.BatchWriter openBatchWriter() throws Exception;

    /** Rows of one batch the loader hands to {@link TpccLoader.BatchWriter#write} at most. */
    int loadBatchRowsMax();

    /** Loads ITEM (a global table) whole; called once, before the warehouses. */
    void loadItems(List<List<Object>> rows) throws Exception;

    /** A connection for one terminal thread. */
    Session openSession() throws Exception;

    /**
     * Checks the consistency conditions of clause 3.3.2 on a quiet database.
     *
     * @param afterLoad the database is exactly as loaded: condition 3.3.2.11 is checked too
     * @param loadedDeliveredOrders delivered orders per district after loading (spec: 2,100)
     * @return the violations; empty if every condition holds
     */
    List<ConsistencyViolation> checkConsistency(int warehouses, boolean afterLoad, int loadedDeliveredOrders) throws Exception;

    /** The row of {@code table} with this primary key (values in key order), in column order; null if none. */
    List<Object> readRow(String table, List<Object> key) throws Exception;

    /** Inserts or replaces a whole row, outside the workload (tests use it to corrupt data). */
    void writeRow(String table, List<Object> row) throws Exception;

    /** Rows of {@code table} whose key starts with (w, d) (a count for tests). */
    long countRows(String table, int warehouseId, int districtId) throws Exception;

    /**
     * CPU seconds used so far by the processes of this target outside the benchmark JVM, by name
     * (e.g. each OTM process, the PostgreSQL server with its backends); empty when the target runs
     * inside the JVM. The driver reads it at the start and end of the measured period.
     */
    default Map<String, Double> processCpuSeconds() throws Exception {
        return Map.of();
    }

    /**
     * Of {@link #processCpuSeconds()}, the seconds each JVM's JIT compiler threads used so far, by
     * the same names; empty when this target has no JVMs of its own. A measured period in which the
     * compilers were busy did not run at steady state.
     */
    default Map<String, Double> processJitSeconds() throws Exception {
        return Map.of();
    }

    /**
     * Transactions the target's servers ran again by themselves so far (a stored procedure re-run
     * after a conflict: the client saw one call), by "procedure reason" (e.g. "payment CONFLICT");
     * empty when clients see every attempt themselves. The driver reads it at the start and end of
     * the measured period.
     */
    default Map<String, Long> serverRetries() throws Exception {
        return Map.of();
    }

    /**
     * The servers' write-ahead logs so far, summed over them: {@code "batches"} (each ended by one
     * sync) and {@code "records"}; empty when the target does not say. Read at the start and end of
     * the measured period: records per batch is how many commits one sync served.
     */
    default Map<String, Long> serverLogCounters() throws Exception {
        return Map.of();
    }

    @Override
    void close() throws Exception;

    /** One terminal's connection. Not thread-safe. */
    interface Session extends AutoCloseable {

        /** Clause 2.4. A requested rollback returns {@code rolledBack = true}; any other failure throws. */
        NewOrderResult newOrder(TpccInputs.NewOrder input) throws Exception;

        /** Clause 2.5. */
        PaymentResult payment(TpccInputs.Payment input) throws Exception;

        /** Clause 2.6. */
        OrderStatusResult orderStatus(TpccInputs.OrderStatus input) throws Exception;

        /** Clause 2.7. */
        DeliveryResult delivery(TpccInputs.Delivery input) throws Exception;

        /** Clause 2.8. */
        StockLevelResult stockLevel(TpccInputs.StockLevel input) throws Exception;

        @Override
        void close() throws Exception;
    }

    /** New-Order's output (clause 2.4.3.3); {@code attempts} counts re-runs after conflicts, from 1. */
    record NewOrderResult(boolean rolledBack, int orderId, BigDecimal total, int attempts) {
    }

    /** Payment's output: the customer paid for (chosen by name or id) and the new balance. */
    record PaymentResult(int customerId, BigDecimal balance, int attempts) {
    }

    /** Order-Status's output: the customer, its newest order (0 if none) and that order's lines. */
    record OrderStatusResult(int customerId, BigDecimal balance, int orderId, Integer carrierId, int lines, int attempts) {
    }

    /** Delivery's output: the order delivered in districts 1..10, 0 where none was waiting. */
    record DeliveryResult(List<Integer> deliveredOrderIds, int attempts) {

        public long skippedDistricts() {
            return deliveredOrderIds.stream().filter(o -> o == 0).count();
        }
    }

    /** Stock-Level's output: distinct items of the last 20 orders below the threshold. */
    record StockLevelResult(int lowStock, int attempts) {
    }
}
