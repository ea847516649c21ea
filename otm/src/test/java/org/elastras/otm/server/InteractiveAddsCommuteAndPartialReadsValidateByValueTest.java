package org.elastras.otm.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.math.BigDecimal;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.curator.test.TestingServer;
import org.elastras.catalog.schema.ColumnType;
import org.elastras.catalog.schema.DatabaseSchema;
import org.elastras.client.OtmClient;
import org.elastras.client.protocol.AddRequest;
import org.elastras.client.protocol.BeginRequest;
import org.elastras.client.protocol.CommitRequest;
import org.elastras.client.protocol.ElasTrasException;
import org.elastras.client.protocol.ErrorCode;
import org.elastras.client.protocol.GetRequest;
import org.elastras.client.protocol.GetResponse;
import org.elastras.client.protocol.Isolation;
import org.elastras.client.protocol.OpenPartitionRequest;
import org.elastras.client.protocol.PutRequest;
import org.elastras.client.protocol.RegisterDatabaseRequest;
import org.elastras.client.protocol.SchemaSpec;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An OTM on real sockets with a real ZooKeeper and the local DFS: interactive transactions that
 * {@code add} to one row never conflict with one another and their sum is exact; a SERIALIZABLE
 * transaction that read some columns ({@code get} with {@code columns}) is failed only by a change
 * to those columns; bad adds and reads get TYPE_MISMATCH, change nothing and leave the
 * transaction open.
 */
class InteractiveAddsCommuteAndPartialReadsValidateByValueTest {

    private static final String DATABASE = "SHOP";
    private static final String TABLE = "WAREHOUSE";

    @TempDir
    Path temp;

    private TestingServer zk;
    private OtmNode otm;
    private OtmClient client;

    static DatabaseSchema schema() {
        return DatabaseSchema.singlePartition(DATABASE)
                .plain(TABLE, t -> t.column("W_ID", ColumnType.INT).column("W_NAME", ColumnType.varchar(10))
                        .column("W_TAX", ColumnType.decimal(4, 4)).column("W_YTD", ColumnType.decimal(12, 2))
                        .column("W_ORDERS", ColumnType.BIGINT).column("W_VISITS", ColumnType.INT).key("W_ID"))
                .build();
    }

    @BeforeEach
    void start() throws Exception {
        zk = new TestingServer(true);
        otm = OtmNode.start(new OtmConfig("otm-a", zk.getConnectString(), "/elastras", temp.resolve("dfs").toUri(),
                "127.0.0.1", 0, 4_000));
        client = new OtmClient("127.0.0.1", otm.port());
        client.registerDatabase(new RegisterDatabaseRequest(SchemaSpec.of(schema())));
        client.openPartition(new OpenPartitionRequest(DATABASE, 1, null, null));
    }

    @AfterEach
    void stop() throws Exception {
        client.close();
        otm.close();
        zk.close();
    }

