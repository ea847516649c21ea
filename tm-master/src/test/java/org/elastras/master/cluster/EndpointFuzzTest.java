package org.elastras.master.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import org.apache.curator.test.TestingServer;
import org.elastras.client.ElasTrasClient;
import org.elastras.client.protocol.Operation;
import org.elastras.otm.server.OtmConfig;
import org.elastras.otm.server.OtmNode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A seeded fuzzer against the OTM's and the master's endpoints: random paths, methods, media types
 * and bodies (random bytes, truncated and type-mangled JSON, deep nesting, huge numbers). Every
 * request gets an HTTP answer (never a dropped connection without one), no 2xx for garbage, both
 * servers stay up, and nothing changes: the data reads back the same and the master's map is the
 * same.
 */
class EndpointFuzzTest {

    /** 1,500 in CI; a long run sets {@code -Delastras.fuzz.requests=100000} (and a seed with {@code elastras.fuzz.seed}). */
    private static final int REQUESTS = Integer.getInteger("elastras.fuzz.requests", 1_500);
    private static final long SEED = Long.getLong("elastras.fuzz.seed", 20261122L);
    private static final String[] TEMPLATES = {
        "{\"database\":\"FUZZ\",\"partitionId\":1,\"isolation\":\"SERIALIZABLE\",\"afterCts\":0}",
        "{\"txnId\":1,\"table\":\"ACCOUNTS\",\"row\":{\"ID\":1,\"BALANCE\":5}}",
        "{\"txnId\":1,\"table\":\"ACCOUNTS\",\"key\":[1]}",
        "{\"database\":\"FUZZ\",\"partitionId\":1,\"procedure\":\"x\",\"args\":[1,2,[3]]}",
        "{\"schema\":{\"name\":\"X\",\"partitioning\":\"TREE\",\"tables\":[]},\"rootKeyBoundaries\":[[1]]}",
        "{\"otmId\":\"otm-z\",\"sequence\":1,\"timestamps\":{\"takenCount\":0}}",
        "{\"database\":\"FUZZ\",\"partitionId\":1,\"commitId\":{\"issuedMs\":1,\"nonce\":2}}",
    };

    @TempDir
    Path temp;

    @Test
    void garbageGetsErrorsAndChangesNothing() throws Exception {
        try (TestingServer zk = new TestingServer(true);
                OtmNode otm = OtmNode.start(new OtmConfig("otm-1", zk.getConnectString(), "/elastras",
                        temp.resolve("dfs").toUri(), "127.0.0.1", 0, OtmConfig.DEFAULT_SESSION_TIMEOUT_MS).inCluster());
                Master master = Master.start(MasterConfig.defaults("master-1", zk.getConnectString(), "/elastras",
                        temp.resolve("dfs").toUri()));
                ElasTrasClient client = ElasTrasClient.connect(zk.getConnectString())) {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (!master.active()) {
                assertTrue(System.nanoTime() < deadline, "no active master");
                Thread.sleep(10);
            }
            master.createTenant(MasterReassignsAFailedOtmsPartitionsTest.bank());
            client.runInTransaction("BANK", List.of(), txn -> {
                txn.put("ACCOUNTS", Map.of("ID", 1L, "BALANCE", 100L));
                return null;
            });
            List<PartitionView> mapBefore = master.partitions();

            HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
            Random random = new Random(SEED);
            List<String> ops = new ArrayList<>();
            for (Operation op : Operation.values()) {
                ops.add(op.path());
            }
            // Not "/../x": Jetty refuses such an ambiguous path at the HTTP layer (over an h2c upgrade by
            // ending the connection), before any of our code runs.
            ops.addAll(List.of("/", "/v1/", "/v1/BEGIN", "/v2/begin", "/health/x", "/v1/%00", "/ready?x=1", "/v1/begin/x"));
            Map<Integer, Integer> statuses = new TreeMap<>();
            int[] ports = {otm.port(), master.port()};
            for (int i = 0; i < REQUESTS; i++) {
                int port = ports[random.nextInt(ports.length)];
                String path = ops.get(random.nextInt(ops.size()));
                byte[] body = body(random);
                String contentType = switch (random.nextInt(4)) {
                    case 0 -> "application/json";
                    case 1 -> "application/x-jackson-smile";
                    case 2 -> "text/plain";
                    default -> "application/json; charset=utf-8";
                };
                String method = random.nextInt(10) == 0 ? "PUT" : "POST";
                HttpRequest request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path.replace("%00", "%2500")))
                        .timeout(Duration.ofSeconds(10)).header("Content-Type", contentType)
                        .method(method, HttpRequest.BodyPublishers.ofByteArray(body)).build();
                HttpResponse<String> response;
                try {
                    response = http.send(request, HttpResponse.BodyHandlers.ofString());
                } catch (java.io.IOException e) {
                    throw new AssertionError("no answer to " + method + " " + path + " (" + contentType + ", " + body.length
                            + " bytes: " + new String(body, 0, Math.min(body.length, 80), StandardCharsets.ISO_8859_1) + ")", e);
                }
                statuses.merge(response.statusCode(), 1, Integer::sum);
                assertTrue(response.statusCode() >= 400, "garbage was accepted: " + method + " " + path + " <- "
                        + new String(body, StandardCharsets.ISO_8859_1) + " answered " + response.statusCode() + " "
                        + response.body());
                assertTrue(response.statusCode() != 500, "a server error for client garbage: " + path + " <- "
                        + new String(body, StandardCharsets.ISO_8859_1) + ": " + response.body());
            }
            System.out.println("fuzzed " + REQUESTS + " requests; statuses " + statuses);

            for (int port : ports) {
                HttpResponse<String> health = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/health"))
                        .GET().build(), HttpResponse.BodyHandlers.ofString());
                assertEquals(200, health.statusCode(), "a server is down after the fuzzing");
            }
            assertTrue(otm.serving(), "the OTM stopped serving");
            assertTrue(master.active(), "the master stopped acting");
            Object balance = client.runInTransaction("BANK", List.of(), txn -> txn.get("ACCOUNTS", List.of(1L))
                    .orElseThrow().get("BALANCE"));
            assertEquals(100L, balance, "the data changed");
            List<PartitionView> mapAfter = master.partitions();
            assertEquals(mapBefore.size(), mapAfter.size(), "the partition map changed: " + mapAfter);
            assertEquals(mapBefore.get(0).record(), mapAfter.get(0).record());
        }
    }

    /** A body that is never a valid request. */
    private static byte[] body(Random random) {
        String template = TEMPLATES[random.nextInt(TEMPLATES.length)];
        return switch (random.nextInt(6)) {
            case 0 -> { // random bytes
                byte[] b = new byte[random.nextInt(2_000)];
                random.nextBytes(b);
                yield b;
            }
            case 1 -> template.substring(0, 1 + random.nextInt(template.length() - 1)).getBytes(StandardCharsets.UTF_8);
            case 2 -> template.replaceFirst(":(\\d+)", ":\"not a number\"").replaceFirst("\\{", "{\"unknownField\":1,")
                    .getBytes(StandardCharsets.UTF_8);
            case 3 -> ("[".repeat(5_000) + "]".repeat(5_000)).getBytes(StandardCharsets.UTF_8);
            case 4 -> template.replaceFirst(":(\\d+)", ":1" + "9".repeat(400)).replaceFirst("\\{", "{\"x\":1,")
                    .getBytes(StandardCharsets.UTF_8);
            default -> new byte[0];
        };
    }
}
