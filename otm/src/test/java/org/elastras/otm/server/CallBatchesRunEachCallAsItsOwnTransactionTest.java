package org.elastras.otm.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.apache.curator.test.TestingServer;
import org.elastras.client.OtmClient;
import org.elastras.client.OtmClientConfig;
import org.elastras.client.protocol.BeginRequest;
import org.elastras.client.protocol.CallBatchRequest;
import org.elastras.client.protocol.CallBatchResponse;
import org.elastras.client.protocol.CallOutcome;
import org.elastras.client.protocol.CallRequest;
import org.elastras.client.protocol.CommitId;
import org.elastras.client.protocol.CommitRequest;
import org.elastras.client.protocol.ElasTrasException;
import org.elastras.client.protocol.ErrorCode;
import org.elastras.client.protocol.GetRequest;
import org.elastras.client.protocol.Isolation;
import org.elastras.client.protocol.OpenPartitionRequest;
import org.elastras.client.protocol.ProtocolLimits;
import org.elastras.client.protocol.RegisterDatabaseRequest;
import org.elastras.client.protocol.ResolveCommitRequest;
import org.elastras.client.protocol.ResolveCommitResponse;
import org.elastras.client.protocol.SchemaSpec;
import org.elastras.otm.txn.TransactionLimits;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code callBatch} on a real OTM over real sockets (real ZooKeeper, local DFS): each call of a
 * batch is its own transaction with its own outcome; a failing call does not fail the others;
 * calls of one batch that touch the same row still serialize; a malformed batch changes nothing;
 * commit ids of batched calls resolve finally; and a coalescing client under concurrency loses and
 * duplicates no increment.
 */
class CallBatchesRunEachCallAsItsOwnTransactionTest {

    @TempDir
    Path temp;

    private TestingServer zk;
    private OtmNode otm;
    private OtmClient client;

    @BeforeEach
    void start() throws Exception {
        zk = new TestingServer(true);
        otm = OtmNode.start(new OtmConfig("otm-b", zk.getConnectString(), "/elastras", temp.resolve("dfs").toUri(),
                "127.0.0.1", 0, 4_000));
        client = new OtmClient("127.0.0.1", otm.port());
        client.registerDatabase(new RegisterDatabaseRequest(SchemaSpec.of(BankProcedures.schema())));
        client.openPartition(new OpenPartitionRequest("BANK", 1, null, null));
    }

    @AfterEach
    void stop() throws Exception {
        client.close();
        otm.close();
        zk.close();
    }

    private static CallRequest increment(long id) {
        return new CallRequest("BANK", 1, "increment", List.of(id), Isolation.SERIALIZABLE, 0);
    }

    private long balance(long id) {
        long txn = client.begin(new BeginRequest("BANK", 1, Isolation.SERIALIZABLE, 0)).txnId();
        var row = client.get(new GetRequest(txn, "ACCOUNTS", List.of(id)));
        client.commit(new CommitRequest(txn));
        return row.found() ? ((Number) row.row().get("BALANCE")).longValue() : 0;
    }

    /**
     * A slow disk: each call's commit goes to the log as soon as it is prepared, and the next call
     * of the batch that writes the same row runs into it while it syncs; it finishes that commit
     * first (no wait on itself), waits for it and runs again on top of it.
     */
    @Test
    void aCallThatRunsIntoAnEarlierCallOfItsBatchStillSyncingWaitsForItAndRunsAgain() throws Exception {
        GatedDfs dfs = new GatedDfs();
        try (OtmNode slow = OtmNode.start(new OtmConfig("otm-s", zk.getConnectString(), "/elastras-slow", dfs.uri(),
                "127.0.0.1", 0, 4_000), TransactionLimits.DEFAULT, dfs);
                OtmClient c = new OtmClient("127.0.0.1", slow.port())) {
            c.registerDatabase(new RegisterDatabaseRequest(SchemaSpec.of(BankProcedures.schema())));
            c.openPartition(new OpenPartitionRequest("BANK", 1, null, null));
            dfs.syncDelayMs = 300;
            List<CallOutcome> out = c.callBatch(new CallBatchRequest(List.of(increment(1), increment(1), increment(2))))
                    .outcomes();
            CallOutcome first = out.get(0);
            CallOutcome second = out.get(1);
            assertNotNull(first.response(), () -> "first call failed: " + first.error());
            assertNotNull(second.response(), () -> "second call failed: " + second.error());
            assertEquals(1L, ((Number) first.response().result()).longValue());
            assertEquals(1, first.response().attempts());
            assertEquals(2L, ((Number) second.response().result()).longValue(), "on top of the first call's commit");
            assertEquals(2, second.response().attempts(), "it ran into the first call's commit while that synced");
            assertTrue(second.response().cts() > first.response().cts());
            assertEquals(1L, ((Number) out.get(2).response().result()).longValue());
            assertEquals(1, out.get(2).response().attempts());
        }
    }

