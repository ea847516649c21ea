package org.elastras.master.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.elastras.master.cluster.ClusterEvent.CloseDone;
import org.elastras.master.cluster.ClusterEvent.CloseFailed;
import org.elastras.master.cluster.ClusterEvent.DrainRequested;
import org.elastras.master.cluster.ClusterEvent.FenceDone;
import org.elastras.master.cluster.ClusterEvent.MoveRequested;
import org.elastras.master.cluster.ClusterEvent.OpenDone;
import org.elastras.master.cluster.ClusterEvent.OpenFailed;
import org.elastras.master.cluster.ClusterEvent.OtmJoined;
import org.elastras.master.cluster.ClusterEvent.OtmLost;
import org.elastras.master.cluster.ClusterEvent.PartitionRegistered;
import org.elastras.master.cluster.ClusterEvent.Tick;
import org.elastras.master.cluster.Decision.ClosePartition;
import org.elastras.master.cluster.Decision.MoveAbandoned;
import org.elastras.master.cluster.Decision.MoveFinished;
import org.elastras.master.cluster.Decision.MoveRefused;
import org.elastras.master.cluster.Decision.MoveStarted;
import org.elastras.master.cluster.Decision.OpenPartition;
import org.elastras.master.cluster.Decision.OtmDrained;
import org.junit.jupiter.api.Test;

/**
 * Coordinated and live moves, drains and the catalog's open order in the master's state machine,
 * driven by scripted events. Moves are coordinated by default here; the live tests ask for live.
 */
class ClusterStateMovesTest {

    private static final ClusterLimits LIMITS = new ClusterLimits(100, 1_000, 4, 4, 100, 1_000, 4, false);

    private ClusterState state = new ClusterState(LIMITS, 0);

    private List<Decision> on(ClusterEvent e) {
        return state.on(e);
    }

    private List<Decision> confirmAll(List<Decision> decisions) {
        List<Decision> more = new ArrayList<>();
        for (Decision d : decisions) {
            if (d instanceof OpenPartition o) {
                more.addAll(on(new OpenDone(o.assignment().partitionId(), o.assignment().owner(), o.assignment().epoch())));
            }
        }
        return more;
    }

    private PartitionView view(long id) {
        return state.partitions().stream().filter(v -> v.record().partitionId() == id).findFirst().orElseThrow();
    }

    private static <T extends Decision> List<T> only(List<Decision> decisions, Class<T> type) {
        return decisions.stream().filter(type::isInstance).map(type::cast).toList();
    }

    /** otm-a and otm-b, partitions 1 and 3 on otm-a, 2 and 4 on otm-b, all serving. */
    private void twoOtmsFourPartitions() {
        on(new OtmJoined("otm-a", "ha", 1));
        on(new OtmJoined("otm-b", "hb", 2));
        List<Decision> decisions = new ArrayList<>();
        for (long id = 1; id <= 4; id++) {
            decisions.addAll(on(new PartitionRegistered(PartitionRecord.unassigned("SHOP", id, null, null))));
        }
        assertTrue(confirmAll(decisions).isEmpty());
        assertEquals("otm-a", view(1).record().owner());
        assertEquals("otm-b", view(2).record().owner());
    }

