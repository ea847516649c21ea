package org.elastras.master.dashboard;

import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;
import org.apache.curator.test.TestingServer;
import org.elastras.catalog.schema.ColumnType;
import org.elastras.catalog.schema.DatabaseSchema;
import org.elastras.client.ElasTrasClient;
import org.elastras.master.cluster.Master;
import org.elastras.master.cluster.MasterConfig;
import org.elastras.master.cluster.PartitionState;
import org.elastras.otm.server.OtmConfig;
import org.elastras.otm.server.OtmNode;

/**
 * A real ZooKeeper, the local DFS, two in-process OTMs, one master with its dashboard (admin token
 * {@link #TOKEN}, reads open), the tenant {@link #TENANT} and the database {@link #SHOP} split
 * into three partitions, and a workload that writes to both from one thread while it runs. For
 * the dashboard's API and browser tests.
 */
final class DashboardTestCluster implements AutoCloseable {

    static final String TOKEN = "test-admin-token-1";
    static final String TENANT = "KV";
    static final String SHOP = "SHOP";
    /** SHOP is split at warehouses 100 and 200. */
    static final List<List<Object>> SHOP_BOUNDARIES = List.of(List.of(100), List.of(200));
    /** The catalog's ROOT and META, the tenant, and SHOP's three. */
    static final int PARTITIONS = 6;
    static final int SESSION_TIMEOUT_MS = 15_000;

    final TestingServer zk;
    final Map<String, OtmNode> otms = new TreeMap<>();
    final Master master;
    final DashboardServer dashboard;
    final ElasTrasClient client;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private final ObjectMapper json = new ObjectMapper();
    private final AtomicBoolean workloadRunning = new AtomicBoolean();
    private final AtomicLong committed = new AtomicLong();
    private Thread workload;

    DashboardTestCluster(Path temp) throws Exception {
        TestingServer startedZk = null;
        Master startedMaster = null;
        DashboardServer startedDashboard = null;
        ElasTrasClient startedClient = null;
        try {
            startedZk = new TestingServer(true);
            for (String id : List.of("otm-1", "otm-2")) {
                otms.put(id, OtmNode.start(new OtmConfig(id, startedZk.getConnectString(), "/elastras",
                        temp.resolve("dfs").toUri(), "127.0.0.1", 0, SESSION_TIMEOUT_MS).inCluster()));
            }
            startedMaster = Master.start(masterConfig("master-1", startedZk.getConnectString(), temp));
            startedDashboard = DashboardServer.start(startedMaster, DashboardConfig.of("127.0.0.1", 0, TOKEN, true));
            Master m = startedMaster;
            await("the master to become active", m::active);
            m.createTenant(tenantSchema());
            m.createDatabase(shopSchema(), SHOP_BOUNDARIES);
            await("every partition to serve", () -> serving(m) == PARTITIONS);
            startedClient = ElasTrasClient.connect(startedZk.getConnectString());
        } catch (Exception | Error e) {
            if (startedClient != null) {
                startedClient.close();
            }
            if (startedDashboard != null) {
                startedDashboard.close();
            }
            if (startedMaster != null) {
                startedMaster.close();
            }
            otms.values().forEach(OtmNode::close);
            if (startedZk != null) {
                startedZk.close();
            }
            throw e;
        }
        zk = startedZk;
        master = startedMaster;
        dashboard = startedDashboard;
        client = startedClient;
    }

    /**
     * Generous timeouts: the tests share two cores with other builds, and a master or OTM that
     * loses its session under that load would fail them for the wrong reason.
     */
    static MasterConfig masterConfig(String masterId, String zkConnect, Path temp) {
        return MasterConfig.defaults(masterId, zkConnect, "/elastras", temp.resolve("dfs").toUri())
                .withZkSessionTimeoutMs(SESSION_TIMEOUT_MS).withHeartbeatTimeoutMs(SESSION_TIMEOUT_MS);
    }

