package org.elastras.master.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.elastras.master.cluster.ClusterEvent.FenceDone;
import org.elastras.master.cluster.ClusterEvent.FenceFailed;
import org.elastras.master.cluster.ClusterEvent.OpenDone;
import org.elastras.master.cluster.ClusterEvent.OpenFailed;
import org.elastras.master.cluster.ClusterEvent.OtmJoined;
import org.elastras.master.cluster.ClusterEvent.OtmLost;
import org.elastras.master.cluster.ClusterEvent.PartitionRegistered;
import org.elastras.master.cluster.ClusterEvent.Tick;
import org.elastras.master.cluster.Decision.FenceOtm;
import org.elastras.master.cluster.Decision.OpenPartition;
import org.elastras.master.cluster.Decision.PartitionParked;
import org.elastras.master.cluster.Decision.PartitionUnassigned;
import org.junit.jupiter.api.Test;

/** The master's cluster logic driven by scripted events: no ZooKeeper, no threads, no clock. */
class ClusterStateTest {

    private static final ClusterLimits LIMITS = new ClusterLimits(100, 1_000, 64, 4, 100, 1_000, 4);

    private ClusterState state = new ClusterState(LIMITS, 0);

    private List<Decision> on(ClusterEvent e) {
        return state.on(e);
    }

    private static PartitionRecord partition(long id) {
        return PartitionRecord.unassigned("SHOP", id, id == 1 ? null : List.of((int) id), List.of((int) id + 1));
    }

    /** The open decisions, as partition -> OTM, in decision order. */
    private static Map<Long, String> opens(List<Decision> decisions) {
        Map<Long, String> out = new TreeMap<>();
        for (Decision d : decisions) {
            if (d instanceof OpenPartition o) {
                out.put(o.assignment().partitionId(), o.assignment().owner());
            }
        }
        return out;
    }

    /** Confirms every open in {@code decisions}. */
    private List<Decision> confirmAll(List<Decision> decisions) {
        List<Decision> more = new ArrayList<>();
        for (Decision d : decisions) {
            if (d instanceof OpenPartition o) {
                more.addAll(on(new OpenDone(o.assignment().partitionId(), o.assignment().owner(), o.assignment().epoch())));
            }
        }
        return more;
    }

    private void threeOtmsServingSixPartitions() {
        on(new OtmJoined("otm-a", "h", 1));
        on(new OtmJoined("otm-b", "h", 2));
        on(new OtmJoined("otm-c", "h", 3));
        List<Decision> decisions = new ArrayList<>();
        for (long id = 1; id <= 6; id++) {
            decisions.addAll(on(new PartitionRegistered(partition(id))));
        }
        assertTrue(confirmAll(decisions).isEmpty());
    }

    @Test
    void partitionsGoToTheOtmWithFewestWithTiesToTheSmallestId() {
        threeOtmsServingSixPartitions();
        Map<Long, String> owners = new TreeMap<>();
        for (PartitionView v : state.partitions()) {
            assertEquals(PartitionState.SERVING, v.state());
            owners.put(v.record().partitionId(), v.record().owner());
        }
        assertEquals(Map.of(1L, "otm-a", 2L, "otm-b", 3L, "otm-c", 4L, "otm-a", 5L, "otm-b", 6L, "otm-c"), owners);
        // A new, empty OTM takes every new partition until it catches up.
        on(new OtmJoined("otm-d", "h", 4));
        assertEquals(Map.of(7L, "otm-d"), opens(on(new PartitionRegistered(partition(7)))));
        assertEquals(Map.of(8L, "otm-d"), opens(on(new PartitionRegistered(partition(8)))));
        assertEquals(Map.of(9L, "otm-a"), opens(on(new PartitionRegistered(partition(9)))));
    }

    @Test
    void userPartitionsAreSpreadByUserPartitionsAloneNotTippedByTheCatalog() {
        // The catalog opens while one OTM is live (as when the first OTM of a cluster joins).
        on(new OtmJoined("otm-b", "h", 2));
        openAndConfirm(PartitionRecord.unassigned("ROOT", 1, null, null), PartitionRecord.unassigned("META", 2, null, null));
        assertTrue(state.partitions().stream().allMatch(v -> "otm-b".equals(v.record().owner())));
        on(new OtmJoined("otm-a", "h", 1));
        // Four partitions of a database go two and two (counting ROOT and META, otm-a took three).
        List<Decision> shop = new ArrayList<>();
        for (long id = 3; id <= 6; id++) {
            shop.addAll(on(new PartitionRegistered(partition(id))));
        }
        assertEquals(Map.of(3L, "otm-a", 4L, "otm-b", 5L, "otm-a", 6L, "otm-b"), opens(shop));
    }

