package org.elastras.otm.txn;

import java.util.List;

/**
 * How a stored procedure's transaction reaches rows of other partitions of its database: it
 * begins a branch on the partition holding a root key (on this OTM, or on its owner elsewhere)
 * and commits them all with its own part, atomically. The server implements it; a
 * {@link RowTransaction} without one refuses rows outside its partition (KEY_OUTSIDE_PARTITION).
 */
public interface CrossPartitionAccess {

    /**
     * Begins a branch of the transaction {@code homeTxnId} (on partition {@code home}) on the
     * partition holding {@code rootKey}.
     *
     * @param rootKeyValues the root key's values, in root-key column order
     * @param tag the transaction's commit id (the same on every part)
     * @param snapshot the transaction's snapshot
     * @throws TransactionException as a transaction's request would (NOT_OWNER, OVERLOADED, ...)
     */
    RemoteRows begin(TableAccess home, byte[] rootKey, List<Object> rootKeyValues, Isolation isolation, String clientId,
            CommitTag tag, long snapshot);

    /**
     * Commits the transaction {@code homeTxnId} with its branches (see the coordinator's protocol).
     *
     * @throws TransactionException the transaction was aborted (CONFLICT or SERIALIZATION_FAILURE
     *     when a branch voted no), or as a single-partition commit
     */
    CommitResult commit(long homeTxnId, List<RemoteRows> branches);

    /** One branch: rows of one other partition, typed as in {@link RowTransaction}. */
    interface RemoteRows {

        /** Whether the branch's partition holds {@code rootKey}. */
        boolean covers(byte[] rootKey);

        List<Object> get(String table, List<?> keyValues);

        void put(String table, List<?> row);

        void delete(String table, List<?> keyValues);

        List<List<Object>> scan(String table, List<?> fromKeyPrefix, List<?> toKeyPrefix, int limit);

        /** Aborts the branch, best effort (it expires by itself otherwise). */
        void abort();
    }
}
