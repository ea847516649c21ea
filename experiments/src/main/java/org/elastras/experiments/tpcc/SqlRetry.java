package org.elastras.experiments.tpcc;

import java.sql.SQLException;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.Predicate;

/**
 * When an SQL baseline runs a transaction again: the database rolled it back for a reason a retry
 * may fix ({@code retryable}: a deadlock, a lock timeout, a serialization failure), it has run fewer
 * than {@code attemptsMax} times, and after a random pause of up to min(2^attempt, backoffMsMax)
 * ms (none if backoffMsMax is 0). The pause is what PostgreSQL's documentation advises for
 * serialization failures: without it, transactions that keep conflicting retry in lock step. The
 * randomness only spreads retries in time; it changes no result. Immutable.
 */
record SqlRetry(Predicate<SQLException> retryable, int attemptsMax, int backoffMsMax) {

    SqlRetry {
        if (attemptsMax < 1 || attemptsMax > 1_000) {
            throw new IllegalArgumentException("attemptsMax must be in [1, 1000], got " + attemptsMax);
        }
        if (backoffMsMax < 0 || backoffMsMax > 10_000) {
            throw new IllegalArgumentException("backoffMsMax must be in [0, 10000], got " + backoffMsMax);
        }
    }

    /**
     * After attempt {@code attempt} (from 1) failed with {@code e}: whether to run again, having
     * paused if so.
     */
    boolean again(SQLException e, int attempt) {
        if (!retryable.test(e) || attempt >= attemptsMax) {
            return false;
        }
        if (backoffMsMax > 0) {
            long capMs = Math.min(backoffMsMax, 1L << Math.min(attempt, 20));
            try {
                Thread.sleep(ThreadLocalRandom.current().nextLong(capMs + 1));
            } catch (InterruptedException interrupted) {
                Thread.currentThread().interrupt();
                return false;
            }
        }
        return true;
    }
}