    @Test
    void concurrentInteractiveAddersOfOneRowAllCommitAndTheirSumIsExact() throws Exception {
        put(warehouse(1, "north", "0.0825", "0.00", 0, 0));
        int threads = 6;
        int transactionsEach = 25;
        AtomicInteger committed = new AtomicInteger();
        AtomicLong centsAdded = new AtomicLong();
        ConcurrentLinkedQueue<Throwable> failures = new ConcurrentLinkedQueue<>();
        CountDownLatch go = new CountDownLatch(1);
        List<Thread> workers = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            int thread = t;
            workers.add(new Thread(() -> {
                try (OtmClient own = new OtmClient("127.0.0.1", otm.port())) {
                    go.await();
                    for (int i = 0; i < transactionsEach; i++) {
                        // No retry: a conflict or serialization failure is a failure of the test.
                        Isolation isolation = (thread + i) % 2 == 0 ? Isolation.SERIALIZABLE : Isolation.SNAPSHOT;
                        long txn = own.begin(new BeginRequest(DATABASE, 1, isolation, 0)).txnId();
                        long cents = 100L * thread + i + 1;
                        own.add(new AddRequest(txn, TABLE, List.of(1), "W_YTD", BigDecimal.valueOf(cents, 2)));
                        own.add(new AddRequest(txn, TABLE, List.of(1), "W_ORDERS", 1L));
                        own.add(new AddRequest(txn, TABLE, List.of(1), "W_VISITS", 2));
                        own.commit(new CommitRequest(txn));
                        committed.incrementAndGet();
                        centsAdded.addAndGet(cents);
                    }
                } catch (Throwable e) {
                    failures.add(e);
                }
            }));
        }
        workers.forEach(Thread::start);
        go.countDown();
        for (Thread w : workers) {
            w.join(TimeUnit.SECONDS.toMillis(60));
            assertFalse(w.isAlive(), "an adder is stuck");
        }
        assertTrue(failures.isEmpty(), () -> failures.size() + " adders failed, the first with " + failures.peek());
        assertEquals(threads * transactionsEach, committed.get());
        Map<String, Object> row = row(1);
        assertEquals(BigDecimal.valueOf(centsAdded.get(), 2), row.get("W_YTD"), "every committed add counted once");
        assertEquals((long) threads * transactionsEach, number(row, "W_ORDERS"));
        assertEquals(2L * threads * transactionsEach, number(row, "W_VISITS"));
        assertEquals("north", row.get("W_NAME"), "the columns not added to are as they were");
        assertEquals(new BigDecimal("0.0825"), row.get("W_TAX"));
    }

    @Test
    void twoOpenAddersOfOneRowBothCommitWhereAWriterOfItConflicts() {
        put(warehouse(1, "north", "0.0825", "10.00", 0, 0));
        long first = begin(Isolation.SERIALIZABLE);
        long second = begin(Isolation.SERIALIZABLE);
        client.add(new AddRequest(first, TABLE, List.of(1), "W_YTD", new BigDecimal("1.25")));
        client.add(new AddRequest(second, TABLE, List.of(1), "W_YTD", new BigDecimal("2.50")));
        client.commit(new CommitRequest(second));
        client.commit(new CommitRequest(first));
        assertEquals(new BigDecimal("13.75"), row(1).get("W_YTD"), "both adds, each on the newest row");

        // A put of the row is a write: it and an adder exclude each other (first updater wins).
        long adder = begin(Isolation.SERIALIZABLE);
        client.add(new AddRequest(adder, TABLE, List.of(1), "W_ORDERS", 1L));
        long writer = begin(Isolation.SERIALIZABLE);
        ElasTrasException e = assertThrows(ElasTrasException.class, () -> {
            client.put(new PutRequest(writer, TABLE, warehouse(1, "renamed", "0.0825", "13.75", 0, 0)));
            client.commit(new CommitRequest(writer));
        });
        assertEquals(ErrorCode.CONFLICT, e.code(), e.getMessage());
        client.commit(new CommitRequest(adder));
        Map<String, Object> row = row(1);
        assertEquals("north", row.get("W_NAME"));
        assertEquals(1L, number(row, "W_ORDERS"));
    }

    @Test
    void aSerializableReadOfSomeColumnsFailsOnlyWhenOneOfThemChanged() {
        put(warehouse(1, "north", "0.0825", "10.00", 0, 0));
        put(warehouse(2, "south", "0.0500", "0.00", 0, 0));

        // Reads the name and tax; another transaction adds to W_YTD meanwhile.
        long reader = begin(Isolation.SERIALIZABLE);
        GetResponse some = client.get(new GetRequest(reader, TABLE, List.of(1), List.of("w_tax", "W_NAME")));
        assertTrue(some.found());
        assertEquals(List.of("W_TAX", "W_NAME"), List.copyOf(some.row().keySet()),
                "the columns asked for, in that order, as the schema names them");
        assertEquals(new BigDecimal("0.0825"), some.row().get("W_TAX"));
        assertEquals("north", some.row().get("W_NAME"));
        addAndCommit(1, "W_YTD", new BigDecimal("5.00"));
        client.put(new PutRequest(reader, TABLE, warehouse(2, "south-1", "0.0500", "0.00", 0, 0)));
        client.commit(new CommitRequest(reader));
        assertEquals("south-1", row(2).get("W_NAME"), "an add to a column it did not read does not fail it");

        // The same with the whole row read: the add fails it.
        long whole = begin(Isolation.SERIALIZABLE);
        assertTrue(client.get(new GetRequest(whole, TABLE, List.of(1))).found());
        addAndCommit(1, "W_YTD", new BigDecimal("5.00"));
        assertSerializationFailure(whole);

        // A read of W_YTD is failed by an add to W_YTD.
        long ytdReader = begin(Isolation.SERIALIZABLE);
        assertEquals(new BigDecimal("20.00"), client.get(new GetRequest(ytdReader, TABLE, List.of(1), List.of("W_YTD")))
                .row().get("W_YTD"));
        addAndCommit(1, "W_YTD", new BigDecimal("1.00"));
        assertSerializationFailure(ytdReader);

        // A read of W_NAME is failed by a put that renames the warehouse.
        long nameReader = begin(Isolation.SERIALIZABLE);
        assertEquals("north", client.get(new GetRequest(nameReader, TABLE, List.of(1), List.of("W_NAME"))).row().get("W_NAME"));
        put(warehouse(1, "renamed", "0.0825", "21.00", 0, 0));
        assertSerializationFailure(nameReader);

        assertEquals("south-1", row(2).get("W_NAME"), "no failed transaction wrote");
        assertEquals(new BigDecimal("21.00"), row(1).get("W_YTD"));
    }

    /** The transaction writes a row and its commit fails its reads' validation; its write is not applied. */
    private void assertSerializationFailure(long txn) {
        client.put(new PutRequest(txn, TABLE, warehouse(2, "never", "0.0500", "0.00", 0, 0)));
        ElasTrasException e = assertThrows(ElasTrasException.class, () -> client.commit(new CommitRequest(txn)));
        assertEquals(ErrorCode.SERIALIZATION_FAILURE, e.code(), e.getMessage());
        assertNotEquals("never", row(2).get("W_NAME"), "the failed commit wrote nothing");
    }

    @Test
    void badAddsAndReadsGetTypeMismatchChangeNothingAndLeaveTheTransactionOpen() throws Exception {
        put(warehouse(1, "north", "0.0825", "10.00", 5, 7));
        put(warehouse(3, "edge", "0.0000", "0.00", 0, Integer.MAX_VALUE - 1));
        Map<String, Object> edge = row(3);
        long txn = begin(Isolation.SERIALIZABLE);
        Map<String, Object> seen = client.get(new GetRequest(txn, TABLE, List.of(1))).row();
        Object[][] cases = {
            {1, "W_NOPE", 1, "no column W_NOPE"},
            {1, "W_NAME", 1, "add works on INT, BIGINT and DECIMAL"},
            {1, "W_ID", 1, "primary key"},
            {1, "W_ORDERS", "ten", "W_ORDERS"},
            {1, "W_ORDERS", true, "W_ORDERS"},
            {1, "W_VISITS", 1.5, "W_VISITS"},
            {1, "W_VISITS", 1L << 40, "overflows"},
            {1, "W_YTD", new BigDecimal("0.001"), "fractional digits"},
            {1, "W_YTD", "abc", "not a number"},
            {99, "W_ORDERS", 1L, "existing row"},
            {3, "W_VISITS", 2, "overflow"},
        };
        for (Object[] c : cases) {
            String what = "add " + c[2] + " (" + c[2].getClass().getSimpleName() + ") to " + c[1] + " of row " + c[0];
            ElasTrasException e = assertThrows(ElasTrasException.class,
                    () -> client.add(new AddRequest(txn, TABLE, List.of(c[0]), (String) c[1], c[2])), what);
            assertEquals(ErrorCode.TYPE_MISMATCH, e.code(), what + ": " + e.getMessage());
            assertTrue(e.getMessage().contains((String) c[3]), what + ": " + e.getMessage());
            assertEquals(seen, client.get(new GetRequest(txn, TABLE, List.of(1))).row(),
                    what + " changed nothing, even in the transaction's own view");
        }
        ElasTrasException unknown = assertThrows(ElasTrasException.class,
                () -> client.get(new GetRequest(txn, TABLE, List.of(1), List.of("W_NAME", "W_NOPE"))));
        assertEquals(ErrorCode.TYPE_MISMATCH, unknown.code());
        assertTrue(unknown.getMessage().contains("W_NOPE"), unknown.getMessage());
        assertFalse(client.get(new GetRequest(txn, TABLE, List.of(99), List.of("W_NAME"))).found(), "no row, no error");

        // Still open: a good add over Smile, and one over JSON, whose DECIMAL arrives as a double.
        client.add(new AddRequest(txn, TABLE, List.of(1), "W_ORDERS", 1L));
        HttpResponse<String> json = postJson("add", "{\"txnId\":" + txn + ",\"table\":\"WAREHOUSE\",\"key\":[1],"
                + "\"column\":\"W_YTD\",\"amount\":2.5}");
        assertEquals(200, json.statusCode(), json.body());
        HttpResponse<String> bad = postJson("add", "{\"txnId\":" + txn + ",\"table\":\"WAREHOUSE\",\"key\":[1],"
                + "\"column\":\"W_ORDERS\",\"amount\":2.5}");
        assertEquals(400, bad.statusCode(), bad.body());
        JsonNode error = new ObjectMapper().readTree(bad.body());
        assertEquals("TYPE_MISMATCH", error.get("code").asText(), bad.body());
        client.commit(new CommitRequest(txn));

        Map<String, Object> row = row(1);
        assertEquals(6L, number(row, "W_ORDERS"), "only the good adds");
        assertEquals(new BigDecimal("12.50"), row.get("W_YTD"));
        assertEquals(7L, number(row, "W_VISITS"));
        assertEquals("north", row.get("W_NAME"));
        assertEquals(edge, row(3));
        assertNull(row(99), "a failed add made no row");
    }

    private HttpResponse<String> postJson(String op, String body) throws Exception {
        HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).connectTimeout(Duration.ofSeconds(5)).build();
        HttpRequest request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + otm.port() + "/v1/" + op))
                .timeout(Duration.ofSeconds(10)).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body)).build();
        return http.send(request, HttpResponse.BodyHandlers.ofString());
    }

    private long begin(Isolation isolation) {
        return client.begin(new BeginRequest(DATABASE, 1, isolation, 0)).txnId();
    }

    private void addAndCommit(int warehouse, String column, Number amount) {
        long txn = begin(Isolation.SERIALIZABLE);
        client.add(new AddRequest(txn, TABLE, List.of(warehouse), column, amount));
        client.commit(new CommitRequest(txn));
    }

    private void put(Map<String, Object> row) {
        long txn = begin(Isolation.SERIALIZABLE);
        client.put(new PutRequest(txn, TABLE, row));
        client.commit(new CommitRequest(txn));
    }

    /** The committed row, or null. */
    private Map<String, Object> row(int warehouse) {
        long txn = begin(Isolation.SNAPSHOT);
        GetResponse r = client.get(new GetRequest(txn, TABLE, List.of(warehouse)));
        client.commit(new CommitRequest(txn));
        return r.found() ? r.row() : null;
    }

    private static long number(Map<String, Object> row, String column) {
        assertNotNull(row.get(column), column);
        // Smile carries a BIGINT that fits 32 bits as an int.
        return ((Number) row.get(column)).longValue();
    }

    private static Map<String, Object> warehouse(int id, String name, String tax, String ytd, long orders, int visits) {
        Map<String, Object> row = new LinkedHashMap<>();
        row.put("W_ID", id);
        row.put("W_NAME", name);
        row.put("W_TAX", new BigDecimal(tax));
        row.put("W_YTD", new BigDecimal(ytd));
        row.put("W_ORDERS", orders);
        row.put("W_VISITS", visits);
        return row;
    }
}
