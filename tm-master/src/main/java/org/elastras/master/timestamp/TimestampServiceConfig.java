package org.elastras.master.timestamp;

/**
 * Limits and sizes of the timestamp service. Immutable.
 *
 * @param rangeSizeMinCts smallest range handed to an OTM (an idle one)
 * @param rangeSizeMaxCts largest range handed to an OTM
 * @param highWaterMarkWindowCts how far ahead of the last issued CTS each persisted mark reaches;
 *     at least twice {@code rangeSizeMaxCts}. A mark is persisted every half window of CTSs issued
 * @param otmsMax most OTMs served at once
 * @param owedRangesPerOtmMax most ranges one OTM may owe reports for; beyond, it gets no new range
 * @param pendingRangesMax most done CTS ranges waiting behind a gap
 * @param reportRangesMax most ranges in one report
 */
public record TimestampServiceConfig(long rangeSizeMinCts, long rangeSizeMaxCts, long highWaterMarkWindowCts, int otmsMax,
        int owedRangesPerOtmMax, int pendingRangesMax, int reportRangesMax) {

    public TimestampServiceConfig {
        new RangeSizing(rangeSizeMinCts, rangeSizeMaxCts);
        if (highWaterMarkWindowCts < 2 * rangeSizeMaxCts) {
            throw new IllegalArgumentException("highWaterMarkWindowCts must be at least 2 * rangeSizeMaxCts = "
                    + 2 * rangeSizeMaxCts + ", got " + highWaterMarkWindowCts);
        }
    }

    /**
     * Ranges of 64 to 1M CTSs, a mark persisted every 5M CTSs (10M window: at 5M CTS/s, one
     * ZooKeeper write a second), up to 4096 OTMs each owing up to 64 ranges, 1M pending ranges,
     * 4096 ranges per report.
     */
    public static TimestampServiceConfig defaults() {
        return new TimestampServiceConfig(64, 1 << 20, 10_000_000, 4096, 64, 1 << 20, 4096);
    }

    RangeSizing sizing() {
        return new RangeSizing(rangeSizeMinCts, rangeSizeMaxCts);
    }
}
