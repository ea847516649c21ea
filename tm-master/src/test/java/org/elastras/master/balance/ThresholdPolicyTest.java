package org.elastras.master.balance;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The threshold policy on scripted load through a real {@link LoadWindow} (30 s of six 5 s slices,
 * reports once a second): exact plans for spikes, sustained overload, cooldowns, the bound on
 * moves in flight, drains, scale-out and scale-in.
 */
class ThresholdPolicyTest {

    /** Upper 1000 req/s, lower 50 req/s, cooldown 60 s, 4 moves in flight, 1 to 10 OTMs. */
    private static final ThresholdPolicyConfig CONFIG = new ThresholdPolicyConfig(1_000, 50, 60_000, 4, 1, 10);
    private final ThresholdPolicy policy = new ThresholdPolicy(CONFIG);

    private static Move move(long p, String from, String to, MoveReason reason, String why) {
        return new Move(p, from, to, reason, why);
    }

    /** otm-1 at 2000 req/s (700, 600, 500, 200), otm-2 at 300, otm-3 at 100. */
    private static ScriptedCluster overloadedOtm1() {
        return new ScriptedCluster()
                .partition(1, "otm-1", 700).partition(2, "otm-1", 600).partition(3, "otm-1", 500)
                .partition(4, "otm-1", 200).partition(5, "otm-2", 300).partition(6, "otm-3", 100);
    }

    @Test
    void aShortSpikeMovesNothingEvenWhenItLiftsTheWindowsAverageAboveTheThreshold() {
        ScriptedCluster c = new ScriptedCluster().partition(1, "otm-1", 100).partition(2, "otm-1", 100)
                .partition(3, "otm-2", 100);
        c.run(10_000);
        c.rates.put(1L, 3_000.0); // 10 s at 3000 req/s
        c.run(10_000);
        c.rates.put(1L, 100.0);
        c.run(10_000);
        BalanceInput in = c.input();
        assertTrue(in.load().otms().get("otm-1").requestsPerSecond() > 1_000,
                "the window's average is above the threshold: " + in.load().otms().get("otm-1"));
        BalancePlan plan = policy.plan(in);
        assertTrue(plan.isEmpty(), plan.describe());
        assertEquals("balance plan at 30000 ms: nothing to change\n", plan.describe());
    }

    @Test
    void sustainedOverloadMovesTheHottestPartitionsToTheLeastLoadedUntilBalanced() {
        ScriptedCluster c = overloadedOtm1();
        c.run(30_000);
        BalancePlan plan = policy.plan(c.input());
        String why = "otm-1 at 2000 req/s, above 1000 req/s in every slice";
        assertEquals(List.of(
                move(1, "otm-1", "otm-3", MoveReason.OVERLOAD, why + "; partition 700 req/s"),
                move(2, "otm-1", "otm-2", MoveReason.OVERLOAD, why + "; partition 600 req/s")), plan.moves());
        assertEquals(0, plan.otmsToAdd());
        assertEquals(List.of(), plan.otmsToRemove());
        assertEquals("""
                balance plan at 30000 ms: 2 moves
                  move partition 1: otm-1 -> otm-3 (OVERLOAD: otm-1 at 2000 req/s, above 1000 req/s in every slice; partition 700 req/s)
                  move partition 2: otm-1 -> otm-2 (OVERLOAD: otm-1 at 2000 req/s, above 1000 req/s in every slice; partition 600 req/s)
                """, plan.describe());

        // Carried out, the cluster is balanced: the next plans, now and once the window is past the move, are empty.
        c.carryOut(plan);
        assertTrue(policy.plan(c.input()).isEmpty(), policy.plan(c.input()).describe());
        c.run(40_000);
        assertTrue(policy.plan(c.input()).isEmpty(), policy.plan(c.input()).describe());
    }