    @Test
    void aMoveClosesAtTheOriginThenRecordsAndOpensAtTheDestination() {
        twoOtmsFourPartitions();
        on(new OtmJoined("otm-c", "hc", 3));
        on(new Tick(1_000));
        List<Decision> started = on(new MoveRequested(1, "otm-c", "operator"));
        assertEquals(List.of(new MoveStarted(1, "otm-a", "otm-c", "operator"),
                new ClosePartition(view(1).record(), "ha", 1)), started);
        assertEquals(PartitionState.CLOSING, view(1).state());
        assertEquals("otm-a", view(1).record().owner(), "the record changes only after the close");

        // While it closes: no second move, and a stale answer changes nothing.
        assertEquals(1, only(on(new MoveRequested(1, "otm-b", "operator")), MoveRefused.class).size());
        assertTrue(on(new CloseDone(1, "otm-a", 0)).isEmpty(), "an answer for an older epoch is stale");

        on(new Tick(1_040));
        List<Decision> opened = on(new CloseDone(1, "otm-a", 1));
        PartitionRecord moved = new PartitionRecord("SHOP", 1, null, null, "otm-c", 2);
        assertEquals(List.of(new OpenPartition(moved, "hc", 3)), opened);
        on(new Tick(1_100));
        assertEquals(List.of(new MoveFinished(1, "otm-a", "otm-c", 100)), on(new OpenDone(1, "otm-c", 2)));
        assertEquals(PartitionState.SERVING, view(1).state());
        assertEquals(moved, view(1).record());
    }

    @Test
    void aLiveMoveAsksTheOriginToCopyToTheDestinationThenRecordsAndOpensThere() {
        twoOtmsFourPartitions();
        on(new OtmJoined("otm-c", "hc", 3));
        on(new Tick(1_000));
        List<Decision> started = on(new MoveRequested(1, "otm-c", "operator", true));
        assertEquals(List.of(new MoveStarted(1, "otm-a", "otm-c", "operator", true),
                new ClosePartition(view(1).record(), "ha", 1, new Decision.LiveTarget("otm-c", "hc", 3))), started);
        assertEquals(PartitionState.CLOSING, view(1).state());
        on(new Tick(1_030));
        PartitionRecord moved = new PartitionRecord("SHOP", 1, null, null, "otm-c", 2);
        assertEquals(List.of(new OpenPartition(moved, "hc", 3)), on(new CloseDone(1, "otm-a", 1)));
        on(new Tick(1_050));
        assertEquals(List.of(new MoveFinished(1, "otm-a", "otm-c", 50)), on(new OpenDone(1, "otm-c", 2)));

        // Live by default when the limits say so; a coordinated move on request.
        state = new ClusterState(LIMITS.withLiveMoves(true), 0);
        twoOtmsFourPartitions();
        on(new OtmJoined("otm-c", "hc", 3));
        assertEquals(new Decision.LiveTarget("otm-c", "hc", 3),
                only(on(new MoveRequested(1, "otm-c", "operator")), ClosePartition.class).get(0).liveTo());
        assertEquals(null, only(on(new MoveRequested(2, "otm-c", "operator", false)), ClosePartition.class).get(0).liveTo());
    }

    @Test
    void aLiveMoveWhoseDestinationIsLostAfterTheHandOverOpensOnlyAfterItsFence() {
        twoOtmsFourPartitions();
        on(new OtmJoined("otm-c", "hc", 3));
        on(new MoveRequested(1, "otm-c", "operator", true));
        List<Decision> lost = on(new OtmLost("otm-c"));
        assertEquals(List.of(new Decision.FenceOtm("otm-c")), only(lost, Decision.FenceOtm.class));
        // The hand-over finished: the manifest names otm-c's log, so nobody may open it before that
        // log is fenced.
        List<Decision> closed = on(new CloseDone(1, "otm-a", 1));
        assertEquals(1, only(closed, MoveAbandoned.class).size());
        assertTrue(only(closed, OpenPartition.class).isEmpty(), "no open before the destination's fence");
        on(new Tick(5_000));
        assertTrue(only(on(new Tick(6_000)), OpenPartition.class).isEmpty());
        List<Decision> fenced = on(new FenceDone("otm-c"));
        assertEquals(List.of("otm-a"), only(fenced, OpenPartition.class).stream().map(o -> o.assignment().owner()).toList());
    }

