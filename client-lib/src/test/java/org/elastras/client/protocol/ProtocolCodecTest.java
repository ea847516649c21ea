package org.elastras.client.protocol;

import org.elastras.catalog.schema.Column;
import org.elastras.catalog.schema.ColumnType;
import org.elastras.catalog.schema.DatabaseSchema;
import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The codec round-trips every record in both formats and refuses what it must; schema specs and wire values convert exactly. */
class ProtocolCodecTest {

    private final ProtocolCodec codec = new ProtocolCodec();

    @Test
    void everyRecordRoundTripsInSmileAndJson() {
        List<Record> records = List.of(
                new BeginRequest("D", 1, Isolation.SNAPSHOT, 5), new BeginResponse(3, 9),
                new GetRequest(3, "T", Arrays.asList(1, "a", true)), GetResponse.of(Map.of("A", 1)), GetResponse.notFound(),
                new PutRequest(3, "T", Map.of("A", 1, "B", "x")), new PutResponse(),
                new DeleteRequest(3, "T", List.of(1)), new DeleteResponse(),
                new GetRequest(3, "T", List.of(1), List.of("B", "A")), new GetRequest(3, "T", List.of(1), List.of()),
                new AddRequest(3, "T", List.of(1), "B", 5), new AddRequest(3, "T", List.of(1), "B", -7), new AddResponse(),
                new ScanRequest(3, "T", List.of(1), null, 10), new ScanResponse(List.of(Map.of("A", 1)), false),
                new CommitRequest(3), new CommitResponse(12), new AbortRequest(3), new AbortResponse(),
                new CallRequest("D", 1, "P", List.of(1, List.of(2, 3)), Isolation.SERIALIZABLE, 0),
                new CallResponse(List.of("r", 1), 4, 1),
                new OpenPartitionRequest("D", 1, null, List.of(5)), new OpenPartitionResponse(),
                new ClosePartitionRequest(1), new ClosePartitionResponse(new CloseReport(120, 1_700_000_000_000L, 31)),
                new ClosePartitionResponse((CloseReport) null),
                new ClosePartitionRequest(1, new MoveDestination("otm-2", "127.0.0.1", 4000)),
                new ClosePartitionResponse(new LiveMoveReport(120, 8, 1_700_000_000_000L, 40, 90, 3, false, "grace 1 ms")),
                new ClosePartitionRequest(1, new MoveDestination("otm-2", "127.0.0.1", 4000), new CatalogHandOver(
                        "127.0.0.1", 4001, "META", 2,
                        List.of(List.of(4), List.of("m1"), List.of("D", 1, "otm-2")))),
                new ClosePartitionResponse(new LiveMoveReport(120, 8, 1_700_000_000_000L, 40, 90, 3, false, "grace 1 ms"),
                        new HandOverOutcome(true, 14, true, 6, 1_700_000_000_030L, null)),
                new ClosePartitionResponse(null, new HandOverOutcome(false, -1, false, -1, 0, "the catalog did not answer")),
                new ReceivePartitionRequest("D", 7, List.of(1), null, "otm-1", 4), new ReceivePartitionResponse(),
                new ReceivePartitionRequest("D", 7, List.of(1), null, "otm-1", 4, "10.0.0.9", 7001),
                new ShipVersionsResponse(3), new FinishIncomingRequest(7, 3), new FinishIncomingResponse(5),
                new FinishIncomingRequest(7, 3, List.of(), new CatalogHandOver("127.0.0.1", 4001, "META", 2,
                        List.of(List.of(4), List.of("m1"), List.of("D", 1, "otm-2")))),
                new FinishIncomingResponse(5, new HandOverOutcome(true, 12, true, 1, 1_700_000_000_030L, null), 14),
                new DropIncomingRequest(7), new DropIncomingResponse(true),
                new FlushPartitionRequest(1), new FlushPartitionResponse(),
                new StatusRequest(), new StatusResponse("o", true, List.of()),
                new ErrorResponse(ErrorCode.CONFLICT, "m"),
                new ErrorResponse(ErrorCode.NOT_OWNER, "handed over", new MoveDestination("otm-2", "127.0.0.1", 4000)));
        for (WireFormat format : WireFormat.values()) {
            for (Record r : records) {
                byte[] bytes = codec.encode(r, format);
                assertEquals(r, codec.decode(bytes, r.getClass(), format, "test"), format + " " + r);
            }
        }
    }

