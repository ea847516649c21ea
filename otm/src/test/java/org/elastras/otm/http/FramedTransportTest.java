package org.elastras.otm.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.elastras.client.OtmClient;
import org.elastras.client.OtmClientConfig;
import org.elastras.client.protocol.ElasTrasException;
import org.elastras.client.protocol.ErrorCode;
import org.elastras.client.protocol.ErrorResponse;
import org.elastras.client.protocol.Frames;
import org.elastras.client.protocol.GetRequest;
import org.elastras.client.protocol.GetResponse;
import org.elastras.client.protocol.Operation;
import org.elastras.client.protocol.ProtocolCodec;
import org.elastras.client.protocol.PutRequest;
import org.elastras.client.protocol.WireFormat;
import org.elastras.otm.server.LeaseKeeperTest;
import org.junit.jupiter.api.Test;

/**
 * The framed transport over real sockets: {@link ProtocolServer} speaks it and HTTP on one port;
 * answers match their calls whatever order they finish in; bad frames get their call's error, or
 * close only their own connection; the client's failures say whether the call was sent.
 */
class FramedTransportTest {

    private static final ProtocolCodec CODEC = new ProtocolCodec();

    @Test
    void framesAndHttpAnswerAlikeOnOnePort() throws Exception {
        FakeOtmService service = new FakeOtmService();
        try (ProtocolServer server = started(ProtocolServerConfig.defaults("127.0.0.1", 0), service);
                OtmClient frames = new OtmClient("127.0.0.1", server.port(), OtmClientConfig.defaults());
                OtmClient http2 = new OtmClient("127.0.0.1", server.port(),
                        OtmClientConfig.defaults().withTransport(OtmClientConfig.Transport.HTTP2))) {
            GetRequest get = new GetRequest(7, "WAREHOUSE", List.of(3, "é𝄞"));
            GetResponse overFrames = frames.get(get);
            assertEquals(http2.get(get), overFrames);
            assertEquals(3, ((Number) overFrames.row().get("K0")).intValue());
            assertEquals("é𝄞", overFrames.row().get("K1"));
            assertEquals(7, ((Number) overFrames.row().get("TXN")).intValue());
            ElasTrasException a = assertThrows(ElasTrasException.class, () -> frames.get(new GetRequest(7, "CONFLICT", List.of(1))));
            ElasTrasException b = assertThrows(ElasTrasException.class, () -> http2.get(new GetRequest(7, "CONFLICT", List.of(1))));
            assertEquals(ErrorCode.CONFLICT, a.code());
            assertEquals(b.getMessage(), a.getMessage());
            assertEquals(b.retryable(), a.retryable());
            HttpResponse<String> health = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                    URI.create("http://127.0.0.1:" + server.port() + "/health")).build(), HttpResponse.BodyHandlers.ofString());
            assertEquals(200, health.statusCode(), "HTTP is still served on the same port");
        }
    }

    @Test
    void concurrentCallsOnOneConnectionEachGetTheirOwnAnswer() throws Exception {
        FakeOtmService service = new FakeOtmService();
        service.slowMs = 20;
        try (ProtocolServer server = started(ProtocolServerConfig.defaults("127.0.0.1", 0), service);
                OtmClient client = new OtmClient("127.0.0.1", server.port(), OtmClientConfig.defaults())) {
            ExecutorService pool = Executors.newFixedThreadPool(16);
            try {
                List<Future<Integer>> mismatches = new ArrayList<>();
                for (int t = 0; t < 16; t++) {
                    int thread = t;
                    mismatches.add(pool.submit(() -> {
                        int wrong = 0;
                        for (int i = 0; i < 100; i++) {
                            // Every seventh call is slow, so answers come back out of order.
                            String table = i % 7 == 0 ? "SLOW" : "T";
                            long key = thread * 1_000L + i;
                            GetResponse r = client.get(new GetRequest(1 + thread, table, List.of(key)));
                            if (!Long.valueOf(key).equals(((Number) r.row().get("K0")).longValue())
                                    || !table.equals(r.row().get("TABLE")) || ((Number) r.row().get("TXN")).longValue() != 1 + thread) {
                                wrong++;
                            }
                        }
                        return wrong;
                    }));
                }
                for (Future<Integer> f : mismatches) {
                    assertEquals(0, f.get(60, TimeUnit.SECONDS), "answers that were not their call's");
                }
            } finally {
                pool.shutdownNow();
            }
            assertEquals(1_600, service.received.size());
        }
    }

    @Test
    void anUnknownOperationAndAnOversizedBodyGetTheirErrorsAndTheConnectionStaysInStep() throws Exception {
        FakeOtmService service = new FakeOtmService();
        ProtocolServerConfig config = ProtocolServerConfig.defaults("127.0.0.1", 0).withBodyBytesMax(64 * 1024);
        try (ProtocolServer server = started(config, service); Socket socket = new Socket("127.0.0.1", server.port())) {
            socket.setSoTimeout(10_000);
            DataOutputStream out = new DataOutputStream(socket.getOutputStream());
            DataInputStream in = new DataInputStream(socket.getInputStream());
            out.write(Frames.preamble());
            writeRequest(out, 7, "noSuchOperation", new byte[] {1, 2, 3});
            writeRequest(out, 8, Operation.PUT.wireName(), new byte[64 * 1024 + 1]);
            byte[] get = CODEC.encode(new GetRequest(5, "T", List.of(42)), WireFormat.SMILE);
            writeRequest(out, 9, Operation.GET.wireName(), get);
            out.flush();

            Answer unknown = readAnswer(in);
            assertEquals(7, unknown.id);
            assertEquals(ErrorCode.UNKNOWN_OPERATION, error(unknown).code());
            Answer tooLarge = readAnswer(in);
            assertEquals(8, tooLarge.id);
            assertEquals(ErrorCode.LIMIT_EXCEEDED, error(tooLarge).code());
            assertTrue(error(tooLarge).message().contains("65537"), error(tooLarge).message());
            Answer served = readAnswer(in);
            assertEquals(9, served.id);
            assertEquals(Frames.STATUS_OK, served.status);
            GetResponse row = CODEC.decode(served.body, GetResponse.class, WireFormat.SMILE, "get");
            assertEquals(42, ((Number) row.row().get("K0")).intValue());
            assertEquals(1, service.received.size(), "only the well-formed call reached the service");
        }
    }

    @Test
    void aMalformedFrameClosesItsConnectionOnly() throws Exception {
        FakeOtmService service = new FakeOtmService();
        try (ProtocolServer server = started(ProtocolServerConfig.defaults("127.0.0.1", 0), service);
                OtmClient client = new OtmClient("127.0.0.1", server.port(), OtmClientConfig.defaults());
                Socket socket = new Socket("127.0.0.1", server.port())) {
            assertTrue(client.get(new GetRequest(1, "T", List.of(1))).found());
            socket.setSoTimeout(10_000);
            DataOutputStream out = new DataOutputStream(socket.getOutputStream());
            out.write(Frames.preamble());
            // A request frame whose operation name is empty.
            out.writeInt(Frames.REQUEST_HEADER_BYTES + 3);
            out.writeLong(1);
            out.writeByte(0);
            out.write(new byte[] {1, 2, 3});
            out.flush();
            assertEquals(-1, socket.getInputStream().read(), "the server closes the connection");
            assertTrue(client.get(new GetRequest(1, "T", List.of(2))).found(), "other connections are served");
            assertEquals(2, service.received.size());
        }
    }

    @Test
    void callsBeyondTheConnectionsLimitAreRefusedAndTheAdmittedOnesComplete() throws Exception {
        FakeOtmService service = new FakeOtmService();
        service.release = new CountDownLatch(1);
        ProtocolServerConfig d = ProtocolServerConfig.defaults("127.0.0.1", 0);
        ProtocolServerConfig twoPerConnection = new ProtocolServerConfig(d.host(), 0, d.bodyBytesMax(), d.nestingDepthMax(),
                d.ioThreadsMax(), d.workerThreads(), d.workerQueueMax(), d.idleTimeoutMs(), 2);
        try (ProtocolServer server = started(twoPerConnection, service);
                OtmClient client = new OtmClient("127.0.0.1", server.port(), OtmClientConfig.defaults().withRequestTimeoutMs(15_000))) {
            ExecutorService pool = Executors.newFixedThreadPool(2);
            try {
                List<Future<?>> blocked = new ArrayList<>();
                for (int i = 0; i < 2; i++) {
                    blocked.add(pool.submit(() -> client.put(new PutRequest(1, "BLOCK", Map.of("A", 1)))));
                }
                LeaseKeeperTest.await(() -> service.received.size() >= 2, 10_000, "both blocking calls reach the service");
                assertEquals(2, service.received.size());
                long began = System.nanoTime();
                ElasTrasException refused = assertThrows(ElasTrasException.class, () -> client.get(new GetRequest(1, "T", List.of(1))));
                long tookMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - began);
                assertEquals(ErrorCode.OVERLOADED, refused.code());
                assertTrue(tookMs < 2_000, "refused at once, not when the blocked calls ended: " + tookMs + " ms");
                assertTrue(refused.retryable());
                service.release.countDown();
                for (Future<?> f : blocked) {
                    f.get(10, TimeUnit.SECONDS);
                }
                assertTrue(client.get(new GetRequest(1, "T", List.of(1))).found());
                assertEquals(3, service.received.size(), "the refused call never reached the service");
            } finally {
                pool.shutdownNow();
            }
        }
    }

    @Test
    void aCallPastItsTimeoutFailsOutcomeUnknownAndTheNextIsServed() throws Exception {
        FakeOtmService service = new FakeOtmService();
        service.slowMs = 3_000;
        try (ProtocolServer server = started(ProtocolServerConfig.defaults("127.0.0.1", 0), service);
                OtmClient client = new OtmClient("127.0.0.1", server.port(), OtmClientConfig.defaults().withRequestTimeoutMs(400))) {
            long began = System.nanoTime();
            ElasTrasException e = assertThrows(ElasTrasException.class, () -> client.get(new GetRequest(1, "SLOW", List.of(1))));
            long tookMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - began);
            assertEquals(ErrorCode.OUTCOME_UNKNOWN, e.code(), e.toString());
            assertTrue(tookMs >= 400 && tookMs < 2_000, "failed after " + tookMs + " ms");
            assertTrue(client.get(new GetRequest(1, "T", List.of(2))).found());
        }
    }

    @Test
    void aConnectionLostAfterSendingIsOutcomeUnknownAndNoListenerIsUnreachable() throws Exception {
        try (ServerSocket mute = new ServerSocket(0)) {
            Thread acceptor = new Thread(() -> {
                try (Socket s = mute.accept()) {
                    DataInputStream in = new DataInputStream(s.getInputStream());
                    // Reads the preamble and the whole request, then hangs up without answering.
                    in.readNBytes(Frames.preambleLength());
                    in.readNBytes(in.readInt());
                } catch (IOException ignored) {
                    // The test checks the client's side.
                }
            });
            acceptor.start();
            try (OtmClient client = new OtmClient("127.0.0.1", mute.getLocalPort(), OtmClientConfig.defaults().withRequestTimeoutMs(10_000))) {
                ElasTrasException e = assertThrows(ElasTrasException.class, () -> client.get(new GetRequest(1, "T", List.of(1))));
                assertEquals(ErrorCode.OUTCOME_UNKNOWN, e.code(), e.toString());
            }
            acceptor.join(5_000);
        }
        int deadPort;
        try (ServerSocket s = new ServerSocket(0)) {
            deadPort = s.getLocalPort();
        }
        try (OtmClient client = new OtmClient("127.0.0.1", deadPort, OtmClientConfig.defaults())) {
            ElasTrasException e = assertThrows(ElasTrasException.class, () -> client.get(new GetRequest(1, "T", List.of(1))));
            assertEquals(ErrorCode.UNREACHABLE, e.code(), e.toString());
            assertTrue(e.retryable());
        }
    }

    @Test
    void aServerStopsWithinItsBoundWhileACallIsInFlight() throws Exception {
        FakeOtmService service = new FakeOtmService();
        service.release = new CountDownLatch(1);
        ProtocolServer server = started(ProtocolServerConfig.defaults("127.0.0.1", 0), service);
        try (OtmClient client = new OtmClient("127.0.0.1", server.port(), OtmClientConfig.defaults().withRequestTimeoutMs(20_000))) {
            ExecutorService pool = Executors.newSingleThreadExecutor();
            try {
                Future<ErrorCode> blocked = pool.submit(() -> {
                    try {
                        client.put(new PutRequest(1, "BLOCK", Map.of("A", 1)));
                        return null;
                    } catch (ElasTrasException e) {
                        return e.code();
                    }
                });
                LeaseKeeperTest.await(() -> !service.received.isEmpty(), 10_000, "the blocking call reaches the service");
                long began = System.nanoTime();
                server.close(); // throws if Jetty's graceful stop ran out of time
                assertTrue(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - began) < 5_000);
                assertEquals(ErrorCode.OUTCOME_UNKNOWN, blocked.get(10, TimeUnit.SECONDS),
                        "the connection closed under the call");
            } finally {
                service.release.countDown();
                pool.shutdownNow();
            }
        }
    }

    @Test
    void aClientReconnectsToAServerRestartedOnItsPort() throws Exception {
        FakeOtmService service = new FakeOtmService();
        ProtocolServer first = started(ProtocolServerConfig.defaults("127.0.0.1", 0), service);
        int port = first.port();
        try (OtmClient client = new OtmClient("127.0.0.1", port, OtmClientConfig.defaults().withRequestTimeoutMs(5_000))) {
            assertTrue(client.get(new GetRequest(1, "T", List.of(1))).found());
            first.close();
            // A call written before the client's reader saw the connection end fails OUTCOME_UNKNOWN;
            // once it has seen it, calls are not sent at all.
            AtomicReference<ElasTrasException> down = new AtomicReference<>();
            LeaseKeeperTest.await(() -> {
                down.set(assertThrows(ElasTrasException.class, () -> client.get(new GetRequest(1, "T", List.of(2)))));
                return down.get().code() != ErrorCode.OUTCOME_UNKNOWN;
            }, 5_000, "the client to see the connection end");
            assertEquals(ErrorCode.UNREACHABLE, down.get().code(), down.get().toString());
            try (ProtocolServer second = started(ProtocolServerConfig.defaults("127.0.0.1", port), service)) {
                GetResponse again = client.get(new GetRequest(1, "T", List.of(3)));
                assertEquals(3, ((Number) again.row().get("K0")).intValue(), "served by the restarted server");
            }
        }
        assertEquals(2, service.received.size(), "the call refused while the server was down never reached it");
    }

    @Test
    void randomBytesAfterThePreambleNeverStopTheServer() throws Exception {
        FakeOtmService service = new FakeOtmService();
        java.util.Random random = new java.util.Random(28);
        try (ProtocolServer server = started(ProtocolServerConfig.defaults("127.0.0.1", 0), service);
                OtmClient client = new OtmClient("127.0.0.1", server.port(), OtmClientConfig.defaults())) {
            for (int i = 0; i < 200; i++) {
                try (Socket socket = new Socket("127.0.0.1", server.port())) {
                    socket.setSoTimeout(5_000);
                    OutputStream out = socket.getOutputStream();
                    out.write(Frames.preamble());
                    byte[] junk = new byte[1 + random.nextInt(64)];
                    random.nextBytes(junk);
                    if (i % 2 == 0) {
                        // A plausible header: a small length and a short name, then junk.
                        ByteBuffer header = ByteBuffer.allocate(13).putInt(9 + 3 + junk.length).putLong(i).put((byte) 3);
                        out.write(header.array());
                        out.write(new byte[] {'g', 'e', 't'});
                    }
                    out.write(junk);
                    out.flush();
                    socket.shutdownOutput();
                    // Whatever comes back (an error answer, nothing), the server ends the connection.
                    socket.getInputStream().readAllBytes();
                } catch (IOException resetByTheServer) {
                    // A reset is a closed connection too.
                }
            }
            assertTrue(client.get(new GetRequest(1, "T", List.of(1))).found(), "still serving after 200 bad connections");
            assertEquals(1, service.received.size(), "no junk reached the service");
        }
    }

    private static ProtocolServer started(ProtocolServerConfig config, FakeOtmService service) throws IOException {
        ProtocolServer server = new ProtocolServer(config, service);
        server.start();
        return server;
    }

    private static void writeRequest(DataOutputStream out, long id, String op, byte[] body) throws IOException {
        byte[] name = op.getBytes(StandardCharsets.US_ASCII);
        out.writeInt(Frames.REQUEST_HEADER_BYTES + name.length + body.length);
        out.writeLong(id);
        out.writeByte(name.length);
        out.write(name);
        out.write(body);
    }

    private record Answer(long id, int status, byte[] body) {
    }

    private static Answer readAnswer(DataInputStream in) throws IOException {
        int length = in.readInt();
        long id = in.readLong();
        int status = in.readUnsignedByte();
        byte[] body = in.readNBytes(length - Frames.ANSWER_HEADER_BYTES);
        return new Answer(id, status, body);
    }

    private static ErrorResponse error(Answer a) {
        assertEquals(Frames.STATUS_ERROR, a.status);
        return CODEC.decode(a.body, ErrorResponse.class, WireFormat.SMILE, "error");
    }

    @Test
    void thePreambleIsToldFromHttp() {
        assertNull(Frames.startsWithPreamble(ByteBuffer.wrap(new byte[] {0, 'E', 'T'})));
        assertTrue(Frames.startsWithPreamble(ByteBuffer.wrap(Frames.preamble())));
        for (String http : List.of("GET / HTTP/1.1\r\n", "POST /v1/get HTTP/1.1\r\n", "PRI * HTTP/2.0\r\n")) {
            assertFalse(Frames.startsWithPreamble(ByteBuffer.wrap(http.getBytes(StandardCharsets.US_ASCII))), http);
        }
    }
}