    @Test
    void aFailedLiveMoveReopensAtTheOriginAndALostOriginIsFencedFirst() {
        twoOtmsFourPartitions();
        on(new OtmJoined("otm-c", "hc", 3));
        on(new MoveRequested(1, "otm-c", "operator", true));
        List<Decision> failed = on(new CloseFailed(1, "otm-a", 1, "the hand-over's answer was lost"));
        assertEquals(List.of(new PartitionRecord("SHOP", 1, null, null, "otm-a", 2)),
                only(failed, OpenPartition.class).stream().map(OpenPartition::assignment).toList(),
                "reopened at its owner (from the DFS if it handed over), never elsewhere");
        on(new OpenDone(1, "otm-a", 2));

        on(new MoveRequested(3, "otm-c", "operator", true));
        List<Decision> lost = on(new OtmLost("otm-a"));
        assertTrue(only(lost, OpenPartition.class).isEmpty(), "nothing opens before the origin's fence");
        assertEquals(PartitionState.AWAITING_FENCE, view(3).state());
        List<Decision> fenced = on(new FenceDone("otm-a"));
        assertEquals(2, only(fenced, OpenPartition.class).size(), "both of otm-a's partitions open elsewhere");
    }

    @Test
    void anOpenThatFindsTheOriginsHandOverRecordOpensAtTheDestinationInstead() {
        twoOtmsFourPartitions();
        on(new OtmJoined("otm-c", "hc", 3));
        on(new MoveRequested(1, "otm-c", "operator", true));
        // The origin recorded otm-c and its answer was lost: the master reopens at the origin...
        PartitionRecord reopen = only(on(new CloseFailed(1, "otm-a", 1, "answer lost")), OpenPartition.class).get(0)
                .assignment();
        assertEquals("otm-a", reopen.owner());
        // ...whose record write finds the hand-over: the partition opens at otm-c, under a newer epoch.
        assertTrue(on(new ClusterEvent.HandOverFound(1, "otm-b", 2, "otm-c")).isEmpty(),
                "a finding for another OTM's open is stale");
        assertEquals(PartitionState.OPENING, view(1).state());
        assertEquals(reopen, view(1).record());
        List<Decision> found = on(new ClusterEvent.HandOverFound(1, "otm-a", 2, "otm-c"));
        PartitionRecord atC = new PartitionRecord("SHOP", 1, null, null, "otm-c", 3);
        assertEquals(List.of(new OpenPartition(atC, "hc", 3)), found);
        assertEquals(PartitionState.OPENING, view(1).state());
        on(new OpenDone(1, "otm-c", 3));
        assertEquals(PartitionState.SERVING, view(1).state());
        assertEquals(atC, view(1).record());

        // A hand-over found to an OTM that is gone: nobody opens it before that OTM's log is fenced.
        on(new MoveRequested(2, "otm-c", "operator", true));
        PartitionRecord reopen2 = only(on(new CloseFailed(2, "otm-b", 1, "answer lost")), OpenPartition.class).get(0)
                .assignment();
        on(new OtmLost("otm-c"));
        List<Decision> foundGone = on(new ClusterEvent.HandOverFound(2, "otm-b", reopen2.epoch(), "otm-c"));
        assertTrue(only(foundGone, OpenPartition.class).isEmpty(), "no open before otm-c's fence");
        assertEquals(PartitionState.UNASSIGNED, view(2).state());
        on(new Tick(5_000));
        assertTrue(only(on(new Tick(6_000)), OpenPartition.class).isEmpty());
        List<Decision> fenced = on(new FenceDone("otm-c"));
        assertTrue(only(fenced, OpenPartition.class).stream().anyMatch(o -> o.assignment().partitionId() == 2),
                "opens once otm-c's log is fenced: " + fenced);
    }

