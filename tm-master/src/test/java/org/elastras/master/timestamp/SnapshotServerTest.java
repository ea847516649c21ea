package org.elastras.master.timestamp;

import org.elastras.client.protocol.CtsRange;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/** Scripted reports against the snapshot server: the counter never passes a gap; impossible reports change nothing. */
class SnapshotServerTest {

    private static SnapshotServer server(long initialSnapshotCts) {
        return new SnapshotServer(initialSnapshotCts, initialSnapshotCts, 16, 8, 64, 64);
    }

    private static CtsRange r(long first, long last) {
        return new CtsRange(first, last);
    }

    private static long readable(SnapshotServer server, String otm, long cts) {
        return server.report(otm, List.of(CtsRange.single(cts)), List.of());
    }

    @Test
    void leanXcaleTable1_counterNeverPassesAGap() {
        // Seed 000, Table 1: commit and snapshot counters at 10; CTSs 11..15 become durable and
        // readable in the order 11, 15, 12, 14, 13; the snapshot goes 11, 11, 12, 12, 15.
        SnapshotServer server = server(10);
        server.register("ltm", List.of());
        server.issued("ltm", r(11, 15));
        long[] order = {11, 15, 12, 14, 13};
        long[] expected = {11, 11, 12, 12, 15};
        for (int i = 0; i < order.length; i++) {
            assertEquals(expected[i], readable(server, "ltm", order[i]), "after notification of CTS " + order[i]);
        }
        assertEquals(0, server.pendingRanges());
        assertEquals(0, server.owedRanges("ltm"));
    }

    @Test
    void table1AcrossTwoOtmsWithRangesReportedOutOfOrder() {
        SnapshotServer server = server(10);
        server.register("a", List.of());
        server.register("b", List.of());
        server.issued("a", r(11, 12));
        server.issued("b", r(13, 15));
        assertEquals(10, server.report("b", List.of(r(15, 15)), List.of()));
        assertEquals(10, server.report("b", List.of(r(13, 14)), List.of()), "13..15 done, but 11 and 12 are not");
        assertEquals(1, server.pendingRanges(), "13..15 coalesced into one waiting range");
        assertEquals(10, readable(server, "a", 12));
        assertEquals(15, readable(server, "a", 11), "the gap closed: everything up to 15 is visible at once");
        assertEquals(0, server.pendingRanges());
    }

    @Test
    void unusedRemainderLetsTheSnapshotPassTheRestOfARange() {
        SnapshotServer server = server(0);
        server.register("a", List.of());
        server.issued("a", r(1, 100));
        assertEquals(100, server.report("a", List.of(r(1, 10)), List.of(r(11, 100))));
    }

    @Test
    void aCtsReportedTwiceIsRejectedAndChangesNothing() {
        SnapshotServer server = server(0);
        server.register("a", List.of());
        server.issued("a", r(1, 10));
        server.report("a", List.of(r(5, 6)), List.of());
        RejectedReportException twice = assertThrows(RejectedReportException.class,
                () -> server.report("a", List.of(r(1, 2), r(6, 6)), List.of()));
        assertTrue(twice.getMessage().contains("reported twice"), twice.getMessage());
        assertEquals(0, server.snapshotCts(), "1..2 of the rejected report must not count");
        assertEquals(6, server.report("a", List.of(r(1, 4)), List.of()), "1..4 close the gap below 5..6");
        RejectedReportException belowSnapshot = assertThrows(RejectedReportException.class, () -> readable(server, "a", 3));
        assertTrue(belowSnapshot.getMessage().contains("snapshot already passed"), belowSnapshot.getMessage());
        RejectedReportException sameReport = assertThrows(RejectedReportException.class,
                () -> server.report("a", List.of(r(7, 8)), List.of(r(8, 9))));
        assertTrue(sameReport.getMessage().contains("overlapping"), sameReport.getMessage());
        assertEquals(10, server.report("a", List.of(r(7, 8)), List.of(r(9, 10))));
    }