    @Test
    void catalogPartitionsAreSpreadByCatalogPartitionsAlone() {
        on(new OtmJoined("otm-b", "h", 2));
        openAndConfirm(partition(3), partition(4), partition(5));
        on(new OtmJoined("otm-a", "h", 1));
        openAndConfirm(PartitionRecord.unassigned("ROOT", 1, null, null));
        assertEquals("otm-a", state.partitions().stream().filter(v -> v.record().partitionId() == 1).findFirst()
                .orElseThrow().record().owner());
        // otm-a holds ROOT, otm-b three user partitions: META goes to otm-b, the OTM with fewer
        // catalog partitions (counting every partition, it went beside ROOT).
        assertEquals(Map.of(2L, "otm-b"), opens(on(new PartitionRegistered(PartitionRecord.unassigned("META", 2, null, null)))));
    }

    /** Registers the partitions and confirms every open until all serve. */
    private void openAndConfirm(PartitionRecord... records) {
        List<Decision> d = new ArrayList<>();
        for (PartitionRecord r : records) {
            d.addAll(on(new PartitionRegistered(r)));
        }
        while (!d.isEmpty()) {
            d = confirmAll(d);
        }
    }

    @Test
    void aLostOtmIsFencedFirstAndItsPartitionsReassignedOnlyAfterTheFenceIsConfirmed() {
        threeOtmsServingSixPartitions();
        List<Decision> onLoss = on(new OtmLost("otm-b"));
        assertEquals(List.of(new PartitionUnassigned(2, "otm-b"), new PartitionUnassigned(5, "otm-b"),
                new FenceOtm("otm-b")), onLoss);
        assertEquals(PartitionState.AWAITING_FENCE, state.partitions().get(1).state());
        // Neither time, nor new OTMs, nor new partitions move them before the fence is done.
        assertTrue(on(new Tick(60_000)).isEmpty());
        assertEquals(Map.of(), opens(on(new OtmJoined("otm-d", "h", 4))));
        assertEquals(Map.of(7L, "otm-d"), opens(on(new PartitionRegistered(partition(7)))));
        assertEquals(PartitionState.AWAITING_FENCE, state.partitions().get(4).state());

        List<Decision> afterFence = on(new FenceDone("otm-b"));
        // Loads now: a=2, c=2, d=1: partition 2 -> d (fewest), then 5 -> a (tie a/c/d at 2, smallest id).
        assertEquals(Map.of(2L, "otm-d", 5L, "otm-a"), opens(afterFence));
        for (Decision d : afterFence) {
            OpenPartition o = (OpenPartition) d;
            assertEquals(2, o.assignment().epoch(), "the second assignment of the partition");
        }
        confirmAll(afterFence);
        assertFalse(state.partitions().stream().anyMatch(v -> "otm-b".equals(v.record().owner())));
    }

    @Test
    void aFailedFenceIsRetriedWithBackoffAndStillBlocksReassignment() {
        threeOtmsServingSixPartitions();
        on(new OtmLost("otm-c"));
        assertTrue(on(new FenceFailed("otm-c", "DFS down")).isEmpty());
        assertTrue(on(new Tick(99)).isEmpty(), "not before the backoff");
        assertEquals(List.of(new FenceOtm("otm-c")), on(new Tick(100)));
        assertTrue(on(new FenceFailed("otm-c", "DFS down")).isEmpty());
        assertTrue(on(new Tick(299)).isEmpty(), "the backoff doubles");
        assertEquals(List.of(new FenceOtm("otm-c")), on(new Tick(300)));
        assertTrue(state.fencing("otm-c"));
        assertEquals(Map.of(3L, "otm-a", 6L, "otm-b"), opens(on(new FenceDone("otm-c"))));
    }