    @Test
    void aPartitionHotterThanTheRoomUnderTheThresholdStillMovesToAnIdleOtm() {
        // Each of otm-1's partitions alone is above the threshold: no move keeps a destination under
        // it, but one to the idle otm-2 makes the busier of the two less busy, so it is made (else
        // the new OTM scale-out asks for would never be used).
        ScriptedCluster c = new ScriptedCluster().partition(1, "otm-1", 1_200).partition(2, "otm-1", 1_100)
                .partition(3, "otm-2", 0);
        c.run(30_000);
        BalancePlan plan = policy.plan(c.input());
        assertEquals(List.of(move(1, "otm-1", "otm-2", MoveReason.OVERLOAD,
                "otm-1 at 2300 req/s, above 1000 req/s in every slice; partition 1200 req/s")), plan.moves());
        c.carryOut(plan);
        c.run(40_000);
        BalancePlan next = policy.plan(c.input());
        assertTrue(next.moves().isEmpty(), "never moved back: " + next.describe());
    }

    @Test
    void movesInFlightCountOnTheirDestinationAndStopFurtherMoves() {
        ScriptedCluster c = overloadedOtm1();
        c.run(30_000);
        c.ledger.started(move(1, "otm-1", "otm-3", MoveReason.OVERLOAD, "earlier plan"));
        c.ledger.started(move(2, "otm-1", "otm-2", MoveReason.OVERLOAD, "earlier plan"));
        assertTrue(policy.plan(c.input()).isEmpty(), "otm-1 is at 700 once they land: " + policy.plan(c.input()).describe());
    }

    @Test
    void aPartitionInItsCooldownStaysAndTheNextHottestGoesInstead() {
        ScriptedCluster c = overloadedOtm1();
        c.run(30_000);
        c.ledger.started(move(1, "otm-9", "otm-1", MoveReason.DRAIN, "arrived"));
        c.ledger.ended(1, 20_000); // moved to otm-1 10 s ago
        BalancePlan plan = policy.plan(c.input());
        String why = "otm-1 at 2000 req/s, above 1000 req/s in every slice";
        assertEquals(List.of(
                move(2, "otm-1", "otm-3", MoveReason.OVERLOAD, why + "; partition 600 req/s"),
                move(3, "otm-1", "otm-2", MoveReason.OVERLOAD, why + "; partition 500 req/s")), plan.moves());
        assertEquals(List.of("partition 1 moved 10000 ms ago; cooldown 60000 ms"), plan.notes());

        // 60 s after that move its cooldown is over.
        c.run(50_000);
        assertEquals(1, policy.plan(c.input()).moves().get(0).partitionId());
    }

    @Test
    void theBoundOnMovesInFlightIsNeverExceeded() {
        ThresholdPolicy two = new ThresholdPolicy(new ThresholdPolicyConfig(1_000, 50, 60_000, 2, 1, 10));
        ScriptedCluster c = overloadedOtm1();
        c.run(30_000);
        c.ledger.started(move(5, "otm-2", "otm-3", MoveReason.DRAIN, "earlier plan")); // otm-3 at 400 once done
        BalancePlan plan = two.plan(c.input());
        assertEquals(List.of(move(1, "otm-1", "otm-2", MoveReason.OVERLOAD,
                "otm-1 at 2000 req/s, above 1000 req/s in every slice; partition 700 req/s")), plan.moves());
        assertEquals(0, plan.otmsToAdd(), "held back by the bound, not by capacity");
        assertEquals(List.of("the bound of 2 moves in flight is reached; the rest waits"), plan.notes());

        c.ledger.started(plan.moves().get(0));
        assertEquals(List.of(), two.plan(c.input()).moves(), "two moves in flight: none more");
    }

