package org.elastras.otm.txn;

import java.util.Arrays;

/**
 * Where a thread's transaction work waited, by what it waited for, for the slow-call log
 * ({@link ProcedureRunner}): a call's attempts can stall inside themselves (a commit timestamp
 * that does not come, a full memtable budget, another OTM), and the log then said only that an
 * attempt took long (session 22: every terminal stalled 1.7 s at once, two calls inside one
 * attempt each, and nothing said where).
 *
 * <p>Per thread, no locks: each wait site adds to the account of the thread that waited, and the
 * procedure runner clears it when a call starts and reads it when the call was slow. Only waits
 * are timed, so the common path (no wait) costs a clock read or nothing.
 */
final class CallWaits {

    /** What a wait was for. */
    enum Cause {
        COMMIT_TIMESTAMP("commit timestamps"),
        COMMIT_LOCK("its partition's commit lock"),
        WRITE_CAPACITY("room in the memtables"),
        BRANCH_OUTCOME("other transactions' branches"),
        OTHER_ADDERS("other adders of its rows"),
        ROW_WRITERS("writers of rows it adds to"),
        OTHER_PARTITIONS("its branches on other partitions (their reads and writes, the commit across them)");

        final String what;

        Cause(String what) {
            this.what = what;
        }
    }

    private static final ThreadLocal<long[]> NANOS = ThreadLocal.withInitial(() -> new long[Cause.values().length]);

    private CallWaits() {
    }

    /** Clears this thread's account and returns it, to be read at the call's end ({@link #describe}). */
    static long[] start() {
        long[] nanos = NANOS.get();
        Arrays.fill(nanos, 0);
        return nanos;
    }

    /** Adds the time since {@code beganNanos} ({@link System#nanoTime}) to this thread's account of {@code cause}. */
    static void since(Cause cause, long beganNanos) {
        NANOS.get()[cause.ordinal()] += System.nanoTime() - beganNanos;
    }

    /**
     * E.g. "; inside its attempts it waited 1650 ms for commit timestamps, 12 ms for its partition's
     * commit lock", naming the waits of 1 ms or more; empty if there was none.
     */
    static String describe(long[] nanos) {
        StringBuilder out = new StringBuilder();
        for (Cause c : Cause.values()) {
            long ms = nanos[c.ordinal()] / 1_000_000;
            if (ms > 0) {
                out.append(out.length() == 0 ? "; inside its attempts it waited " : ", ").append(ms).append(" ms for ").append(c.what);
            }
        }
        return out.toString();
    }
}