    @Test
    void anAddsAmountArrivesAsTheNumberTypeItsFormatCarries() {
        AddRequest decimal = new AddRequest(3, "W", List.of(1), "W_YTD", new BigDecimal("12.50"));
        assertEquals(decimal, codec.decode(codec.encode(decimal, WireFormat.SMILE), AddRequest.class, WireFormat.SMILE, "add"),
                "Smile carries a BigDecimal exactly, its scale included");
        assertEquals(12.5, codec.decode(codec.encode(decimal, WireFormat.JSON), AddRequest.class, WireFormat.JSON, "add")
                .amount(), "JSON carries it as a double, which the server widens to the column's DECIMAL");
        AddRequest small = new AddRequest(3, "W", List.of(1), "W_ORDERS", 7L);
        AddRequest large = new AddRequest(3, "W", List.of(1), "W_ORDERS", 1L << 40);
        for (WireFormat format : WireFormat.values()) {
            assertEquals(7, codec.decode(codec.encode(small, format), AddRequest.class, format, "add").amount(),
                    format + ": a long that fits 32 bits arrives as an Integer (the server widens it for a BIGINT)");
            assertEquals(1L << 40, codec.decode(codec.encode(large, format), AddRequest.class, format, "add").amount(),
                    format.toString());
        }
    }

    @Test
    void aWholeRowGetHasTheBodyItHadBeforeColumnsExisted() {
        GetRequest whole = new GetRequest(3, "T", List.of(1));
        assertNull(whole.columns());
        String body = new String(codec.encode(whole, WireFormat.JSON), StandardCharsets.UTF_8);
        assertFalse(body.contains("columns"), "an OTM from before the field refuses unknown fields: " + body);
        for (String old : List.of("{\"txnId\":3,\"table\":\"T\",\"key\":[1]}",
                "{\"txnId\":3,\"table\":\"T\",\"key\":[1],\"columns\":null}")) {
            assertEquals(whole, codec.decodeRequest(Operation.GET, old.getBytes(StandardCharsets.UTF_8), WireFormat.JSON),
                    "a body without columns reads the whole row: " + old);
        }
        GetRequest some = (GetRequest) codec.decodeRequest(Operation.GET,
                "{\"txnId\":3,\"table\":\"T\",\"key\":[1],\"columns\":[\"B\",\"A\"]}".getBytes(StandardCharsets.UTF_8),
                WireFormat.JSON);
        assertEquals(List.of("B", "A"), some.columns(), "in the order named");
    }

    @Test
    void badAddsAndColumnListsAreRefusedWithWhatWasWrong() {
        String key = "\"txnId\":3,\"table\":\"T\",\"key\":[1]";
        Object[][] cases = {
            {Operation.ADD, "{" + key + ",\"column\":\"A\"}", ErrorCode.MALFORMED_REQUEST, "amount is missing"},
            {Operation.ADD, "{" + key + ",\"column\":\"A\",\"amount\":null}", ErrorCode.MALFORMED_REQUEST,
                    "amount is missing"},
            {Operation.ADD, "{" + key + ",\"column\":\"A\",\"amount\":[1]}", ErrorCode.MALFORMED_REQUEST,
                    "amount holds a nested array"},
            {Operation.ADD, "{" + key + ",\"amount\":1}", ErrorCode.MALFORMED_REQUEST, "column is missing"},
            {Operation.ADD, "{\"txnId\":3,\"table\":\"T\",\"column\":\"A\",\"amount\":1}",
                    ErrorCode.MALFORMED_REQUEST, "key is missing"},
            {Operation.ADD, "{\"txnId\":0,\"table\":\"T\",\"key\":[1],\"column\":\"A\",\"amount\":1}",
                    ErrorCode.MALFORMED_REQUEST, "txnId is 0"},
            {Operation.GET, "{" + key + ",\"columns\":[\"A\",\"\"]}", ErrorCode.MALFORMED_REQUEST, "columns[] is missing"},
            {Operation.GET, "{" + key + ",\"columns\":[\"A\",\"b\",\"a\"]}", ErrorCode.MALFORMED_REQUEST,
                    "names a twice"},
            {Operation.GET, "{" + key + ",\"columns\":[" + java.util.stream.IntStream.rangeClosed(0, ProtocolLimits.ROW_COLUMNS_MAX)
                    .mapToObj(i -> "\"C" + i + "\"").collect(java.util.stream.Collectors.joining(",")) + "]}",
                    ErrorCode.LIMIT_EXCEEDED, "limit is " + ProtocolLimits.ROW_COLUMNS_MAX},
        };
        for (Object[] c : cases) {
            String body = (String) c[1];
            ElasTrasException e = assertThrows(ElasTrasException.class, () -> codec.decodeRequest((Operation) c[0],
                    body.getBytes(StandardCharsets.UTF_8), WireFormat.JSON), body);
            assertEquals(c[2], e.code(), body + " -> " + e.getMessage());
            assertTrue(e.getMessage().contains((String) c[3]), body + " -> " + e.getMessage());
        }
    }