    /**
     * A slow disk and one execution slot: batches execute one at a time, and a batch waiting for
     * its sync has given its slot to the next, so every call of four concurrent batches has run
     * before the first sync ends; none waited the slot's bound out.
     */
    @Test
    void batchesExecuteOneSlotAtATimeAndWaitForTheirSyncsOutsideIt() throws Exception {
        GatedDfs dfs = new GatedDfs();
        try (OtmNode slow = OtmNode.start(new OtmConfig("otm-x", zk.getConnectString(), "/elastras-slots", dfs.uri(),
                "127.0.0.1", 0, 4_000).withBatchesExecutingMax(1), TransactionLimits.DEFAULT, dfs);
                OtmClient c = new OtmClient("127.0.0.1", slow.port(), OtmClientConfig.defaults().withRequestTimeoutMs(60_000))) {
            c.registerDatabase(new RegisterDatabaseRequest(SchemaSpec.of(BankProcedures.schema())));
            c.openPartition(new OpenPartitionRequest("BANK", 1, null, null));
            BankProcedures.OBSERVED_RUNNING.set(0);
            BankProcedures.OBSERVED_MOST.set(0);
            BankProcedures.OBSERVED_RUNS.set(0);
            dfs.syncDelayMs = 2_000;
            int batches = 4;
            int callsPerBatch = 3;
            ExecutorService pool = Executors.newFixedThreadPool(batches);
            try {
                List<Future<List<CallOutcome>>> answers = new ArrayList<>();
                List<Integer> runsAtAnswer = Collections.synchronizedList(new ArrayList<>());
                for (int b = 0; b < batches; b++) {
                    List<CallRequest> calls = new ArrayList<>();
                    for (int k = 0; k < callsPerBatch; k++) {
                        calls.add(new CallRequest("BANK", 1, "observedIncrement", List.of(100L + 10 * b + k, 10L),
                                Isolation.SERIALIZABLE, 0));
                    }
                    answers.add(pool.submit(() -> {
                        List<CallOutcome> out = c.callBatch(new CallBatchRequest(calls)).outcomes();
                        runsAtAnswer.add(BankProcedures.OBSERVED_RUNS.get());
                        return out;
                    }));
                }
                for (Future<List<CallOutcome>> f : answers) {
                    for (CallOutcome o : f.get(60, TimeUnit.SECONDS)) {
                        assertNotNull(o.response(), () -> "failed: " + o.error());
                        assertEquals(1L, ((Number) o.response().result()).longValue());
                    }
                }
                assertEquals(1, BankProcedures.OBSERVED_MOST.get(), "one batch executed at a time");
                assertEquals(batches * callsPerBatch, BankProcedures.OBSERVED_RUNS.get(), "each call ran once");
                assertEquals(batches * callsPerBatch, Collections.min(runsAtAnswer),
                        "every call had run before the first answer: batches waited for their syncs without the slot");
                assertEquals(0, metric(slow, "elastras_otm_batch_slots_waited_out_total"), "no batch waited out the bound");
            } finally {
                pool.shutdownNow();
            }
        }
    }

