package org.elastras.master.timestamp;

import org.elastras.client.protocol.WithheldReason;
import org.elastras.client.protocol.CtsRange;
import java.util.HashMap;
import java.util.Map;
import java.util.OptionalLong;

/**
 * The commit sequencer (LeanXcale's proactive commit sequencer, seed 000 section 4.2.1): hands
 * each OTM a range of CTSs per period, sized from that OTM's last period, and never issues a CTS
 * twice, also across master failover. Plain logic: inputs are OTM exchanges and the outcome of
 * high-water mark writes, outputs are {@link RangeDecision}s and "persist this mark" requests; it
 * does no IO and reads no clock.
 *
 * <p>Not thread-safe: one caller at a time ({@link TimestampService} holds its lock around every
 * call).
 *
 * <p><b>Never twice.</b> Ranges are cut one after another from a single counter, so they never
 * overlap, and a CTS is never handed out again, not even the unused rest of a range an OTM
 * returns. Every range lies at or below the <i>durable high-water mark</i>: the largest CTS a
 * persisted mark allows. The sequencer asks its owner ({@link #persistDue()}) to persist a new mark
 * one window ahead whenever less than half a window is left, and withholds ranges that would pass
 * the durable mark until the owner confirms ({@link #persisted}). A sequencer built on a persisted
 * mark H starts issuing at H + 1 and must first persist a mark above H, so a new master never
 * reissues what an old one issued (every CTS the old one issued is at or below its durable mark,
 * which is at or below H).
 */
public final class CommitSequencer {

    private final RangeSizing sizing;
    private final long highWaterMarkWindowCts;
    private final int otmsMax;

    /** The next CTS to issue; every CTS below it was issued or skipped for good. */
    private long nextCts;
    /** Every CTS issued is at or below it; persisted by the owner. */
    private long durableMarkCts;
    /** The mark the owner is persisting now, 0 if none. */
    private long markInFlightCts;
    /** Set when another master advanced the persisted mark: nothing more is issued. */
    private boolean fenced;
    /** The last range issued to each OTM known to this sequencer (to resend it if its reply was lost). */
    private final Map<String, CtsRange> lastIssued = new HashMap<>();

    /**
     * @param persistedMarkCts the high-water mark read from the store at start (0 for a new
     *     cluster); the first CTS issued is above it
     * @param sizing how large each range is
     * @param highWaterMarkWindowCts how far ahead each persisted mark reaches, at least twice the
     *     largest range (so a persist started at half a window left never blocks a range)
     * @param otmsMax most OTMs tracked at once
     */
    public CommitSequencer(long persistedMarkCts, RangeSizing sizing, long highWaterMarkWindowCts, int otmsMax) {
        if (persistedMarkCts < 0) {
            throw new IllegalArgumentException("persisted high-water mark must be >= 0, got " + persistedMarkCts);
        }
        if (highWaterMarkWindowCts < 2 * sizing.rangeSizeMaxCts() || highWaterMarkWindowCts > Long.MAX_VALUE / 4) {
            throw new IllegalArgumentException("highWaterMarkWindowCts must be at least twice rangeSizeMaxCts ("
                    + 2 * sizing.rangeSizeMaxCts() + ") and below 2^61, got " + highWaterMarkWindowCts);
        }
        if (otmsMax < 1) {
            throw new IllegalArgumentException("otmsMax must be >= 1, got " + otmsMax);
        }
        if (persistedMarkCts > Long.MAX_VALUE / 2) {
            throw new IllegalStateException("high-water mark " + persistedMarkCts + " is past 2^62: the CTS space is used up");
        }
        this.sizing = sizing;
        this.highWaterMarkWindowCts = highWaterMarkWindowCts;
        this.otmsMax = otmsMax;
        this.nextCts = persistedMarkCts + 1;
        this.durableMarkCts = persistedMarkCts;
    }

    /**
     * Decides what the OTM {@code otmId} gets in this period's exchange.
     *
     * @param latestRangeReceived the last range the OTM says it received (null if none)
     * @param takenCount CTSs the OTM took from that range
     */
    public RangeDecision decide(String otmId, CtsRange latestRangeReceived, long takenCount) {
        if (fenced) {
            return new RangeDecision.Withhold(WithheldReason.FENCED);
        }
        CtsRange last = lastIssued.get(otmId);
        if (last != null && !last.equals(latestRangeReceived)) {
            // The reply that carried `last` was lost: the OTM never used it, so hand it over again.
            return new RangeDecision.Resend(last);
        }
        if (last == null && lastIssued.size() >= otmsMax) {
            throw new IllegalStateException("commit sequencer tracks " + otmsMax + " OTMs already; cannot add " + otmId);
        }
        long receivedSizeCts = latestRangeReceived == null ? 0 : latestRangeReceived.sizeCts();
        long sizeCts = sizing.nextSizeCts(receivedSizeCts, takenCount);
        long lastCts = nextCts + sizeCts - 1;
        if (lastCts > durableMarkCts) {
            return new RangeDecision.Withhold(WithheldReason.AWAITING_HIGH_WATER_MARK);
        }
        CtsRange range = new CtsRange(nextCts, lastCts);
        nextCts = lastCts + 1;
        lastIssued.put(otmId, range);
        return new RangeDecision.Issue(range);
    }

    /**
     * A high-water mark the owner should persist now (and then report with {@link #persisted} or
     * {@link #persistFailed}), or empty if none is needed or one is already being persisted. Asks
     * one window past the last CTS issued once less than half a window is left below the durable
     * mark, so persisting stays off the path of the exchanges.
     */
    public OptionalLong persistDue() {
        if (fenced || markInFlightCts != 0) {
            return OptionalLong.empty();
        }
        long issuedUpToCts = nextCts - 1;
        if (durableMarkCts - issuedUpToCts >= highWaterMarkWindowCts / 2) {
            return OptionalLong.empty();
        }
        markInFlightCts = issuedUpToCts + highWaterMarkWindowCts;
        return OptionalLong.of(markInFlightCts);
    }

    /** The owner persisted {@code markCts} (the value {@link #persistDue()} asked for). */
    public void persisted(long markCts) {
        checkInFlight(markCts);
        markInFlightCts = 0;
        durableMarkCts = markCts;
    }

    /** Persisting {@code markCts} failed without a conflict (store unavailable); it will be asked again. */
    public void persistFailed(long markCts) {
        checkInFlight(markCts);
        markInFlightCts = 0;
    }

    private void checkInFlight(long markCts) {
        if (markInFlightCts != markCts) {
            throw new IllegalStateException("high-water mark " + markCts + " reported, but the mark being persisted is "
                    + markInFlightCts);
        }
    }

    /**
     * Another master advanced the persisted mark (a version conflict): this sequencer is stale and
     * from now on withholds every range. Ranges issued before stay valid: they lie at or below this
     * sequencer's durable mark, which the other master started above.
     */
    public void fence() {
        fenced = true;
        markInFlightCts = 0;
    }

    /** Whether {@link #fence()} was called. */
    public boolean fenced() {
        return fenced;
    }

    /** Drops what is known about {@code otmId} (it failed); its next exchange is a first contact. */
    public void forget(String otmId) {
        lastIssued.remove(otmId);
    }

    /** The last CTS issued (the persisted mark at start if none was). */
    public long issuedUpToCts() {
        return nextCts - 1;
    }

    /** The durable high-water mark: every CTS issued is at or below it. */
    public long durableMarkCts() {
        return durableMarkCts;
    }
}
