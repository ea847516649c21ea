package org.elastras.master.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.elastras.client.ElasTrasClient;
import org.elastras.master.cluster.MasterEvents;
import org.elastras.master.cluster.PartitionState;
import org.elastras.master.cluster.PartitionView;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Moves under load (issues 8 and 10): clients increment counters on every LEDGER partition while
 * the master moves each partition around the OTMs three times (once coordinated, twice live) and
 * then drains an OTM (live moves, the default) — the catalog's ROOT and META partitions with it. No error reaches the application, every
 * acknowledged increment is there exactly once, and a move the master cannot make is refused
 * with a reason and changes nothing.
 */
class MovesUnderLoadSurfaceNoErrorTest {

    private static final long MOVE_BOUND_MS = 15_000;

    @TempDir
    Path temp;

    @Test
    void partitionsMoveAndAnOtmDrainsWhileClientsCommitWithoutAnError() throws Exception {
        List<ElasTrasClient> clients = new ArrayList<>();
        try (ClientTestCluster cluster = new ClientTestCluster(temp, List.of("otm-1", "otm-2", "otm-3"))) {
            for (int c = 0; c < 2; c++) {
                clients.add(ElasTrasClient.connect(cluster.connectString()));
            }
            IncrementWorkload workload = new IncrementWorkload(clients);
            workload.start();
            workload.awaitOps(10, false, 20_000);
            workload.mark();

            List<String> otms = List.of("otm-1", "otm-2", "otm-3");
            List<Long> movesMs = new ArrayList<>();
            List<Long> liveMovesMs = new ArrayList<>();
            long eventsBefore = cluster.master.events().lastSequence();
            for (int round = 0; round < 3; round++) {
                boolean live = round > 0;
                for (long id = 3; id <= 6; id++) {
                    PartitionView before = view(cluster, id);
                    String to = otms.get((otms.indexOf(before.record().owner()) + 1 + round % 2) % otms.size());
                    long started = System.nanoTime();
                    PartitionView moving = cluster.master.movePartition(id, to, live);
                    assertEquals(PartitionState.CLOSING, moving.state(), "the move starts at the origin");
                    awaitServing(cluster, id, to);
                    (live ? liveMovesMs : movesMs).add((System.nanoTime() - started) / 1_000_000);
                    assertEquals(before.record().epoch() + 1, view(cluster, id).record().epoch(), "a new epoch");
                }
            }

            assertEquals(12, cluster.master.movesFinished(), "every move finished");
            // At each live move's hand-over the destination recorded itself and served.
            long openedAtHandOver = cluster.master.events().after(eventsBefore, MasterEvents.CAPACITY_MAX).stream()
                    .filter(e -> e.kind() == MasterEvents.Kind.PARTITION_OPENED
                            && e.message().contains("opened at the live move's hand-over"))
                    .count();
            assertEquals(liveMovesMs.size(), openedAtHandOver, "live moves served by their destination at the hand-over");
            IllegalArgumentException refused = assertThrows(IllegalArgumentException.class,
                    () -> cluster.master.movePartition(3, view(cluster, 3).record().owner()));
            assertTrue(refused.getMessage().contains("serves it already"), refused.getMessage());
            assertThrows(IllegalArgumentException.class, () -> cluster.master.movePartition(3, "otm-nobody"));

            // Drain otm-1: everything it serves, the catalog included, moves to the others.
            long drainStarted = System.nanoTime();
            cluster.master.drainOtm("otm-1", true);
            long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(MOVE_BOUND_MS);
            while (!(cluster.master.partitions().stream().noneMatch(v -> "otm-1".equals(v.record().owner()))
                    && cluster.master.partitions().stream().allMatch(v -> v.state() == PartitionState.SERVING))) {
                assertTrue(System.nanoTime() < deadline, "otm-1 not drained: " + cluster.master.partitions());
                Thread.sleep(10);
            }
            long drainMs = (System.nanoTime() - drainStarted) / 1_000_000;
            assertEquals(List.of("otm-1"), cluster.master.drainingOtms());

            workload.awaitOps(5, true, 30_000);
            workload.stop();
            IncrementWorkload.Totals totals;
            try (ElasTrasClient reader = ElasTrasClient.connect(cluster.connectString())) {
                totals = workload.check(reader);
            }
            List<Long> sorted = new ArrayList<>(movesMs);
            Collections.sort(sorted);
            List<Long> liveSorted = new ArrayList<>(liveMovesMs);
            Collections.sort(liveSorted);
            System.out.printf("MOVES: %d coordinated moves under load, request-to-serving %d ms median, %d ms max;"
                    + " %d live moves, %d ms median, %d ms max; drain of otm-1 (the catalog's ROOT and META included,"
                    + " live) %d ms; %d increments acknowledged, %d outcome-unknown, 0 client errors; slowest request"
                    + " %d ms%n", movesMs.size(), sorted.get(sorted.size() / 2), sorted.get(sorted.size() - 1),
                    liveMovesMs.size(), liveSorted.get(liveSorted.size() / 2), liveSorted.get(liveSorted.size() - 1),
                    drainMs, totals.acknowledged(), totals.unknown(), workload.latencyMsMax());
        } finally {
            clients.forEach(ElasTrasClient::close);
        }
    }

    private static PartitionView view(ClientTestCluster cluster, long id) throws Exception {
        return cluster.master.partitions().stream().filter(v -> v.record().partitionId() == id).findFirst().orElseThrow();
    }

    private static void awaitServing(ClientTestCluster cluster, long id, String owner) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(MOVE_BOUND_MS);
        while (true) {
            PartitionView v = view(cluster, id);
            if (v.state() == PartitionState.SERVING && owner.equals(v.record().owner())) {
                return;
            }
            assertTrue(System.nanoTime() < deadline, "partition " + id + " not serving on " + owner + ": " + v);
            Thread.sleep(2);
        }
    }
}