    /**
     * The log's counters in /metrics tell how many commits one sync served: with a 150 ms sync,
     * eight calls sent at once are logged in fewer batches than records, every one counted once.
     */
    @Test
    void theLogsCountersShowHowManyCommitsEachSyncServed() throws Exception {
        GatedDfs dfs = new GatedDfs();
        try (OtmNode slow = OtmNode.start(new OtmConfig("otm-w", zk.getConnectString(), "/elastras-wal", dfs.uri(),
                "127.0.0.1", 0, 4_000), TransactionLimits.DEFAULT, dfs);
                OtmClient c = new OtmClient("127.0.0.1", slow.port())) {
            c.registerDatabase(new RegisterDatabaseRequest(SchemaSpec.of(BankProcedures.schema())));
            c.openPartition(new OpenPartitionRequest("BANK", 1, null, null));
            c.call(increment(100));
            long batchesBefore = metric(slow, "elastras_otm_wal_batches_total");
            long recordsBefore = metric(slow, "elastras_otm_wal_records_total");
            long bytesBefore = metric(slow, "elastras_otm_wal_bytes_total");
            assertTrue(batchesBefore >= 1 && recordsBefore >= batchesBefore, batchesBefore + " batches, " + recordsBefore + " records");

            dfs.syncDelayMs = 150;
            ExecutorService pool = Executors.newFixedThreadPool(8);
            try {
                List<Future<?>> calls = new ArrayList<>();
                for (long id = 1; id <= 8; id++) {
                    long account = id;
                    calls.add(pool.submit(() -> c.call(increment(account))));
                }
                for (Future<?> f : calls) {
                    f.get(30, TimeUnit.SECONDS);
                }
            } finally {
                pool.shutdownNow();
            }
            long batches = metric(slow, "elastras_otm_wal_batches_total") - batchesBefore;
            long records = metric(slow, "elastras_otm_wal_records_total") - recordsBefore;
            assertTrue(records >= 8, "eight commits, " + records + " records");
            assertTrue(batches >= 1 && batches < records, batches + " batches for " + records + " records: commits arriving"
                    + " during a sync wait for the next one together");
            assertTrue(metric(slow, "elastras_otm_wal_bytes_total") > bytesBefore, "bytes grew");
            assertTrue(metric(slow, "elastras_otm_wal_sync_p99_micros") >= 100_000, "the slow syncs show at p99");
        }
    }

