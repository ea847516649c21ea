package org.elastras.master.client;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import org.apache.curator.test.TestingServer;
import org.elastras.catalog.meta.CatalogSchemas;
import org.elastras.client.ElasTrasClient;
import org.elastras.client.OtmClient;
import org.elastras.client.protocol.BeginRequest;
import org.elastras.client.protocol.CommitRequest;
import org.elastras.client.protocol.GetRequest;
import org.elastras.client.protocol.GetResponse;
import org.elastras.client.protocol.Isolation;
import org.elastras.client.protocol.PartitionStatus;
import org.elastras.master.cluster.Master;
import org.elastras.master.cluster.MasterConfig;
import org.elastras.master.cluster.PartitionState;
import org.elastras.otm.server.OtmConfig;
import org.elastras.otm.server.OtmNode;

/**
 * A real ZooKeeper, the local DFS, in-process OTMs and one master, with LEDGER created and split
 * at accounts 100, 200 and 300 (partitions 1 to 4). For the client's end-to-end tests.
 */
final class ClientTestCluster implements AutoCloseable {

    static final List<List<Object>> BOUNDARIES = List.of(List.of(100), List.of(200), List.of(300));

    final TestingServer zk;
    final Map<String, OtmNode> otms = new TreeMap<>();
    final Master master;

    ClientTestCluster(Path temp, List<String> otmIds) throws Exception {
        zk = new TestingServer(true);
        try {
            for (String id : otmIds) {
                otms.put(id, OtmNode.start(new OtmConfig(id, zk.getConnectString(), "/elastras",
                        temp.resolve("dfs").toUri(), "127.0.0.1", 0, OtmConfig.DEFAULT_SESSION_TIMEOUT_MS).inCluster()));
            }
            master = Master.start(MasterConfig.defaults("master-1", zk.getConnectString(), "/elastras",
                    temp.resolve("dfs").toUri()));
            awaitActive(master);
            master.createDatabase(LedgerProcedures.schema(), BOUNDARIES);
            awaitAllServing(master, 4);
        } catch (Exception | Error e) {
            close();
            throw e;
        }
    }

    String connectString() {
        return zk.getConnectString();
    }

    static void awaitActive(Master master) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (!master.active()) {
            assertTrue(System.nanoTime() < deadline, "no master became active");
            Thread.sleep(10);
        }
    }

    static void awaitAllServing(Master master, int count) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (true) {
            var views = master.partitions();
            long user = views.stream().filter(v -> CatalogSchemas.level(v.record().database()) == 2).count();
            // The catalog's ROOT and META partitions serve too.
            if (user == count && views.size() == count + 2 && views.stream().allMatch(v -> v.state() == PartitionState.SERVING)) {
                return;
            }
            assertTrue(System.nanoTime() < deadline, "not all partitions serving: " + views);
            Thread.sleep(20);
        }
    }

    /** Partition id -> the OTM that reports it SERVING (the catalog's partitions 1 and 2 included). */
    static Map<Long, OtmNode> servedBy(Iterable<OtmNode> otms) {
        Map<Long, OtmNode> owners = new TreeMap<>();
        for (OtmNode otm : otms) {
            if (!otm.serving()) {
                continue;
            }
            try (OtmClient client = new OtmClient("127.0.0.1", otm.port())) {
                for (PartitionStatus p : client.status().partitions()) {
                    if (p.state().equals("SERVING")) {
                        owners.put(p.partitionId(), otm);
                    }
                }
            }
        }
        return owners;
    }

    /** Creates LEDGER accounts {@code accounts}, each with {@code total}, one transaction each. */
    void openAccounts(long total, int... accounts) {
        try (ElasTrasClient client = ElasTrasClient.connect(connectString())) {
            for (int a : accounts) {
                client.runInTransaction(LedgerProcedures.DATABASE, List.of(a), txn -> {
                    txn.put("ACCOUNT", Map.of("A_ID", a, "TOTAL", total));
                    return null;
                });
            }
        }
    }

    /** The partition of LEDGER holding account {@code a} (split at 100, 200, 300). */
    static long partitionOf(int a) {
        // The catalog's ROOT and META partitions are 1 and 2.
        return a < 100 ? 3 : a < 200 ? 4 : a < 300 ? 5 : 6;
    }

    /** Reads an ACCOUNT row straight from one OTM and partition, bypassing the routing client. */
    static GetResponse readDirect(int port, long partitionId, String table, List<Object> key) {
        try (OtmClient client = new OtmClient("127.0.0.1", port)) {
            long txn = client.begin(new BeginRequest(LedgerProcedures.DATABASE, partitionId, Isolation.SNAPSHOT, 0)).txnId();
            GetResponse r = client.get(new GetRequest(txn, table, key));
            client.commit(new CommitRequest(txn));
            return r;
        }
    }

    @Override
    public void close() throws Exception {
        if (master != null) {
            master.close();
        }
        otms.values().forEach(OtmNode::close);
        zk.close();
    }
}
