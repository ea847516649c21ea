package org.elastras.otm.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.elastras.client.OtmClient;
import org.elastras.client.OtmClientConfig;
import org.elastras.client.protocol.CallRequest;
import org.elastras.client.protocol.CallResponse;
import org.elastras.client.protocol.ElasTrasException;
import org.elastras.client.protocol.ErrorCode;
import org.elastras.client.protocol.Isolation;
import org.junit.jupiter.api.Test;

/**
 * {@link OtmClient} coalesces concurrent calls into {@code callBatch} requests over a real socket:
 * every call still gets exactly its own answer or error, none is lost, duplicated or crossed; a
 * lone call goes alone; the queue is bounded.
 */
class OtmClientCoalescesConcurrentCallsTest {

    private static final int THREADS = 16;
    private static final int CALLS_PER_THREAD = 100;

    private static CallRequest call(String procedure, long a, long b) {
        return new CallRequest("DB", 1, procedure, List.of(a, b), Isolation.SERIALIZABLE, 10 * a + b);
    }

    @Test
    void concurrentCallsShareRequestsAndEachGetsItsOwnAnswerOrError() throws Exception {
        FakeOtmService service = new FakeOtmService();
        // Every call sleeps a little on the server, so that calls pile up behind the requests in flight.
        service.slowMs = 1;
        try (ProtocolServer server = new ProtocolServer(ProtocolServerConfig.defaults("127.0.0.1", 0), service)) {
            server.start();
            try (OtmClient client = new OtmClient("127.0.0.1", server.port(),
                    OtmClientConfig.defaults().withRequestTimeoutMs(30_000).withCallBatching(16, 1 << 20, 2))) {
                ExecutorService pool = Executors.newFixedThreadPool(THREADS);
                try {
                    List<Future<int[]>> results = new ArrayList<>();
                    for (int t = 0; t < THREADS; t++) {
                        final long thread = t;
                        results.add(pool.submit(() -> {
                            int ok = 0;
                            int refused = 0;
                            for (long i = 0; i < CALLS_PER_THREAD; i++) {
                                if (i % 10 == 3) {
                                    // Scripted failure: this call alone fails, with its own code.
                                    ElasTrasException e = assertThrows(ElasTrasException.class,
                                            () -> client.call(new CallRequest("DB", 1, "CONFLICT", List.of(thread, 0L),
                                                    Isolation.SERIALIZABLE, 0)));
                                    assertEquals(ErrorCode.CONFLICT, e.code());
                                    assertTrue(e.retryable());
                                    refused++;
                                    continue;
                                }
                                CallResponse r = client.call(call("SLOW", thread, i));
                                @SuppressWarnings("unchecked")
                                Map<String, Object> echo = (Map<String, Object>) r.result();
                                assertEquals(List.of(thread, i), ((List<?>) echo.get("args")).stream()
                                        .map(v -> ((Number) v).longValue()).toList());
                                assertEquals(10 * thread + i + 1, r.cts(), "the call's own afterCts + 1");
                                ok++;
                            }
                            return new int[] {ok, refused};
                        }));
                    }
                    int ok = 0;
                    int refused = 0;
                    for (Future<int[]> f : results) {
                        int[] counts = f.get(120, TimeUnit.SECONDS);
                        ok += counts[0];
                        refused += counts[1];
                    }
                    assertEquals(THREADS * 90, ok);
                    assertEquals(THREADS * 10, refused);
                    assertEquals(THREADS * CALLS_PER_THREAD, service.received.size(), "every call reached the OTM once");
                    long batches = service.batches.get();
                    assertTrue(batches > 0, "concurrent calls were coalesced");
                    assertTrue(batches < THREADS * CALLS_PER_THREAD / 2, "far fewer requests than calls: " + batches);
                } finally {
                    pool.shutdownNow();
                }
            }
        }
    }

    @Test
    void aLoneCallIsSentAloneAtOnce() throws Exception {
        FakeOtmService service = new FakeOtmService();
        try (ProtocolServer server = new ProtocolServer(ProtocolServerConfig.defaults("127.0.0.1", 0), service)) {
            server.start();
            try (OtmClient client = new OtmClient("127.0.0.1", server.port())) {
                for (long i = 0; i < 20; i++) {
                    assertEquals(i + 1, client.call(call("echo", 0, i)).cts());
                }
                assertEquals(0, service.batches.get(), "no callBatch without concurrency");
                assertEquals(20, service.received.size());
            }
        }
    }

