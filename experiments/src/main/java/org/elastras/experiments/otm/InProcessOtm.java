package org.elastras.experiments.otm;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.apache.curator.test.TestingServer;
import org.elastras.client.OtmClient;
import org.elastras.client.OtmClientConfig;
import org.elastras.client.protocol.CallRequest;
import org.elastras.client.protocol.CallResponse;
import org.elastras.client.protocol.Isolation;
import org.elastras.client.protocol.OpenPartitionRequest;
import org.elastras.client.protocol.RegisterDatabaseRequest;
import org.elastras.client.protocol.SchemaSpec;
import org.elastras.otm.server.OtmConfig;
import org.elastras.otm.http.OtmService;
import org.elastras.otm.server.OtmNode;

/**
 * One OTM serving PROCBENCH in this JVM: a real ZooKeeper server (Curator's {@code TestingServer})
 * for its lease, the local DFS in a scratch directory for its WAL and SSTables, and its protocol
 * endpoint on a free port of 127.0.0.1. Created and closed by the benchmark's main thread; the
 * loading and checking methods are called from that thread too.
 */
final class InProcessOtm implements AutoCloseable {

    private static final int LOAD_THREADS = 8;
    /**
     * The OTM's ZooKeeper session timeout. Longer than the default (4 s): on a machine shared with
     * other builds, this JVM was once stalled for 2.8 s at load average 18, the session expired and
     * the OTM (rightly) stopped serving, which ended the run. There is no failover to measure here,
     * and the lease has no part in a commit's cost.
     */
    private static final int LEASE_SESSION_TIMEOUT_MS = 30_000;
    private static final int LOAD_ROWS_PER_CALL = 1_000;

    private final TestingServer zookeeper;
    private final OtmNode node;
    private final OtmClient admin;
    /** A client that sends each call as its own request, as before call coalescing. */
    private final OtmClient unbatched;

    private InProcessOtm(TestingServer zookeeper, OtmNode node, OtmClient admin) {
        this.zookeeper = zookeeper;
        this.node = node;
        this.admin = admin;
        this.unbatched = new OtmClient("127.0.0.1", node.port(), OtmClientConfig.defaults().withoutCallBatching());
    }

    /**
     * Starts ZooKeeper and the OTM, registers PROCBENCH and opens its one partition.
     *
     * @param batchesInFlight the coalescing client's most {@code callBatch} requests in flight
     */
    static InProcessOtm start(Path scratch, int batchesInFlight) throws Exception {
        TestingServer zookeeper = new TestingServer(true);
        OtmNode node = null;
        OtmClient admin = null;
        try {
            node = OtmNode.start(new OtmConfig("bench-otm", zookeeper.getConnectString(), "/elastras",
                    scratch.resolve("dfs").toUri(), "127.0.0.1", 0, LEASE_SESSION_TIMEOUT_MS));
            OtmClientConfig d = OtmClientConfig.defaults();
            admin = new OtmClient("127.0.0.1", node.port(), d.withCallBatching(d.callBatchCallsMax(), d.callBatchBytesMax(),
                    batchesInFlight));
            admin.registerDatabase(new RegisterDatabaseRequest(SchemaSpec.of(ItemTable.schema())));
            admin.openPartition(new OpenPartitionRequest(ItemTable.DATABASE, ItemTable.PARTITION_ID, null, null));
            return new InProcessOtm(zookeeper, node, admin);
        } catch (Exception e) {
            if (admin != null) {
                admin.close();
            }
            if (node != null) {
                node.close();
            }
            zookeeper.close();
            throw e;
        }
    }

    int port() {
        return node.port();
    }

    /** The OTM's service, called in this JVM without HTTP: the engine alone. */
    OtmService service() {
        return node.service();
    }

    /** The admin client (coalescing concurrent calls); thread-safe, shared by the coalescing sessions. */
    OtmClient client() {
        return admin;
    }

    /** A client sending a request per call; thread-safe, shared by the shared-client sessions. */
    OtmClient unbatchedClient() {
        return unbatched;
    }

    /** Inserts rows 0..rows-1 with {@code load} calls of 1,000 rows, 8 in flight. */
    void load(long rows) throws Exception {
        ExecutorService loaders = Executors.newFixedThreadPool(LOAD_THREADS);
        try {
            List<Future<?>> calls = new ArrayList<>();
            for (long from = 0; from < rows; from += LOAD_ROWS_PER_CALL) {
                long start = from;
                long count = Math.min(LOAD_ROWS_PER_CALL, rows - from);
                calls.add(loaders.submit(() -> admin.call(new CallRequest(ItemTable.DATABASE, ItemTable.PARTITION_ID,
                        "load", List.of(start, count), Isolation.SERIALIZABLE, 0))));
            }
            for (Future<?> call : calls) {
                call.get();
            }
        } finally {
            loaders.shutdownNow();
        }
    }

    /**
     * Sum of BALANCE over rows 0..rows-1, in pages of 10,000 rows, each page a SNAPSHOT read
     * (the table is quiet when this runs, so the pages add up to one consistent total).
     *
     * @throws IllegalStateException if a row is missing
     */
    long balanceSum(long rows) {
        long sum = 0;
        long seen = 0;
        long from = 0;
        while (from < rows) {
            CallResponse page = admin.call(new CallRequest(ItemTable.DATABASE, ItemTable.PARTITION_ID, "sumBalances",
                    List.of(from, (long) ItemProcedures.SCAN_ROWS_MAX), Isolation.SNAPSHOT, 0));
            List<?> result = (List<?>) page.result();
            sum += ((Number) result.get(0)).longValue();
            long count = ((Number) result.get(1)).longValue();
            long last = ((Number) result.get(2)).longValue();
            if (count == 0) {
                break;
            }
            seen += count;
            from = last + 1;
        }
        if (seen != rows) {
            throw new IllegalStateException("the OTM holds " + seen + " item rows, expected " + rows);
        }
        return sum;
    }

    @Override
    public void close() throws Exception {
        try {
            unbatched.close();
            admin.close();
            node.close();
        } finally {
            zookeeper.close();
        }
    }
}
