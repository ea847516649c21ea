package org.elastras.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Random;
import org.junit.jupiter.api.Test;

class RetryPolicyTest {

    private static final long MS = 1_000_000L;

    @Test
    void backoffDoublesFromTheMinimumUpToTheMaximumWithAtMostHalfTakenOff() {
        RetryPolicy policy = new RetryPolicy(30_000, 1_000, 10, 1_000);
        Random random = new Random(42);
        long[] full = {10, 20, 40, 80, 160, 320, 640, 1_000, 1_000, 1_000};
        for (int failures = 1; failures <= full.length; failures++) {
            for (int i = 0; i < 50; i++) {
                long b = policy.backoffMs(failures, random);
                long f = full[failures - 1];
                assertTrue(b >= f - f / 2 && b <= f, "failure " + failures + ": " + b + " not in [" + (f - f / 2) + ", " + f + "]");
            }
        }
        assertTrue(policy.backoffMs(10_000, random) <= 1_000, "no overflow after many failures");
        RetryPolicy flat = new RetryPolicy(1_000, 10, 1, 1);
        assertEquals(1, flat.backoffMs(5, random));
        assertThrows(IllegalArgumentException.class, () -> new RetryPolicy(1_000, 10, 100, 50));
        assertThrows(IllegalArgumentException.class, () -> new RetryPolicy(0, 10, 1, 1));
    }

    @Test
    void noAttemptStartsPastTheDeadlineOrBeyondTheAttemptBound() {
        RetryPolicy policy = new RetryPolicy(1_000, 5, 100, 100);
        Random random = new Random(7);
        long start = 5_000 * MS;
        long delay = policy.nextDelayMs(start, 1, start, random);
        assertTrue(delay >= 50 && delay <= 100, "first backoff " + delay);
        // 950 ms in: a full backoff would cross the deadline, so the last attempt comes just before it.
        assertEquals(49, policy.nextDelayMs(start, 2, start + 950 * MS, random));
        assertEquals(-1, policy.nextDelayMs(start, 3, start + 1_000 * MS, random), "deadline passed");
        assertEquals(-1, policy.nextDelayMs(start, 5, start, random), "5 attempts made");
    }

    @Test
    void aRetryLoopOnAManualClockEndsAtTheDeadline() {
        RetryPolicy policy = new RetryPolicy(2_000, 1_000, 10, 200);
        TestCatalogs.ManualClock clock = new TestCatalogs.ManualClock();
        Random random = new Random(1);
        long start = clock.nanoTime();
        int failures = 0;
        while (true) {
            failures++;
            clock.advanceMs(3); // each attempt takes 3 ms
            long delay = policy.nextDelayMs(start, failures, clock.nanoTime(), random);
            if (delay < 0) {
                break;
            }
            clock.sleepMs(delay);
        }
        long elapsedMs = (clock.nanoTime() - start) / MS;
        assertTrue(elapsedMs >= 2_000 && elapsedMs <= 2_003, "ended " + elapsedMs + " ms in");
        assertTrue(failures > 12 && failures < 40, "attempts " + failures);
        assertTrue(clock.sleeps.stream().allMatch(s -> s <= 200), "bounded pauses " + clock.sleeps);
    }
}
