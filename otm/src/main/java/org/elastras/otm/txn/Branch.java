package org.elastras.otm.txn;

/**
 * What a participant's branch of a cross-partition transaction holds beyond an ordinary
 * {@link Transaction}: who coordinates it (to ask for the outcome when it does not arrive),
 * whether it is pending (prepared, readers of its keys may wait), and once it voted, its logged
 * prepare record.
 *
 * <p>Guarded by the transaction's lock.
 */
final class Branch {

    final BranchCoordinator coordinator;
    /** Prepared (or restored) and not ended: counted in its partition's pending branches. */
    boolean pending;
    /** Set once the vote's prepare record is durable: its versions, ticket and log position. */
    PendingCommit voted;
    org.elastras.storage.wal.WalPosition votedAt;
    /** When the vote was logged, by the manager's clock; an outcome missing for long is asked for. */
    long votedAtMs;
    /** When it was prepared, by the manager's clock: a branch never given a CTS is asked about too. */
    long preparedAtMs;
    /** Found in doubt by a replay (prepared under a previous owner): readers wait for it. */
    boolean restored;

    Branch(BranchCoordinator coordinator) {
        this.coordinator = coordinator;
    }
}
