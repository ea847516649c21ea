package org.elastras.otm.server;

import java.util.ArrayList;
import java.util.List;
import org.elastras.client.protocol.ElasTrasException;
import org.elastras.client.protocol.ErrorCode;
import org.elastras.otm.txn.BranchCoordinator;
import org.elastras.otm.txn.CommitTag;
import org.elastras.otm.txn.TransactionManager;
import org.elastras.storage.store.PartitionRecovery;
import org.elastras.storage.store.PartitionStore;
import org.elastras.storage.store.Version;
import org.elastras.storage.wal.WalEntry;
import org.elastras.storage.wal.WalPosition;
import org.elastras.storage.wal.WalRecord;

/**
 * The prepare records of cross-partition branches met while a partition is replayed: they are
 * not applied as they come (the branch may have been aborted), but set aside and, before the
 * partition serves, each one's outcome is asked of its coordinator partition; the committed ones
 * are applied at their CTS, the others dropped. A record whose outcome cannot be learnt now fails
 * the open (the master opens the partition again later), so a partition never serves without
 * knowing every write it must hold. Used by one open, on one thread.
 */
final class InDoubtReplay implements PartitionRecovery.Deferral {

    private record Deferred(String walId, WalPosition position, long cts, CommitTag tag, BranchCoordinator coordinator,
            List<Version> versions) {
    }

    private final long partitionId;
    private final List<Deferred> deferred = new ArrayList<>();

    InDoubtReplay(long partitionId) {
        this.partitionId = partitionId;
    }

    @Override
    public boolean defer(String walId, WalEntry entry) {
        WalRecord record = entry.record();
        CommitTag tag = null;
        BranchCoordinator coordinator = null;
        List<Version> versions = new ArrayList<>();
        for (WalRecord.Mutation m : record.mutations()) {
            if (m.partitionId() != partitionId) {
                continue;
            }
            CommitTag marked = CommitTag.ofBranchMarkerKey(m.key());
            if (marked != null) {
                tag = marked;
                coordinator = BranchCoordinator.decode(m.value());
            } else {
                versions.add(new Version(m.key(), record.cts(), m.value()));
            }
        }
        if (tag == null) {
            return false;
        }
        deferred.add(new Deferred(walId, entry.position(), record.cts(), tag, coordinator, versions));
        return true;
    }

    /** Prepare records set aside. */
    int count() {
        return deferred.size();
    }

    /**
     * Asks for every outcome and applies the committed branches to {@code store} (still in recovery).
     *
     * @return how many were committed
     * @throws ElasTrasException OVERLOADED (retryable) if an outcome cannot be learnt now
     */
    int resolve(PartitionStore store, BranchOutcomes outcomes) {
        int committed = 0;
        for (Deferred d : deferred) {
            TransactionManager.Resolution r = outcomes.ask(d.coordinator(), d.tag());
            if (r == null) {
                throw new ElasTrasException(ErrorCode.OVERLOADED, "partition " + partitionId + " holds a prepared branch of"
                        + " cross-partition transaction " + d.tag() + " whose outcome " + d.coordinator()
                        + " cannot tell now; open it again later");
            }
            if (!r.committed()) {
                continue;
            }
            if (r.cts() != d.cts()) {
                throw new IllegalStateException("the branch of " + d.tag() + " on partition " + partitionId
                        + " was prepared at CTS " + d.cts() + " but its coordinator committed at CTS " + r.cts());
            }
            if (!d.versions().isEmpty()) {
                store.apply(d.walId(), d.position(), d.versions());
            }
            committed++;
        }
        return committed;
    }
}
