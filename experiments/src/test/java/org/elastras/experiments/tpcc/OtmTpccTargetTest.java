package org.elastras.experiments.tpcc;

import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.curator.test.TestingServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/**
 * The contract on an in-process OTM with one partition per warehouse (so routing is exercised).
 * One ZooKeeper server serves the class; every test starts its own OTM under its own root znode
 * and loads it.
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

    @Override
    TpccTarget loadedTarget(Path directory) throws Exception {
        TpccTarget target = OtmTpccTarget.start(directory, SCALE.warehouses(), 1, zookeeper.getConnectString(),
                "/tpcc-test-" + ROOTS.incrementAndGet());
        try {
            load(target);
        } catch (Exception | Error e) {
            target.close();
            throw e;
        }
        return target;
    }
}