    @Test
    void afterAFailedLiveMoveThePartitionsNextMoveIsCoordinatedThenLiveAgain() {
        state = new ClusterState(LIMITS.withLiveMoves(true), 0);
        twoOtmsFourPartitions();
        on(new OtmJoined("otm-c", "hc", 3));
        assertEquals(new Decision.LiveTarget("otm-c", "hc", 3),
                only(on(new MoveRequested(1, "otm-c", "drain")), ClosePartition.class).get(0).liveTo());
        on(new CloseFailed(1, "otm-a", 1, "the destination refused the copy"));
        on(new OpenDone(1, "otm-a", 2));
        ClosePartition fallback = only(on(new MoveRequested(1, "otm-c", "drain")), ClosePartition.class).get(0);
        assertEquals(null, fallback.liveTo(), "the fallback is a coordinated move");
        on(new CloseDone(1, "otm-a", 2));
        on(new OpenDone(1, "otm-c", 3));
        assertEquals(new Decision.LiveTarget("otm-a", "ha", 1),
                only(on(new MoveRequested(1, "otm-a", "drain")), ClosePartition.class).get(0).liveTo(),
                "once a move succeeded, moves are live again");
    }

    @Test
    void movesThatCannotHappenAreRefusedAndChangeNothing() {
        twoOtmsFourPartitions();
        List<PartitionView> before = state.partitions();
        assertEquals("OTM otm-a serves it already",
                only(on(new MoveRequested(1, "otm-a", "operator")), MoveRefused.class).get(0).reason());
        assertTrue(only(on(new MoveRequested(1, "otm-z", "operator")), MoveRefused.class).get(0).reason()
                .contains("otm-z is not live"));
        assertTrue(only(on(new MoveRequested(99, "otm-b", "operator")), MoveRefused.class).get(0).reason()
                .contains("no partition 99"));
        assertEquals(before, state.partitions());

        // The bound: 4 opens and moves at once.
        on(new OtmJoined("otm-c", "hc", 3));
        for (long id = 1; id <= 4; id++) {
            assertEquals(1, only(on(new MoveRequested(id, "otm-c", "balance")), ClosePartition.class).size());
        }
        on(new PartitionRegistered(PartitionRecord.unassigned("SHOP", 5, null, null)));
        assertEquals(PartitionState.UNASSIGNED, view(5).state(), "no open slot while four moves are under way");
    }

    @Test
    void aFailedCloseReopensAtTheOriginAndAGoneDestinationMeansANewAssignment() {
        twoOtmsFourPartitions();
        on(new OtmJoined("otm-c", "hc", 3));
        on(new MoveRequested(1, "otm-c", "operator"));
        List<Decision> failed = on(new CloseFailed(1, "otm-a", 1, "timed out"));
        assertEquals(1, only(failed, MoveAbandoned.class).size());
        // Reopened at its owner, never elsewhere: it may still be serving there.
        assertEquals(List.of(new PartitionRecord("SHOP", 1, null, null, "otm-a", 2)),
                only(failed, OpenPartition.class).stream().map(OpenPartition::assignment).toList());

        on(new OpenDone(1, "otm-a", 2));
        on(new MoveRequested(3, "otm-c", "operator"));
        on(new OtmLost("otm-c"));
        List<Decision> closed = on(new CloseDone(3, "otm-a", 1));
        assertEquals(1, only(closed, MoveAbandoned.class).size());
        // Closed cleanly, so no fence: it goes to the OTM with the fewest partitions at once (otm-a
        // has 1 now, otm-b 2).
        assertEquals(List.of("otm-a"), only(closed, OpenPartition.class).stream().map(o -> o.assignment().owner()).toList());
    }

    @Test
    void anOriginThatFailsMidMoveIsFencedBeforeAnyoneOpensItsPartition() {
        twoOtmsFourPartitions();
        on(new OtmJoined("otm-c", "hc", 3));
        on(new MoveRequested(1, "otm-c", "operator"));
        List<Decision> lost = on(new OtmLost("otm-a"));
        assertEquals(1, only(lost, MoveAbandoned.class).size());
        assertTrue(only(lost, OpenPartition.class).isEmpty(), "nothing opens before the fence");
        assertEquals(PartitionState.AWAITING_FENCE, view(1).state());
        assertTrue(on(new CloseDone(1, "otm-a", 1)).isEmpty(), "a late close answer changes nothing");
        List<Decision> fenced = on(new FenceDone("otm-a"));
        assertEquals(2, only(fenced, OpenPartition.class).size(), "partitions 1 and 3 reassigned after the fence");
    }

