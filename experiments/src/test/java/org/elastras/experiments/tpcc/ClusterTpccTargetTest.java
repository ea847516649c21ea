package org.elastras.experiments.tpcc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigDecimal;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * TPC-C on a real local cluster (a ZooKeeper process, a master process, one OTM process) through
 * the routing client, one partition per warehouse so that calls are routed: the loaded database
 * passes every condition, a mixed run keeps it consistent, Payment and Order-Status by customer id
 * work although the routing client cannot send a null argument, and a corrupted row is named by
 * the checker. One cluster for the whole test: starting one takes seconds.
 */
class ClusterTpccTargetTest {

    @TempDir
    Path scratch;

    @Test
    void loadedAndMixedDatabaseIsConsistentThroughTheRoutingClient() throws Exception {
        TpccScale scale = TpccTargetContract.SCALE;
        try (ClusterTpccTarget target = ClusterTpccTarget.start(scratch, scale.warehouses(), 1, 1, 384)) {
            TpccTargetContract.load(target);
            int delivered = scale.firstNewOrderId() - 1;
            assertEquals(List.of(), target.checkConsistency(scale.warehouses(), true, delivered));
            assertNotNull(target.readRow(TpccSchema.ITEM, List.of(scale.items())));

            TpccDataGenerator generator = new TpccDataGenerator(scale, TpccTargetContract.SEED, TpccTargetContract.LOAD_MICROS);
            NuRandConstants run = generator.loadConstants().forRun(TpccTargetContract.SEED);
            TpccDriver.Result r = new TpccDriver(scale, run, TpccTargetContract.SEED, () -> TpccTargetContract.LOAD_MICROS + 1)
                    .run(target, 2, 0, 2, 1, sample -> { });
            assertEquals(0, r.failed(), "failures " + r.failuresByReason() + ", first " + r.firstError());
            assertTrue(r.newOrdersCommitted() > 0, "New-Orders committed " + r.newOrdersCommitted());
            assertTrue(r.types().get(TransactionType.PAYMENT).completed() > 0);
            assertTrue(r.districts().agrees(r.terminals()), r.districts().toString());
            assertEquals(Set.of(TpccDriver.BENCHMARK_JVM, "master", "zookeeper", "otm-1"), r.cpuSecondsMeasured().keySet());
            assertEquals(List.of(), target.checkConsistency(scale.warehouses(), false, delivered));

            try (TpccTarget.Session s = target.openSession()) {
                TpccTarget.PaymentResult paid = s.payment(new TpccInputs.Payment(2, 3, 2, 3,
                        TpccInputs.CustomerSelector.byId(4), new BigDecimal("10.00"), TpccTargetContract.LOAD_MICROS + 2,
                        (998L << 32) | 1));
                assertEquals(4, paid.customerId());
                assertEquals(4, s.orderStatus(new TpccInputs.OrderStatus(2, 3, TpccInputs.CustomerSelector.byId(4))).customerId());
            }
            assertEquals(List.of(), target.checkConsistency(scale.warehouses(), false, delivered));

            List<Object> warehouse = new ArrayList<>(target.readRow(TpccSchema.WAREHOUSE, List.of(2)));
            warehouse.set(TpccSchema.W_YTD, ((BigDecimal) warehouse.get(TpccSchema.W_YTD)).add(new BigDecimal("0.01")));
            target.writeRow(TpccSchema.WAREHOUSE, warehouse);
            List<ConsistencyViolation> v = target.checkConsistency(scale.warehouses(), false, delivered);
            assertEquals(Set.of(1, 8), TpccTargetContract.conditions(v), v.toString());
        }
    }
}
