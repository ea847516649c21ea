package org.elastras.client;

/**
 * How many coalesced call requests a client keeps in flight to one OTM, from how often its calls
 * run into each other: plain logic, driven by the outcomes the client sees.
 *
 * <p>More requests in flight keep the OTM's cores busy while earlier requests wait for their log
 * syncs, which helps calls that touch different rows; but every call waiting for its sync holds
 * its rows, so when calls contend (TPC-C's districts and warehouses) more in flight means more
 * calls that conflict and run again (with four in flight TPC-C re-ran 33 % of its transactions
 * against 16 % with two, and lost a third of its throughput). So the limit is {@code max} while
 * few calls re-run and {@code contended} once many do: over each window of {@code window} answered
 * calls, a share of re-run calls at or above {@code lowerAt} sets {@code contended}, one below
 * {@code raiseBelow} sets {@code max} again; in between it stays (hysteresis). A call re-runs when
 * the OTM ran it more than once ({@code attempts > 1}) or gave up on a conflict.
 *
 * <p>Not thread-safe: the owner serializes calls (the coalescer's lock).
 */
final class InFlightLimit {

    private final int max;
    private final int contended;
    private final int window;
    private final double raiseBelow;
    private final double lowerAt;
    private int limit;
    private int calls;
    private int reRun;

    /**
     * @param max the limit while calls rarely re-run, at least 1
     * @param contended the limit while many do, 1 to {@code max}
     * @param window answered calls per decision, at least 1
     * @param raiseBelow share of re-run calls below which the limit goes back to {@code max}
     * @param lowerAt share at or above which the limit drops to {@code contended}; at least
     *     {@code raiseBelow}
     */
    InFlightLimit(int max, int contended, int window, double raiseBelow, double lowerAt) {
        if (max < 1 || contended < 1 || contended > max || window < 1 || raiseBelow < 0 || lowerAt < raiseBelow
                || lowerAt > 1) {
            throw new IllegalArgumentException("need 1 <= contended <= max, window >= 1 and 0 <= raiseBelow <= lowerAt <= 1;"
                    + " got max " + max + ", contended " + contended + ", window " + window + ", raiseBelow " + raiseBelow
                    + ", lowerAt " + lowerAt);
        }
        this.max = max;
        this.contended = contended;
        this.window = window;
        this.raiseBelow = raiseBelow;
        this.lowerAt = lowerAt;
        this.limit = max;
    }

    /** The number of requests that may be in flight now. */
    int limit() {
        return limit;
    }

    /** Counts the outcomes of one answered request: {@code answered} calls, {@code reRunCalls} of which re-ran. */
    void note(int answered, int reRunCalls) {
        if (answered < 0 || reRunCalls < 0 || reRunCalls > answered) {
            throw new IllegalArgumentException("answered " + answered + ", re-run " + reRunCalls);
        }
        calls += answered;
        reRun += reRunCalls;
        if (calls < window) {
            return;
        }
        double share = (double) reRun / calls;
        if (share >= lowerAt) {
            limit = contended;
        } else if (share < raiseBelow) {
            limit = max;
        }
        calls = 0;
        reRun = 0;
    }
}
