package org.elastras.master.balance;

/**
 * How the active master balances on its own. Immutable.
 *
 * <p>Off ({@code periodMs} 0) the master still keeps the load window and answers
 * {@code balance --dry-run}, but moves nothing unless an operator asks. Without a provisioner the
 * master carries out only moves for load; it reports what the policy says about adding or
 * removing OTMs in its events.
 *
 * @param periodMs how often the policy runs, 0 for never
 * @param window the load window
 * @param policy the thresholds and bounds
 */
public record BalanceConfig(long periodMs, LoadWindowConfig window, ThresholdPolicyConfig policy) {

    /**
     * Balancing every 5 s (one slice of the 30 s window) above 5,000 requests/s per OTM held over
     * the whole window; no consolidation (lower threshold 0); a partition moved for load stays
     * put for 60 s; at most 4 moves at once.
     */
    public static final BalanceConfig DEFAULT = new BalanceConfig(5_000, LoadWindowConfig.DEFAULT,
            new ThresholdPolicyConfig(5_000, 0, 60_000, 4, 1, 1_000));

    public BalanceConfig {
        if (periodMs < 0 || periodMs > 3_600_000) {
            throw new IllegalArgumentException("balance periodMs must be in [0, 3600000], got " + periodMs);
        }
        if (window == null || policy == null) {
            throw new IllegalArgumentException("a balance config needs a load window and a policy");
        }
    }
}
