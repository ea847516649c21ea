package org.elastras.experiments.tpcc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.curator.test.TestingServer;
import org.elastras.client.protocol.Isolation;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The contract on an in-process OTM with one partition per warehouse (so routing is exercised),
 * New-Order, Payment and Delivery SERIALIZABLE; plus the mix at SNAPSHOT isolation. One ZooKeeper
 * server serves the class; every test starts its own OTM under its own root znode and loads it.
 */
class OtmTpccTargetTest extends TpccTargetContract {

    private static final AtomicInteger ROOTS = new AtomicInteger();
    private static TestingServer zookeeper;

    @BeforeAll
    static void startZookeeper() throws Exception {
        zookeeper = new TestingServer(true);
    }

    @AfterAll
    static void stopZookeeper() throws Exception {
        zookeeper.close();
    }

    private static TpccTarget start(Path directory, Isolation writers) throws Exception {
        TpccTarget target = OtmTpccTarget.start(directory, SCALE.warehouses(), 1, writers, zookeeper.getConnectString(),
                "/tpcc-test-" + ROOTS.incrementAndGet());
        try {
            load(target);
        } catch (Exception | Error e) {
            target.close();
            throw e;
        }
        return target;
    }

    @Override
    TpccTarget loadedTarget(Path directory) throws Exception {
        return start(directory, Isolation.SERIALIZABLE);
    }

    /**
     * Delivery's search for the oldest new order starts from a hint the procedures keep in the
     * OTM's process; whatever the hint, too low, too high, absent or right, the oldest is delivered.
     */
    @Test
    void deliveryFindsTheOldestNewOrderWhateverItsSearchStartsFrom() throws Exception {
        int w = 1;
        int oldest = SCALE.firstNewOrderId();
        try (TpccTarget.Session s = target.openSession()) {
            // District d's hint: 1 none useful, 2 too high (past every order), 3 too low, 4 far too high, the rest from earlier runs.
            TpccProcedures.hintOldestNewOrder(w, 1, 1);
            TpccProcedures.hintOldestNewOrder(w, 2, oldest + 5);
            TpccProcedures.hintOldestNewOrder(w, 3, oldest - 7);
            TpccProcedures.hintOldestNewOrder(w, 4, Integer.MAX_VALUE);
            for (int round = 0; round < 4; round++) {
                TpccTarget.DeliveryResult r = s.delivery(new TpccInputs.Delivery(w, 1 + round, tick()));
                for (int d = 1; d <= 10; d++) {
                    assertEquals(oldest + round, r.deliveredOrderIds().get(d - 1), "district " + d + ", round " + round);
                }
                if (round == 1) {
                    TpccProcedures.hintOldestNewOrder(w, 5, oldest + 1_000); // past every order the district has
                }
            }
        }
        assertEquals(List.of(), check(false));
    }

    /** Fekete et al. (TODS 2005): the TPC-C mix is serializable under snapshot isolation. */
    @Test
    void mixedTransactionsAtSnapshotIsolationKeepTheDatabaseConsistent() throws Exception {
        target.close();
        target = start(scratch.resolve("si"), Isolation.SNAPSHOT);
        assertEquals("elastras-si", target.name());
        long newOrders = runMix(target, generator, 4, 60, 1);
        assertTrue(newOrders > 80, "committed New-Orders " + newOrders);
        assertEquals(List.of(), check(false));
    }
}