    @Test
    void aDrainEmptiesTheOtmHottestFirstAndNothingMovesToADrainingOtm() {
        ScriptedCluster c = new ScriptedCluster()
                .partition(1, "otm-1", 100).partition(5, "otm-2", 300).partition(7, "otm-2", 50)
                .partition(8, "otm-2", 10).partition(6, "otm-3", 200);
        c.placement.put(8L, new Placement("otm-2", false)); // still opening
        c.run(30_000);
        c.draining.add("otm-2");
        BalancePlan plan = policy.plan(c.input());
        assertEquals(List.of(
                move(5, "otm-2", "otm-1", MoveReason.DRAIN, "draining otm-2; partition 300 req/s"),
                move(7, "otm-2", "otm-3", MoveReason.DRAIN, "draining otm-2; partition 50 req/s")), plan.moves());
        assertEquals(List.of("partition 8 on otm-2 is not serving; it moves once it serves"), plan.notes());
        c.carryOut(plan);

        c.placement.put(8L, new Placement("otm-2", true));
        c.run(1_000);
        BalancePlan rest = policy.plan(c.input());
        // otm-1 now carries 400 req/s, otm-3 250.
        assertEquals(List.of(move(8, "otm-2", "otm-3", MoveReason.DRAIN, "draining otm-2; partition 10 req/s")),
                rest.moves(), "cooldowns do not hold a drain back: " + rest.describe());
        c.carryOut(rest);
        assertTrue(c.placement().values().stream().noneMatch(p -> p.owner().equals("otm-2")), c.placement().toString());

        // Overload elsewhere never sends anything to the draining (now empty, least loaded) otm-2.
        c.rates.put(1L, 900.0);
        c.partition(9, "otm-1", 200);
        c.run(40_000);
        BalancePlan relief = policy.plan(c.input());
        // Partition 5 arrived on otm-1 41 s ago: its cooldown holds it, and asks for no new OTM either.
        assertEquals(List.of(move(9, "otm-1", "otm-3", MoveReason.OVERLOAD,
                "otm-1 at 1400 req/s, above 1000 req/s in every slice; partition 200 req/s")), relief.moves());
        assertEquals(0, relief.otmsToAdd());
        assertEquals(List.of("partition 5 moved 41000 ms ago; cooldown 60000 ms"), relief.notes());
    }

    @Test
    void aDrainSpreadsIdlePartitionsByCount() {
        ScriptedCluster c = new ScriptedCluster().partition(1, "otm-1", 0).partition(2, "otm-2", 0)
                .partition(3, "otm-3", 0).partition(4, "otm-3", 0).partition(5, "otm-3", 0).partition(6, "otm-3", 0);
        c.run(30_000);
        c.draining.add("otm-3");
        assertEquals(List.of(
                move(3, "otm-3", "otm-1", MoveReason.DRAIN, "draining otm-3; partition 0 req/s"),
                move(4, "otm-3", "otm-2", MoveReason.DRAIN, "draining otm-3; partition 0 req/s"),
                move(5, "otm-3", "otm-1", MoveReason.DRAIN, "draining otm-3; partition 0 req/s"),
                move(6, "otm-3", "otm-2", MoveReason.DRAIN, "draining otm-3; partition 0 req/s")),
                policy.plan(c.input()).moves());
    }

    @Test
    void drainingTheOnlyOtmAsksForAnother() {
        ScriptedCluster c = new ScriptedCluster().partition(1, "otm-1", 10);
        c.run(30_000);
        c.draining.add("otm-1");
        BalancePlan plan = policy.plan(c.input());
        assertEquals(List.of(), plan.moves());
        assertEquals(1, plan.otmsToAdd());
        assertEquals(List.of("cannot drain otm-1: no other OTM can take its partitions"), plan.notes());
    }

    @Test
    void overloadWithNoSpareCapacityAsksForOtmsThenUsesTheNewOne() {
        ScriptedCluster c = new ScriptedCluster().partition(1, "otm-1", 600).partition(2, "otm-1", 500)
                .partition(3, "otm-2", 600).partition(4, "otm-2", 500);
        c.run(30_000);
        BalancePlan plan = policy.plan(c.input());
        assertEquals(List.of(), plan.moves());
        assertEquals(1, plan.otmsToAdd());
        assertEquals("""
                balance plan at 30000 ms: 0 moves, add 1 OTM
                  add 1 OTM
                  note: otm-1, otm-2 stays above 1000 req/s with no OTM able to take more; the cluster carries 2200 req/s: add 1
                """, plan.describe());

        c.otmsBeingAdded = 1;
        BalancePlan waiting = policy.plan(c.input());
        assertEquals(0, waiting.otmsToAdd(), waiting.describe());

        c.otmsBeingAdded = 0;
        c.otm("otm-3"); // joined; no history of its own
        c.run(1_000);
        String why = " at 1100 req/s, above 1000 req/s in every slice";
        assertEquals(List.of(
                move(1, "otm-1", "otm-3", MoveReason.OVERLOAD, "otm-1" + why + "; partition 600 req/s"),
                move(4, "otm-2", "otm-1", MoveReason.OVERLOAD, "otm-2" + why + "; partition 500 req/s")),
                policy.plan(c.input()).moves());
    }

