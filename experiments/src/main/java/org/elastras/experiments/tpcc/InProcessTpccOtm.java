package org.elastras.experiments.tpcc;

import java.nio.file.Path;
import org.apache.curator.test.TestingServer;
import org.elastras.client.OtmClient;
import org.elastras.client.protocol.OpenPartitionRequest;
import org.elastras.client.protocol.RegisterDatabaseRequest;
import org.elastras.client.protocol.SchemaSpec;
import org.elastras.otm.server.OtmConfig;
import org.elastras.otm.server.OtmNode;

/**
 * One OTM serving TPCC in this JVM: a real ZooKeeper server (Curator's {@code TestingServer}) for
 * its lease, the local DFS in a scratch directory, its protocol server on a free port of 127.0.0.1; the schema
 * registered and one partition per {@link WarehouseRouter} range opened. The twin of the procedure
 * benchmark's {@code InProcessOtm}, which is package-private there and fixed to its own database.
 * Started and closed by one thread; {@link #client()} is thread-safe.
 */
final class InProcessTpccOtm implements AutoCloseable {

    private final TestingServer zookeeper;
    private final OtmNode node;
    private final OtmClient client;

    private InProcessTpccOtm(TestingServer zookeeper, OtmNode node, OtmClient client) {
        this.zookeeper = zookeeper;
        this.node = node;
        this.client = client;
    }

    /** Starts its own ZooKeeper server too. */
    static InProcessTpccOtm start(Path scratch, WarehouseRouter router) throws Exception {
        TestingServer zookeeper = new TestingServer(true);
        try {
            return start(scratch, router, zookeeper, zookeeper.getConnectString(), "/elastras");
        } catch (Exception e) {
            zookeeper.close();
            throw e;
        }
    }

    /**
     * Uses a ZooKeeper server that outlives this OTM (tests share one per class); {@code zkRoot}
     * must be unused by any other live OTM.
     */
    static InProcessTpccOtm start(Path scratch, WarehouseRouter router, String zkConnect, String zkRoot) throws Exception {
        return start(scratch, router, null, zkConnect, zkRoot);
    }

    private static InProcessTpccOtm start(Path scratch, WarehouseRouter router, TestingServer zookeeper, String zkConnect,
            String zkRoot) throws Exception {
        OtmNode node = null;
        OtmClient client = null;
        try {
            node = OtmNode.start(new OtmConfig("tpcc-otm", zkConnect, zkRoot,
                    scratch.resolve("dfs").toUri(), "127.0.0.1", 0, OtmConfig.DEFAULT_SESSION_TIMEOUT_MS));
            client = new OtmClient("127.0.0.1", node.port());
            client.registerDatabase(new RegisterDatabaseRequest(SchemaSpec.of(TpccSchema.schema())));
            for (long p = 1; p <= router.partitions(); p++) {
                client.openPartition(new OpenPartitionRequest(TpccSchema.DATABASE, p, router.startKey(p), router.endKey(p)));
            }
            return new InProcessTpccOtm(zookeeper, node, client);
        } catch (Exception e) {
            if (client != null) {
                client.close();
            }
            if (node != null) {
                node.close();
            }
            throw e;
        }
    }

    int port() {
        return node.port();
    }

    OtmClient client() {
        return client;
    }

    @Override
    public void close() throws Exception {
        try {
            client.close();
            node.close();
        } finally {
            if (zookeeper != null) {
                zookeeper.close();
            }
        }
    }
}
