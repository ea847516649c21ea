package org.elastras.otm.http;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.elastras.client.protocol.GetRequest;
import org.elastras.client.protocol.ProtocolCodec;
import org.elastras.client.protocol.WireFormat;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Bad requests over plain HTTP/1.1 (what an operator's curl sends): each gets its 4xx status, its
 * error code and a message saying what was wrong, and the next good request is served.
 */
class MalformedRequestsGetClearErrorsAndServerKeepsServingTest {

    private static final int BODY_BYTES_MAX = 64 * 1024;
    private static final String JSON = "application/json";
    private static final String SMILE = "application/x-jackson-smile";

    private final ObjectMapper json = new ObjectMapper();
    private final ProtocolCodec codec = new ProtocolCodec();
    private FakeOtmService service;
    private ProtocolServer server;
    private HttpClient http;

    @BeforeEach
    void start() throws IOException {
        service = new FakeOtmService();
        server = new ProtocolServer(ProtocolServerConfig.defaults("127.0.0.1", 0).withBodyBytesMax(BODY_BYTES_MAX), service);
        server.start();
        http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).connectTimeout(Duration.ofSeconds(5)).build();
    }

    @AfterEach
    void stop() {
        server.close();
    }

    private HttpResponse<byte[]> send(String method, String path, String contentType, byte[] body) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port() + path))
                .timeout(Duration.ofSeconds(10))
                .method(method, body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofByteArray(body));
        if (contentType != null) {
            b.header("Content-Type", contentType);
        }
        return http.send(b.build(), HttpResponse.BodyHandlers.ofByteArray());
    }

    private HttpResponse<byte[]> postJson(String op, String body) throws Exception {
        return send("POST", "/v1/" + op, JSON, body.getBytes(StandardCharsets.UTF_8));
    }

    /** Checks the error answer and then that a good request still gets a good answer. */
    private void expectError(HttpResponse<byte[]> response, int status, String code, String... messageParts) throws Exception {
        assertEquals(status, response.statusCode(), () -> new String(response.body(), StandardCharsets.UTF_8));
        WireFormat format = WireFormat.fromContentType(response.headers().firstValue("Content-Type").orElse(null)).orElseThrow();
        JsonNode error = codec.mapper(format).readTree(response.body());
        assertEquals(code, error.get("code").asText(), error.toString());
        String message = error.get("message").asText();
        for (String part : messageParts) {
            assertTrue(message.contains(part), "message '" + message + "' should mention '" + part + "'");
        }
        assertGoodRequestServed();
    }

    private void assertGoodRequestServed() throws Exception {
        HttpResponse<byte[]> ok = postJson("commit", "{\"txnId\": 5}");
        assertEquals(200, ok.statusCode(), () -> new String(ok.body(), StandardCharsets.UTF_8));
        assertEquals(50, json.readTree(ok.body()).get("cts").asLong());
    }

    @Test
    void jsonRequestsAreAnsweredInJson() throws Exception {
        HttpResponse<byte[]> begun = postJson("begin", "{\"database\":\"D\",\"partitionId\":2}");
        assertEquals(200, begun.statusCode());
        assertEquals(JSON, begun.headers().firstValue("Content-Type").orElseThrow());
        JsonNode b = json.readTree(begun.body());
        assertEquals(1, b.get("txnId").asLong());
        assertEquals(100, b.get("snapshotCts").asLong(), "afterCts defaults to 0");

        HttpResponse<byte[]> got = postJson("get", "{\"txnId\":1,\"table\":\"T\",\"key\":[3,\"AAEC\",1.25]}");
        assertEquals(200, got.statusCode());
        JsonNode row = json.readTree(got.body()).get("row");
        assertEquals(3, row.get("K0").asInt());
        assertEquals("AAEC", row.get("K1").asText());
        assertEquals(1.25, row.get("K2").asDouble());
        HttpResponse<byte[]> status = postJson("status", "{}");
        assertEquals(200, status.statusCode());
        assertEquals("otm-test", json.readTree(status.body()).get("otmId").asText());
    }

    @Test
    void smileErrorsAreAnsweredInSmile() throws Exception {
        HttpResponse<byte[]> r = send("POST", "/v1/commit", SMILE, codec.encode(new GetRequest(1, "T", List.of(1)), WireFormat.SMILE));
        assertEquals(400, r.statusCode());
        assertEquals(SMILE, r.headers().firstValue("Content-Type").orElseThrow());
        JsonNode error = codec.mapper(WireFormat.SMILE).readTree(r.body());
        assertEquals("MALFORMED_REQUEST", error.get("code").asText());
        assertTrue(error.get("message").asText().contains("unknown field 'table'"), error.toString());
    }

    @Test
    void garbageBytesAreMalformed() throws Exception {
        byte[] garbage = new byte[300];
        new java.util.Random(7).nextBytes(garbage);
        expectError(send("POST", "/v1/get", SMILE, garbage), 400, "MALFORMED_REQUEST", "not valid SMILE");
        expectError(send("POST", "/v1/get", JSON, "{not json".getBytes(StandardCharsets.UTF_8)), 400,
                "MALFORMED_REQUEST", "not valid JSON");
    }

    @Test
    void truncatedSmileIsMalformed() throws Exception {
        byte[] whole = codec.encode(new GetRequest(9, "WAREHOUSE", List.of(1, "abcdefgh")), WireFormat.SMILE);
        expectError(send("POST", "/v1/get", SMILE, Arrays.copyOf(whole, whole.length / 2)), 400, "MALFORMED_REQUEST",
                "get request");
    }

    @Test
    void wrongTypesAreMalformedAndNameTheField() throws Exception {
        expectError(postJson("begin", "{\"database\":\"D\",\"partitionId\":\"two\"}"), 400, "MALFORMED_REQUEST", "partitionId");
        expectError(postJson("begin", "{\"database\":\"D\",\"partitionId\":2.5}"), 400, "MALFORMED_REQUEST", "partitionId");
        expectError(postJson("commit", "{\"txnId\":null}"), 400, "MALFORMED_REQUEST", "txnId");
        expectError(postJson("get", "{\"txnId\":1,\"table\":\"T\",\"key\":{\"a\":1}}"), 400, "MALFORMED_REQUEST", "key");
        expectError(postJson("get", "{\"txnId\":1,\"table\":\"T\",\"key\":[[1]]}"), 400, "MALFORMED_REQUEST", "nested array");
        expectError(postJson("begin", "{\"database\":\"D\",\"partitionId\":1,\"isolation\":\"SLOPPY\"}"), 400,
                "MALFORMED_REQUEST", "isolation", "SERIALIZABLE");
        expectError(postJson("commit", "[1]"), 400, "MALFORMED_REQUEST", "commit request");
    }

    @Test
    void missingAndOutOfRangeFieldsAreMalformed() throws Exception {
        expectError(postJson("commit", "{}"), 400, "MALFORMED_REQUEST", "txnId");
        expectError(postJson("get", "{\"txnId\":1,\"key\":[1]}"), 400, "MALFORMED_REQUEST", "table is missing");
        expectError(postJson("scan", "{\"txnId\":1,\"table\":\"T\"}"), 400, "MALFORMED_REQUEST", "limit");
        expectError(postJson("begin", "{\"database\":\"D\",\"partitionId\":-1}"), 400, "MALFORMED_REQUEST", "partitionId");
        expectError(send("POST", "/v1/commit", JSON, new byte[0]), 400, "MALFORMED_REQUEST", "empty");
    }

    @Test
    void unknownAndDuplicateFieldsAreMalformed() throws Exception {
        expectError(postJson("commit", "{\"txnId\":1,\"txnid2\":2}"), 400, "MALFORMED_REQUEST", "unknown field 'txnid2'", "txnId");
        expectError(postJson("commit", "{\"txnId\":1,\"txnId\":2}"), 400, "MALFORMED_REQUEST", "txnId");
        expectError(postJson("commit", "{\"txnId\":1} {\"txnId\":2}"), 400, "MALFORMED_REQUEST", "commit request");
    }

    @Test
    void anInvalidSchemaIsMalformedWithTheCatalogsReason() throws Exception {
        String schema = "{\"schema\":{\"name\":\"S\",\"partitioning\":\"SINGLE_PARTITION\",\"tables\":[{\"name\":\"T\","
                + "\"kind\":\"PLAIN\",\"columns\":[{\"name\":\"A\",\"type\":\"VARCHAR(0)\"}],\"primaryKey\":[\"A\"]}]}}";
        expectError(postJson("registerDatabase", schema), 400, "MALFORMED_REQUEST", "invalid schema", "VARCHAR");
        String good = schema.replace("VARCHAR(0)", "varchar(8)");
        assertEquals(200, postJson("registerDatabase", good).statusCode());
    }

    @Test
    void deepNestingBreaksTheNestingBound() throws Exception {
        String deep = "[".repeat(200) + "]".repeat(200);
        expectError(postJson("call", "{\"database\":\"D\",\"partitionId\":1,\"procedure\":\"P\",\"args\":" + deep + "}"),
                413, "LIMIT_EXCEEDED", "nesting depth");
    }

    @Test
    void hugeArraysBreakTheCollectionBounds() throws Exception {
        StringBuilder key = new StringBuilder("[0");
        for (int i = 1; i < 10_000; i++) {
            key.append(",").append(i);
        }
        key.append("]");
        expectError(postJson("get", "{\"txnId\":1,\"table\":\"T\",\"key\":" + key + "}"), 413, "LIMIT_EXCEEDED",
                "key has 10000 values", "limit is 16");
        expectError(postJson("scan", "{\"txnId\":1,\"table\":\"T\",\"limit\":1000000}"), 413, "LIMIT_EXCEEDED", "limit");
    }

    @Test
    void oversizedBodiesAreRefusedWith413() throws Exception {
        byte[] big = new byte[BODY_BYTES_MAX + 1];
        Arrays.fill(big, (byte) ' ');
        expectError(send("POST", "/v1/commit", JSON, big), 413, "LIMIT_EXCEEDED", String.valueOf(BODY_BYTES_MAX));
        // Without a Content-Length (chunked), the bound is enforced while reading.
        HttpRequest chunked = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port() + "/v1/commit"))
                .header("Content-Type", JSON)
                .POST(HttpRequest.BodyPublishers.ofInputStream(() -> new ByteArrayInputStream(big)))
                .build();
        expectError(http.send(chunked, HttpResponse.BodyHandlers.ofByteArray()), 413, "LIMIT_EXCEEDED",
                String.valueOf(BODY_BYTES_MAX));
    }

    @Test
    void wrongMethodsPathsAndMediaTypesAreRefused() throws Exception {
        HttpResponse<byte[]> get = send("GET", "/v1/begin", null, null);
        assertEquals("POST", get.headers().firstValue("Allow").orElseThrow());
        expectError(get, 405, "METHOD_NOT_ALLOWED", "POST");
        expectError(send("POST", "/health", JSON, "{}".getBytes(StandardCharsets.UTF_8)), 405, "METHOD_NOT_ALLOWED", "GET");
        expectError(postJson("nope", "{}"), 404, "UNKNOWN_OPERATION", "nope", "begin");
        HttpResponse<byte[]> unread = send("POST", "/v2/begin", JSON, "{}".getBytes(StandardCharsets.UTF_8));
        assertEquals("close", unread.headers().firstValue("Connection").orElse(""),
                "a refused body is left unread: an HTTP/1.1 client must not reuse the connection");
        expectError(unread, 404, "UNKNOWN_OPERATION", "/v1/");
        expectError(send("POST", "/v1/commit", null, "{\"txnId\":1}".getBytes(StandardCharsets.UTF_8)), 400,
                "MALFORMED_REQUEST", "Content-Type", JSON);
        expectError(send("POST", "/v1/commit", "text/plain", "{\"txnId\":1}".getBytes(StandardCharsets.UTF_8)), 400,
                "MALFORMED_REQUEST", "text/plain");
    }

    @Test
    void theServiceIsNotCalledForABadRequest() throws Exception {
        service.received.clear();
        HttpResponse<byte[]> r = postJson("put", "{\"txnId\":1,\"table\":\"T\",\"row\":{\"A\":[1]}}");
        assertEquals(400, r.statusCode());
        assertTrue(service.received.isEmpty(), "a malformed request reaches no service method");
    }
}
