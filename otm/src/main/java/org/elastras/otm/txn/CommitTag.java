package org.elastras.otm.txn;

import java.util.function.LongSupplier;
import java.util.function.Predicate;

/**
 * A client's id for one writing transaction (the protocol's {@code CommitId}), and the commit marker
 * it leaves: when such a transaction commits, one more row goes into the same WAL record and store,
 * under the reserved table id 0 (user tables start at 1, see {@link StorageKeys}) and key
 * {@code issuedMs, nonce}. So the marker is exactly as durable as the commit, moves and recovers with
 * the partition, and tells a later owner whether the commit happened. Markers expire
 * {@code retentionMs} after {@code issuedMs}: compaction drops them. Immutable.
 *
 * <p>Marker value: {@link #NO_RESULT} for a transaction, {@link #RESULT_KEPT} followed by the encoded
 * result for a procedure call, {@link #RESULT_TOO_LARGE} when the result was not kept.
 */
public record CommitTag(long issuedMs, long nonce) {

    public static final byte NO_RESULT = 0;
    public static final byte RESULT_KEPT = 1;
    public static final byte RESULT_TOO_LARGE = 2;
    private static final int KEY_BYTES = 2 + 8 + 8;

    /** The marker's storage key. */
    public byte[] markerKey() {
        byte[] key = new byte[KEY_BYTES];
        putLong(key, 2, issuedMs);
        putLong(key, 10, nonce);
        return key;
    }

    private static final byte BRANCH_MARK = 'B';

    /**
     * The key of a participant's branch marker: a mutation under it in a WAL record makes the
     * record a cross-partition prepare record (its value a {@link BranchCoordinator}), which a
     * replay must not apply before the coordinator's outcome is known. Never stored.
     */
    public byte[] branchMarkerKey() {
        byte[] key = new byte[KEY_BYTES + 1];
        key[2] = BRANCH_MARK;
        putLong(key, 3, issuedMs);
        putLong(key, 11, nonce);
        return key;
    }

    /** The tag of a branch marker key, or null if {@code key} is not one. */
    public static CommitTag ofBranchMarkerKey(byte[] key) {
        if (key.length != KEY_BYTES + 1 || key[0] != 0 || key[1] != 0 || key[2] != BRANCH_MARK) {
            return null;
        }
        return new CommitTag(getLong(key, 3), getLong(key, 11));
    }

    /** Whether {@code key} is a commit marker's. */
    static boolean isMarkerKey(byte[] key) {
        return key.length == KEY_BYTES && key[0] == 0 && key[1] == 0;
    }

    /**
     * The expiry rule for a store: a marker key issued more than {@code retentionMs} before
     * {@code wallClockMs} now.
     */
    public static Predicate<byte[]> expiry(LongSupplier wallClockMs, long retentionMs) {
        return key -> isMarkerKey(key) && getLong(key, 2) < wallClockMs.getAsLong() - retentionMs;
    }

    private static void putLong(byte[] b, int at, long v) {
        for (int i = 7; i >= 0; i--) {
            b[at + i] = (byte) v;
            v >>>= 8;
        }
    }

    private static long getLong(byte[] b, int at) {
        long v = 0;
        for (int i = 0; i < 8; i++) {
            v = (v << 8) | (b[at + i] & 0xFF);
        }
        return v;
    }
}
