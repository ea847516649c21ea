package org.elastras.experiments.tpcc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class WarehouseTimedTargetTest {

    /** A session that sleeps 20 ms in Payment and fails Delivery; the rest answer at once. */
    private static final class SlowPaymentTarget implements TpccTarget {
        final TpccTarget.NewOrderResult newOrder = new TpccTarget.NewOrderResult(false, 3001, BigDecimal.TEN, 1);

        @Override
        public String name() {
            return "scripted";
        }

        @Override
        public String description() {
            return "a scripted target";
        }

        @Override
        public TpccLoader.BatchWriter openBatchWriter() {
            throw new UnsupportedOperationException();
        }

        @Override
        public int loadBatchRowsMax() {
            return 7;
        }

        @Override
        public void loadItems(List<List<Object>> rows) {
            throw new UnsupportedOperationException();
        }

        @Override
        public List<ConsistencyViolation> checkConsistency(int warehouses, boolean afterLoad, int loadedDeliveredOrders) {
            return List.of();
        }

        @Override
        public List<Object> readRow(String table, List<Object> key) {
            return List.of(table, key);
        }

        @Override
        public void writeRow(String table, List<Object> row) {
            throw new UnsupportedOperationException();
        }

        @Override
        public long countRows(String table, int warehouseId, int districtId) {
            return warehouseId * 100L + districtId;
        }

        @Override
        public Map<String, Long> serverRetries() {
            return Map.of("payment CONFLICT", 4L);
        }

        @Override
        public void close() {
        }

        @Override
        public Session openSession() {
            return new Session() {
                @Override
                public NewOrderResult newOrder(TpccInputs.NewOrder input) {
                    return newOrder;
                }

                @Override
                public PaymentResult payment(TpccInputs.Payment input) throws Exception {
                    Thread.sleep(20);
                    return new PaymentResult(7, BigDecimal.ONE, 1);
                }

                @Override
                public OrderStatusResult orderStatus(TpccInputs.OrderStatus input) {
                    return new OrderStatusResult(7, BigDecimal.ONE, 12, null, 5, 1);
                }

                @Override
                public DeliveryResult delivery(TpccInputs.Delivery input) {
                    throw new IllegalStateException("delivery refused");
                }

                @Override
                public StockLevelResult stockLevel(TpccInputs.StockLevel input) {
                    return new StockLevelResult(3, 1);
                }

                @Override
                public void close() {
                }
            };
        }
    }

    @Test
    void everyCallIsReportedWithItsHomeWarehouseAndTimeFailuresIncludedAndAnswersPassThrough() throws Exception {
        List<long[]> calls = new ArrayList<>();
        SlowPaymentTarget inner = new SlowPaymentTarget();
        TpccTarget timed = new WarehouseTimedTarget(inner, (w, micros) -> {
            synchronized (calls) {
                calls.add(new long[] {w, micros});
            }
        });
        try (TpccTarget.Session s = timed.openSession()) {
            assertSame(inner.newOrder, s.newOrder(new TpccInputs.NewOrder(3, 1, 1, new int[] {1, 2, 3, 4, 5},
                    new int[] {3, 3, 3, 3, 3}, new int[] {1, 1, 1, 1, 1}, 0, false)));
            assertEquals(7, s.payment(new TpccInputs.Payment(2, 1, 2, 1, new TpccInputs.CustomerSelector(7, null),
                    BigDecimal.ONE, 0, 1)).customerId());
            assertEquals(12, s.orderStatus(new TpccInputs.OrderStatus(4, 1, new TpccInputs.CustomerSelector(7, null)))
                    .orderId());
            IllegalStateException e = assertThrows(IllegalStateException.class,
                    () -> s.delivery(new TpccInputs.Delivery(1, 5, 0)));
            assertEquals("delivery refused", e.getMessage());
            assertEquals(3, s.stockLevel(new TpccInputs.StockLevel(5, 2, 15)).lowStock());
        }
        assertEquals(List.of(3L, 2L, 4L, 1L, 5L), calls.stream().map(c -> c[0]).toList());
        assertTrue(calls.get(1)[1] >= 20_000, "the payment slept 20 ms; reported " + calls.get(1)[1] + " us");
        assertTrue(calls.get(0)[1] < 20_000, "the new order answered at once; reported " + calls.get(0)[1] + " us");
        // Everything but the sessions is the wrapped target's.
        assertEquals(305, timed.countRows("STOCK", 3, 5));
        assertEquals(7, timed.loadBatchRowsMax());
        assertEquals(Map.of("payment CONFLICT", 4L), timed.serverRetries());
        assertEquals("scripted", timed.name());
    }

    @Test
    void aTargetOrListenerIsRequired() {
        assertThrows(IllegalArgumentException.class, () -> new WarehouseTimedTarget(null, (w, micros) -> { }));
        assertThrows(IllegalArgumentException.class, () -> new WarehouseTimedTarget(new SlowPaymentTarget(), null));
    }
}