    @Test
    void scaleOutStopsAtOtmsMaxAndOneHotPartitionAloneAsksForNothing() {
        ThresholdPolicy capped = new ThresholdPolicy(new ThresholdPolicyConfig(1_000, 50, 60_000, 4, 1, 2));
        ScriptedCluster c = new ScriptedCluster().partition(1, "otm-1", 600).partition(2, "otm-1", 500)
                .partition(3, "otm-2", 600).partition(4, "otm-2", 500);
        c.run(30_000);
        BalancePlan plan = capped.plan(c.input());
        assertEquals(0, plan.otmsToAdd());
        assertTrue(plan.notes().get(0).endsWith("already at otmsMax 2"), plan.describe());

        ScriptedCluster hot = new ScriptedCluster().partition(1, "otm-1", 5_000).partition(2, "otm-2", 10);
        hot.run(30_000);
        BalancePlan alone = policy.plan(hot.input());
        assertTrue(alone.isEmpty(), alone.describe());
        assertEquals(List.of("partition 1 alone keeps otm-1 at 5000 req/s; no move or new OTM can help"), alone.notes());
    }

    @Test
    void sustainedLowLoadDrainsAndRemovesTheNewestOfTheLeastLoaded() {
        ScriptedCluster c = new ScriptedCluster().partition(1, "otm-1", 20).partition(2, "otm-2", 20)
                .partition(3, "otm-3", 20);
        c.run(30_000);
        BalancePlan plan = policy.plan(c.input());
        assertEquals(List.of("otm-3"), plan.otmsToRemove());
        assertEquals(List.of(move(3, "otm-3", "otm-1", MoveReason.CONSOLIDATE,
                "consolidating: otm-3 at 20 req/s is removed; partition 20 req/s")), plan.moves());
        assertEquals("""
                balance plan at 30000 ms: 1 move, remove otm-3
                  move partition 3: otm-3 -> otm-1 (CONSOLIDATE: consolidating: otm-3 at 20 req/s is removed; partition 20 req/s)
                  drain and remove otm-3
                  note: every OTM stayed below 50 req/s in every slice; the busiest slice (60 req/s) fits on 2 OTM(s) at or below 525 req/s: drain and remove otm-3
                """, plan.describe());

        // Not while the last slices saw one OTM above the lower threshold, nor below otmsMin.
        c.rates.put(2L, 80.0);
        c.run(5_000);
        assertTrue(policy.plan(c.input()).isEmpty(), policy.plan(c.input()).describe());
        c.rates.put(2L, 20.0);
        c.run(30_000);
        assertEquals(List.of("otm-3"), policy.plan(c.input()).otmsToRemove());
        ThresholdPolicy three = new ThresholdPolicy(new ThresholdPolicyConfig(1_000, 50, 60_000, 4, 3, 10));
        assertTrue(three.plan(c.input()).isEmpty());
    }

    @Test
    void noScaleInBeforeEveryOtmReportedOverTheWholeWindow() {
        ScriptedCluster c = new ScriptedCluster().partition(1, "otm-1", 20).partition(2, "otm-2", 20);
        c.run(20_000); // a master that started 20 s ago
        assertTrue(policy.plan(c.input()).isEmpty(), policy.plan(c.input()).describe());
        c.run(10_000);
        assertEquals(List.of("otm-2"), policy.plan(c.input()).otmsToRemove());
    }

    @Test
    void badConfigurationsAreRefused() {
        assertThrows(IllegalArgumentException.class, () -> new ThresholdPolicyConfig(100, 100, 0, 1, 1, 1));
        assertThrows(IllegalArgumentException.class, () -> new ThresholdPolicyConfig(0, 0, 0, 1, 1, 1));
        assertThrows(IllegalArgumentException.class, () -> new ThresholdPolicyConfig(100, 10, -1, 1, 1, 1));
        assertThrows(IllegalArgumentException.class, () -> new ThresholdPolicyConfig(100, 10, 0, 0, 1, 1));
        assertThrows(IllegalArgumentException.class, () -> new ThresholdPolicyConfig(100, 10, 0, 1, 2, 1));
        assertThrows(IllegalArgumentException.class, () -> new Move(1, "otm-1", "otm-1", MoveReason.DRAIN, "x"));
    }
}