    @Test
    void aCreateAnswerCarriesItsCatalogCtsAndAnOlderAnswerWithoutItReadsAsZero() {
        PartitionInfo tenant = new PartitionInfo("BANK", 7, null, null, "otm-1", 1, "OPENING");
        CreateDatabaseResponse created = new CreateDatabaseResponse(List.of(tenant), 4_242);
        for (WireFormat format : WireFormat.values()) {
            CreateDatabaseResponse back = codec.decode(codec.encode(created, format), CreateDatabaseResponse.class,
                    format, "createDatabase response");
            assertEquals(created, back, format.toString());
            assertEquals(4_242, back.catalogCts(), format.toString());
        }
        // What a master from before catalogCts answers.
        byte[] old = ("{\"partitions\":[{\"database\":\"BANK\",\"partitionId\":7,\"owner\":\"otm-1\",\"epoch\":1,"
                + "\"state\":\"OPENING\"}]}").getBytes(StandardCharsets.UTF_8);
        CreateDatabaseResponse older = codec.decode(old, CreateDatabaseResponse.class, WireFormat.JSON,
                "createDatabase response");
        assertEquals(List.of(tenant), older.partitions());
        assertEquals(0, older.catalogCts(), "unknown");
        assertEquals(new CreateDatabaseResponse(List.of(tenant)), older);
        ElasTrasException negative = assertThrows(ElasTrasException.class, () -> codec.decode(
                "{\"partitions\":[],\"catalogCts\":-1}".getBytes(StandardCharsets.UTF_8), CreateDatabaseResponse.class,
                WireFormat.JSON, "createDatabase response"));
        assertEquals(ErrorCode.MALFORMED_REQUEST, negative.code());
        assertTrue(negative.getMessage().contains("catalogCts is -1"), negative.getMessage());
    }

    @Test
    void aCatalogHandOverIsRefusedWithoutALiveMoveOrWithoutItsParts() {
        String live = "\"liveTo\":{\"otmId\":\"otm-2\",\"host\":\"h\",\"port\":4000}";
        String holder = "\"host\":\"h\",\"port\":4001";
        String[][] cases = {
            {"{\"partitionId\":1,\"handOver\":{" + holder + ",\"database\":\"META\",\"partitionId\":2,"
                    + "\"swapArgs\":[1]}}", "only for a live move"},
            {"{\"partitionId\":1," + live + ",\"handOver\":{\"database\":\"META\",\"partitionId\":2,"
                    + "\"port\":4001,\"swapArgs\":[1]}}", "handOver.host"},
            {"{\"partitionId\":1," + live + ",\"handOver\":{" + holder + ",\"database\":\"META\",\"partitionId\":2,"
                    + "\"swapArgs\":[]}}", "handOver.swapArgs"},
            {"{\"partitionId\":1," + live + ",\"handOver\":{" + holder + ",\"partitionId\":2,\"swapArgs\":[1]}}",
                    "handOver.database"},
            {"{\"partitionId\":1," + live + ",\"handOver\":{\"host\":\"h\",\"port\":0,\"database\":\"META\","
                    + "\"partitionId\":2,\"swapArgs\":[1]}}", "handOver.port"},
        };
        for (String[] c : cases) {
            ElasTrasException e = assertThrows(ElasTrasException.class, () -> codec.decodeRequest(
                    Operation.CLOSE_PARTITION, c[0].getBytes(StandardCharsets.UTF_8), WireFormat.JSON), c[0]);
            assertEquals(ErrorCode.MALFORMED_REQUEST, e.code(), c[0]);
            assertTrue(e.getMessage().contains(c[1]), c[0] + " -> " + e.getMessage());
        }
    }

