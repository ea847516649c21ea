package org.elastras.otm.http;

import org.elastras.client.OtmClient;
import org.elastras.client.OtmClientConfig;
import org.elastras.client.protocol.ElasTrasException;
import org.elastras.client.protocol.ErrorCode;
import org.elastras.client.protocol.GetRequest;
import org.elastras.client.protocol.PutRequest;
import org.junit.jupiter.api.Test;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@code /health} and {@code /ready} report process and lease; a full worker pool answers OVERLOADED, then recovers. */
class ProbesAndOverloadTest {

    private static int status(int port, String path) throws Exception {
        HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
        return http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                .timeout(Duration.ofSeconds(5)).GET().build(), HttpResponse.BodyHandlers.discarding()).statusCode();
    }

    @Test
    void healthIsUpWhileReadyFollowsServing() throws Exception {
        FakeOtmService service = new FakeOtmService();
        try (ProtocolServer server = new ProtocolServer(ProtocolServerConfig.defaults("127.0.0.1", 0), service)) {
            server.start();
            assertTrue(server.port() > 0);
            assertEquals(200, status(server.port(), "/health"));
            assertEquals(200, status(server.port(), "/ready"));
            service.serving.set(false);
            assertEquals(200, status(server.port(), "/health"));
            assertEquals(503, status(server.port(), "/ready"));
            service.serving.set(true);
            assertEquals(200, status(server.port(), "/ready"));
        }
    }

    @Test
    void aFullWorkerPoolAnswersOverloadedAndServesAgainAfterwards() throws Exception {
        FakeOtmService service = new FakeOtmService();
        service.release = new CountDownLatch(1);
        ProtocolServerConfig config = ProtocolServerConfig.defaults("127.0.0.1", 0).withWorkers(1, 1);
        try (ProtocolServer server = new ProtocolServer(config, service)) {
            server.start();
            try (OtmClient client = new OtmClient("127.0.0.1", server.port(), OtmClientConfig.defaults().withRequestTimeoutMs(15_000))) {
                ExecutorService pool = Executors.newFixedThreadPool(6);
                try {
                    List<Future<ErrorCode>> calls = new ArrayList<>();
                    for (int i = 0; i < 6; i++) {
                        calls.add(pool.submit(() -> {
                            try {
                                client.put(new PutRequest(1, "BLOCK", Map.of("A", 1)));
                                return null;
                            } catch (ElasTrasException e) {
                                return e.code();
                            }
                        }));
                    }
                    // One call runs and at most one waits in the queue; the others are refused at once.
                    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
                    while (calls.stream().filter(Future::isDone).count() < 4 && System.nanoTime() < deadline) {
                        Thread.sleep(10);
                    }
                    Thread.sleep(200);
                    int refused = 0;
                    for (Future<ErrorCode> f : calls) {
                        if (f.isDone()) {
                            assertEquals(ErrorCode.OVERLOADED, f.get());
                            refused++;
                        }
                    }
                    assertTrue(refused == 4 || refused == 5, "refused " + refused + " of 6 with 1 worker and a queue of 1");
                    service.release.countDown();
                    int succeeded = 0;
                    for (Future<ErrorCode> f : calls) {
                        if (f.get(10, TimeUnit.SECONDS) == null) {
                            succeeded++;
                        }
                    }
                    assertEquals(6 - refused, succeeded, "every admitted call completes");
                    assertTrue(client.get(new GetRequest(1, "T", List.of(1))).found(), "served again once the pool drained");
                } finally {
                    pool.shutdownNow();
                }
            }
        }
    }

    @Test
    void aStoppedServerRefusesAndItsClientSeesUnreachable() throws Exception {
        FakeOtmService service = new FakeOtmService();
        ProtocolServer server = new ProtocolServer(ProtocolServerConfig.defaults("127.0.0.1", 0), service);
        server.start();
        int port = server.port();
        try (OtmClient client = new OtmClient("127.0.0.1", port, OtmClientConfig.defaults().withRequestTimeoutMs(5_000))) {
            assertTrue(client.get(new GetRequest(1, "T", List.of(1))).found());
            server.close();
            assertFalse(server.isRunning());
            ElasTrasException e = assertThrows(ElasTrasException.class, () -> client.get(new GetRequest(1, "T", List.of(1))));
            assertTrue(e.code() == ErrorCode.UNREACHABLE || e.code() == ErrorCode.OUTCOME_UNKNOWN, e.toString());
        }
    }
}