    @Test
    void aFailingOpenIsRetriedOnTheSameOtmWithBackoffThenParked() {
        on(new OtmJoined("otm-a", "h", 1));
        on(new OtmJoined("otm-b", "h", 2));
        List<Decision> first = on(new PartitionRegistered(partition(1)));
        assertEquals(Map.of(1L, "otm-a"), opens(first));
        long epoch = ((OpenPartition) first.get(0)).assignment().epoch();
        long now = 0;
        for (int attempt = 1; attempt < LIMITS.openAttemptsMax(); attempt++) {
            assertTrue(on(new OpenFailed(1, "otm-a", epoch, "disk full")).isEmpty());
            assertEquals(PartitionState.RETRY_WAIT, state.partitions().get(0).state());
            long backoff = LIMITS.backoffMs(attempt);
            assertTrue(on(new Tick(now + backoff - 1)).isEmpty(), "attempt " + attempt + " waits " + backoff + " ms");
            List<Decision> retry = on(new Tick(now + backoff));
            assertEquals(Map.of(1L, "otm-a"), opens(retry), "retried where it may already be open");
            epoch = ((OpenPartition) retry.get(0)).assignment().epoch();
            now += backoff;
        }
        assertEquals(List.of(new PartitionParked(1, "otm-a", "disk full")),
                on(new OpenFailed(1, "otm-a", epoch, "disk full")));
        assertEquals(PartitionState.PARKED, state.partitions().get(0).state());
        assertTrue(on(new Tick(now + 1_000_000)).isEmpty(), "a parked partition is not retried");
        assertEquals(List.of(100L, 200L, 400L, 800L, 1_000L), List.of(LIMITS.backoffMs(1), LIMITS.backoffMs(2),
                LIMITS.backoffMs(3), LIMITS.backoffMs(4), LIMITS.backoffMs(5)));
    }

    @Test
    void atMostOpensInFlightMaxOpensAreUnanswered() {
        state = new ClusterState(new ClusterLimits(100, 1_000, 2, 4, 100, 1_000, 4), 0);
        on(new OtmJoined("otm-a", "h", 1));
        List<Decision> all = new ArrayList<>();
        for (long id = 1; id <= 5; id++) {
            all.addAll(on(new PartitionRegistered(partition(id))));
        }
        assertEquals(Map.of(1L, "otm-a", 2L, "otm-a"), opens(all));
        assertEquals(2, state.opensInFlight());
        assertEquals(Map.of(3L, "otm-a"), opens(on(new OpenDone(1, "otm-a", 1))));
        assertEquals(Map.of(4L, "otm-a"), opens(on(new OpenFailed(2, "otm-a", 1, "busy"))));
        assertEquals(2, state.opensInFlight());
    }

    @Test
    void otmsBeyondTheLimitAreReportedAndGetNothing() {
        state = new ClusterState(new ClusterLimits(1, 1_000, 64, 4, 100, 1_000, 4), 0);
        assertEquals(List.of(new Decision.OtmAdmitted("otm-a")), on(new OtmJoined("otm-a", "h", 1)));
        List<Decision> second = on(new OtmJoined("otm-b", "h", 2));
        assertEquals(1, second.size());
        assertTrue(second.get(0) instanceof Decision.OtmIgnored);
        assertEquals(Map.of(1L, "otm-a"), opens(on(new PartitionRegistered(partition(1)))));
        assertEquals(List.of("otm-a"), state.liveOtms());
    }

    @Test
    void answersForAnOlderEpochChangeNothing() {
        on(new OtmJoined("otm-a", "h", 1));
        on(new OtmJoined("otm-b", "h", 2));
        assertEquals(Map.of(1L, "otm-a"), opens(on(new PartitionRegistered(partition(1)))));
        on(new OtmLost("otm-a"));
        assertEquals(Map.of(1L, "otm-b"), opens(on(new FenceDone("otm-a"))));
        // The open sent to the dead OTM answers late.
        assertTrue(on(new OpenDone(1, "otm-a", 1)).isEmpty());
        assertEquals(PartitionState.OPENING, state.partitions().get(0).state());
        assertEquals(List.of(new Decision.OtmRecovered("otm-a")), on(new OpenDone(1, "otm-b", 2)),
                "otm-a's only partition serves again: it is recovered");
        assertEquals(PartitionState.SERVING, state.partitions().get(0).state());
        assertEquals(0, state.opensInFlight());
    }

