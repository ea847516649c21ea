package org.elastras.client.protocol;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The admin messages of moves, drains and the balance plan round-trip in both formats, and a bad
 * request is refused as MALFORMED_REQUEST naming the operation and the field, before any handler
 * could act on it.
 */
class AdminMoveMessagesValidateAndRoundTripTest {

    private final ProtocolCodec codec = new ProtocolCodec();

    @Test
    void everyAdminMoveRecordRoundTrips() {
        PartitionInfo info = new PartitionInfo("LEDGER", 4, List.of(100), List.of(200), "otm-1", 3, "CLOSING");
        List<Record> records = List.of(
                new MovePartitionRequest(4, "otm-2"), new MovePartitionResponse(info, "otm-2"),
                new DrainOtmRequest("otm-1", true), new DrainOtmRequest("otm-1", false),
                new DrainOtmResponse(List.of("otm-1", "otm-3")),
                new ListMovesRequest(),
                new ListMovesResponse(List.of(new MoveInfo(4, "otm-1", "otm-2", "operator", 1_700_000_000_000L, 12)),
                        List.of("otm-1"), 7),
                new BalancePlanRequest(),
                new BalancePlanResponse(5_000, List.of(new PlannedMove(4, "otm-1", "otm-2", "OVERLOAD", "cpu 0.95")), 1,
                        List.of("otm-3"), List.of("a note"), "balance plan at 5000 ms: 1 move\n"));
        for (WireFormat format : WireFormat.values()) {
            for (Record r : records) {
                assertEquals(r, codec.decode(codec.encode(r, format), r.getClass(), format, "test"), format + " " + r);
            }
        }
    }

    @Test
    void theNewOperationsHaveTheirPathsAndRecords() {
        assertEquals(MovePartitionRequest.class, Operation.byWireName("movePartition").orElseThrow().requestType());
        assertEquals(DrainOtmResponse.class, Operation.byWireName("drainOtm").orElseThrow().responseType());
        assertEquals("/v1/listMoves", Operation.LIST_MOVES.path());
        assertEquals("/v1/balancePlan", Operation.BALANCE_PLAN.path());
    }

    @Test
    void aMoveWithoutAPartitionOrDestinationIsMalformed() {
        assertMalformed(Operation.MOVE_PARTITION, "{\"toOtm\":\"otm-2\"}", "partitionId");
        assertMalformed(Operation.MOVE_PARTITION, "{\"partitionId\":0,\"toOtm\":\"otm-2\"}", "partitionId");
        assertMalformed(Operation.MOVE_PARTITION, "{\"partitionId\":-3,\"toOtm\":\"otm-2\"}", "partitionId");
        assertMalformed(Operation.MOVE_PARTITION, "{\"partitionId\":3}", "toOtm");
        assertMalformed(Operation.MOVE_PARTITION, "{\"partitionId\":3,\"toOtm\":\"\"}", "toOtm");
        assertMalformed(Operation.MOVE_PARTITION, "{\"partitionId\":\"3\",\"toOtm\":\"otm-2\"}", "partitionId");
        assertMalformed(Operation.MOVE_PARTITION, "{\"partitionId\":3,\"toOtm\":\"otm-2\",\"force\":true}", "force");
        ElasTrasException tooLong = assertThrows(ElasTrasException.class,
                () -> new MovePartitionRequest(3, "o".repeat(ProtocolLimits.NAME_LENGTH_MAX + 1)));
        assertEquals(ErrorCode.LIMIT_EXCEEDED, tooLong.code());
    }

    @Test
    void aDrainMustSayWhetherToStartOrStop() {
        assertMalformed(Operation.DRAIN_OTM, "{\"otmId\":\"otm-1\"}", "drain is missing");
        assertMalformed(Operation.DRAIN_OTM, "{\"drain\":true}", "otmId");
        assertMalformed(Operation.DRAIN_OTM, "{\"otmId\":\"otm-1\",\"drain\":\"yes\"}", "drain");
        DrainOtmRequest ok = (DrainOtmRequest) codec.decodeRequest(Operation.DRAIN_OTM,
                "{\"otmId\":\"otm-1\",\"drain\":false}".getBytes(StandardCharsets.UTF_8), WireFormat.JSON);
        assertEquals(Boolean.FALSE, ok.drain());
    }

    @Test
    void theFieldlessRequestsRefuseFields() {
        assertMalformed(Operation.LIST_MOVES, "{\"all\":true}", "all");
        assertMalformed(Operation.BALANCE_PLAN, "{\"apply\":true}", "apply");
        assertEquals(new BalancePlanRequest(), codec.decodeRequest(Operation.BALANCE_PLAN,
                "{}".getBytes(StandardCharsets.UTF_8), WireFormat.JSON));
    }

    private void assertMalformed(Operation op, String json, String mentioned) {
        ElasTrasException e = assertThrows(ElasTrasException.class,
                () -> codec.decodeRequest(op, json.getBytes(StandardCharsets.UTF_8), WireFormat.JSON), json);
        assertEquals(ErrorCode.MALFORMED_REQUEST, e.code(), json + ": " + e.getMessage());
        assertTrue(e.getMessage().contains(mentioned), json + " -> " + e.getMessage());
    }
}
