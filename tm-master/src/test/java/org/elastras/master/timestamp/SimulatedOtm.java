package org.elastras.master.timestamp;

import org.elastras.client.protocol.TimestampReply;
import org.elastras.client.protocol.TimestampReport;
import org.elastras.client.protocol.CtsRange;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.SplittableRandom;

/**
 * The OTM side of the timestamp protocol, driven by a test: takes CTSs from its range, finishes
 * commits out of order (or aborts them before logging), and builds its reports the way a real OTM
 * must. Deterministic for a given random source. Not thread-safe.
 */
final class SimulatedOtm {

    /** A commit holding a CTS, finishing in a later period. */
    private record InFlight(long cts, long finishPeriod) {}

    final String id;
    private CtsRange current;
    private long nextCts;
    private long takenCount;
    /** CTSs received and not yet reported in an accepted report. */
    private final CtsIntervals owed = new CtsIntervals();
    private final CtsIntervals readable = new CtsIntervals();
    private final CtsIntervals unused = new CtsIntervals();
    private final List<InFlight> inFlight = new ArrayList<>();
    private long snapshotSeenCts;

    SimulatedOtm(String id) {
        this.id = id;
    }

    /**
     * Runs up to {@code commits} commits in {@code period}: each takes the next CTS of the current
     * range (none left: the commit is refused); a fraction aborts before logging (unused), the rest
     * finish within {@code finishDelayPeriodsMax} periods.
     */
    void commit(SplittableRandom random, long period, int commits, double abortFraction, int finishDelayPeriodsMax) {
        for (int i = 0; i < commits; i++) {
            if (current == null || nextCts > current.lastCts()) {
                return;
            }
            long cts = nextCts++;
            takenCount++;
            if (random.nextDouble() < abortFraction) {
                unused.add(cts, cts);
            } else {
                inFlight.add(new InFlight(cts, period + random.nextInt(finishDelayPeriodsMax + 1)));
            }
        }
    }

    /** Commits whose finish period has come become readable. */
    void finish(long period) {
        for (Iterator<InFlight> it = inFlight.iterator(); it.hasNext(); ) {
            InFlight commit = it.next();
            if (commit.finishPeriod() <= period) {
                readable.add(commit.cts(), commit.cts());
                it.remove();
            }
        }
    }

    /** Every commit in flight finishes now. */
    void finishAll() {
        finish(Long.MAX_VALUE);
    }

    TimestampReport report() {
        return new TimestampReport(current, takenCount, readable.toRanges(), unused.toRanges(), owed.toRanges());
    }

    /** The report was accepted: what it reported is no longer owed. */
    void accepted(TimestampReport report) {
        owed.removeAll(report.readableRanges());
        owed.removeAll(report.unusedRanges());
        readable.removeAll(report.readableRanges());
        unused.removeAll(report.unusedRanges());
    }

    /** The reply arrived: switch to its range, the untaken rest of the old one becomes unused. */
    void received(TimestampReply reply) {
        snapshotSeenCts = Math.max(snapshotSeenCts, reply.snapshotCts());
        if (reply.newRange() == null) {
            return;
        }
        if (current != null && nextCts <= current.lastCts()) {
            unused.add(nextCts, current.lastCts());
        }
        current = reply.newRange();
        nextCts = current.firstCts();
        takenCount = 0;
        owed.add(current);
    }

    /** CTSs this OTM still owes reports for. */
    List<CtsRange> owedRanges() {
        return owed.toRanges();
    }

    CtsRange current() {
        return current;
    }

    long snapshotSeenCts() {
        return snapshotSeenCts;
    }
}
