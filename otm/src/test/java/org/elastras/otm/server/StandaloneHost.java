package org.elastras.otm.server;

import java.io.IOException;
import org.elastras.otm.txn.GlobalTables;
import org.elastras.otm.txn.LocalTimestampSource;
import org.elastras.otm.txn.SnapshotTracker;
import org.elastras.otm.txn.TransactionLimits;
import org.elastras.otm.txn.TransactionManager;
import org.elastras.storage.dfs.Dfs;
import org.elastras.storage.sstable.BlockCache;
import org.elastras.storage.store.StoreEnvironment;
import org.elastras.storage.store.StoreOptions;
import org.elastras.storage.store.UnappliedCommits;
import org.elastras.storage.wal.WalNames;
import org.elastras.storage.wal.WalOptions;
import org.elastras.storage.wal.WalWriter;

/**
 * One OTM's {@link PartitionHost} for tests below the network: its own log on {@code dfs} (which
 * continues an older log of that OTM id if there is one), local timestamps, no maintenance
 * executor, no lease.
 */
record StandaloneHost(WalWriter wal, TransactionManager transactions, PartitionHost host) {

    static StandaloneHost start(Dfs dfs, String otmId) throws IOException {
        WalWriter wal = WalWriter.open(dfs, WalNames.liveDirectory(otmId), WalOptions.DEFAULT);
        UnappliedCommits unapplied = new UnappliedCommits(otmId, wal);
        SnapshotTracker snapshots = new SnapshotTracker(0, 100_000);
        LocalTimestampSource timestamps = new LocalTimestampSource(0, snapshots);
        TransactionManager transactions = new TransactionManager(wal, unapplied, timestamps, snapshots,
                TransactionLimits.DEFAULT, () -> 0L);
        PartitionHost host = new PartitionHost(otmId, dfs, wal, unapplied, StoreOptions.DEFAULT,
                new StoreEnvironment(new BlockCache(1 << 20), null, () -> 0), transactions, timestamps, snapshots,
                new GlobalTables(10), 5_000, 10);
        return new StandaloneHost(wal, transactions, host);
    }

    /** Stops as a killed process would: nothing flushed, the log left as it is. */
    void stop() throws IOException {
        host.abandonAll();
        wal.close();
    }
}