    private static long metric(OtmNode node, String name) throws Exception {
        HttpClient http = HttpClient.newHttpClient();
        String text = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + node.port() + "/metrics")).GET().build(),
                HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8)).body();
        for (String line : text.split("\n")) {
            if (line.startsWith(name + "{")) {
                return Long.parseLong(line.substring(line.lastIndexOf(' ') + 1).trim());
            }
        }
        throw new AssertionError("no " + name + " in the metrics:\n" + text);
    }

    @Test
    void eachCallGetsItsOwnResultOrErrorAndOneBadCallFailsNoOther() {
        CallBatchResponse answer = client.callBatch(new CallBatchRequest(List.of(
                increment(1),
                increment(2),
                new CallRequest("BANK", 1, "transfer", List.of(1L, 2L, 1_000L), Isolation.SERIALIZABLE, 0),
                new CallRequest("BANK", 1, "noSuchProcedure", List.of(), Isolation.SERIALIZABLE, 0),
                new CallRequest("BANK", 99, "increment", List.of(1L), Isolation.SERIALIZABLE, 0),
                new CallRequest("BANK", 1, "increment", List.of("not a number"), Isolation.SERIALIZABLE, 0),
                increment(1))));
        List<CallOutcome> out = answer.outcomes();
        assertEquals(7, out.size());
        assertEquals(1L, ((Number) out.get(0).response().result()).longValue());
        assertEquals(1L, ((Number) out.get(1).response().result()).longValue());
        assertTrue(out.get(0).response().cts() > 0 && out.get(1).response().cts() > 0);
        assertEquals(ErrorCode.PROCEDURE_ABORTED, out.get(2).error().code());
        assertEquals(ErrorCode.UNKNOWN_PROCEDURE, out.get(3).error().code());
        assertEquals(ErrorCode.NOT_OWNER, out.get(4).error().code());
        assertTrue(out.get(4).error().code().retryable());
        assertEquals(ErrorCode.INTERNAL, out.get(5).error().code(), "a procedure that throws is that call's INTERNAL");
        assertNull(out.get(5).response());
        // The last call read account 1 after the first one's commit: on top of it (if that commit
        // was still syncing, the call ran into it, waited and ran again: see the next test).
        CallOutcome last = out.get(6);
        assertNotNull(last.response(), () -> "last call failed: " + last.error());
        assertEquals(2L, ((Number) last.response().result()).longValue());
        assertTrue(last.response().cts() > out.get(0).response().cts());
        assertEquals(2, balance(1));
        assertEquals(1, balance(2));
    }

    @Test
    void aBatchOfIncrementsToOneRowCountsEachExactlyOnce() {
        List<CallRequest> calls = new ArrayList<>(Collections.nCopies(40, increment(3)));
        List<CallOutcome> out = client.callBatch(new CallBatchRequest(calls)).outcomes();
        List<Long> results = new ArrayList<>();
        for (CallOutcome o : out) {
            assertNotNull(o.response(), () -> "failed: " + o.error());
            results.add(((Number) o.response().result()).longValue());
        }
        List<Long> expected = new ArrayList<>();
        for (long i = 1; i <= 40; i++) {
            expected.add(i);
        }
        assertEquals(expected, results, "the calls ran one after the other, in the batch's order");
        assertEquals(40, balance(3));
    }

    @Test
    void commitIdsOfBatchedCallsResolveFinally() {
        CommitId committed = CommitId.next();
        CommitId rolledBack = CommitId.next();
        CommitId neverRan = CommitId.next();
        List<CallOutcome> out = client.callBatch(new CallBatchRequest(List.of(
                new CallRequest("BANK", 1, "increment", List.of(4L), Isolation.SERIALIZABLE, 0, committed),
                new CallRequest("BANK", 1, "transfer", List.of(4L, 5L, 1_000L), Isolation.SERIALIZABLE, 0, rolledBack))))
                .outcomes();
        long cts = out.get(0).response().cts();
        assertEquals(ErrorCode.PROCEDURE_ABORTED, out.get(1).error().code());

        ResolveCommitResponse yes = client.resolveCommit(new ResolveCommitRequest("BANK", 1, committed));
        assertTrue(yes.committed());
        assertEquals(cts, yes.cts());
        assertTrue(yes.resultKept());
        assertEquals(1L, ((Number) yes.result()).longValue());
        assertFalse(client.resolveCommit(new ResolveCommitRequest("BANK", 1, rolledBack)).committed());
        assertFalse(client.resolveCommit(new ResolveCommitRequest("BANK", 1, neverRan)).committed());

        // Final: an id resolved as not committed can never commit afterwards, in a batch or alone.
        List<CallOutcome> again = client.callBatch(new CallBatchRequest(List.of(
                new CallRequest("BANK", 1, "increment", List.of(4L), Isolation.SERIALIZABLE, 0, neverRan),
                increment(4)))).outcomes();
        assertEquals(ErrorCode.UNKNOWN_TRANSACTION, again.get(0).error().code());
        assertEquals(2L, ((Number) again.get(1).response().result()).longValue());
        assertEquals(2, balance(4));
        assertTrue(client.resolveCommit(new ResolveCommitRequest("BANK", 1, committed)).committed(), "still committed");
    }

    @Test
    void aMalformedBatchIsRefusedWholeAndChangesNothing() throws Exception {
        HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(Duration.ofSeconds(5)).build();
        String good = "{\"database\":\"BANK\",\"partitionId\":1,\"procedure\":\"increment\",\"args\":[6]}";
        String noProcedure = "{\"database\":\"BANK\",\"partitionId\":1,\"args\":[6]}";
        HttpResponse<String> bad = postJson(http, "{\"calls\":[" + good + "," + noProcedure + "," + good + "]}");
        assertEquals(400, bad.statusCode(), bad.body());
        assertTrue(bad.body().contains("MALFORMED_REQUEST") && bad.body().contains("procedure"), bad.body());

        HttpResponse<String> empty = postJson(http, "{\"calls\":[]}");
        assertEquals(400, empty.statusCode(), empty.body());
        assertTrue(empty.body().contains("calls is missing or empty"), empty.body());

        StringBuilder tooMany = new StringBuilder("{\"calls\":[");
        for (int i = 0; i <= ProtocolLimits.CALL_BATCH_CALLS_MAX; i++) {
            tooMany.append(i == 0 ? "" : ",").append(good);
        }
        HttpResponse<String> over = postJson(http, tooMany.append("]}").toString());
        assertEquals(413, over.statusCode(), over.body());
        assertTrue(over.body().contains("LIMIT_EXCEEDED") && over.body().contains(
                String.valueOf(ProtocolLimits.CALL_BATCH_CALLS_MAX)), over.body());
        assertEquals(0, balance(6), "no call of a refused batch ran");

        ElasTrasException local = assertThrows(ElasTrasException.class, () -> new CallBatchRequest(
                Collections.nCopies(ProtocolLimits.CALL_BATCH_CALLS_MAX + 1, increment(6))));
        assertEquals(ErrorCode.LIMIT_EXCEEDED, local.code());

        HttpResponse<String> ok = postJson(http, "{\"calls\":[" + good + "]}");
        assertEquals(200, ok.statusCode(), ok.body());
        assertEquals(1, balance(6), "the OTM still serves after refusing batches");
    }

    private HttpResponse<String> postJson(HttpClient http, String body) throws Exception {
        return http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + otm.port() + "/v1/callBatch"))
                .timeout(Duration.ofSeconds(30)).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body, StandardCharsets.UTF_8)).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    /**
     * A coalescing client allowed four requests in flight keeps four while its calls touch
     * different rows, drops to two while they re-run on one row, and goes back to four when they
     * stop contending; no increment is lost or doubled throughout.
     */
    @Test
    void aCoalescingClientKeepsFewerRequestsInFlightWhileItsCallsContend() throws Exception {
        int threads = 16;
        int callsPerThread = 40;
        try (OtmClient shared = new OtmClient("127.0.0.1", otm.port(),
                OtmClientConfig.defaults().withCallBatching(32, 1 << 20, 4))) {
            assertEquals(4, shared.callBatchesInFlightLimit());
            incrementConcurrently(shared, threads, callsPerThread, t -> 1_000L + t);
            assertEquals(4, shared.callBatchesInFlightLimit(), "different rows: nothing re-ran");
            incrementConcurrently(shared, threads, callsPerThread, t -> 2_000L);
            assertEquals(2, shared.callBatchesInFlightLimit(), "one row: most calls re-ran");
            incrementConcurrently(shared, threads, callsPerThread, t -> 3_000L + t);
            assertEquals(4, shared.callBatchesInFlightLimit(), "different rows again");
        }
        for (long t = 0; t < threads; t++) {
            assertEquals(callsPerThread, balance(1_000 + t));
            assertEquals(callsPerThread, balance(3_000 + t));
        }
        assertEquals(threads * callsPerThread, balance(2_000));
    }

    private static void incrementConcurrently(OtmClient client, int threads, int callsPerThread,
            java.util.function.IntFunction<Long> account) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            List<Future<?>> done = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                final int thread = t;
                done.add(pool.submit(() -> {
                    // Each thread reads its own writes (afterCts, as a client session does): without
                    // it a call may begin at a snapshot just below its thread's previous commit (a
                    // lower CTS of another call still unapplied) and re-run on that very row.
                    long lastCts = 0;
                    for (int i = 0; i < callsPerThread; i++) {
                        lastCts = client.call(new CallRequest("BANK", 1, "increment", List.of(account.apply(thread)),
                                Isolation.SERIALIZABLE, lastCts)).cts();
                    }
                    return null;
                }));
            }
            for (Future<?> f : done) {
                f.get(120, TimeUnit.SECONDS);
            }
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void aCoalescingClientUnderConcurrencyLosesAndDuplicatesNoIncrement() throws Exception {
        int threads = 16;
        int callsPerThread = 60;
        int accounts = 4;
        try (OtmClient shared = new OtmClient("127.0.0.1", otm.port(),
                OtmClientConfig.defaults().withCallBatching(32, 1 << 20, 2))) {
            ExecutorService pool = Executors.newFixedThreadPool(threads);
            try {
                List<Future<Integer>> done = new ArrayList<>();
                for (int t = 0; t < threads; t++) {
                    final int thread = t;
                    done.add(pool.submit(() -> {
                        int ok = 0;
                        for (int i = 0; i < callsPerThread; i++) {
                            shared.call(increment(100 + (thread + i) % accounts));
                            ok++;
                        }
                        return ok;
                    }));
                }
                int total = 0;
                for (Future<Integer> f : done) {
                    total += f.get(120, TimeUnit.SECONDS);
                }
                assertEquals(threads * callsPerThread, total);
            } finally {
                pool.shutdownNow();
            }
        }
        long sum = 0;
        for (int a = 0; a < accounts; a++) {
            long b = balance(100 + a);
            assertEquals(threads * callsPerThread / accounts, b, "account " + (100 + a));
            sum += b;
        }
        assertEquals(threads * callsPerThread, sum);
    }
}
