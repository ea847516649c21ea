package org.elastras.otm.http;

import org.elastras.catalog.schema.ColumnType;
import org.elastras.catalog.schema.DatabaseSchema;
import org.elastras.client.OtmClient;
import org.elastras.client.OtmClientConfig;
import org.elastras.client.protocol.AbortRequest;
import org.elastras.client.protocol.AddRequest;
import org.elastras.client.protocol.BeginRequest;
import org.elastras.client.protocol.BeginResponse;
import org.elastras.client.protocol.CallRequest;
import org.elastras.client.protocol.CallResponse;
import org.elastras.client.protocol.ClosePartitionRequest;
import org.elastras.client.protocol.CommitRequest;
import org.elastras.client.protocol.DeleteRequest;
import org.elastras.client.protocol.ElasTrasException;
import org.elastras.client.protocol.ErrorCode;
import org.elastras.client.protocol.FlushPartitionRequest;
import org.elastras.client.protocol.GetRequest;
import org.elastras.client.protocol.GetResponse;
import org.elastras.client.protocol.Isolation;
import org.elastras.client.protocol.OpenPartitionRequest;
import org.elastras.client.protocol.PutRequest;
import org.elastras.client.protocol.RegisterDatabaseRequest;
import org.elastras.client.protocol.ScanRequest;
import org.elastras.client.protocol.ScanResponse;
import org.elastras.client.protocol.SchemaSpec;
import org.elastras.client.protocol.StatusResponse;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.math.BigDecimal;
import java.net.ServerSocket;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Every operation crosses the wire from {@link OtmClient} to {@link ProtocolServer} and back, values and errors intact. */
class OtmClientRoundTripTest {

    private FakeOtmService service;
    private ProtocolServer server;
    private OtmClient client;

    @BeforeEach
    void start() throws IOException {
        service = new FakeOtmService();
        server = new ProtocolServer(ProtocolServerConfig.defaults("127.0.0.1", 0), service);
        server.start();
        client = new OtmClient("127.0.0.1", server.port(), OtmClientConfig.defaults().withRequestTimeoutMs(5_000));
    }

    @AfterEach
    void stop() {
        client.close();
        server.close();
    }

    @Test
    void everyOperationRoundTripsItsFields() {
        BeginResponse begun = client.begin(new BeginRequest("TPCC", 3, Isolation.SNAPSHOT, 41));
        assertEquals(1, begun.txnId());
        assertEquals(141, begun.snapshotCts());
        BeginRequest seenBegin = (BeginRequest) service.received.poll();
        assertEquals(new BeginRequest("TPCC", 3, Isolation.SNAPSHOT, 41), seenBegin);

        byte[] blob = {0, 1, 2, (byte) 0xff};
        GetResponse got = client.get(new GetRequest(begun.txnId(), "WAREHOUSE",
                Arrays.asList(7, 1L << 40, "text é 𝄞", true, new BigDecimal("12.34"), blob, 2.5)));
        assertTrue(got.found());
        Map<String, Object> row = got.row();
        assertEquals(7, row.get("K0"));
        assertEquals(1L << 40, row.get("K1"));
        assertEquals("text é 𝄞", row.get("K2"));
        assertEquals(true, row.get("K3"));
        assertEquals(new BigDecimal("12.34"), row.get("K4"));
        assertArrayEquals(blob, (byte[]) row.get("K5"), "Smile carries byte[] as binary");
        assertEquals(2.5, row.get("K6"));
        assertEquals("WAREHOUSE", row.get("TABLE"));
        assertEquals(List.copyOf(row.keySet()), List.of("K0", "K1", "K2", "K3", "K4", "K5", "K6", "TABLE", "TXN"),
                "column order is kept");

        GetResponse missing = client.get(new GetRequest(1, "MISSING", List.of(1)));
        assertFalse(missing.found());
        assertNull(missing.row());

        Map<String, Object> put = new LinkedHashMap<>();
        put.put("W_ID", 1);
        put.put("W_NAME", "north");
        put.put("W_STREET", null);
        client.put(new PutRequest(1, "WAREHOUSE", put));
        client.delete(new DeleteRequest(1, "WAREHOUSE", List.of(1)));
        service.received.clear();
        for (Object amount : List.<Object>of(new BigDecimal("12.34"), 5, 1L << 40)) {
            AddRequest add = new AddRequest(1, "WAREHOUSE", List.of(1), "W_YTD", amount);
            client.add(add);
            assertEquals(add, service.received.poll(), "the add and its amount (" + amount.getClass().getSimpleName()
                    + ") cross the wire exactly");
        }
        GetResponse some = client.get(new GetRequest(1, "WAREHOUSE", List.of(1), List.of("W_TAX", "W_NAME")));
        assertEquals("[W_TAX, W_NAME]", some.row().get("COLUMNS"), "the columns cross the wire in order");
        assertEquals(new GetRequest(1, "WAREHOUSE", List.of(1), List.of("W_TAX", "W_NAME")), service.received.poll());
        client.get(new GetRequest(1, "WAREHOUSE", List.of(1)));
        assertNull(((GetRequest) service.received.poll()).columns(), "a whole-row read stays one");
        ScanResponse scanned = client.scan(new ScanRequest(1, "DISTRICT", List.of(1), List.of(2), 3));
        assertEquals(3, scanned.rows().size());
        assertTrue(scanned.more());
        assertEquals("[1]", scanned.rows().get(0).get("FROM"));
        assertEquals(2, scanned.rows().get(2).get("N"));
        ScanResponse open = client.scan(new ScanRequest(1, "DISTRICT", null, null, 1));
        assertNull(open.rows().get(0).get("FROM"));
        assertEquals(10, client.commit(new CommitRequest(1)).cts());
        client.abort(new AbortRequest(2));

        CallResponse called = client.call(new CallRequest("TPCC", 3, "NewOrder",
                Arrays.asList(1, "x", null, List.of(5, 6, 7)), null, 9));
        assertEquals(10, called.cts());
        assertEquals(2, called.attempts());
        Map<?, ?> result = assertInstanceOf(Map.class, called.result());
        assertEquals("NewOrder", result.get("procedure"));
        assertEquals(Arrays.asList(1, "x", null, List.of(5, 6, 7)), result.get("args"));
        assertEquals("SERIALIZABLE", result.get("isolation"), "a missing isolation is SERIALIZABLE");

        DatabaseSchema schema = DatabaseSchema.tree("TPCC")
                .root("WAREHOUSE", t -> t.column("W_ID", ColumnType.INT).nullable("W_NAME", ColumnType.varchar(10)).key("W_ID"))
                .child("DISTRICT", t -> t.column("W_ID", ColumnType.INT).column("D_ID", ColumnType.INT)
                        .column("D_TAX", ColumnType.decimal(4, 4)).key("W_ID", "D_ID"))
                .build();
        service.received.clear();
        client.registerDatabase(new RegisterDatabaseRequest(SchemaSpec.of(schema)));
        RegisterDatabaseRequest seenSchema = (RegisterDatabaseRequest) service.received.poll();
        assertEquals(schema, seenSchema.schema().toSchema(), "the schema survives the wire");

        client.openPartition(new OpenPartitionRequest("TPCC", 3, List.of(1), null));
        client.flushPartition(new FlushPartitionRequest(3));
        client.closePartition(new ClosePartitionRequest(3));
        StatusResponse status = client.status();
        assertEquals("otm-test", status.otmId());
        assertTrue(status.serving());
        assertEquals(1, status.partitions().size());
        assertEquals(7, status.partitions().get(0).partitionId());
        assertEquals(List.of(1), status.partitions().get(0).startKey());
        assertEquals(3, status.partitions().get(0).openTransactions());
    }

