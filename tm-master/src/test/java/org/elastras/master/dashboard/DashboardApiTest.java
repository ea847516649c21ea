package org.elastras.master.dashboard;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;
import org.elastras.master.cluster.Master;
import org.elastras.master.cluster.OtmView;
import org.elastras.master.cluster.PartitionView;
import org.elastras.otm.server.OtmNode;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * The dashboard's HTTP API against a running cluster: the JSON answers say what the master knows
 * (asserted against the master itself), counters move while a workload runs, admin actions need
 * the token (401 without, 403 wrong), bad input is a 4xx with a message and changes nothing, moves
 * and drains answer 501, a standby points to the active master, and {@code /metrics} is
 * Prometheus text.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class DashboardApiTest {

    private static final Pattern PROMETHEUS_SAMPLE = Pattern.compile(
            "[a-z_]+(\\{[a-z_]+=\"[^\"]*\"(,[a-z_]+=\"[^\"]*\")*})? -?[0-9]+(\\.[0-9]+)?");

    @TempDir
    static Path temp;
    private DashboardTestCluster cluster;

    @BeforeAll
    void start() throws Exception {
        cluster = new DashboardTestCluster(temp);
    }

    @AfterAll
    void stop() throws Exception {
        if (cluster != null) {
            cluster.close();
        }
    }

    @Test
    void summaryCountsWhatTheMasterKnows() throws Exception {
        JsonNode s = cluster.getJson("/api/summary");
        assertEquals("master-1", s.get("masterId").asText());
        assertEquals("active", s.get("role").asText());
        long live = cluster.master.otms().stream().filter(OtmView::live).count();
        assertEquals(2, live);
        assertEquals(live, s.get("otmsLive").asLong());
        assertEquals(0, s.get("otmsFailed").asLong());
        assertEquals(cluster.master.partitions().size(), s.get("partitions").asInt());
        assertEquals(cluster.master.databases().size(), s.get("databases").asInt());
        assertTrue(s.get("partitionsByState").get("SERVING").asInt() >= DashboardTestCluster.PARTITIONS);
    }

    @Test
    void otmsShowTheirAddressLivenessAndPartitions() throws Exception {
        DashboardTestCluster.await("both OTMs to heartbeat", () -> {
            try {
                JsonNode otms = cluster.getJson("/api/otms");
                return otms.size() == 2 && otms.get(0).get("liveness").asText().equals("alive")
                        && otms.get(1).get("liveness").asText().equals("alive");
            } catch (Exception e) {
                return false;
            }
        });
        JsonNode otms = cluster.getJson("/api/otms");
        int partitions = 0;
        for (JsonNode o : otms) {
            OtmNode node = cluster.otms.get(o.get("otmId").asText());
            assertNotNull(node, "unknown OTM " + o);
            assertEquals("127.0.0.1:" + node.port(), o.get("address").asText());
            assertTrue(o.get("heapMaxBytes").asLong() > 0, o.toString());
            partitions += o.get("partitions").asInt();
        }
        long owned = cluster.master.partitions().stream().filter(v -> v.record().owner() != null).count();
        assertEquals(owned, partitions);
    }

    @Test
    void partitionsAndDatabasesMatchTheMaster() throws Exception {
        JsonNode partitions = cluster.getJson("/api/partitions");
        List<PartitionView> views = cluster.master.partitions();
        assertEquals(views.size(), partitions.size());
        for (int i = 0; i < views.size(); i++) {
            JsonNode p = partitions.get(i);
            PartitionView v = views.get(i);
            assertEquals(v.record().partitionId(), p.get("partitionId").asLong());
            assertEquals(v.record().database(), p.get("database").asText());
            assertEquals(v.record().owner(), p.get("owner").asText());
            assertEquals(v.state().name(), p.get("state").asText());
            assertTrue(p.has("epoch") && p.has("startKey") && p.has("endKey") && p.has("commitsPerSecond"), p.toString());
        }
        JsonNode databases = cluster.getJson("/api/databases");
        Set<String> names = new HashSet<>();
        databases.forEach(d -> names.add(d.get("name").asText()));
        assertTrue(names.containsAll(List.of(DashboardTestCluster.TENANT, DashboardTestCluster.SHOP)), names.toString());
        for (JsonNode d : databases) {
            if (d.get("name").asText().equals(DashboardTestCluster.SHOP)) {
                assertEquals("TREE", d.get("partitioning").asText());
                assertEquals(3, d.get("partitions").asInt());
                assertEquals("WAREHOUSE", d.get("tables").get(0).asText());
            }
        }
    }

    @Test
    void countersAndRatesMoveWhileAWorkloadRuns() throws Exception {
        cluster.startWorkload();
        DashboardTestCluster.await("a positive cluster commit rate", () -> rate("/api/summary") > 0);
        long issued1 = cluster.getJson("/api/timestamps").get("issuedCts").asLong();
        DashboardTestCluster.await("the commit count to grow", () -> cluster.committed() > 20);
        long committedBefore = cluster.committed();
        DashboardTestCluster.await("more commits", () -> cluster.committed() > committedBefore + 10);
        JsonNode t = cluster.getJson("/api/timestamps");
        long issued2 = t.get("issuedCts").asLong();
        assertTrue(issued2 > issued1, "issued CTS did not grow: " + issued1 + " then " + issued2);
        assertTrue(t.get("snapshotCts").asLong() <= issued2, t.toString());
        assertEquals(issued2 - t.get("snapshotCts").asLong(), t.get("snapshotLagCts").asLong(), t.toString());

        // Rates are over the last sample interval: wait for one in which the workload committed.
        JsonNode hot = awaitJson("/api/hot", h -> h.size() > 0);
        assertTrue(hot.get(0).get("commitsPerSecond").asDouble() > 0, hot.toString());
        assertNotNull(hot.get(0).get("database").asText(null), hot.toString());

        JsonNode series = cluster.getJson("/api/series");
        JsonNode samples = series.get("samples");
        assertTrue(samples.size() >= 2, series.toString());
        assertTrue(samples.size() <= series.get("samplesMax").asInt());
        JsonNode last = samples.get(samples.size() - 1);
        assertTrue(last.get("atMs").asLong() > samples.get(0).get("atMs").asLong());
        assertTrue(last.get("commitsPerSecondByOtm").size() == 2, last.toString());

        DashboardTestCluster.await("an OTM with a positive commit rate", () -> {
            double sum = 0;
            for (JsonNode o : json("/api/otms")) {
                sum += o.get("commitsPerSecond").asDouble();
            }
            return sum > 0;
        });
    }

    /** The first answer of {@code path} that satisfies {@code condition}, within the cluster's wait. */
    private JsonNode awaitJson(String path, java.util.function.Predicate<JsonNode> condition) throws InterruptedException {
        JsonNode[] seen = new JsonNode[1];
        DashboardTestCluster.await(path + " to satisfy the test", () -> condition.test(seen[0] = json(path)));
        return seen[0];
    }

    private JsonNode json(String path) {
        try {
            return cluster.getJson(path);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    private double rate(String path) {
        try {
            JsonNode s = cluster.getJson(path);
            return s.get("commitsPerSecond").isNull() ? 0 : s.get("commitsPerSecond").asDouble();
        } catch (Exception e) {
            return 0;
        }
    }

    @Test
    void eventsRecordTheElectionJoinsAndOpens() throws Exception {
        JsonNode answer = cluster.getJson("/api/events");
        List<String> kinds = new ArrayList<>();
        answer.get("events").forEach(e -> kinds.add(e.get("kind").asText()));
        assertTrue(kinds.contains("ELECTED") && kinds.contains("ACTIVE"), kinds.toString());
        assertTrue(kinds.stream().filter("OTM_JOINED"::equals).count() == 2, kinds.toString());
        assertTrue(kinds.stream().filter("DATABASE_CREATED"::equals).count() >= 2, kinds.toString());
        assertTrue(kinds.stream().filter("PARTITION_OPENED"::equals).count() >= DashboardTestCluster.PARTITIONS,
                kinds.toString());
        long lastSequence = answer.get("lastSequence").asLong();
        JsonNode after = cluster.getJson("/api/events?after=" + (lastSequence - 1));
        assertEquals(1, after.get("events").size(), after.toString());
        assertEquals(lastSequence, after.get("events").get(0).get("sequence").asLong());
        assertEquals(400, cluster.get("/api/events?after=-5", null).statusCode());
        assertEquals(400, cluster.get("/api/events?limit=zillions", null).statusCode());
    }

    @Test
    void adminActionsNeedTheToken() throws Exception {
        int databases = cluster.master.databases().size();
        String body = tenantBody("NOTOKEN");
        HttpResponse<String> none = cluster.post("/api/admin/tenants", null, body);
        assertEquals(401, none.statusCode(), none.body());
        assertTrue(cluster.parse(none.body()).get("error").asText().contains("admin token"), none.body());
        HttpResponse<String> wrong = cluster.post("/api/admin/tenants", "not-the-token", body);
        assertEquals(403, wrong.statusCode(), wrong.body());
        assertEquals(401, cluster.post("/api/admin/databases", null, body).statusCode());
        assertEquals(403, cluster.post("/api/admin/otms/otm-1/drain", "wrong-token", "{}").statusCode());
        assertEquals(401, cluster.post("/api/admin/partitions/1/move", null, "{}").statusCode());
        assertEquals(databases, cluster.master.databases().size());
        assertFalse(cluster.master.databases().containsKey("NOTOKEN"));
    }

    @Test
    void badInputIsRefusedWithAMessageAndChangesNothing() throws Exception {
        int databases = cluster.master.databases().size();
        int partitions = cluster.master.partitions().size();
        String token = DashboardTestCluster.TOKEN;
        Map<String, Integer> cases = new java.util.LinkedHashMap<>();
        cases.put("{not json", 400);
        cases.put("{}", 400);
        cases.put("{\"schema\": {\"name\": \"BAD1\", \"partitioning\": \"SINGLE_PARTITION\", \"tables\": []}}", 400);
        cases.put(tenantBody("BAD2").replace("BIGINT", "NOSUCHTYPE"), 400);
        cases.put(tenantBody("BAD3").replace("\"SINGLE_PARTITION\"", "\"TREE\""), 400);
        cases.put(tenantBody("BAD4").replace("}]}}", "}], \"extra\": 1}}"), 400);
        cases.put(tenantBody(DashboardTestCluster.TENANT), 409);
        cases.put("{\"schema\": " + "[".repeat(100) + "]".repeat(100) + "}", 400);
        for (Map.Entry<String, Integer> c : cases.entrySet()) {
            HttpResponse<String> r = cluster.post("/api/admin/tenants", token, c.getKey());
            assertEquals(c.getValue(), r.statusCode(), c.getKey() + " -> " + r.body());
            assertFalse(cluster.parse(r.body()).get("error").asText().isBlank(), r.body());
        }
        String descending = "{\"schema\": {\"name\": \"BAD5\", \"partitioning\": \"TREE\", \"tables\": [{\"name\": \"W\","
                + " \"kind\": \"ROOT\", \"columns\": [{\"name\": \"W_ID\", \"type\": \"INT\"}], \"primaryKey\": [\"W_ID\"]}]},"
                + " \"rootKeyBoundaries\": [[200], [100]]}";
        HttpResponse<String> r = cluster.post("/api/admin/databases", token, descending);
        assertEquals(400, r.statusCode(), r.body());
        assertTrue(r.body().contains("ascending"), r.body());
        assertEquals(400, cluster.post("/api/admin/databases", token, tenantBody("BAD6")).statusCode());
        String big = tenantBody("BAD7").replace("\"ITEMS\"", "\"" + "X".repeat(DashboardHandler.BODY_BYTES_MAX) + "\"");
        assertEquals(413, cluster.post("/api/admin/tenants", token, big).statusCode());
        HttpResponse<String> text = cluster.http().send(java.net.http.HttpRequest.newBuilder(cluster.uri("/api/admin/tenants"))
                .header("Content-Type", "text/plain").header("Authorization", "Bearer " + token)
                .POST(java.net.http.HttpRequest.BodyPublishers.ofString(tenantBody("BAD8"))).build(),
                HttpResponse.BodyHandlers.ofString());
        assertEquals(415, text.statusCode(), text.body());
        assertEquals(400, cluster.post("/api/admin/partitions/-3/move", token, "{}").statusCode());
        assertEquals(404, cluster.post("/api/admin/nothing", token, "{}").statusCode());
        assertEquals(405, cluster.get("/api/admin/tenants", token).statusCode());
        assertEquals(405, cluster.post("/api/summary", token, "{}").statusCode());
        assertEquals(404, cluster.get("/api/nothing", null).statusCode());
        assertEquals(404, cluster.get("/nothing", null).statusCode());

        assertEquals(databases, cluster.master.databases().size());
        assertEquals(partitions, cluster.master.partitions().size());
        for (int i = 1; i <= 8; i++) {
            assertFalse(cluster.master.databases().containsKey("BAD" + i));
        }
    }

    @Test
    void createTenantWithTheTokenAssignsItsPartition() throws Exception {
        HttpResponse<String> r = cluster.post("/api/admin/tenants", DashboardTestCluster.TOKEN, tenantBody("APITENANT"));
        assertEquals(201, r.statusCode(), r.body());
        JsonNode created = cluster.parse(r.body());
        assertEquals("APITENANT", created.get("database").asText());
        assertEquals(1, created.get("partitions").size());
        long id = created.get("partitions").get(0).get("partitionId").asLong();
        DashboardTestCluster.await("the new tenant to serve", () -> {
            try {
                for (JsonNode p : cluster.getJson("/api/partitions")) {
                    if (p.get("partitionId").asLong() == id) {
                        return p.get("state").asText().equals("SERVING") && p.get("database").asText().equals("APITENANT");
                    }
                }
                return false;
            } catch (Exception e) {
                return false;
            }
        });
    }

    @Test
    void moveAndDrainAnswerNotImplementedUntilIssue8() throws Exception {
        int partitions = cluster.master.partitions().size();
        HttpResponse<String> move = cluster.post("/api/admin/partitions/1/move", DashboardTestCluster.TOKEN,
                "{\"to\": \"otm-2\"}");
        assertEquals(501, move.statusCode(), move.body());
        assertTrue(move.body().contains("issue 8"), move.body());
        HttpResponse<String> drain = cluster.post("/api/admin/otms/otm-1/drain", DashboardTestCluster.TOKEN, "{}");
        assertEquals(501, drain.statusCode(), drain.body());
        assertTrue(drain.body().contains("issue 8"), drain.body());
        assertEquals(partitions, cluster.master.partitions().size());
    }

    @Test
    void readsNeedTheTokenUnlessOpen() throws Exception {
        try (DashboardServer closed = DashboardServer.start(cluster.master,
                DashboardConfig.of("127.0.0.1", 0, DashboardTestCluster.TOKEN, false))) {
            String base = closed.url();
            assertEquals(401, cluster.getAt(base, "api/summary", null).statusCode());
            assertEquals(403, cluster.getAt(base, "api/summary", "wrong-token").statusCode());
            assertEquals(200, cluster.getAt(base, "api/summary", DashboardTestCluster.TOKEN).statusCode());
            assertEquals(401, cluster.getAt(base, "metrics", null).statusCode());
            assertEquals(200, cluster.getAt(base, "health", null).statusCode());
            assertEquals(200, cluster.getAt(base, "", null).statusCode(), "the page itself holds no data");
        } finally {
            cluster.master.advertiseDashboard(cluster.dashboard.url());
        }
    }

    @Test
    void metricsArePrometheusText() throws Exception {
        HttpResponse<String> r = cluster.get("/metrics", null);
        assertEquals(200, r.statusCode());
        assertTrue(r.headers().firstValue("Content-Type").orElse("").startsWith("text/plain; version=0.0.4"));
        String text = r.body();
        assertTrue(text.contains("elastras_master_active{master=\"master-1\"} 1\n"), text);
        assertTrue(text.contains("elastras_otm_live{otm=\"otm-1\"} 1\n"), text);
        assertTrue(text.contains("elastras_otm_live{otm=\"otm-2\"} 1\n"), text);
        long serving = cluster.master.partitions().stream().filter(v -> v.state().name().equals("SERVING")).count();
        assertTrue(text.contains("elastras_partitions{state=\"SERVING\"} " + serving + "\n"), text);
        assertTrue(text.contains("# TYPE elastras_partition_commits_total counter\n"), text);
        for (String line : text.split("\n")) {
            assertTrue(line.startsWith("# HELP ") || line.startsWith("# TYPE ") || PROMETHEUS_SAMPLE.matcher(line).matches(),
                    "not exposition format: " + line);
        }
    }

    @Test
    void healthAndReadyAnswerOnTheActiveMaster() throws Exception {
        assertEquals(200, cluster.get("/health", null).statusCode());
        assertEquals(200, cluster.get("/ready", null).statusCode());
        assertEquals(405, cluster.post("/health", null, "{}").statusCode());
    }

    @Test
    void thePageIsServedWholeAndLoadsNothingFromElsewhere() throws Exception {
        HttpResponse<String> page = cluster.get("/", null);
        assertEquals(200, page.statusCode());
        assertTrue(page.headers().firstValue("Content-Type").orElse("").startsWith("text/html"));
        assertTrue(page.headers().firstValue("Content-Security-Policy").orElse("").contains("default-src 'self'"));
        for (String path : List.of("/", "/app.js", "/app.css")) {
            HttpResponse<String> r = cluster.get(path, null);
            assertEquals(200, r.statusCode(), path);
            assertFalse(r.body().contains("http://") || r.body().contains("https://") || r.body().contains("//cdn"),
                    path + " refers to another site");
        }
        assertTrue(page.body().contains("src=\"app.js\"") && page.body().contains("href=\"app.css\""));
    }

    @Test
    void aStandbyPointsToTheActiveMaster() throws Exception {
        Master standby = Master.start(DashboardTestCluster.masterConfig("master-2", cluster.zk.getConnectString(), temp));
        try (DashboardServer standbyDashboard = DashboardServer.start(standby,
                DashboardConfig.of("127.0.0.1", 0, DashboardTestCluster.TOKEN, true))) {
            assertFalse(standby.active());
            String base = standbyDashboard.url();
            HttpResponse<String> r = cluster.getAt(base, "api/summary", null);
            assertEquals(503, r.statusCode(), r.body());
            JsonNode body = cluster.parse(r.body());
            assertEquals("standby", body.get("role").asText());
            assertEquals("master-1", body.get("activeMaster").get("masterId").asText());
            assertEquals(cluster.dashboard.url(), body.get("activeMaster").get("dashboard").asText());
            assertTrue(body.get("error").asText().contains(cluster.dashboard.url()), r.body());
            assertEquals(503, cluster.getAt(base, "ready", null).statusCode());
            assertEquals(200, cluster.getAt(base, "health", null).statusCode());
            HttpResponse<String> create = cluster.postAt(base, "api/admin/tenants", DashboardTestCluster.TOKEN,
                    tenantBody("VIASTANDBY"));
            assertEquals(503, create.statusCode(), create.body());
            assertFalse(cluster.master.databases().containsKey("VIASTANDBY"));
        } finally {
            standby.close();
        }
    }

    static String tenantBody(String name) {
        return "{\"schema\": {\"name\": \"" + name + "\", \"partitioning\": \"SINGLE_PARTITION\", \"tables\": [{\"name\":"
                + " \"ITEMS\", \"kind\": \"PLAIN\", \"columns\": [{\"name\": \"ID\", \"type\": \"BIGINT\"}, {\"name\":"
                + " \"VAL\", \"type\": \"BIGINT\", \"nullable\": true}], \"primaryKey\": [\"ID\"]}]}}";
    }
}