    @Test
    void shippedVersionsRoundTripWithTheirBytesAndDeletions() {
        ShipVersionsRequest r = new ShipVersionsRequest(7, 2, List.of(
                new ShippedCommit(40, List.of(new byte[] {1, 2}, new byte[] {3}), Arrays.asList(new byte[] {9}, null)),
                new ShippedCommit(41, List.of(new byte[] {0}), List.of(new byte[0]))));
        for (WireFormat format : WireFormat.values()) {
            ShipVersionsRequest back = codec.decode(codec.encode(r, format), ShipVersionsRequest.class, format, "t");
            assertEquals(7, back.partitionId());
            assertEquals(2, back.batch());
            assertEquals(2, back.commits().size());
            ShippedCommit first = back.commits().get(0);
            assertEquals(40, first.cts());
            assertArrayEquals(new byte[] {1, 2}, first.keys().get(0));
            assertArrayEquals(new byte[] {3}, first.keys().get(1));
            assertArrayEquals(new byte[] {9}, first.values().get(0));
            assertNull(first.values().get(1), format + ": a deletion stays a deletion");
            assertArrayEquals(new byte[0], back.commits().get(1).values().get(0), format + ": an empty value stays empty");
        }
        assertThrows(ElasTrasException.class, () -> new ShippedCommit(5, List.of(new byte[] {1}), List.of()));
        assertThrows(ElasTrasException.class, () -> new ShipVersionsRequest(7, 0, r.commits()));
        assertThrows(ElasTrasException.class, () -> new MoveDestination("o", "h", 0));
    }

    @Test
    void aReceiveNamesItsCatalogHolderWhole() {
        String copy = "\"database\":\"D\",\"partitionId\":7,\"fromOtm\":\"otm-1\",\"manifestSequence\":4";
        String[] refused = {
            "{" + copy + ",\"catalogHost\":\"h\"}",
            "{" + copy + ",\"catalogPort\":4001}",
            "{" + copy + ",\"catalogHost\":\"h\",\"catalogPort\":70000}",
        };
        for (String body : refused) {
            ElasTrasException e = assertThrows(ElasTrasException.class, () -> codec.decodeRequest(
                    Operation.RECEIVE_PARTITION, body.getBytes(StandardCharsets.UTF_8), WireFormat.JSON), body);
            assertEquals(ErrorCode.MALFORMED_REQUEST, e.code(), body);
            assertTrue(e.getMessage().contains("catalogPort"), body + " -> " + e.getMessage());
        }
        ReceivePartitionRequest none = (ReceivePartitionRequest) codec.decodeRequest(Operation.RECEIVE_PARTITION,
                ("{" + copy + "}").getBytes(StandardCharsets.UTF_8), WireFormat.JSON);
        assertEquals(null, none.catalogHost(), "an origin that names no catalog holder, as before");
        assertEquals(0, none.catalogPort());
    }

