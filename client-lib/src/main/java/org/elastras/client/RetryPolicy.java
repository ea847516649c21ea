package org.elastras.client;

import java.util.concurrent.TimeUnit;
import java.util.random.RandomGenerator;

/**
 * When a failed request may be tried again: within a deadline from its first attempt, at most
 * {@code attemptsMax} attempts, waiting an exponentially growing, jittered backoff between them.
 * Pure logic (time and randomness are passed in); immutable and thread-safe.
 *
 * <p>The backoff after the n-th failure is {@code min(backoffMaxMs, backoffMinMs * 2^(n-1))}, of
 * which a random half is taken off ("equal jitter"), so concurrent clients do not retry in step.
 * A retry is allowed only if its attempt would start before the deadline.
 *
 * @param deadlineMs how long after the first attempt retries may start, in milliseconds
 * @param attemptsMax the most attempts of one request
 * @param backoffMinMs the first backoff, in milliseconds
 * @param backoffMaxMs the largest backoff, in milliseconds
 */
record RetryPolicy(long deadlineMs, int attemptsMax, long backoffMinMs, long backoffMaxMs) {

    RetryPolicy {
        if (deadlineMs < 1 || deadlineMs > 3_600_000) {
            throw new IllegalArgumentException("retry deadlineMs must be 1 to 3600000, got " + deadlineMs);
        }
        if (attemptsMax < 1 || attemptsMax > 10_000) {
            throw new IllegalArgumentException("attemptsMax must be 1 to 10000, got " + attemptsMax);
        }
        if (backoffMinMs < 1 || backoffMaxMs < backoffMinMs || backoffMaxMs > 60_000) {
            throw new IllegalArgumentException("backoff bounds must satisfy 1 <= backoffMinMs <= backoffMaxMs <= 60000, got "
                    + backoffMinMs + " and " + backoffMaxMs);
        }
    }

    /** The pause after the {@code failures}-th failure (1 or more), in milliseconds. */
    long backoffMs(int failures, RandomGenerator random) {
        if (failures < 1) {
            throw new IllegalArgumentException("failures must be at least 1, got " + failures);
        }
        // backoffMinMs < 2^16 and at most 30 doublings: no overflow.
        long full = Math.min(backoffMaxMs, backoffMinMs << Math.min(failures - 1, 30));
        long half = full / 2;
        return full - (half == 0 ? 0 : random.nextLong(half + 1));
    }

    /**
     * The pause before the next attempt of a request that started at {@code startedNanos} and has
     * failed {@code failures} times, or -1 if no further attempt is allowed (attempts used up, or it
     * would start past the deadline).
     */
    long nextDelayMs(long startedNanos, int failures, long nowNanos, RandomGenerator random) {
        if (failures >= attemptsMax) {
            return -1;
        }
        long delay = backoffMs(failures, random);
        long elapsedMs = TimeUnit.NANOSECONDS.toMillis(nowNanos - startedNanos);
        if (elapsedMs + delay >= deadlineMs) {
            long left = deadlineMs - elapsedMs - 1;
            // One last attempt just before the deadline beats giving up with time left.
            return left >= 0 ? left : -1;
        }
        return delay;
    }
}
