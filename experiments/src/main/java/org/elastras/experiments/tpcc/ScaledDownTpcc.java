package org.elastras.experiments.tpcc;

import java.util.List;

/**
 * TPCC as {@code elastras local} and the elasticity experiment run it in a running cluster:
 * scaled down ({@value #ITEMS} items, {@value #CUSTOMERS_PER_DISTRICT} customers per district),
 * loaded through the cluster and checked right after. Immutable.
 *
 * @param rows rows loaded
 * @param violations the consistency conditions the loaded database breaks (none, normally)
 */
record ScaledDownTpcc(TpccScale scale, NuRandConstants run, int deliveredAsLoaded, long rows,
        List<ConsistencyViolation> violations) {

    static final int ITEMS = 10_000;
    static final int CUSTOMERS_PER_DISTRICT = 300;
    static final long SEED = 42;

    /** Loads {@code warehouses} warehouses into {@code target} (TPCC created there) and checks every condition. */
    static ScaledDownTpcc load(ClusterTpccTarget target, int warehouses) throws Exception {
        TpccScale scale = TpccScale.scaledDown(warehouses, ITEMS, CUSTOMERS_PER_DISTRICT);
        TpccDataGenerator generator = new TpccDataGenerator(scale, SEED, System.currentTimeMillis() * 1_000);
        NuRandConstants run = generator.loadConstants().forRun(SEED);
        TpccLoader.Report load = new TpccLoader(generator, 2).load(target, (rows, expected) -> { });
        int deliveredAsLoaded = scale.firstNewOrderId() - 1;
        return new ScaledDownTpcc(scale, run, deliveredAsLoaded, load.rows(),
                target.checkConsistency(warehouses, true, deliveredAsLoaded));
    }

    /** Terminals for this database: the spec's remote warehouses, clock in microseconds. */
    TpccDriver driver() {
        return new TpccDriver(scale, run, SEED, RemoteWarehouses.SPEC, () -> System.currentTimeMillis() * 1_000);
    }
}
