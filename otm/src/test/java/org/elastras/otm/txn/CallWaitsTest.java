package org.elastras.otm.txn;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import org.junit.jupiter.api.Test;

/** A thread's account of its waits: added by cause, cleared at a call's start, described from 1 ms. */
class CallWaitsTest {

    @Test
    void waitsAddUpByCauseAndAreClearedWhenACallStarts() throws Exception {
        long[] account = CallWaits.start();
        assertEquals("", CallWaits.describe(account));
        long now = System.nanoTime();
        CallWaits.since(CallWaits.Cause.COMMIT_LOCK, now - 3_000_000L);
        CallWaits.since(CallWaits.Cause.COMMIT_LOCK, now - 4_000_000L);
        CallWaits.since(CallWaits.Cause.WRITE_CAPACITY, now - 500_000L); // under 1 ms: not named
        CallWaits.since(CallWaits.Cause.COMMIT_TIMESTAMP, now - 1_650_000_000L);
        assertEquals("; inside its attempts it waited 1650 ms for commit timestamps, 7 ms for its partition's commit lock",
                CallWaits.describe(account));

        // Another thread's waits are its own.
        Thread other = new Thread(() -> CallWaits.since(CallWaits.Cause.OTHER_ADDERS, System.nanoTime() - 50_000_000L));
        other.start();
        other.join();
        assertEquals(0, account[CallWaits.Cause.OTHER_ADDERS.ordinal()]);

        assertSame(account, CallWaits.start(), "one account per thread, cleared");
        assertEquals("", CallWaits.describe(account));
    }
}