    @Test
    void aDrainMovesEveryPartitionOffAndNothingNewGoesThere() {
        twoOtmsFourPartitions();
        on(new OtmJoined("otm-c", "hc", 3));
        List<Decision> d = on(new DrainRequested("otm-a", true));
        List<ClosePartition> closes = only(d, ClosePartition.class);
        assertEquals(List.of(1L, 3L), closes.stream().map(c -> c.record().partitionId()).toList());
        assertEquals(List.of("otm-c", "otm-c"), only(d, MoveStarted.class).stream().map(MoveStarted::to).toList(),
                "to the emptiest non-draining OTM");
        List<Decision> next = new ArrayList<>();
        for (ClosePartition c : closes) {
            next.addAll(on(new CloseDone(c.record().partitionId(), "otm-a", c.record().epoch())));
        }
        List<Decision> after = new ArrayList<>(next);
        after.addAll(confirmAll(next));
        assertEquals(List.of(new OtmDrained("otm-a")), only(after, OtmDrained.class), "reported once it owns nothing");
        assertEquals(List.of("otm-a"), state.drainingOtms());

        // A new partition avoids the drained OTM although it has the fewest.
        List<Decision> created = on(new PartitionRegistered(PartitionRecord.unassigned("SHOP", 9, null, null)));
        assertEquals(List.of("otm-b"), only(created, OpenPartition.class).stream().map(o -> o.assignment().owner()).toList());
        assertEquals(1, only(on(new MoveRequested(2, "otm-a", "operator")), MoveRefused.class).size());
        on(new DrainRequested("otm-a", false));
        assertEquals(1, only(on(new MoveRequested(2, "otm-a", "operator")), ClosePartition.class).size());
    }

    @Test
    void aDrainMovesAtMostItsBoundOffOneOtmAtATime() {
        state = new ClusterState(new ClusterLimits(100, 1_000, 4, 4, 100, 1_000, 1, false), 0);
        twoOtmsFourPartitions();
        on(new OtmJoined("otm-c", "hc", 3));
        List<Decision> first = on(new DrainRequested("otm-a", true));
        assertEquals(List.of(1L), only(first, ClosePartition.class).stream().map(c -> c.record().partitionId()).toList(),
                "one move at a time; partition 3 serves on otm-a meanwhile");
        assertEquals(PartitionState.SERVING, view(3).state());
        List<Decision> closed = on(new CloseDone(1, "otm-a", view(1).record().epoch()));
        assertTrue(only(closed, ClosePartition.class).isEmpty(), "the first move is not over until it serves again");
        OpenPartition open = only(closed, OpenPartition.class).get(0);
        List<Decision> served = on(new OpenDone(1, open.assignment().owner(), open.assignment().epoch()));
        assertEquals(List.of(3L), only(served, ClosePartition.class).stream().map(c -> c.record().partitionId()).toList());
    }

