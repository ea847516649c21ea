package org.elastras.storage.wal;

import java.util.List;

/**
 * One committed transaction as logged: its commit timestamp and its write set. A write set may
 * touch several partitions (a cross-partition transaction logged by its coordinator); each
 * mutation names its partition. There are no records for begin, aborts or read-only
 * transactions. Immutable (the arrays must not be changed after construction).
 *
 * @param cts the commit timestamp
 * @param mutations the write set, at least one mutation
 */
public record WalRecord(long cts, List<Mutation> mutations) {

    public WalRecord {
        if (cts < 0) {
            throw new IllegalArgumentException("commit timestamp must be >= 0, got " + cts);
        }
        if (mutations == null || mutations.isEmpty()) {
            throw new IllegalArgumentException("a WAL record needs at least one mutation");
        }
        mutations = List.copyOf(mutations);
    }

    /**
     * A put (value non-null) or a delete (value null) of one key of one partition.
     */
    public record Mutation(long partitionId, byte[] key, byte[] value) {
        public Mutation {
            if (key == null) {
                throw new IllegalArgumentException("mutation key is null");
            }
        }

        public boolean isDelete() {
            return value == null;
        }
    }
}
