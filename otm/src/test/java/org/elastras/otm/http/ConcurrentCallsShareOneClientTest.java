package org.elastras.otm.http;

import org.elastras.client.OtmClient;
import org.elastras.client.OtmClientConfig;
import org.elastras.client.protocol.GetRequest;
import org.elastras.client.protocol.GetResponse;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** 16 threads x 200 calls on one {@link OtmClient}: every call gets its own answer, none is lost or crossed. */
class ConcurrentCallsShareOneClientTest {

    private static final int THREADS = 16;
    private static final int CALLS_PER_THREAD = 200;

    @Test
    void everyConcurrentCallGetsItsOwnAnswer() throws Exception {
        FakeOtmService service = new FakeOtmService();
        try (ProtocolServer server = new ProtocolServer(ProtocolServerConfig.defaults("127.0.0.1", 0), service)) {
            server.start();
            try (OtmClient client = new OtmClient("127.0.0.1", server.port(), OtmClientConfig.defaults().withRequestTimeoutMs(20_000))) {
                ExecutorService pool = Executors.newFixedThreadPool(THREADS);
                try {
                    List<Future<Integer>> results = new ArrayList<>();
                    for (int t = 0; t < THREADS; t++) {
                        final int thread = t;
                        results.add(pool.submit(() -> {
                            int ok = 0;
                            for (int i = 0; i < CALLS_PER_THREAD; i++) {
                                long txn = thread * 1_000L + i + 1;
                                GetResponse r = client.get(new GetRequest(txn, "T" + thread, List.of(thread, i)));
                                assertTrue(r.found());
                                assertEquals(thread, r.row().get("K0"));
                                assertEquals(i, r.row().get("K1"));
                                assertEquals("T" + thread, r.row().get("TABLE"));
                                assertEquals(txn, ((Number) r.row().get("TXN")).longValue());
                                ok++;
                            }
                            return ok;
                        }));
                    }
                    int total = 0;
                    for (Future<Integer> f : results) {
                        total += f.get(60, TimeUnit.SECONDS);
                    }
                    assertEquals(THREADS * CALLS_PER_THREAD, total);
                    assertEquals(THREADS * CALLS_PER_THREAD, service.received.size());
                } finally {
                    pool.shutdownNow();
                }
            }
        }
    }
}