    @Test
    void aFinishCarriesTheLastVersionsAndRefusesThemUncounted() {
        ShippedCommit last = new ShippedCommit(40, List.of(new byte[] {1}), Arrays.asList((byte[]) null));
        FinishIncomingRequest r = new FinishIncomingRequest(7, 4, List.of(last), null);
        for (WireFormat format : WireFormat.values()) {
            FinishIncomingRequest back = codec.decode(codec.encode(r, format), FinishIncomingRequest.class, format, "t");
            assertEquals(4, back.batches());
            assertEquals(1, back.lastCommits().size());
            assertEquals(40, back.lastCommits().get(0).cts());
            assertArrayEquals(new byte[] {1}, back.lastCommits().get(0).keys().get(0));
            assertNull(back.lastCommits().get(0).values().get(0), format + ": a deletion stays a deletion");
            assertNull(back.handOver());
        }
        // An older origin's finish (no last versions) reads as one with none.
        FinishIncomingRequest bare = (FinishIncomingRequest) codec.decodeRequest(Operation.FINISH_INCOMING,
                "{\"partitionId\":7,\"batches\":3}".getBytes(StandardCharsets.UTF_8), WireFormat.JSON);
        assertEquals(List.of(), bare.lastCommits());
        ElasTrasException uncounted = assertThrows(ElasTrasException.class, () -> codec.decodeRequest(
                Operation.FINISH_INCOMING, ("{\"partitionId\":7,\"batches\":0,\"lastCommits\":[{\"cts\":40,"
                        + "\"keys\":[\"AQ==\"],\"values\":[null]}]}").getBytes(StandardCharsets.UTF_8), WireFormat.JSON));
        assertEquals(ErrorCode.MALFORMED_REQUEST, uncounted.code());
        assertTrue(uncounted.getMessage().contains("batches must count it"), uncounted.getMessage());
        List<ShippedCommit> tooMany = java.util.Collections.nCopies(ShipVersionsRequest.COMMITS_MAX + 1, last);
        ElasTrasException over = assertThrows(ElasTrasException.class, () -> new FinishIncomingRequest(7, 9, tooMany, null));
        assertTrue(over.getMessage().contains("at most " + ShipVersionsRequest.COMMITS_MAX), over.getMessage());
    }

    @Test
    void schemaSpecsConvertBothWaysAndRefuseInvalidSchemas() {
        DatabaseSchema schema = DatabaseSchema.singlePartition("TENANT")
                .plain("ACCOUNTS", t -> t.column("ID", ColumnType.BIGINT).nullable("BAL", ColumnType.decimal(12, 2))
                        .nullable("BLOB", ColumnType.bytes(16)).column("NAME", ColumnType.varchar(20)).key("ID"))
                .build();
        SchemaSpec spec = SchemaSpec.of(schema);
        assertEquals(schema, spec.toSchema());
        for (WireFormat format : WireFormat.values()) {
            RegisterDatabaseRequest r = new RegisterDatabaseRequest(spec);
            RegisterDatabaseRequest back = codec.decode(codec.encode(r, format), RegisterDatabaseRequest.class, format, "t");
            assertEquals(schema, back.schema().toSchema());
        }
        ElasTrasException e = assertThrows(ElasTrasException.class, () -> new SchemaSpec("TENANT", schema.partitioning(),
                List.of(new TableSpec("A", org.elastras.catalog.schema.TableKind.PLAIN,
                        List.of(new ColumnSpec("X", "DECIMAL(3)", false)), List.of("X")))));
        assertEquals(ErrorCode.MALFORMED_REQUEST, e.code());
        assertTrue(e.getMessage().contains("DECIMAL(3)") && e.getMessage().contains("2 parameter"), e.getMessage());
        assertEquals(ColumnType.decimal(10, 2), ColumnSpec.parseType("c", " decimal( 10 , 2 ) "));
        assertThrows(RuntimeException.class, () -> ColumnSpec.parseType("c", "FLOAT"));
        assertThrows(RuntimeException.class, () -> ColumnSpec.parseType("c", "VARCHAR(x)"));
    }

    @Test
    void boundsAreEnforcedWithLimitExceeded() {
        ProtocolCodec small = new ProtocolCodec(2048, 8);
        byte[] big = ("{\"txnId\":1,\"table\":\"" + "x".repeat(3000) + "\",\"key\":[1]}").getBytes(StandardCharsets.UTF_8);
        assertEquals(ErrorCode.LIMIT_EXCEEDED,
                assertThrows(ElasTrasException.class, () -> small.decode(big, GetRequest.class, WireFormat.JSON, "get")).code());
        byte[] deep = ("{\"database\":\"D\",\"partitionId\":1,\"procedure\":\"P\",\"args\":" + "[".repeat(20) + "]".repeat(20) + "}")
                .getBytes(StandardCharsets.UTF_8);
        ElasTrasException e = assertThrows(ElasTrasException.class, () -> small.decode(deep, CallRequest.class, WireFormat.JSON, "call"));
        assertEquals(ErrorCode.LIMIT_EXCEEDED, e.code());
        assertTrue(e.getMessage().contains("nesting"), e.getMessage());
    }

