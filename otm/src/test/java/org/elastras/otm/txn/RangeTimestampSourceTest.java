package org.elastras.otm.txn;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.elastras.client.protocol.CtsRange;
import org.elastras.client.protocol.TimestampReply;
import org.elastras.client.protocol.TimestampReport;
import org.elastras.client.protocol.WithheldReason;
import org.junit.jupiter.api.Test;

/** The OTM's side of the timestamp exchange, driven step by step. */
class RangeTimestampSourceTest {

    private final SnapshotTracker tracker = new SnapshotTracker(0, 1_000);
    private final AtomicInteger exchangesAsked = new AtomicInteger();
    private final RangeTimestampSource source = new RangeTimestampSource(tracker, 0, exchangesAsked::incrementAndGet);

    private static TimestampReply range(long first, long last, long snapshot) {
        return new TimestampReply(new CtsRange(first, last), snapshot, null);
    }

    @Test
    void noTimestampBeforeTheFirstRangeAndTheExchangeIsAskedFor() {
        TransactionException e = assertThrows(TransactionException.class, source::next);
        assertEquals(TransactionException.Reason.OVERLOADED, e.reason());
        assertTrue(exchangesAsked.get() >= 1);
        assertFalse(source.exchangeWanted(), "the caller gave up; nobody waits");
    }

    @Test
    void rangesFeedCommitsAndReportsCarryWhatFinished() {
        RangeTimestampSource.NumberedReport first = source.nextReport();
        assertEquals(1, first.sequence());
        assertNull(first.report().latestRangeReceived());
        source.accepted(1, range(101, 110, 0));
        assertEquals(100, tracker.snapshot(), "CTSs below the first range are not this OTM's");

        assertEquals(101, source.next());
        assertEquals(102, source.next());
        source.applied(102);
        assertEquals(100, tracker.snapshot(), "102 waits behind 101");
        source.applied(101);
        assertEquals(102, tracker.snapshot());

        assertEquals(103, source.next());
        source.unused(103);
        RangeTimestampSource.NumberedReport second = source.nextReport();
        assertEquals(2, second.sequence());
        TimestampReport r = second.report();
        assertEquals(new CtsRange(101, 110), r.latestRangeReceived());
        assertEquals(3, r.takenCount());
        assertEquals(List.of(new CtsRange(101, 102)), r.readableRanges());
        assertEquals(List.of(new CtsRange(103, 103)), r.unusedRanges(), "103 dropped; 104..110 may still be taken");
        assertEquals(List.of(new CtsRange(101, 110)), r.owedRanges());
        assertEquals(104, source.next(), "commits go on taking from the range while the report is in flight");
        assertFalse(source.exchangeWanted(), "nobody waits for a range");

        // The exchange failed: the same report goes again.
        RangeTimestampSource.NumberedReport retry = source.nextReport();
        assertEquals(2, retry.sequence());
        assertEquals(r, retry.report());

        source.accepted(2, range(201, 220, 102));
        assertEquals(102, source.globalSnapshot());
        assertEquals(103, tracker.snapshot(), "104 is taken and not applied yet");
        source.applied(104);
        assertEquals(200, tracker.snapshot(), "the untaken rest of the old range and the gap below the new one are finished here");
        assertEquals(201, source.next());

        TimestampReport third = source.nextReport().report();
        assertEquals(List.of(new CtsRange(104, 104)), third.readableRanges());
        assertEquals(List.of(new CtsRange(105, 110)), third.unusedRanges(), "the old range's untaken rest, once the new one came");
        assertEquals(List.of(new CtsRange(104, 110), new CtsRange(201, 220)), third.owedRanges(),
                "101..103 were reported in report 2; 104..110 are reported now");
        assertEquals(new CtsRange(201, 220), third.latestRangeReceived());
        assertEquals(1, third.takenCount());
    }

