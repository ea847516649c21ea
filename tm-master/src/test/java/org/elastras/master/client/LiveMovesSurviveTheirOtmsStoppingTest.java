package org.elastras.master.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.elastras.client.ElasTrasClient;
import org.elastras.master.cluster.PartitionState;
import org.elastras.master.cluster.PartitionView;
import org.elastras.otm.server.MoveFaults;
import org.elastras.otm.server.OtmNode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Live moves (issue 10) whose origin or destination stops at a chosen step, while clients
 * increment counters on every partition: afterwards exactly one OTM serves the partition, the
 * catalog names it, no acknowledged increment is lost or doubled, and no error reached the
 * application.
 */
class LiveMovesSurviveTheirOtmsStoppingTest {

    private static final long PARTITION = 3;
    private static final long BOUND_MS = 30_000;

    @TempDir
    Path temp;

    private enum Stopped { ORIGIN, DESTINATION }

    @Test
    void anOriginStoppedBeforeThePauseIsFencedAndItsPartitionRecoveredElsewhere() throws Exception {
        run(MoveFaults.Step.BEFORE_PAUSE, Stopped.ORIGIN);
    }

    @Test
    void aDestinationStoppedMidCopyLeavesThePartitionServingAtItsOrigin() throws Exception {
        run(MoveFaults.Step.BEFORE_PAUSE, Stopped.DESTINATION);
    }

    @Test
    void anOriginStoppedAfterTheHandOverLosesNothingItHandedOver() throws Exception {
        run(MoveFaults.Step.AFTER_HAND_OVER, Stopped.ORIGIN);
    }

    /**
     * The destination recorded itself in the catalog (the master's hand-over write) and the origin
     * stopped before the destination served or answered: the master's close fails, its next write
     * of the record finds the hand-over, and the partition serves at the destination, nowhere else.
     */
    @Test
    void anOriginStoppedAfterRecordingTheDestinationLeavesThePartitionThere() throws Exception {
        run(MoveFaults.Step.AFTER_RECORD, Stopped.ORIGIN);
    }

    /** The catalog names the destination, which stops before it serves: its log is fenced and the partition recovered elsewhere. */
    @Test
    void aDestinationStoppedAfterItWasRecordedIsFencedAndThePartitionRecoveredElsewhere() throws Exception {
        run(MoveFaults.Step.AFTER_RECORD, Stopped.DESTINATION);
    }

    private void run(MoveFaults.Step step, Stopped stopped) throws Exception {
        List<ElasTrasClient> clients = new ArrayList<>();
        try (ClientTestCluster cluster = new ClientTestCluster(temp, List.of("otm-1", "otm-2", "otm-3"))) {
            for (int c = 0; c < 2; c++) {
                clients.add(ElasTrasClient.connect(cluster.connectString()));
            }
            IncrementWorkload workload = new IncrementWorkload(clients);
            workload.start();
            workload.awaitOps(10, false, 20_000);

            String origin = view(cluster, PARTITION).record().owner();
            String destination = cluster.otms.keySet().stream().filter(id -> !id.equals(origin)).findFirst().orElseThrow();
            OtmNode originNode = cluster.otms.get(origin);
            // AFTER_RECORD is the destination's step; the others are the origin's.
            MoveFaults faults = (step == MoveFaults.Step.AFTER_RECORD ? cluster.otms.get(destination) : originNode)
                    .moveFaults();
            faults.holdAt(step);
            PartitionView moving = cluster.master.movePartition(PARTITION, destination, true);
            assertEquals(PartitionState.CLOSING, moving.state());
            assertTrue(faults.awaitHeld(step, BOUND_MS), "the move never reached " + step);
            workload.mark();
            String gone = stopped == Stopped.ORIGIN ? origin : destination;
            cluster.otms.get(gone).close();
            faults.release();

            // The partition serves again on one live OTM, the one the catalog names.
            String expected = step == MoveFaults.Step.AFTER_RECORD && stopped == Stopped.ORIGIN ? destination
                    : stopped == Stopped.DESTINATION && step != MoveFaults.Step.AFTER_RECORD ? origin : null;
            long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(BOUND_MS);
            while (true) {
                PartitionView v = view(cluster, PARTITION);
                if (v.state() == PartitionState.SERVING && !gone.equals(v.record().owner())
                        && (expected == null || expected.equals(v.record().owner()))) {
                    break;
                }
                assertTrue(System.nanoTime() < deadline, "partition " + PARTITION + " not serving again: " + v);
                Thread.sleep(10);
            }
            workload.awaitOps(5, true, BOUND_MS);
            workload.stop();

            String owner = view(cluster, PARTITION).record().owner();
            List<OtmNode> live = new ArrayList<>();
            cluster.otms.forEach((id, node) -> {
                if (!id.equals(gone)) {
                    live.add(node);
                }
            });
            Map<Long, OtmNode> servedBy = ClientTestCluster.servedBy(live);
            assertEquals(cluster.otms.get(owner), servedBy.get(PARTITION), "the catalog's owner serves it");
            long servers = live.stream().filter(n -> n.serving() && ClientTestCluster.servedBy(List.of(n))
                    .containsKey(PARTITION)).count();
            assertEquals(1, servers, "exactly one OTM serves partition " + PARTITION);
            assertFalse(cluster.otms.get(owner).receiving(PARTITION), "the owner holds no second copy");
            if (stopped == Stopped.ORIGIN) {
                assertNotEquals(origin, owner);
            }
            IncrementWorkload.Totals totals;
            try (ElasTrasClient reader = ElasTrasClient.connect(cluster.connectString())) {
                totals = workload.check(reader);
            }
            assertTrue(totals.acknowledged() > 0);
            System.out.printf("LIVE MOVE FAULT: %s stopped at %s; partition %d now at %s; %d increments acknowledged,"
                    + " %d outcome-unknown, 0 client errors%n", stopped, step, PARTITION, owner, totals.acknowledged(),
                    totals.unknown());
        } finally {
            clients.forEach(ElasTrasClient::close);
        }
    }

    private static PartitionView view(ClientTestCluster cluster, long id) throws Exception {
        return cluster.master.partitions().stream().filter(v -> v.record().partitionId() == id).findFirst().orElseThrow();
    }
}
