package org.elastras.master.timestamp;

/**
 * How large a range of CTSs the commit sequencer hands an OTM for its next period. Immutable.
 *
 * <p>The rule, from what the OTM reports about the range it used last:
 * <pre>
 *   first contact (no range received yet)   next = min
 *   otherwise                               next = clamp(max(2 * taken, received / 2), min, max)
 * </pre>
 * <ul>
 *   <li><b>Growth</b>: twice the CTSs taken last period, so a load that doubles within a period
 *       still fits. An OTM that used up its whole range (it had to refuse commits until the next
 *       range came) therefore gets twice the range it had.
 *   <li><b>Shrink</b>: at most by half per period, so one quiet period does not starve the next
 *       burst.
 *   <li><b>Floor</b> {@code min}: an idle OTM still gets a few CTSs for the first commit of the
 *       next period. <b>Cap</b> {@code max}: one OTM cannot consume the high-water mark window.
 * </ul>
 * An oversized range costs nothing but numbers: the rest is reported unused at the next exchange
 * (64-bit CTSs last for millennia at billions per second), and the snapshot does not wait for it
 * longer than one period, because the OTM switches to its new range every period.
 *
 * @param rangeSizeMinCts the floor, at least 1
 * @param rangeSizeMaxCts the cap, at least the floor
 */
public record RangeSizing(long rangeSizeMinCts, long rangeSizeMaxCts) {

    /** The largest cap accepted: 2^40 CTSs in one range. */
    public static final long RANGE_SIZE_LIMIT_CTS = 1L << 40;

    public RangeSizing {
        if (rangeSizeMinCts < 1) {
            throw new IllegalArgumentException("rangeSizeMinCts must be >= 1, got " + rangeSizeMinCts);
        }
        if (rangeSizeMaxCts < rangeSizeMinCts || rangeSizeMaxCts > RANGE_SIZE_LIMIT_CTS) {
            throw new IllegalArgumentException("rangeSizeMaxCts must be in [rangeSizeMinCts=" + rangeSizeMinCts + ", 2^40], got "
                    + rangeSizeMaxCts);
        }
    }

    /**
     * The size of the next range.
     *
     * @param receivedSizeCts size of the last range the OTM received, 0 if it has none
     * @param takenCount CTSs the OTM took from that range, in [0, receivedSizeCts]
     */
    public long nextSizeCts(long receivedSizeCts, long takenCount) {
        if (receivedSizeCts < 0 || takenCount < 0 || takenCount > receivedSizeCts) {
            throw new IllegalArgumentException("taken " + takenCount + " of a range of " + receivedSizeCts + " CTSs is impossible");
        }
        if (receivedSizeCts == 0) {
            return rangeSizeMinCts;
        }
        // Both terms are at most 2 * RANGE_SIZE_LIMIT_CTS when the OTM is honest; clamp before anything can overflow.
        long wanted = Math.max(2 * Math.min(takenCount, RANGE_SIZE_LIMIT_CTS), receivedSizeCts / 2);
        return Math.min(rangeSizeMaxCts, Math.max(rangeSizeMinCts, wanted));
    }
}