    @Test
    void aLostOtmIsRecoveredOnlyOnceFencedAndEveryPartitionItOwnedServesAgain() {
        on(new OtmJoined("otm-a", "h", 1));
        on(new OtmJoined("otm-b", "h", 2));
        on(new OtmJoined("otm-c", "h", 3));
        on(new PartitionRegistered(partition(1)));
        on(new PartitionRegistered(partition(2)));
        on(new PartitionRegistered(partition(3)));
        on(new OpenDone(1, "otm-a", 1));
        on(new OpenDone(2, "otm-b", 1));
        on(new OpenDone(3, "otm-c", 1));
        on(new PartitionRegistered(partition(4)));
        on(new OpenDone(4, "otm-a", 1));

        on(new OtmLost("otm-a"));
        assertTrue(state.recovering("otm-a"));
        Map<Long, String> reopened = opens(on(new FenceDone("otm-a")));
        assertEquals(2, reopened.size());
        List<Long> ids = List.copyOf(reopened.keySet());
        assertTrue(on(new OpenDone(ids.get(0), reopened.get(ids.get(0)), 2)).isEmpty(), "one of two partitions is back");
        assertTrue(state.recovering("otm-a"));
        assertEquals(List.of(new Decision.OtmRecovered("otm-a")), on(new OpenDone(ids.get(1), reopened.get(ids.get(1)), 2)));
        assertFalse(state.recovering("otm-a"));

        // An OTM that owned nothing is recovered as soon as it is fenced.
        on(new OtmJoined("otm-d", "h", 4));
        on(new OtmLost("otm-d"));
        assertEquals(List.of(new Decision.OtmRecovered("otm-d")), on(new FenceDone("otm-d")));
    }

    @Test
    void aNewMasterFencesOwnersThatAreGoneAndReopensOnOwnersThatLive() {
        on(new OtmJoined("otm-a", "h", 1));
        on(new OtmJoined("otm-c", "h", 3));
        PartitionRecord onLive = partition(1).assignedTo("otm-a");
        PartitionRecord onDead = partition(2).assignedTo("otm-b");
        PartitionRecord onDeadToo = partition(3).assignedTo("otm-b");
        assertEquals(Map.of(1L, "otm-a"), opens(on(new PartitionRegistered(onLive))), "reopened where it was");
        assertEquals(List.of(new PartitionUnassigned(2, "otm-b"), new FenceOtm("otm-b")),
                on(new PartitionRegistered(onDead)));
        assertTrue(on(new PartitionRegistered(onDeadToo)).isEmpty(), "one fence per OTM");
        assertEquals(Map.of(2L, "otm-c", 3L, "otm-a"), opens(on(new FenceDone("otm-b"))));
    }

    @Test
    void aRestartUnderTheSameIdJoinsOnceThePreviousRunIsFencedAndCanTakeItsPartitions() {
        // One OTM: its restart is the only place its partition can go.
        on(new OtmJoined("otm-a", "h", 1));
        on(new PartitionRegistered(partition(1)));
        on(new OpenDone(1, "otm-a", 1));
        assertEquals(List.of(new PartitionUnassigned(1, "otm-a"), new FenceOtm("otm-a")), on(new OtmLost("otm-a")));

        // The new run registers before the fence of the old one is confirmed: it waits.
        assertTrue(on(new OtmJoined("otm-a", "h", 5)).isEmpty());
        assertTrue(state.waitingForFence("otm-a"));
        assertEquals(List.of(), state.liveOtms());
        List<Decision> fenced = on(new FenceDone("otm-a"));
        assertTrue(fenced.contains(new Decision.OtmAdmitted("otm-a")), fenced.toString());
        assertEquals(List.of("otm-a"), state.liveOtms());
        assertEquals(Map.of(1L, "otm-a"), opens(fenced.subList(fenced.indexOf(new Decision.OtmAdmitted("otm-a")),
                fenced.size())), "the new run takes the partition, after it is admitted");
        assertEquals(List.of(new Decision.OtmRecovered("otm-a")), on(new OpenDone(1, "otm-a", 2)));

        // The new run fails in turn: a new fence, and a recovery that waits for it.
        on(new OtmLost("otm-a"));
        assertTrue(state.recovering("otm-a") && state.fencing("otm-a"));
        // A run that waited and left before it could join is forgotten.
        on(new OtmJoined("otm-a", "h", 6));
        on(new OtmLost("otm-a"));
        assertFalse(state.waitingForFence("otm-a"));
        assertEquals(List.of(), on(new FenceDone("otm-a")).stream().filter(d -> d instanceof Decision.OtmAdmitted).toList());
        assertEquals(List.of(), state.liveOtms());
    }
}
