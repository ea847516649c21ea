package org.elastras.otm.txn;

/**
 * The bounds on transactions of one {@link TransactionManager}. Immutable; validated at
 * construction.
 *
 * @param keyBytesMax largest key, in bytes (at most the storage limit)
 * @param valueBytesMax largest value, in bytes (at most the storage limit)
 * @param writeSetKeysMax most keys one transaction may write
 * @param writeSetBytesMax most bytes (keys plus values) one transaction may write
 * @param readSetKeysMax most keys (and scanned ranges) a SERIALIZABLE transaction may read
 * @param scanRowsMax largest limit of one scan
 * @param openTransactionsMax most transactions open at once
 * @param openTransactionsPerClientMax most transactions one client id may have open at once
 * @param idleTimeoutMs a transaction with no call for this long is aborted by {@code reap}
 * @param writeCapacityWaitMs how long a commit waits for a store that flushes too slowly
 */
public record TransactionLimits(int keyBytesMax, int valueBytesMax, int writeSetKeysMax, long writeSetBytesMax,
        int readSetKeysMax, int scanRowsMax, int openTransactionsMax, int openTransactionsPerClientMax,
        long idleTimeoutMs, long writeCapacityWaitMs) {

    /**
     * Key and value limits equal to {@code StorageLimits.DEFAULT}'s. Scans: the protocol's 10,000
     * rows plus the one more row the OTM reads to tell whether more follow (a remote branch's scan
     * of 10,000 rows was refused without it).
     */
    public static final TransactionLimits DEFAULT = new TransactionLimits(16 * 1024, 1 << 20, 10_000, 16L << 20,
            100_000, 10_001, 10_000, 1_000, 30_000, 5_000);

    public TransactionLimits {
        check("keyBytesMax", keyBytesMax, 1, 64 * 1024);
        check("valueBytesMax", valueBytesMax, 0, 128 << 20);
        check("writeSetKeysMax", writeSetKeysMax, 1, 10_000_000);
        check("writeSetBytesMax", writeSetBytesMax, 1, 256L << 20);
        check("readSetKeysMax", readSetKeysMax, 1, 10_000_000);
        check("scanRowsMax", scanRowsMax, 1, 10_000_000);
        check("openTransactionsMax", openTransactionsMax, 1, 10_000_000);
        check("openTransactionsPerClientMax", openTransactionsPerClientMax, 1, openTransactionsMax);
        check("idleTimeoutMs", idleTimeoutMs, 1, 24L * 3600 * 1000);
        check("writeCapacityWaitMs", writeCapacityWaitMs, 0, 10L * 60 * 1000);
    }

    private static void check(String name, long value, long min, long max) {
        if (value < min || value > max) {
            throw new IllegalArgumentException(name + " must be in [" + min + ", " + max + "], got " + value);
        }
    }

    public TransactionLimits withWriteSet(int keysMax, long bytesMax) {
        return new TransactionLimits(keyBytesMax, valueBytesMax, keysMax, bytesMax, readSetKeysMax, scanRowsMax,
                openTransactionsMax, openTransactionsPerClientMax, idleTimeoutMs, writeCapacityWaitMs);
    }

    public TransactionLimits withReadSetKeysMax(int keysMax) {
        return new TransactionLimits(keyBytesMax, valueBytesMax, writeSetKeysMax, writeSetBytesMax, keysMax, scanRowsMax,
                openTransactionsMax, openTransactionsPerClientMax, idleTimeoutMs, writeCapacityWaitMs);
    }

    public TransactionLimits withOpenTransactions(int totalMax, int perClientMax) {
        return new TransactionLimits(keyBytesMax, valueBytesMax, writeSetKeysMax, writeSetBytesMax, readSetKeysMax,
                scanRowsMax, totalMax, perClientMax, idleTimeoutMs, writeCapacityWaitMs);
    }

    public TransactionLimits withIdleTimeoutMs(long timeoutMs) {
        return new TransactionLimits(keyBytesMax, valueBytesMax, writeSetKeysMax, writeSetBytesMax, readSetKeysMax,
                scanRowsMax, openTransactionsMax, openTransactionsPerClientMax, timeoutMs, writeCapacityWaitMs);
    }

    public TransactionLimits withValueBytesMax(int bytesMax) {
        return new TransactionLimits(keyBytesMax, bytesMax, writeSetKeysMax, writeSetBytesMax, readSetKeysMax,
                scanRowsMax, openTransactionsMax, openTransactionsPerClientMax, idleTimeoutMs, writeCapacityWaitMs);
    }
}
