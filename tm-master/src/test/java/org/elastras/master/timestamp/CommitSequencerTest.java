package org.elastras.master.timestamp;

import org.elastras.client.protocol.WithheldReason;
import org.elastras.client.protocol.CtsRange;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

/** Scripted decisions of the commit sequencer: sizing, high-water mark windows, resends, fencing. */
class CommitSequencerTest {

    private static final RangeSizing SIZING = new RangeSizing(10, 1000);

    private static CtsRange issued(RangeDecision decision) {
        assertTrue(decision instanceof RangeDecision.Issue, "expected Issue, got " + decision);
        return ((RangeDecision.Issue) decision).range();
    }

    @Test
    void sizingGrowsWithUseShrinksByHalfAtMostAndIsClamped() {
        assertEquals(10, SIZING.nextSizeCts(0, 0), "first contact gets the floor");
        assertEquals(200, SIZING.nextSizeCts(100, 100), "exhausted: doubled");
        assertEquals(120, SIZING.nextSizeCts(100, 60), "twice what was used");
        assertEquals(50, SIZING.nextSizeCts(100, 1), "shrinks by half at most");
        assertEquals(10, SIZING.nextSizeCts(12, 0), "never below the floor");
        assertEquals(1000, SIZING.nextSizeCts(1000, 1000), "never above the cap");
        assertThrows(IllegalArgumentException.class, () -> SIZING.nextSizeCts(10, 11));
    }

    @Test
    void aNewSequencerPersistsAMarkBeforeItIssuesAndStartsAboveTheOldMark() {
        CommitSequencer sequencer = new CommitSequencer(5_000, SIZING, 10_000, 8);
        assertEquals(new RangeDecision.Withhold(WithheldReason.AWAITING_HIGH_WATER_MARK), sequencer.decide("a", null, 0));
        OptionalLong due = sequencer.persistDue();
        assertEquals(OptionalLong.of(15_000), due);
        assertEquals(OptionalLong.empty(), sequencer.persistDue(), "one persist at a time");
        sequencer.persisted(15_000);
        assertEquals(new CtsRange(5_001, 5_010), issued(sequencer.decide("a", null, 0)));
    }

    @Test
    void rangesFollowEachOtherSizedFromTheirOwnUse() {
        CommitSequencer sequencer = new CommitSequencer(0, SIZING, 10_000, 8);
        sequencer.persisted(sequencer.persistDue().getAsLong());
        CtsRange a1 = issued(sequencer.decide("a", null, 0));
        CtsRange b1 = issued(sequencer.decide("b", null, 0));
        assertEquals(new CtsRange(1, 10), a1);
        assertEquals(new CtsRange(11, 20), b1);
        CtsRange a2 = issued(sequencer.decide("a", a1, 10));
        assertEquals(new CtsRange(21, 40), a2, "a used all 10: gets 20");
        CtsRange b2 = issued(sequencer.decide("b", b1, 3));
        assertEquals(new CtsRange(41, 50), b2, "b used 3: gets the floor");
    }

    @Test
    void aLostReplyMakesTheSameRangeGoAgainInsteadOfANewOne() {
        CommitSequencer sequencer = new CommitSequencer(0, SIZING, 10_000, 8);
        sequencer.persisted(sequencer.persistDue().getAsLong());
        CtsRange a1 = issued(sequencer.decide("a", null, 0));
        CtsRange a2 = issued(sequencer.decide("a", a1, 10));
        // The reply with a2 was lost: the OTM still reports a1.
        assertEquals(new RangeDecision.Resend(a2), sequencer.decide("a", a1, 10));
        assertEquals(a2.lastCts(), sequencer.issuedUpToCts(), "nothing new was issued");
        CtsRange a3 = issued(sequencer.decide("a", a2, 5));
        assertEquals(a2.lastCts() + 1, a3.firstCts());
    }

    @Test
    void marksArePersistedAtHalfAWindowAndRangesWaitForThem() {
        CommitSequencer sequencer = new CommitSequencer(0, new RangeSizing(1000, 1000), 2000, 8);
        long first = sequencer.persistDue().getAsLong();
        assertEquals(2000, first);
        sequencer.persisted(first);
        issued(sequencer.decide("a", null, 0)); // 1..1000: half a window left
        assertEquals(OptionalLong.empty(), sequencer.persistDue());
        CtsRange second = issued(sequencer.decide("b", null, 0)); // 1001..2000
        assertEquals(2000, second.lastCts());
        long next = sequencer.persistDue().getAsLong();
        assertEquals(4000, next);
        assertEquals(new RangeDecision.Withhold(WithheldReason.AWAITING_HIGH_WATER_MARK), sequencer.decide("c", null, 0),
                "2001.. is above the durable mark 2000 until 4000 is persisted");
        sequencer.persistFailed(next);
        long again = sequencer.persistDue().getAsLong();
        assertEquals(4000, again, "asked again after a failure");
        sequencer.persisted(again);
        assertEquals(new CtsRange(2001, 3000), issued(sequencer.decide("c", null, 0)));
    }

    @Test
    void aFencedSequencerIssuesNothing() {
        CommitSequencer sequencer = new CommitSequencer(0, SIZING, 10_000, 8);
        sequencer.persisted(sequencer.persistDue().getAsLong());
        CtsRange a1 = issued(sequencer.decide("a", null, 0));
        sequencer.fence();
        assertEquals(new RangeDecision.Withhold(WithheldReason.FENCED), sequencer.decide("a", a1, 1));
        assertEquals(OptionalLong.empty(), sequencer.persistDue());
    }
}
