package org.elastras.master.timestamp;

import org.elastras.client.protocol.CtsRange;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The snapshot server (LeanXcale's Algorithm 6, seed 000 sections 3.3 and 4.2.2, fed by ranges):
 * keeps the snapshot counter, the largest CTS such that every CTS at or below it is <i>done</i>:
 * reported durable and readable, reported unused, or declared unused by the master (the CTSs a
 * failed OTM still owed, once its WAL is recovered; CTSs a previous master issued that no OTM
 * claims). CTSs done above a gap wait, coalesced into ranges, until the gap closes, so the
 * snapshot never passes a CTS that may still become readable.
 *
 * <p>Plain logic: inputs are the ranges the sequencer issued, the OTMs' reports and the master's
 * recovery decisions; output is the snapshot. Not thread-safe: one caller at a time
 * ({@link TimestampService} holds its lock); {@link #snapshotCts()} may be read from any thread.
 *
 * <p>It checks every report against what was issued to the reporting OTM: a CTS reported twice, or
 * outside the ranges that OTM still owes, rejects the whole report ({@link RejectedReportException})
 * and changes nothing. All state is bounded: OTMs, ranges owed per OTM, done ranges waiting behind a
 * gap, ranges per report.
 *
 * <p><b>After a master failover</b> the new server does not know who holds the CTSs the previous
 * master issued. Every CTS in (initial snapshot, inherited mark] starts <i>inherited</i>: not done,
 * owned by nobody. Each OTM's first report to this server names the CTSs it still owes
 * ({@link #register}); they become owed by it. When every OTM that was alive at the failover has
 * registered and every failed one has had its WAL recovered, the master calls
 * {@link #releaseInherited()}: the unclaimed rest was either reported to the old master, never
 * issued, or belonged to a recovered OTM, and is done.
 */
public final class SnapshotServer {

    private final int otmsMax;
    private final int owedRangesPerOtmMax;
    private final int pendingRangesMax;
    private final int reportRangesMax;

    /** Written by the one caller, read by anyone. */
    private volatile long snapshotCts;
    /** Every CTS at or below it was issued (or inherited); the next issued range starts right above. */
    private long issuedUpToCts;
    /** Done ranges above {@code snapshotCts + 1}: first -> last, disjoint and not adjacent. */
    private final TreeMap<Long, Long> done = new TreeMap<>();
    /** Inherited ranges not claimed yet: first -> last. Empty once released. */
    private final TreeMap<Long, Long> inherited = new TreeMap<>();
    private boolean inheritedReleased;
    /** For each known OTM, the ranges it owes reports for, by first CTS. */
    private final Map<String, TreeMap<Long, Owed>> otms = new HashMap<>();

    /** A range an OTM owes reports for, and how many of its CTSs it reported so far. */
    private static final class Owed {
        final CtsRange range;
        /**
         * Whether this server issued it (rather than it being claimed from a previous master).
         * Only issued ones count against owedRangesPerOtmMax: claimed ones are fragments (one per
         * commit in flight at the failover) that finish within a period or two.
         */
        final boolean issuedHere;
        /** CTSs of the range done; the range is dropped when it reaches the size. */
        long doneCount;

        Owed(CtsRange range, boolean issuedHere) {
            this.range = range;
            this.issuedHere = issuedHere;
        }
    }

    /**
     * @param initialSnapshotCts every CTS at or below it is done (0 for a new cluster or a new master)
     * @param inheritedUpToCts the high-water mark a previous master persisted (0 for a new
     *     cluster): CTSs in (initialSnapshotCts, inheritedUpToCts] are inherited, and the first
     *     range issued here starts right above it
     * @param otmsMax most OTMs known at once
     * @param owedRangesPerOtmMax most ranges issued here that one OTM may owe reports for (ranges claimed
     *     from a previous master are bounded by {@code reportRangesMax})
     * @param pendingRangesMax most done ranges waiting behind a gap
     * @param reportRangesMax most ranges in one report (readable and unused together, or owed)
     */
    public SnapshotServer(long initialSnapshotCts, long inheritedUpToCts, int otmsMax, int owedRangesPerOtmMax,
            int pendingRangesMax, int reportRangesMax) {
        if (initialSnapshotCts < 0 || inheritedUpToCts < initialSnapshotCts) {
            throw new IllegalArgumentException("need 0 <= initialSnapshotCts <= inheritedUpToCts, got " + initialSnapshotCts
                    + " and " + inheritedUpToCts);
        }
        checkLimit("otmsMax", otmsMax);
        checkLimit("owedRangesPerOtmMax", owedRangesPerOtmMax);
        checkLimit("pendingRangesMax", pendingRangesMax);
        checkLimit("reportRangesMax", reportRangesMax);
        this.otmsMax = otmsMax;
        this.owedRangesPerOtmMax = owedRangesPerOtmMax;
        this.pendingRangesMax = pendingRangesMax;
        this.reportRangesMax = reportRangesMax;
        this.snapshotCts = initialSnapshotCts;
        this.issuedUpToCts = inheritedUpToCts;
        if (inheritedUpToCts > initialSnapshotCts) {
            inherited.put(initialSnapshotCts + 1, inheritedUpToCts);
        }
        inheritedReleased = inherited.isEmpty();
    }

    private static void checkLimit(String name, int value) {
        if (value < 1 || value > 100_000_000) {
            throw new IllegalArgumentException(name + " must be in [1, 10^8], got " + value);
        }
    }

    /** The snapshot counter: transactions that start now may read at it. */
    public long snapshotCts() {
        return snapshotCts;
    }

    /** Whether {@code otmId} reported to this server before (and was not recovered since). */
    public boolean knows(String otmId) {
        return otms.containsKey(otmId);
    }

    /**
     * First contact of {@code otmId}: it owes reports for {@code owedRanges} (CTSs a previous master
     * issued to it that it has not reported yet; empty for an OTM new to the cluster). Each must lie
     * in the inherited CTSs and not be claimed by another OTM.
     *
     * @throws RejectedReportException if a range is not inherited, or there are too many; nothing changed
     * @throws IllegalStateException if the OTM is known already (a bug of the caller)
     */
    public void register(String otmId, List<CtsRange> owedRanges) {
        if (otms.containsKey(otmId)) {
            throw new IllegalStateException("OTM " + otmId + " is registered already");
        }
        if (otms.size() >= otmsMax) {
            throw new RejectedReportException("the snapshot server tracks " + otmsMax + " OTMs already; OTM " + otmId
                    + " cannot join until a failed OTM is recovered (raise otmsMax if the cluster is this large)");
        }
        if (owedRanges.size() > reportRangesMax) {
            throw new RejectedReportException("OTM " + otmId + " claims " + owedRanges.size() + " owed ranges; at most "
                    + reportRangesMax + " allowed");
        }
        List<CtsRange> sorted = sortedDisjoint(otmId, owedRanges);
        for (CtsRange range : sorted) {
            Map.Entry<Long, Long> holder = inherited.floorEntry(range.firstCts());
            if (holder == null || holder.getValue() < range.lastCts()) {
                throw new RejectedReportException("OTM " + otmId + " claims to owe CTSs " + range + ", but they are not "
                        + "inherited from a previous master unclaimed" + (inheritedReleased ? " (inherited CTSs were already "
                        + "released as unused: the OTM registered after the master declared every OTM accounted for)" : ""));
            }
        }
        TreeMap<Long, Owed> owed = new TreeMap<>();
        for (CtsRange range : sorted) {
            Map.Entry<Long, Long> holder = inherited.floorEntry(range.firstCts());
            inherited.remove(holder.getKey());
            if (holder.getKey() < range.firstCts()) {
                inherited.put(holder.getKey(), range.firstCts() - 1);
            }
            if (holder.getValue() > range.lastCts()) {
                inherited.put(range.lastCts() + 1, holder.getValue());
            }
            owed.put(range.firstCts(), new Owed(range, false));
        }
        otms.put(otmId, owed);
    }

    /**
     * The sequencer issued {@code range} to {@code otmId}: it now owes a report for every CTS in it.
     * Ranges must come in order, each right above the previous one.
     *
     * @throws IllegalStateException if the OTM is unknown, owes too many ranges, or the range is
     *     not the next one (bugs of the caller)
     */
    public void issued(String otmId, CtsRange range) {
        TreeMap<Long, Owed> owed = otms.get(otmId);
        if (owed == null) {
            throw new IllegalStateException("range " + range + " issued to unknown OTM " + otmId);
        }
        if (range.firstCts() != issuedUpToCts + 1) {
            throw new IllegalStateException("range " + range + " issued to " + otmId + " does not start right after the last"
                    + " CTS issued, " + issuedUpToCts + ": CTSs would overlap or be skipped");
        }
        if (!mayIssue(otmId)) {
            throw new IllegalStateException("OTM " + otmId + " owes " + owed.size() + " ranges already; check mayIssue first");
        }
        owed.put(range.firstCts(), new Owed(range, true));
        issuedUpToCts = range.lastCts();
    }

    /** How many ranges {@code otmId} owes reports for (0 if unknown). */
    public int owedRanges(String otmId) {
        TreeMap<Long, Owed> owed = otms.get(otmId);
        return owed == null ? 0 : owed.size();
    }

    /** Whether {@code otmId} may be issued another range without passing the bound on owed ranges. */
    public boolean mayIssue(String otmId) {
        TreeMap<Long, Owed> owed = otms.get(otmId);
        if (owed == null) {
            return false;
        }
        int issuedHere = 0;
        for (Owed holder : owed.values()) {
            if (holder.issuedHere && ++issuedHere >= owedRangesPerOtmMax) {
                return false;
            }
        }
        return true;
    }

    /**
     * {@code otmId} reports CTSs that are durable and readable, and CTSs that it will never use.
     * For the snapshot both are done; they are separate only so that the report says what happened.
     *
     * @return the snapshot after the report
     * @throws RejectedReportException if a CTS was reported before, was not issued to this OTM (or
     *     the OTM reported all of that range already), appears twice in the report, or the report is
     *     too large; nothing changed
     */
    public long report(String otmId, List<CtsRange> readableRanges, List<CtsRange> unusedRanges) {
        TreeMap<Long, Owed> owed = otms.get(otmId);
        if (owed == null) {
            throw new RejectedReportException("OTM " + otmId + " reports CTSs but was never issued any by this master");
        }
        int count = readableRanges.size() + unusedRanges.size();
        if (count == 0) {
            return snapshotCts;
        }
        if (count > reportRangesMax) {
            throw new RejectedReportException("OTM " + otmId + " reports " + count + " ranges at once; at most " + reportRangesMax
                    + " allowed (coalesce adjacent CTSs into ranges)");
        }
        List<CtsRange> all = new ArrayList<>(count);
        all.addAll(readableRanges);
        all.addAll(unusedRanges);
        List<CtsRange> sorted = sortedDisjoint(otmId, all);
        if (done.size() + sorted.size() > pendingRangesMax) {
            throw new RejectedReportException(done.size() + " done CTS ranges already wait behind CTS " + (snapshotCts + 1)
                    + " (limit " + pendingRangesMax + "); an OTM is not reporting the CTSs it owes. Report rejected: send it"
                    + " again once the snapshot moves, or recover the OTM that holds CTS " + (snapshotCts + 1));
        }
        for (CtsRange range : sorted) {
            checkOwed(otmId, owed, range);
        }
        for (CtsRange range : sorted) {
            countDone(owed, range);
            markDone(range.firstCts(), range.lastCts());
        }
        return snapshotCts;
    }

    private void checkOwed(String otmId, TreeMap<Long, Owed> owed, CtsRange range) {
        if (range.firstCts() <= snapshotCts) {
            throw new RejectedReportException("OTM " + otmId + " reports " + range + " but the snapshot already passed CTS "
                    + range.firstCts() + ": reported twice, or never issued to " + otmId);
        }
        Map.Entry<Long, Long> below = done.floorEntry(range.lastCts());
        if (below != null && below.getValue() >= range.firstCts()) {
            throw new RejectedReportException("OTM " + otmId + " reports " + range + " but [" + below.getKey() + ", "
                    + below.getValue() + "] is done already: a CTS reported twice");
        }
        long cursor = range.firstCts();
        while (cursor <= range.lastCts()) {
            Map.Entry<Long, Owed> holder = owed.floorEntry(cursor);
            if (holder == null || holder.getValue().range.lastCts() < cursor) {
                throw new RejectedReportException("OTM " + otmId + " reports " + range + " but CTS " + cursor
                        + " is not in a range issued to it that it still owes");
            }
            cursor = holder.getValue().range.lastCts() + 1;
        }
    }

    private static void countDone(TreeMap<Long, Owed> owed, CtsRange range) {
        long cursor = range.firstCts();
        while (cursor <= range.lastCts()) {
            Owed holder = owed.floorEntry(cursor).getValue();
            long end = Math.min(holder.range.lastCts(), range.lastCts());
            holder.doneCount += end - cursor + 1;
            if (holder.doneCount > holder.range.sizeCts()) {
                throw new IllegalStateException("range " + holder.range + " counted " + holder.doneCount + " CTSs done");
            }
            if (holder.doneCount == holder.range.sizeCts()) {
                owed.remove(holder.range.firstCts());
            }
            cursor = end + 1;
        }
    }

    /** Marks [from, to] done; the caller checked it is above the snapshot and overlaps nothing done. */
    private void markDone(long from, long to) {
        long start = from;
        long end = to;
        Map.Entry<Long, Long> before = done.lowerEntry(from);
        if (before != null && before.getValue() == from - 1) {
            start = before.getKey();
            done.remove(start);
        }
        Long after = done.remove(to + 1);
        if (after != null) {
            end = after;
        }
        if (start == snapshotCts + 1) {
            if (end > issuedUpToCts) {
                throw new IllegalStateException("snapshot would pass " + issuedUpToCts + ", the last CTS issued, to " + end);
            }
            snapshotCts = end;
        } else {
            done.put(start, end);
        }
    }

    /**
     * The WAL of the failed OTM {@code otmId} has been recovered (its logged commits are applied by
     * the partitions' new owners, so they are readable), and it can never commit again (its znode is
     * gone and its WAL fenced). Every CTS it still owed is now done: unused or readable. Calling this
     * before the WAL is recovered could make commits visible before they are readable, or lose them
     * from snapshots: only the master's recovery orchestration may call it. Unknown OTMs are ignored
     * (an OTM that failed before registering here owes only inherited CTSs, released by
     * {@link #releaseInherited()}).
     */
    public void otmRecovered(String otmId) {
        TreeMap<Long, Owed> owed = otms.remove(otmId);
        if (owed == null) {
            return;
        }
        List<CtsRange> gaps = new ArrayList<>();
        long floor = snapshotCts + 1;
        for (Owed holder : owed.values()) {
            long cursor = Math.max(holder.range.firstCts(), floor);
            Map.Entry<Long, Long> covering = done.floorEntry(cursor);
            if (covering != null && covering.getValue() >= cursor) {
                cursor = covering.getValue() + 1;
            }
            if (cursor > holder.range.lastCts()) {
                continue;
            }
            for (Map.Entry<Long, Long> entry : done.subMap(cursor, true, holder.range.lastCts(), true).entrySet()) {
                if (entry.getKey() > cursor) {
                    gaps.add(new CtsRange(cursor, entry.getKey() - 1));
                }
                cursor = entry.getValue() + 1;
            }
            if (cursor <= holder.range.lastCts()) {
                gaps.add(new CtsRange(cursor, holder.range.lastCts()));
            }
        }
        for (CtsRange gap : gaps) {
            markDone(gap.firstCts(), gap.lastCts());
        }
    }

    /**
     * Every OTM alive when this master took over has registered, and every OTM that failed before
     * registering has had its WAL recovered: the inherited CTSs nobody claimed are done. Only the
     * master's membership logic knows when that holds; until it calls this, the snapshot stays at or
     * below the initial snapshot.
     */
    public void releaseInherited() {
        List<Map.Entry<Long, Long>> ranges = new ArrayList<>(inherited.entrySet());
        inherited.clear();
        inheritedReleased = true;
        for (Map.Entry<Long, Long> range : ranges) {
            markDone(range.getKey(), range.getValue());
        }
    }

    /** Whether inherited CTSs are still waiting for {@link #releaseInherited()}. */
    public boolean inheritedPending() {
        return !inherited.isEmpty();
    }

    /** Done ranges waiting behind a gap (for metrics and tests). */
    public int pendingRanges() {
        return done.size();
    }

    /** The last CTS issued or inherited. */
    public long issuedUpToCts() {
        return issuedUpToCts;
    }

    private static List<CtsRange> sortedDisjoint(String otmId, List<CtsRange> ranges) {
        List<CtsRange> sorted = new ArrayList<>(ranges);
        for (CtsRange range : sorted) {
            if (range == null) {
                throw new RejectedReportException("OTM " + otmId + " sent a null CTS range");
            }
        }
        sorted.sort(Comparator.comparingLong(CtsRange::firstCts));
        for (int i = 1; i < sorted.size(); i++) {
            if (sorted.get(i).firstCts() <= sorted.get(i - 1).lastCts()) {
                throw new RejectedReportException("OTM " + otmId + " sent overlapping ranges " + sorted.get(i - 1) + " and "
                        + sorted.get(i) + " in one report: a CTS reported twice");
            }
        }
        return sorted;
    }
}