    @Test
    void aCtsOutsideWhatWasIssuedToTheOtmIsRejected() {
        SnapshotServer server = server(0);
        server.register("a", List.of());
        server.register("b", List.of());
        server.issued("a", r(1, 10));
        server.issued("b", r(11, 20));
        RejectedReportException other = assertThrows(RejectedReportException.class, () -> readable(server, "a", 11));
        assertTrue(other.getMessage().contains("not in a range issued to it"), other.getMessage());
        assertThrows(RejectedReportException.class, () -> readable(server, "a", 21), "never issued to anyone");
        assertThrows(RejectedReportException.class, () -> server.report("a", List.of(r(9, 12)), List.of()), "straddles b's range");
        assertThrows(RejectedReportException.class, () -> readable(server, "c", 1), "unknown OTM");
        assertEquals(0, server.snapshotCts());
        assertEquals(0, server.pendingRanges());
    }

    @Test
    void aReportMaySpanTwoAdjacentRangesOfTheSameOtm() {
        SnapshotServer server = server(0);
        server.register("a", List.of());
        server.issued("a", r(1, 10));
        server.issued("a", r(11, 20));
        assertEquals(20, server.report("a", List.of(r(1, 20)), List.of()));
        assertEquals(0, server.owedRanges("a"));
    }

    @Test
    void aRecoveredOtmsOwedCtssAreDeclaredUnusedButOnlyThen() {
        SnapshotServer server = server(0);
        server.register("a", List.of());
        server.register("b", List.of());
        server.issued("a", r(1, 10));
        server.issued("b", r(11, 20));
        server.issued("a", r(21, 30));
        server.report("b", List.of(r(11, 20)), List.of());
        server.report("a", List.of(r(1, 3), r(7, 7), r(22, 22)), List.of());
        assertEquals(3, server.snapshotCts(), "a died holding 4..6 and 8..10: not done until its WAL is recovered");
        server.otmRecovered("a");
        assertEquals(30, server.snapshotCts());
        assertFalse(server.knows("a"));
        assertEquals(0, server.pendingRanges());
    }

    @Test
    void inheritedCtssWaitForClaimsThenRelease() {
        // A new master read mark 100: CTSs 1..100 may be held by OTMs of the previous master.
        SnapshotServer server = new SnapshotServer(0, 100, 16, 8, 64, 64);
        assertTrue(server.inheritedPending());
        server.register("a", List.of(r(50, 60), r(70, 70)));
        server.register("b", List.of());
        server.issued("b", r(101, 110));
        server.report("b", List.of(r(101, 110)), List.of());
        assertEquals(0, server.snapshotCts(), "nothing passes inherited CTSs before they are released");
        RejectedReportException taken = assertThrows(RejectedReportException.class, () -> server.register("c", List.of(r(55, 56))));
        assertTrue(taken.getMessage().contains("not inherited"), taken.getMessage());
        assertFalse(server.knows("c"));
        server.releaseInherited();
        assertEquals(49, server.snapshotCts(), "a still owes 50..60");
        server.report("a", List.of(r(50, 60)), List.of());
        assertEquals(69, server.snapshotCts());
        server.report("a", List.of(), List.of(r(70, 70)));
        assertEquals(110, server.snapshotCts());
        RejectedReportException late = assertThrows(RejectedReportException.class, () -> server.register("d", List.of(r(90, 90))));
        assertTrue(late.getMessage().contains("released"), late.getMessage());
    }

    @Test
    void pendingStateIsBounded() {
        SnapshotServer server = new SnapshotServer(0, 0, 2, 2, 3, 4);
        server.register("a", List.of());
        server.issued("a", r(1, 100));
        server.report("a", List.of(r(3, 3), r(5, 5), r(7, 7)), List.of());
        RejectedReportException full = assertThrows(RejectedReportException.class, () -> readable(server, "a", 9));
        assertTrue(full.getMessage().contains("wait behind CTS 1"), full.getMessage());
        assertThrows(RejectedReportException.class, () -> server.report("a", List.of(r(10, 10), r(12, 12), r(14, 14)),
                List.of(r(16, 16), r(18, 18))), "more ranges than one report may hold");
        server.issued("a", r(101, 110));
        assertFalse(server.mayIssue("a"));
        assertThrows(IllegalStateException.class, () -> server.issued("a", r(111, 120)));
        server.register("b", List.of());
        assertThrows(RejectedReportException.class, () -> server.register("c", List.of()), "otmsMax");
        assertThrows(IllegalStateException.class, () -> server.issued("b", r(200, 210)), "ranges must be contiguous");
    }
}