    @Test
    void aDrainNeverMovesACatalogPartitionBesideTheLevelsNextToIt() {
        on(new OtmJoined("otm-a", "ha", 1));
        List<Decision> opened = new ArrayList<>();
        opened.addAll(on(new PartitionRegistered(PartitionRecord.unassigned("ROOT", 1, null, null))));
        opened.addAll(on(new PartitionRegistered(PartitionRecord.unassigned("META", 2, null, null))));
        opened.addAll(on(new PartitionRegistered(PartitionRecord.unassigned("SHOP", 3, null, null))));
        opened.addAll(on(new PartitionRegistered(PartitionRecord.unassigned("SHOP", 4, null, null))));
        while (!opened.isEmpty()) {
            opened = confirmAll(opened);
        }
        assertTrue(state.levelServing(2));
        on(new OtmJoined("otm-b", "hb", 2));

        // ROOT and the user partitions move together (ROOT's record is in ZooKeeper, theirs in
        // META); META, whose record is in ROOT and which holds theirs, waits for all of them.
        List<Decision> first = on(new DrainRequested("otm-a", true));
        assertEquals(List.of(1L, 3L, 4L), only(first, ClosePartition.class).stream().map(c -> c.record().partitionId())
                .toList());
        List<Decision> next = new ArrayList<>();
        for (ClosePartition c : only(first, ClosePartition.class)) {
            next.addAll(on(new CloseDone(c.record().partitionId(), "otm-a", c.record().epoch())));
        }
        assertEquals(List.of(1L, 3L, 4L), only(next, OpenPartition.class).stream().map(o -> o.assignment().partitionId())
                .toList());
        assertTrue(only(next, ClosePartition.class).isEmpty(), "META stays while the levels beside it move");
        List<OpenPartition> opens = only(next, OpenPartition.class);
        assertTrue(only(on(new OpenDone(1, "otm-b", opens.get(0).assignment().epoch())), ClosePartition.class).isEmpty(),
                "META stays while user partitions move");
        assertTrue(only(on(new OpenDone(3, "otm-b", opens.get(1).assignment().epoch())), ClosePartition.class).isEmpty());
        List<Decision> last = on(new OpenDone(4, "otm-b", opens.get(2).assignment().epoch()));
        assertEquals(List.of(2L), only(last, ClosePartition.class).stream().map(c -> c.record().partitionId()).toList(),
                "META moves once nothing beside it does");
        List<Decision> metaOpen = on(new CloseDone(2, "otm-a", view(2).record().epoch()));
        assertEquals(List.of(2L), only(metaOpen, OpenPartition.class).stream().map(o -> o.assignment().partitionId())
                .toList());
        assertEquals(List.of(new OtmDrained("otm-a")), only(metaOpen, OtmDrained.class), "it owns nothing now");
        confirmAll(metaOpen);
        assertTrue(state.partitions().stream().allMatch(v -> v.state() == PartitionState.SERVING
                && "otm-b".equals(v.record().owner())), state.partitions().toString());
    }

    @Test
    void theCatalogOpensLevelByLevel() {
        on(new OtmJoined("otm-a", "ha", 1));
        List<Decision> d = new ArrayList<>();
        d.addAll(on(new PartitionRegistered(PartitionRecord.unassigned("ROOT", 1, null, null))));
        d.addAll(on(new PartitionRegistered(PartitionRecord.unassigned("META", 2, null, null))));
        d.addAll(on(new PartitionRegistered(PartitionRecord.unassigned("SHOP", 3, null, null))));
        assertEquals(Map.of(1L, "otm-a"), opens(d), "only ROOT opens before ROOT serves");
        assertTrue(state.levelServing(1) == false);
        List<Decision> afterRoot = on(new OpenDone(1, "otm-a", 1));
        assertEquals(Map.of(2L, "otm-a"), opens(afterRoot), "META once ROOT serves, user partitions still wait");
        List<Decision> afterMeta = on(new OpenDone(2, "otm-a", 1));
        assertEquals(Map.of(3L, "otm-a"), opens(afterMeta));

        // A failed open that could not reach the catalog is retried without counting as an attempt.
        on(new OpenFailed(3, "otm-a", 1, "META unreachable", true));
        for (int i = 0; i < 10; i++) {
            on(new Tick(10_000L * (i + 1)));
            List<Decision> retry = on(new OpenFailed(3, "otm-a", 2 + i, "META unreachable", true));
            assertEquals(PartitionState.RETRY_WAIT, view(3).state(), "never parked for the catalog's sake");
            assertTrue(retry.stream().noneMatch(x -> x instanceof Decision.PartitionParked));
        }
    }

    private static Map<Long, String> opens(List<Decision> decisions) {
        Map<Long, String> out = new TreeMap<>();
        for (Decision d : decisions) {
            if (d instanceof OpenPartition o) {
                out.put(o.assignment().partitionId(), o.assignment().owner());
            }
        }
        return out;
    }
}
