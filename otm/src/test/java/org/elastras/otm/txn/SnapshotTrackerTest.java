package org.elastras.otm.txn;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** The snapshot counter never passes a CTS that is neither applied nor reported unused. */
class SnapshotTrackerTest {

    @Test
    void outOfOrderAppliesWaitForTheGapLikeTheLeanXcaleExample() {
        SnapshotTracker tracker = new SnapshotTracker(10, 100);
        long[] order = {11, 15, 12, 14, 13};
        long[] expected = {11, 11, 12, 12, 15};
        for (int i = 0; i < order.length; i++) {
            tracker.applied(order[i]);
            assertEquals(expected[i], tracker.snapshot(), "after CTS " + order[i]);
        }
        assertEquals(0, tracker.pendingRanges());
    }

    @Test
    void unusedTimestampsCloseGapsButNeverOpenOnes() {
        SnapshotTracker tracker = new SnapshotTracker(0, 100);
        tracker.applied(3);
        tracker.applied(5);
        assertEquals(0, tracker.snapshot());
        tracker.unused(1);
        assertEquals(1, tracker.snapshot(), "2 is still taken and unreported");
        tracker.unused(2);
        assertEquals(3, tracker.snapshot(), "4 is missing");
        tracker.unusedRange(6, 9);
        assertEquals(3, tracker.snapshot());
        tracker.applied(4);
        assertEquals(9, tracker.snapshot());
        tracker.unusedRange(10, 20);
        assertEquals(20, tracker.snapshot());
    }

    @Test
    void reportingACtsTwiceIsABug() {
        SnapshotTracker tracker = new SnapshotTracker(0, 100);
        tracker.applied(1);
        assertThrows(IllegalStateException.class, () -> tracker.applied(1));
        tracker.applied(5);
        assertThrows(IllegalStateException.class, () -> tracker.unused(5));
        assertThrows(IllegalStateException.class, () -> tracker.unusedRange(3, 7));
        assertEquals(1, tracker.snapshot());
    }

    @Test
    void pendingRangesAreBounded() {
        SnapshotTracker tracker = new SnapshotTracker(0, 3);
        tracker.applied(3);
        tracker.applied(5);
        tracker.applied(7);
        assertThrows(IllegalStateException.class, () -> tracker.applied(9),
                "a fourth range behind the gap at 1 means a CTS was never reported");
        tracker.applied(4);
        assertEquals(2, tracker.pendingRanges(), "adjacent finished CTSs coalesce into one range");
    }

    @Test
    void randomScriptsNeverPassAGap() {
        for (long seed = 0; seed < 200; seed++) {
            Random random = new Random(seed);
            int n = 1 + random.nextInt(60);
            List<Long> ctss = new ArrayList<>();
            for (long c = 1; c <= n; c++) {
                ctss.add(c);
            }
            Collections.shuffle(ctss, random);
            SnapshotTracker tracker = new SnapshotTracker(0, 1000);
            boolean[] done = new boolean[n + 1];
            for (long c : ctss) {
                if (random.nextBoolean()) {
                    tracker.applied(c);
                } else {
                    tracker.unused(c);
                }
                done[(int) c] = true;
                long expected = 0;
                while (expected < n && done[(int) expected + 1]) {
                    expected++;
                }
                assertEquals(expected, tracker.snapshot(), "seed " + seed + " after " + c);
            }
            assertEquals(n, tracker.snapshot());
        }
    }

    @Test
    void awaitSnapshotReturnsOnceTheSnapshotReachesTheCts() throws Exception {
        SnapshotTracker tracker = new SnapshotTracker(0, 100);
        assertFalse(tracker.awaitSnapshot(2, 1));
        Thread reporter = new Thread(() -> {
            tracker.applied(2);
            tracker.applied(1);
        });
        reporter.start();
        assertTrue(tracker.awaitSnapshot(2, 10_000));
        reporter.join();
        assertTrue(tracker.awaitSnapshot(1, 0));
    }
}