    @Test
    void codecsWithTheSameBoundsShareTheirMappersAndOtherBoundsStillHold() {
        ProtocolCodec another = new ProtocolCodec();
        assertSame(codec.mapper(WireFormat.SMILE), another.mapper(WireFormat.SMILE), "built readers and writers are reused");
        assertSame(codec.mapper(WireFormat.JSON), another.mapper(WireFormat.JSON));
        ProtocolCodec small = new ProtocolCodec(2048, 8);
        assertNotSame(codec.mapper(WireFormat.JSON), small.mapper(WireFormat.JSON));
        byte[] big = ("{\"txnId\":1,\"table\":\"" + "x".repeat(3000) + "\",\"key\":[1]}").getBytes(StandardCharsets.UTF_8);
        assertEquals(ErrorCode.LIMIT_EXCEEDED,
                assertThrows(ElasTrasException.class, () -> small.decode(big, GetRequest.class, WireFormat.JSON, "get")).code(),
                "the small codec keeps its bound though a larger codec's mappers exist");
        for (int i = 0; i < ProtocolCodec.SHARED_CONFIGURATIONS_MAX + 4; i++) {
            ProtocolCodec odd = new ProtocolCodec(4096 + i, 9);
            assertEquals(ErrorCode.LIMIT_EXCEEDED,
                    assertThrows(ElasTrasException.class, () -> odd.decode(big, GetRequest.class, WireFormat.JSON, "get")).code(),
                    "bounds hold past the shared configurations too");
        }
    }

    @Test
    void wireValuesWidenJsonFormsToColumnValues() {
        Column bytes = Column.notNull("B", ColumnType.bytes(4));
        assertArrayEquals(new byte[] {0, 1, 2}, (byte[]) WireValues.toColumnValue("t", bytes, "AAEC"));
        assertThrows(IllegalArgumentException.class, () -> WireValues.toColumnValue("t", bytes, "!!!"));
        Column decimal = Column.notNull("D", ColumnType.decimal(6, 2));
        assertEquals(new BigDecimal("12.30"), WireValues.toColumnValue("t", decimal, 12.3));
        assertEquals(new BigDecimal("7.00"), WireValues.toColumnValue("t", decimal, 7));
        assertEquals(new BigDecimal("1.25"), WireValues.toColumnValue("t", decimal, "1.25"));
        assertThrows(IllegalArgumentException.class, () -> WireValues.toColumnValue("t", decimal, 1.234));
        Column dbl = Column.notNull("F", ColumnType.DOUBLE);
        assertEquals(3.0, WireValues.toColumnValue("t", dbl, 3));
        Column big = Column.notNull("L", ColumnType.BIGINT);
        assertEquals(5L, WireValues.toColumnValue("t", big, BigInteger.valueOf(5)));
        assertThrows(IllegalArgumentException.class, () -> WireValues.toColumnValue("t", big, BigInteger.ONE.shiftLeft(64)));
        Column integer = Column.notNull("I", ColumnType.INT);
        assertThrows(IllegalArgumentException.class, () -> WireValues.toColumnValue("t", integer, "5"));
        assertEquals(null, WireValues.toColumnValue("t", Column.nullable("N", ColumnType.INT), null));
    }

    /** A message whose constructor changes what it is given: it does not decode to what it encoded. */
    record Drifting(long value) {
        Drifting {
            value = value + 1;
        }
    }

    @Test
    void warmUpSamplesMustSurviveTheirRoundTrips() {
        ProtocolCodec codec = new ProtocolCodec();
        // A sample of the real protocol survives the round trip, lists of byte strings included.
        codec.warmUp(List.of(Operation.SHIP_VERSIONS), List.of(new ShipVersionsRequest(3, 1,
                List.of(new ShippedCommit(7, List.of(new byte[] {1, 2}), List.of(new byte[] {3}))))));
        IllegalStateException e = assertThrows(IllegalStateException.class,
                () -> codec.warmUp(List.of(), List.of(new Drifting(1))));
        assertTrue(e.getMessage().contains("Drifting[value=2]") && e.getMessage().contains("round trip"), e.getMessage());
    }
}
