package org.elastras.experiments.tpcc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.elastras.client.protocol.Isolation;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The stored procedures and the JDBC transactions are the same logic: the same load and the same
 * input sequence, run one transaction at a time, give the same outputs on both targets and leave
 * the same rows behind.
 */
class DerbyAndOtmGiveTheSameAnswersTest {

    private static final TpccScale SCALE = TpccScale.scaledDown(1, 200, 30);
    private static final long SEED = 23;

    @TempDir
    Path scratch;

    @Test
    void sameInputsSameOutputsSameRows() throws Exception {
        System.setProperty("derby.system.durability", "test");
        try (TpccTarget derby = DerbyTpccTarget.create(scratch.resolve("derby"), 4_096);
                TpccTarget otm = OtmTpccTarget.start(scratch.resolve("otm"), SCALE.warehouses(), 1, Isolation.SERIALIZABLE)) {
            TpccDataGenerator generator = new TpccDataGenerator(SCALE, SEED, 1_000_000_000L);
            new TpccLoader(generator, 2).load(derby, (a, b) -> { });
            new TpccLoader(generator, 2).load(otm, (a, b) -> { });
            List<String> fromDerby = run(derby, generator);
            List<String> fromOtm = run(otm, generator);
            assertEquals(fromDerby.size(), fromOtm.size());
            for (int i = 0; i < fromDerby.size(); i++) {
                assertEquals(fromDerby.get(i), fromOtm.get(i), "transaction " + i);
            }
            assertTrue(fromDerby.stream().anyMatch(s -> s.startsWith("NEW_ORDER rolled back")), "the run has a rollback");
            for (int w = 1; w <= SCALE.warehouses(); w++) {
                assertEquals(derby.readRow(TpccSchema.WAREHOUSE, List.of(w)), otm.readRow(TpccSchema.WAREHOUSE, List.of(w)));
                for (int d = 1; d <= 10; d++) {
                    assertEquals(derby.readRow(TpccSchema.DISTRICT, List.of(w, d)), otm.readRow(TpccSchema.DISTRICT, List.of(w, d)));
                    assertEquals(derby.countRows(TpccSchema.NEW_ORDER, w, d), otm.countRows(TpccSchema.NEW_ORDER, w, d));
                    assertEquals(derby.countRows(TpccSchema.ORDER_LINE, w, d), otm.countRows(TpccSchema.ORDER_LINE, w, d));
                    for (int c = 1; c <= SCALE.customersPerDistrict(); c += 7) {
                        assertEquals(derby.readRow(TpccSchema.CUSTOMER, List.of(w, d, c)), otm.readRow(TpccSchema.CUSTOMER, List.of(w, d, c)));
                    }
                }
                for (int i = 1; i <= SCALE.items(); i += 13) {
                    assertEquals(derby.readRow(TpccSchema.STOCK, List.of(w, i)), otm.readRow(TpccSchema.STOCK, List.of(w, i)));
                }
            }
        }
    }

    /**
     * 300 transactions from the mix, alternating between two terminals, then a
     * rolled-back and an ordinary New-Order; each output as text.
     */
    private static List<String> run(TpccTarget target, TpccDataGenerator generator) throws Exception {
        NuRandConstants run = generator.loadConstants().forRun(SEED);
        long[] clock = {2_000_000_000L};
        List<TpccInputGenerator> inputs = new ArrayList<>();
        List<TransactionMix> mixes = new ArrayList<>();
        for (int t = 1; t <= 2; t++) {
            inputs.add(new TpccInputGenerator(SCALE, run, SEED + t, 1, t, t, RemoteWarehouses.SPEC, () -> clock[0] += 1_000));
            mixes.add(new TransactionMix(SEED + t));
        }
        List<String> out = new ArrayList<>();
        try (TpccTarget.Session s = target.openSession()) {
            for (int i = 0; i < 300; i++) {
                TpccInputGenerator in = inputs.get(i % inputs.size());
                TransactionType type = mixes.get(i % inputs.size()).next();
                out.add(switch (type) {
                    case NEW_ORDER -> {
                        TpccTarget.NewOrderResult r = s.newOrder(in.newOrder());
                        yield r.rolledBack() ? "NEW_ORDER rolled back" : "NEW_ORDER " + r.orderId() + " " + r.total();
                    }
                    case PAYMENT -> {
                        TpccTarget.PaymentResult r = s.payment(in.payment());
                        yield "PAYMENT " + r.customerId() + " " + r.balance();
                    }
                    case ORDER_STATUS -> {
                        TpccTarget.OrderStatusResult r = s.orderStatus(in.orderStatus());
                        yield "ORDER_STATUS " + r.customerId() + " " + r.balance() + " " + r.orderId() + " " + r.carrierId() + " "
                                + r.lines();
                    }
                    case DELIVERY -> "DELIVERY " + s.delivery(in.delivery()).deliveredOrderIds();
                    case STOCK_LEVEL -> "STOCK_LEVEL " + s.stockLevel(in.stockLevel()).lowStock();
                });
            }
            // A requested rollback, then an ordinary order that must get the id it would have had.
            int[] items = {1, 2, 3, 4, SCALE.items() + 1};
            int[] supply = {1, 1, 1, 1, 1};
            int[] quantities = {1, 1, 1, 1, 1};
            TpccTarget.NewOrderResult r = s.newOrder(new TpccInputs.NewOrder(1, 1, 1, items, supply, quantities, clock[0], true));
            out.add(r.rolledBack() ? "NEW_ORDER rolled back" : "NEW_ORDER " + r.orderId());
            items[4] = 5;
            r = s.newOrder(new TpccInputs.NewOrder(1, 1, 1, items, supply, quantities, clock[0], false));
            out.add("NEW_ORDER " + r.orderId() + " " + r.total());
        }
        return out;
    }
}
