package org.elastras.master.admin;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.elastras.client.AdminClient;
import org.elastras.client.MasterClient;
import org.elastras.client.OtmClientConfig;
import org.elastras.client.protocol.BalancePlanResponse;
import org.elastras.client.protocol.DrainOtmRequest;
import org.elastras.client.protocol.ElasTrasException;
import org.elastras.client.protocol.ErrorCode;
import org.elastras.client.protocol.ListMovesResponse;
import org.elastras.client.protocol.MovePartitionRequest;
import org.elastras.client.protocol.MovePartitionResponse;
import org.elastras.client.protocol.PartitionInfo;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.io.TempDir;

/**
 * The admin API of issue 8 over real sockets, against a real ZooKeeper, three OTMs and two masters:
 * a move through {@link AdminClient} ends SERVING at the destination under the next epoch; refused
 * moves and drains answer REFUSED with the master's reason and change nothing; a drain empties an
 * OTM, the catalog's ROOT and META partitions included; the balance dry run returns a plan and
 * changes nothing; bad requests are MALFORMED_REQUEST and a standby answers NOT_SERVING.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class AdminApiMovesDrainsAndPlansTest {

    @TempDir
    static Path temp;

    private static AdminTestCluster cluster;

    @BeforeAll
    static void start() throws Exception {
        cluster = new AdminTestCluster(temp);
    }

    @AfterAll
    static void stop() {
        if (cluster != null) {
            cluster.close();
        }
    }

    @Test
    @Order(1)
    void aMoveEndsServingAtTheDestinationUnderTheNextEpoch() throws Exception {
        AdminClient admin = cluster.client.admin();
        PartitionInfo before = cluster.partition(3);
        String to = cluster.otherThan(before.owner());
        long finishedBefore = admin.moves().movesFinished();

        MovePartitionResponse started = admin.movePartition(3, to);

        assertEquals(to, started.toOtm());
        assertEquals("CLOSING", started.partition().state());
        assertEquals(before.owner(), started.partition().owner(), "the owner changes once the origin has closed it");
        assertEquals(before.epoch(), started.partition().epoch());
        PartitionInfo after = cluster.awaitPartitions("partition 3 serving at " + to, ps -> ps.stream()
                .anyMatch(p -> p.partitionId() == 3 && p.state().equals("SERVING") && p.owner().equals(to)))
                .stream().filter(p -> p.partitionId() == 3).findFirst().orElseThrow();
        assertEquals(before.epoch() + 1, after.epoch());
        assertEquals(before.startKey(), after.startKey());
        assertEquals(before.endKey(), after.endKey());
        assertTrue(cluster.otmServes(to, 3), to + " does not report partition 3 SERVING");
        assertFalse(cluster.otmServes(before.owner(), 3), before.owner() + " still serves partition 3");
        ListMovesResponse moves = admin.moves();
        assertTrue(moves.moves().stream().noneMatch(m -> m.partitionId() == 3), "the move is still listed: " + moves);
        assertEquals(finishedBefore + 1, moves.movesFinished());
    }

    @Test
    @Order(2)
    void refusedMovesSayWhyAndChangeNothing() {
        AdminClient admin = cluster.client.admin();
        List<PartitionInfo> before = admin.partitions(null);
        PartitionInfo p4 = cluster.partition(4);

        ElasTrasException sameOwner = assertThrows(ElasTrasException.class, () -> admin.movePartition(4, p4.owner()));
        assertEquals(ErrorCode.REFUSED, sameOwner.code());
        assertEquals("partition 4 cannot move to " + p4.owner() + ": OTM " + p4.owner() + " serves it already",
                sameOwner.getMessage());

        ElasTrasException unknownOtm = assertThrows(ElasTrasException.class, () -> admin.movePartition(4, "otm-9"));
        assertEquals(ErrorCode.REFUSED, unknownOtm.code());
        assertTrue(unknownOtm.getMessage().startsWith("partition 4 cannot move to otm-9: OTM otm-9 is not live; the live"
                + " OTMs are [otm-1, otm-2, otm-3]"), unknownOtm.getMessage());

        ElasTrasException unknownPartition = assertThrows(ElasTrasException.class, () -> admin.movePartition(99, "otm-1"));
        assertEquals(ErrorCode.REFUSED, unknownPartition.code());
        assertEquals("partition 99 cannot move to otm-1: there is no partition 99", unknownPartition.getMessage());

        ElasTrasException drainUnknown = assertThrows(ElasTrasException.class, () -> admin.drainOtm("otm-9", true));
        assertEquals(ErrorCode.REFUSED, drainUnknown.code());
        assertTrue(drainUnknown.getMessage().contains("OTM otm-9 is not live"), drainUnknown.getMessage());

        assertEquals(before, admin.partitions(null), "a refused request changed the partition map");
        ListMovesResponse moves = admin.moves();
        assertEquals(List.of(), moves.moves());
        assertEquals(List.of(), moves.draining());
        assertFalse(ErrorCode.REFUSED.retryable());
        assertEquals(409, ErrorCode.REFUSED.httpStatus());
    }

    @Test
    @Order(3)
    void theBalanceDryRunReturnsAPlanAndChangesNothing() {
        AdminClient admin = cluster.client.admin();
        List<PartitionInfo> before = admin.partitions(null);
        long finishedBefore = admin.moves().movesFinished();

        BalancePlanResponse plan = admin.balancePlan();

        assertTrue(plan.text().startsWith("balance plan at " + plan.atMs() + " ms: "), plan.text());
        assertTrue(plan.atMs() > 0, "the plan has no time: " + plan);
        // An idle cluster overloads nothing: no moves for load.
        assertTrue(plan.moves().stream().noneMatch(m -> m.reason().equals("OVERLOAD")), plan.text());
        for (var m : plan.moves()) {
            assertTrue(plan.text().contains("move partition " + m.partitionId() + ": " + m.fromOtm() + " -> " + m.toOtm()),
                    "the text misses a move of the data: " + plan.text());
        }
        for (String note : plan.notes()) {
            assertTrue(plan.text().contains("note: " + note), plan.text());
        }
        assertEquals(before, admin.partitions(null), "the dry run changed the partition map");
        assertEquals(List.of(), admin.moves().moves());
        assertEquals(finishedBefore, admin.moves().movesFinished());
    }

    @Test
    @Order(4)
    void aDrainEmptiesAnOtmCatalogPartitionsIncluded() throws Exception {
        AdminClient admin = cluster.client.admin();
        String drained = cluster.partition(1).owner(); // ROOT's owner: the catalog must move too.
        List<Long> owned = admin.partitions(null).stream().filter(p -> drained.equals(p.owner()))
                .map(PartitionInfo::partitionId).toList();
        assertTrue(owned.contains(1L), "ROOT is not on " + drained);

        assertEquals(List.of(drained), admin.drainOtm(drained, true));
        assertEquals(List.of(drained), admin.drainOtm(drained, true), "a repeated drain is not idempotent");
        assertEquals(List.of(drained), admin.moves().draining());

        List<PartitionInfo> after = cluster.awaitPartitions(drained + " empty and everything serving", ps -> ps.size() == 4
                && ps.stream().allMatch(p -> p.state().equals("SERVING") && !drained.equals(p.owner())));
        for (PartitionInfo p : after) {
            assertTrue(cluster.otmServes(p.owner(), p.partitionId()), p + " is not served by its owner");
            if (owned.contains(p.partitionId())) {
                assertFalse(cluster.otmServes(drained, p.partitionId()), drained + " still serves " + p.partitionId());
            }
        }
        // Nothing moves to a draining OTM.
        ElasTrasException toDraining = assertThrows(ElasTrasException.class, () -> admin.movePartition(4, drained));
        assertEquals(ErrorCode.REFUSED, toDraining.code());
        assertTrue(toDraining.getMessage().endsWith("OTM " + drained + " is being drained"), toDraining.getMessage());

        assertEquals(List.of(), admin.drainOtm(drained, false));
        assertEquals(List.of(), admin.moves().draining());
    }

    @Test
    @Order(5)
    void badRequestsAreMalformedAndAStandbyIsNotServing() throws Exception {
        HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
        HttpResponse<String> missingId = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:"
                + cluster.master.port() + "/v1/movePartition")).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString("{\"toOtm\":\"otm-2\"}")).build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(400, missingId.statusCode(), missingId.body());
        assertTrue(missingId.body().contains("\"MALFORMED_REQUEST\"") && missingId.body().contains("partitionId"),
                missingId.body());
        HttpResponse<String> refused = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:"
                + cluster.master.port() + "/v1/movePartition")).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString("{\"partitionId\":99,\"toOtm\":\"otm-2\"}")).build(),
                HttpResponse.BodyHandlers.ofString());
        assertEquals(409, refused.statusCode(), refused.body());
        assertTrue(refused.body().contains("\"REFUSED\""), refused.body());

        assertFalse(cluster.standby.active());
        try (MasterClient standby = new MasterClient("127.0.0.1", cluster.standby.port(), OtmClientConfig.defaults())) {
            for (Runnable call : List.<Runnable>of(() -> standby.movePartition(new MovePartitionRequest(4, "otm-1")),
                    () -> standby.drainOtm(new DrainOtmRequest("otm-1", true)), standby::listMoves, standby::balancePlan)) {
                ElasTrasException e = assertThrows(ElasTrasException.class, call::run);
                assertEquals(ErrorCode.NOT_SERVING, e.code());
                assertTrue(e.getMessage().contains("master-2 is not the active master; send admin requests to the one"
                        + " announced in ZooKeeper"), e.getMessage());
            }
        }
        assertEquals(List.of(), cluster.master.drainingOtms(), "the standby's refusals changed something");
    }
}