    @Test
    void everyServerErrorCodeReachesTheClientWithItsMessageAndRetryFlag() {
        for (ErrorCode code : ErrorCode.values()) {
            if (code == ErrorCode.UNREACHABLE || code == ErrorCode.OUTCOME_UNKNOWN) {
                continue;
            }
            ElasTrasException e = assertThrows(ElasTrasException.class,
                    () -> client.get(new GetRequest(1, code.name(), List.of(1))));
            assertEquals(code, e.code());
            assertEquals("scripted " + code + " for " + code.name(), e.getMessage());
            assertEquals(code.retryable(), e.retryable());
        }
        ElasTrasException unknown = assertThrows(ElasTrasException.class, () -> client.commit(new CommitRequest(404)));
        assertEquals(ErrorCode.UNKNOWN_TRANSACTION, unknown.code());
        assertFalse(unknown.retryable());
    }

    @Test
    void anUnmeantServiceFailureIsInternalAndTheServerKeepsServing() {
        ElasTrasException e = assertThrows(ElasTrasException.class,
                () -> client.put(new PutRequest(1, "BOOM", Map.of("A", 1))));
        assertEquals(ErrorCode.INTERNAL, e.code());
        assertTrue(e.getMessage().contains("scripted bug"), e.getMessage());
        assertTrue(client.get(new GetRequest(1, "T", List.of(1))).found());
    }

    @Test
    void aRequestTheServerWouldRefuseFailsBeforeItIsSent() {
        ElasTrasException e = assertThrows(ElasTrasException.class, () -> new ScanRequest(1, "T", null, null, 0));
        assertEquals(ErrorCode.MALFORMED_REQUEST, e.code());
        assertTrue(e.getMessage().contains("limit"), e.getMessage());
        assertEquals(ErrorCode.MALFORMED_REQUEST,
                assertThrows(ElasTrasException.class, () -> new CommitRequest(0)).code());
    }

    @Test
    void aCallPastTheTimeoutIsOutcomeUnknown() {
        service.slowMs = 1_500;
        try (OtmClient impatient = new OtmClient("127.0.0.1", server.port(),
                OtmClientConfig.defaults().withRequestTimeoutMs(300))) {
            ElasTrasException e = assertThrows(ElasTrasException.class,
                    () -> impatient.put(new PutRequest(1, "SLOW", Map.of("A", 1))));
            assertEquals(ErrorCode.OUTCOME_UNKNOWN, e.code());
            assertFalse(e.retryable());
            service.slowMs = 0;
            assertTrue(impatient.get(new GetRequest(1, "T", List.of(1))).found(), "the client still works");
        }
    }

    @Test
    void aClosedPortIsUnreachableAndRetryable() throws IOException {
        int port;
        try (ServerSocket s = new ServerSocket(0)) {
            port = s.getLocalPort();
        }
        try (OtmClient nowhere = new OtmClient("127.0.0.1", port)) {
            ElasTrasException e = assertThrows(ElasTrasException.class, nowhere::status);
            assertEquals(ErrorCode.UNREACHABLE, e.code());
            assertTrue(e.retryable());
        }
    }
}
