package org.elastras.otm.server;

import java.util.ArrayList;
import java.util.List;
import org.elastras.otm.txn.BranchCoordinator;
import org.elastras.otm.txn.CommitTag;
import org.elastras.otm.txn.TransactionManager;
import org.elastras.storage.store.PartitionRecovery;
import org.elastras.storage.store.PartitionStore;
import org.elastras.storage.store.Version;
import org.elastras.storage.wal.WalEntry;
import org.elastras.storage.wal.WalRecord;

/**
 * The prepare records of cross-partition branches met while a partition is replayed: they are
 * not applied as they come (the branch may have been aborted) but set aside; those still in doubt
 * after the replay are handed to the transaction manager as branches that voted
 * ({@link TransactionManager#addPartition(long, PartitionStore, List)}), whose outcomes the OTM
 * then asks of their coordinators. The partition does not wait for them to open, so partitions
 * whose branches wait on each other's coordinators all open. Used by one open, on one thread.
 */
final class InDoubtReplay implements PartitionRecovery.Deferral {

    private record Deferred(long cts, CommitTag tag, BranchCoordinator coordinator, WalRecord record,
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
        deferred.add(new Deferred(record.cts(), tag, coordinator, record, versions));
        return true;
    }

    /** Prepare records set aside. */
    int count() {
        return deferred.size();
    }

    /**
     * The branches still in doubt after the replay into {@code store}: every prepare record set
     * aside except those whose writes the replay applied anyway (the branch committed and its
     * outcome record followed).
     */
    List<TransactionManager.RestoredBranch> inDoubt(PartitionStore store) throws java.io.IOException {
        List<TransactionManager.RestoredBranch> out = new ArrayList<>();
        for (Deferred d : deferred) {
            if (!d.versions().isEmpty()) {
                Version first = d.versions().get(0);
                Version stored = store.getVersion(first.key(), d.cts());
                if (stored != null && stored.cts() == d.cts()) {
                    continue; // committed: its outcome record was replayed
                }
            }
            out.add(new TransactionManager.RestoredBranch(d.tag(), d.coordinator(), d.cts(), d.record(), d.versions()));
        }
        return out;
    }
}
