package org.elastras.experiments.tpcc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigDecimal;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * The driver's bookkeeping against a scripted target whose transactions return at once: every
 * Payment fails with a serialization failure, New-Orders commit and move a D_NEXT_O_ID counter.
 * The counts, the failure reasons, the D_NEXT_O_ID cross-check and the per-second timeline must
 * agree with what the target did, whatever the machine's speed.
 */
class TpccDriverCountsWhatTheTerminalsDidTest {

    private static final TpccScale SCALE = TpccScale.scaledDown(2, 200, 30);

    @Test
    void countsFailuresByReasonAndCrossChecksNewOrdersWithTheDistricts() throws Exception {
        ScriptedTarget target = new ScriptedTarget();
        NuRandConstants run = new TpccDataGenerator(SCALE, 5, 0).loadConstants().forRun(5);
        List<TpccTimeline.Sample> seen = Collections.synchronizedList(new ArrayList<>());
        int terminalsPerWarehouse = 3;
        TpccDriver.Result r = new TpccDriver(SCALE, run, 5, RemoteWarehouses.SPEC, () -> 1_000_000L).run(target, terminalsPerWarehouse, 0, 0.5, 1, seen::add);

        TpccDriver.TypeResult newOrders = r.types().get(TransactionType.NEW_ORDER);
        TpccDriver.TypeResult payments = r.types().get(TransactionType.PAYMENT);
        assertTrue(newOrders.completed() > 0, "New-Orders completed " + newOrders.completed());
        assertEquals(0, payments.completed());
        assertTrue(payments.failed() > 0, "Payments failed " + payments.failed());
        assertEquals(Map.of("PAYMENT: sqlstate 40001", payments.failed()), r.failuresByReason());
        assertEquals(payments.failed(), r.failed());
        assertTrue(r.firstError().startsWith("PAYMENT: "), r.firstError());

        // The database's count and the driver's over the same window differ only by what was in
        // flight during the first read.
        int terminals = SCALE.warehouses() * terminalsPerWarehouse;
        assertEquals(terminals, r.terminals());
        assertTrue(r.districts().agrees(terminals), r.districts().toString());
        assertTrue(r.districts().driverCommitted() >= r.newOrdersCommitted(), "the window holds the measured period");

        assertFalse(r.timeline().isEmpty());
        assertEquals(r.timeline(), seen, "every sample is reported as it is taken");
        assertTrue(r.timeline().stream().allMatch(TpccTimeline.Sample::measured), "no warm-up was asked for");
        assertTrue(r.timeline().stream().mapToLong(TpccTimeline.Sample::failed).sum() > 0);
        assertTrue(r.timeline().stream().mapToLong(s -> s.completed()[TransactionType.PAYMENT.ordinal()]).sum() == 0);
        assertTrue(r.timeline().get(0).progressLine("scripted").contains("txn/s"));

        // Remote accesses are counted from the measured committed transactions only: New-Order
        // lines from the other warehouse, never a failed Payment's.
        TpccDriver.RemoteAccesses remote = r.remote();
        assertEquals(RemoteWarehouses.SPEC, remote.mode());
        assertTrue(remote.newOrderLines() > 0, remote.toString());
        assertTrue(remote.newOrderLines() <= target.remoteLinesCommitted.get(), remote + " vs " + target.remoteLinesCommitted);
        assertTrue(remote.newOrders() > 0 && remote.newOrders() <= remote.newOrderLines(), remote.toString());
        assertEquals(0, remote.payments());
        assertEquals(0, remote.choicesMadeLocal());
    }

    @Test
    void splitsTheLatencyOfNewOrdersWithARemoteLineFromTheOthers() throws Exception {
        NuRandConstants run = new TpccDataGenerator(SCALE, 5, 0).loadConstants().forRun(5);
        ScriptedTarget target = new ScriptedTarget(0, 25); // a New-Order with a remote line takes 25 ms, the rest return at once
        TpccDriver.Result r = new TpccDriver(SCALE, run, 5, RemoteWarehouses.SPEC, () -> 1_000_000L).run(target, 3, 0, 1.5, 1, s -> { });

        TpccDriver.TypeResult newOrders = r.types().get(TransactionType.NEW_ORDER);
        TpccDriver.LocalAndRemote split = r.remote().newOrderLatency();
        assertEquals(r.remote().newOrders(), split.remoteCount(), split.toString());
        assertTrue(split.remoteCount() > 0, split.toString());
        assertEquals(newOrders.completed(), split.localCount() + split.remoteCount(), split.toString());
        assertTrue(split.remoteP50() >= 25_000, "the remote ones took 25 ms: " + split);
        assertTrue(split.localP50() < 25_000, "the local ones returned at once: " + split);
        // Every Payment failed: none measured either way.
        assertEquals(new TpccDriver.LocalAndRemote(0, 0, 0, 0, 0, 0), r.remote().paymentLatency());
        String line = TpccBenchmark.remoteLine(r.remote());
        assertTrue(line.contains("New-Order local ") && line.contains(", remote "), line);
    }