    static DatabaseSchema tenantSchema() {
        return DatabaseSchema.singlePartition(TENANT)
                .plain("ITEMS", t -> t.column("ID", ColumnType.BIGINT).column("VAL", ColumnType.BIGINT).key("ID"))
                .build();
    }

    static DatabaseSchema shopSchema() {
        return DatabaseSchema.tree(SHOP)
                .root("WAREHOUSE", t -> t.column("W_ID", ColumnType.INT).column("HITS", ColumnType.BIGINT).key("W_ID"))
                .build();
    }

    static int serving(Master master) {
        try {
            return (int) master.partitions().stream().filter(v -> v.state() == PartitionState.SERVING).count();
        } catch (Exception e) {
            return -1;
        }
    }

    /** Starts writing to the tenant and to every SHOP partition, one transaction after another. */
    void startWorkload() {
        if (!workloadRunning.compareAndSet(false, true)) {
            return;
        }
        workload = new Thread(() -> {
            long i = 0;
            while (workloadRunning.get()) {
                long n = i++;
                try {
                    client.runInTransaction(TENANT, List.of(), txn -> {
                        txn.put("ITEMS", Map.of("ID", n % 100, "VAL", n));
                        return null;
                    });
                    int warehouse = (int) (n % 3) * 100 + 1;
                    client.runInTransaction(SHOP, List.of(warehouse), txn -> {
                        txn.put("WAREHOUSE", Map.of("W_ID", warehouse, "HITS", n));
                        return null;
                    });
                    committed.addAndGet(2);
                } catch (RuntimeException e) {
                    // A workload error shows as a missing rate; the tests assert on rates.
                }
            }
        }, "dashboard-test-workload");
        workload.setDaemon(true);
        workload.start();
    }

    void stopWorkload() throws InterruptedException {
        workloadRunning.set(false);
        if (workload != null) {
            workload.join(10_000);
        }
    }

    long committed() {
        return committed.get();
    }

    URI uri(String path) {
        return URI.create(dashboard.url()).resolve(path);
    }

    /** A GET with an optional bearer token. */
    HttpResponse<String> get(String path, String token) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(uri(path)).timeout(Duration.ofSeconds(30)).GET();
        if (token != null) {
            b.header("Authorization", "Bearer " + token);
        }
        return http.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }

    /** A POST of a JSON body with an optional bearer token. */
    HttpResponse<String> post(String path, String token, String body) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(uri(path)).timeout(Duration.ofSeconds(30))
                .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(body));
        if (token != null) {
            b.header("Authorization", "Bearer " + token);
        }
        return http.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }

    /** A GET of {@code path} (relative) on another dashboard at {@code base}. */
    HttpResponse<String> getAt(String base, String path, String token) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(base).resolve(path)).timeout(Duration.ofSeconds(30)).GET();
        if (token != null) {
            b.header("Authorization", "Bearer " + token);
        }
        return http.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }

    /** A POST of a JSON body to {@code path} (relative) on another dashboard at {@code base}. */
    HttpResponse<String> postAt(String base, String path, String token, String body) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(base).resolve(path)).timeout(Duration.ofSeconds(30))
                .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(body));
        if (token != null) {
            b.header("Authorization", "Bearer " + token);
        }
        return http.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }

    HttpClient http() {
        return http;
    }

    JsonNode getJson(String path) throws Exception {
        HttpResponse<String> r = get(path, null);
        assertTrue(r.statusCode() == 200, path + " answered " + r.statusCode() + ": " + r.body());
        return json.readTree(r.body());
    }

    JsonNode parse(String body) throws Exception {
        return json.readTree(body);
    }

    static void await(String what, BooleanSupplier condition) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (!condition.getAsBoolean()) {
            assertTrue(System.nanoTime() < deadline, "timed out waiting for " + what);
            Thread.sleep(20);
        }
    }

    @Override
    public void close() throws Exception {
        stopWorkload();
        client.close();
        dashboard.close();
        master.close();
        otms.values().forEach(OtmNode::close);
        zk.close();
    }
}
