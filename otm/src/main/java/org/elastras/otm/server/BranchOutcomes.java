package org.elastras.otm.server;

import org.elastras.otm.txn.BranchCoordinator;
import org.elastras.otm.txn.CommitTag;
import org.elastras.otm.txn.TransactionManager;

/**
 * Where a participant's branch learns its cross-partition transaction's outcome when the
 * coordinator's word did not arrive (or the branch was replayed from a prepare record): the
 * coordinator partition's owner, whoever that is now, whose commit marker decides.
 */
@FunctionalInterface
interface BranchOutcomes {

    /** The outcome, final; null when it cannot be learnt now (ask again later). */
    TransactionManager.Resolution ask(BranchCoordinator coordinator, CommitTag tag);
}