    @Test
    void aPacedTerminalThatFallsBehindTimesEachTransactionFromWhenItWasDue() throws Exception {
        NuRandConstants run = new TpccDataGenerator(SCALE, 5, 0).loadConstants().forRun(5);
        // Each transaction takes 30 ms and the terminal is asked for one every 10 ms: every one
        // after the first starts later than due, by 20 ms more each time.
        TpccDriver late = new TpccDriver(SCALE, run, 5, RemoteWarehouses.SPEC, () -> 1_000_000L);
        late.paceTerminals(100);
        TpccDriver.TypeResult behind = late.run(new ScriptedTarget(30), 1, 0, 0.6, 1, s -> { })
                .types().get(TransactionType.NEW_ORDER);
        // From their start alone they would all take about 30 ms.
        assertTrue(behind.latencyMicrosP90() >= 100_000, "paced and late: p90 " + behind.latencyMicrosP90() + " us");
        assertTrue(behind.latencyMicrosMax() <= TpccDriver.PACING_BACKLOG_NANOS / 1_000 + 1_000_000, "the backlog is bounded: "
                + behind.latencyMicrosMax() + " us");

        // One every 60 ms, each taking 2: on time, each is timed from its own start, not the sleep before it.
        TpccDriver onTime = new TpccDriver(SCALE, run, 5, RemoteWarehouses.SPEC, () -> 1_000_000L);
        onTime.paceTerminals(1000 / 60.0);
        TpccDriver.Result r = onTime.run(new ScriptedTarget(2), 1, 0, 0.6, 1, s -> { });
        long transactions = r.types().values().stream().mapToLong(t -> t.completed() + t.failed()).sum();
        assertTrue(transactions <= 2 * (11 + 1), "paced: at most a start per 60 ms and terminal, got " + transactions);
        TpccDriver.TypeResult newOrders = r.types().get(TransactionType.NEW_ORDER);
        assertTrue(newOrders.completed() == 0 || newOrders.latencyMicrosP50() < 40_000, "on time: p50 " + newOrders.latencyMicrosP50() + " us");
    }

    /**
     * New-Order commits, Payment always fails with SQLState 40001, the rest succeed, each after a
     * given time (none by default). Thread-safe.
     */
    private static final class ScriptedTarget implements TpccTarget {
        private final AtomicLong nextOrderIds = new AtomicLong();
        final AtomicLong remoteLinesCommitted = new AtomicLong();
        private final long takesMs;
        private final long remoteNewOrderTakesMs;

        ScriptedTarget() {
            this(0);
        }

        ScriptedTarget(long takesMs) {
            this(takesMs, takesMs);
        }

        ScriptedTarget(long takesMs, long remoteNewOrderTakesMs) {
            this.takesMs = takesMs;
            this.remoteNewOrderTakesMs = remoteNewOrderTakesMs;
        }

        private void take() {
            take(takesMs);
        }

        private static void take(long ms) {
            if (ms > 0) {
                try {
                    Thread.sleep(ms); // a transaction that takes this long
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
        }

        @Override
        public String name() {
            return "scripted";
        }

        @Override
        public String description() {
            return "scripted";
        }

        @Override
        public TpccLoader.BatchWriter openBatchWriter() {
            throw new UnsupportedOperationException();
        }

        @Override
        public int loadBatchRowsMax() {
            return 1;
        }

        @Override
        public void loadItems(List<List<Object>> rows) {
            throw new UnsupportedOperationException();
        }

        /** Districts all report one shared counter in district (1, 1) and 0 elsewhere, so the sum is the counter. */
        @Override
        public List<Object> readRow(String table, List<Object> key) {
            assertEquals(TpccSchema.DISTRICT, table);
            List<Object> row = new ArrayList<>(Collections.nCopies(TpccSchema.D_NEXT_O_ID + 1, null));
            row.set(TpccSchema.D_NEXT_O_ID, key.equals(List.of(1, 1)) ? nextOrderIds.get() : 0L);
            return row;
        }

        @Override
        public void writeRow(String table, List<Object> row) {
            throw new UnsupportedOperationException();
        }

        @Override
        public long countRows(String table, int warehouseId, int districtId) {
            throw new UnsupportedOperationException();
        }

        @Override
        public List<ConsistencyViolation> checkConsistency(int warehouses, boolean afterLoad, int loadedDeliveredOrders) {
            return List.of();
        }

        @Override
        public Session openSession() {
            return new Session() {
                @Override
                public NewOrderResult newOrder(TpccInputs.NewOrder input) {
                    take(input.remoteLines() > 0 && !input.rollback() ? remoteNewOrderTakesMs : takesMs);
                    if (input.rollback()) {
                        return new NewOrderResult(true, 0, BigDecimal.ZERO, 1);
                    }
                    remoteLinesCommitted.addAndGet(input.remoteLines());
                    return new NewOrderResult(false, (int) nextOrderIds.incrementAndGet(), BigDecimal.ONE, 1);
                }

                @Override
                public PaymentResult payment(TpccInputs.Payment input) throws SQLException {
                    take();
                    throw new SQLException("could not serialize access", "40001");
                }

                @Override
                public OrderStatusResult orderStatus(TpccInputs.OrderStatus input) {
                    take();
                    return new OrderStatusResult(1, BigDecimal.ZERO, 0, null, 0, 1);
                }

                @Override
                public DeliveryResult delivery(TpccInputs.Delivery input) {
                    take();
                    return new DeliveryResult(Collections.nCopies(10, 1), 1);
                }

                @Override
                public StockLevelResult stockLevel(TpccInputs.StockLevel input) {
                    take();
                    return new StockLevelResult(0, 1);
                }

                @Override
                public void close() {
                }
            };
        }

        @Override
        public void close() {
        }
    }
}