    @Test
    void aCommitWaitsForARangeOnlyWhenTheCurrentOneIsUsedUp() throws Exception {
        RangeTimestampSource waiting = new RangeTimestampSource(tracker, 5_000, exchangesAsked::incrementAndGet);
        waiting.nextReport();
        waiting.accepted(1, range(1, 2, 0));
        assertEquals(1, waiting.next());
        RangeTimestampSource.NumberedReport inFlight = waiting.nextReport();
        assertEquals(2, waiting.next(), "a report in flight does not stop commits");
        int asked = exchangesAsked.get();
        java.util.concurrent.CompletableFuture<Long> third = java.util.concurrent.CompletableFuture.supplyAsync(waiting::next);
        long deadline = System.nanoTime() + java.util.concurrent.TimeUnit.SECONDS.toNanos(5);
        while (!waiting.exchangeWanted() && System.nanoTime() < deadline) {
            Thread.sleep(1);
        }
        assertTrue(waiting.exchangeWanted(), "a commit waits: the range is used up");
        assertTrue(exchangesAsked.get() > asked, "and it asked for an exchange");
        assertFalse(third.isDone());
        waiting.accepted(inFlight.sequence(), range(11, 20, 0));
        assertEquals(11, third.get(5, java.util.concurrent.TimeUnit.SECONDS));
        assertEquals(List.of(), waiting.nextReport().report().unusedRanges(), "the old range was used up: nothing unused");
        assertEquals(new RangeTimestampSource.ExchangeCounts(2, 1, 0), waiting.exchangeCounts(),
                "two reports accepted; one commit waited for a range (the first two did not)");
    }

    @Test
    void aWithheldRangeLeavesTheCurrentOneInUseUntilItIsUsedUp() {
        source.nextReport();
        source.accepted(1, range(11, 20, 0));
        assertEquals(11, source.next());
        source.nextReport();
        source.accepted(2, new TimestampReply(null, 5, WithheldReason.OTM_BACKLOG));
        assertEquals(new CtsRange(11, 20), source.currentRange());
        assertEquals(5, source.globalSnapshot());
        for (long cts = 12; cts <= 20; cts++) {
            assertEquals(cts, source.next(), "the current range serves until it is used up");
        }
        assertThrows(TransactionException.class, source::next, "used up, and the master withheld the next range");
    }

    @Test
    void liftAboveWaitsForARangeAboveTheGivenCts() throws Exception {
        source.nextReport();
        source.accepted(1, range(11, 20, 0));
        assertFalse(source.liftAbove(500, 0));
        assertTrue(source.exchangeWanted(), "a caller waits for a range above 500");
        source.nextReport();
        source.accepted(2, range(601, 700, 10));
        assertTrue(source.liftAbove(500, 0));
        assertFalse(source.exchangeWanted(), "nobody waits");
        assertEquals(new RangeTimestampSource.ExchangeCounts(2, 0, 1), source.exchangeCounts(),
                "only the lift that found no range above 500 waited");
        assertEquals(600, tracker.snapshot());
        assertEquals(601, source.next());
    }

    @Test
    void aRangeNotAboveTheCurrentOneIsRefusedAndChangesNothing() {
        source.nextReport();
        source.accepted(1, range(101, 110, 0));
        source.nextReport();
        assertThrows(IllegalStateException.class, () -> source.accepted(2, range(50, 60, 0)));
        assertEquals(new CtsRange(101, 110), source.currentRange());
        assertThrows(IllegalStateException.class, () -> source.accepted(7, range(201, 210, 0)),
                "a reply to a report that is not in flight");
    }

    @Test
    void concurrentCommitsGetUniqueTimestampsAndTheSnapshotCoversThemAll() throws Exception {
        RangeTimestampSource waiting = new RangeTimestampSource(tracker, 5_000, () -> { });
        Set<Long> taken = ConcurrentHashMap.newKeySet();
        List<Thread> committers = new ArrayList<>();
        List<Throwable> failures = Collections.synchronizedList(new ArrayList<>());
        for (int i = 0; i < 4; i++) {
            Thread t = new Thread(() -> {
                try {
                    for (int n = 0; n < 500; n++) {
                        long cts = waiting.next();
                        assertTrue(taken.add(cts), "CTS " + cts + " handed out twice");
                        if (cts % 7 == 0) {
                            waiting.unused(cts);
                        } else {
                            waiting.applied(cts);
                        }
                    }
                } catch (Throwable e) {
                    failures.add(e);
                }
            });
            committers.add(t);
            t.start();
        }
        long next = 1;
        while (taken.size() < 2_000) {
            RangeTimestampSource.NumberedReport report = waiting.nextReport();
            next += 37; // another OTM's CTSs in between
            waiting.accepted(report.sequence(), range(next, next + 49, 0));
            next += 50;
            Thread.sleep(1);
        }
        for (Thread t : committers) {
            t.join();
        }
        assertEquals(List.of(), failures);
        long highest = taken.stream().mapToLong(Long::longValue).max().orElseThrow();
        assertTrue(tracker.snapshot() >= highest, "snapshot " + tracker.snapshot() + " covers every finished CTS up to " + highest);
        assertEquals(0, tracker.pendingRanges());
    }
}