    @Test
    void callsBeyondTheQueueBoundFailAtOnceUnsent() throws Exception {
        FakeOtmService service = new FakeOtmService();
        service.release = new CountDownLatch(1);
        try (ProtocolServer server = new ProtocolServer(ProtocolServerConfig.defaults("127.0.0.1", 0), service)) {
            server.start();
            OtmClientConfig d = OtmClientConfig.defaults();
            OtmClientConfig oneInFlightOneQueued = new OtmClientConfig(d.connectTimeoutMs(), 30_000, d.responseBytesMax(),
                    1, d.threadsMax(), 8, 1 << 20, 1);
            try (OtmClient client = new OtmClient("127.0.0.1", server.port(), oneInFlightOneQueued)) {
                ExecutorService pool = Executors.newFixedThreadPool(2);
                try {
                    Future<CallResponse> blocked = pool.submit(() -> client.call(call("BLOCK", 1, 1)));
                    awaitReceived(service, 1);
                    Future<CallResponse> queued = pool.submit(() -> client.call(call("echo", 2, 2)));
                    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
                    while (client.callsWaiting() < 1) {
                        assertTrue(System.nanoTime() < deadline, "the second call never queued");
                        Thread.sleep(1);
                    }
                    ElasTrasException e = assertThrows(ElasTrasException.class, () -> client.call(call("echo", 3, 3)));
                    assertEquals(ErrorCode.OVERLOADED, e.code());
                    assertTrue(e.getMessage().contains("not sent"), e.getMessage());
                    service.release.countDown();
                    assertEquals(12, blocked.get(30, TimeUnit.SECONDS).cts());
                    assertEquals(23, queued.get(30, TimeUnit.SECONDS).cts());
                    assertEquals(2, service.received.size(), "the refused call never reached the OTM");
                } finally {
                    service.release.countDown();
                    pool.shutdownNow();
                }
            }
        }
    }

    @Test
    void aRequestThatTimesOutIsAnUnknownOutcomeForEveryCallInIt() throws Exception {
        FakeOtmService service = new FakeOtmService();
        service.release = new CountDownLatch(1);
        try (ProtocolServer server = new ProtocolServer(ProtocolServerConfig.defaults("127.0.0.1", 0), service)) {
            server.start();
            try (OtmClient client = new OtmClient("127.0.0.1", server.port(),
                    OtmClientConfig.defaults().withRequestTimeoutMs(1_000).withCallBatching(16, 1 << 20, 1))) {
                ExecutorService pool = Executors.newFixedThreadPool(8);
                try {
                    List<Future<ErrorCode>> codes = new ArrayList<>();
                    for (long t = 0; t < 8; t++) {
                        final long thread = t;
                        codes.add(pool.submit(() -> {
                            try {
                                client.call(call("BLOCK", thread, 0));
                                return null;
                            } catch (ElasTrasException e) {
                                return e.code();
                            }
                        }));
                    }
                    for (Future<ErrorCode> code : codes) {
                        assertEquals(ErrorCode.OUTCOME_UNKNOWN, code.get(20, TimeUnit.SECONDS),
                                "a call that was sent and not answered may have run");
                    }
                } finally {
                    service.release.countDown();
                    pool.shutdownNow();
                }
            }
        }
    }

    @Test
    void callsToAnOtmThatIsNotThereAreUnreachableAndAClosedClientRefuses() throws Exception {
        int port;
        try (java.net.ServerSocket free = new java.net.ServerSocket(0)) {
            port = free.getLocalPort();
        }
        OtmClient client = new OtmClient("127.0.0.1", port, OtmClientConfig.defaults().withRequestTimeoutMs(5_000));
        ExecutorService pool = Executors.newFixedThreadPool(8);
        try {
            List<Future<ErrorCode>> codes = new ArrayList<>();
            for (long t = 0; t < 8; t++) {
                final long thread = t;
                codes.add(pool.submit(() -> {
                    try {
                        client.call(call("echo", thread, 0));
                        return null;
                    } catch (ElasTrasException e) {
                        return e.code();
                    }
                }));
            }
            for (Future<ErrorCode> code : codes) {
                assertEquals(ErrorCode.UNREACHABLE, code.get(20, TimeUnit.SECONDS), "never sent: safe to retry anywhere");
            }
        } finally {
            pool.shutdownNow();
            client.close();
        }
        assertThrows(IllegalStateException.class, () -> client.call(call("echo", 0, 0)));
    }

    private static void awaitReceived(FakeOtmService service, int count) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (service.received.size() < count && System.nanoTime() < deadline) {
            Thread.sleep(5);
        }
        assertEquals(count, service.received.size());
    }
}
