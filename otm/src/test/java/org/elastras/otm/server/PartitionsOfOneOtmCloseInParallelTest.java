package org.elastras.otm.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import java.io.IOException;
import java.net.URI;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.elastras.catalog.schema.ColumnType;
import org.elastras.catalog.schema.DatabaseSchema;
import org.elastras.client.protocol.ElasTrasException;
import org.elastras.client.protocol.ErrorCode;
import org.elastras.otm.txn.GlobalTables;
import org.elastras.otm.txn.Isolation;
import org.elastras.otm.txn.LocalTimestampSource;
import org.elastras.otm.txn.RowTransaction;
import org.elastras.otm.txn.SnapshotTracker;
import org.elastras.otm.txn.TransactionLimits;
import org.elastras.otm.txn.TransactionManager;
import org.elastras.storage.dfs.Dfs;
import org.elastras.storage.dfs.DfsFile;
import org.elastras.storage.dfs.DfsOutput;
import org.elastras.storage.dfs.MemoryDfs;
import org.elastras.storage.sstable.BlockCache;
import org.elastras.storage.store.StoreEnvironment;
import org.elastras.storage.store.StoreOptions;
import org.elastras.storage.store.UnappliedCommits;
import org.elastras.storage.wal.WalOptions;
import org.elastras.storage.wal.WalWriter;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Two partitions of one OTM close side by side: while one close is stuck writing its flush to
 * the DFS, another partition closes (and opens) at once instead of queueing behind it, and the
 * stuck one finishes with its data once the DFS answers.
 */
class PartitionsOfOneOtmCloseInParallelTest {

    private static final DatabaseSchema BANK = DatabaseSchema.singlePartition("BANK")
            .plain("ACCOUNTS", t -> t.column("ID", ColumnType.BIGINT).column("BALANCE", ColumnType.BIGINT).key("ID"))
            .build();

    /** A DFS that holds every file creation under one directory until released. */
    private static final class GatedDfs implements Dfs {
        private final MemoryDfs inner = new MemoryDfs();
        private volatile String gatedPrefix;
        private final CountDownLatch blocked = new CountDownLatch(1);
        private final CountDownLatch released = new CountDownLatch(1);

        @Override
        public URI uri() {
            return inner.uri();
        }

        @Override
        public DfsOutput create(String path) throws IOException {
            String prefix = gatedPrefix;
            if (prefix != null && path.startsWith(prefix)) {
                blocked.countDown();
                try {
                    if (!released.await(30, TimeUnit.SECONDS)) {
                        throw new IOException("the test never released " + path);
                    }
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new IOException("interrupted", e);
                }
            }
            return inner.create(path);
        }

        @Override
        public DfsFile open(String path) throws IOException {
            return inner.open(path);
        }

        @Override
        public List<String> list(String directory) throws IOException {
            return inner.list(directory);
        }

        @Override
        public boolean exists(String path) throws IOException {
            return inner.exists(path);
        }

        @Override
        public long length(String path) throws IOException {
            return inner.length(path);
        }

        @Override
        public void rename(String source, String target) throws IOException {
            inner.rename(source, target);
        }

        @Override
        public boolean delete(String path) throws IOException {
            return inner.delete(path);
        }

        @Override
        public void mkdirs(String directory) throws IOException {
            inner.mkdirs(directory);
        }

        @Override
        public void close() throws IOException {
            inner.close();
        }
    }

    private final GatedDfs dfs = new GatedDfs();
    private WalWriter wal;
    private TransactionManager transactions;
    private PartitionHost host;

    @BeforeEach
    void start() throws IOException {
        wal = WalWriter.open(dfs, PartitionHost.walDirectory("otm-t"), WalOptions.DEFAULT);
        UnappliedCommits unapplied = new UnappliedCommits("otm-t", wal);
        SnapshotTracker snapshots = new SnapshotTracker(0, 100_000);
        LocalTimestampSource timestamps = new LocalTimestampSource(0, snapshots);
        transactions = new TransactionManager(wal, unapplied, timestamps, snapshots, TransactionLimits.DEFAULT,
                () -> 0L);
        host = new PartitionHost("otm-t", dfs, wal, unapplied, StoreOptions.DEFAULT,
                new StoreEnvironment(new BlockCache(1 << 20), null, () -> 0), transactions, timestamps, snapshots,
                new GlobalTables(10), 5_000, 10);
        host.registerDatabase(BANK);
    }

    @AfterEach
    void stop() throws IOException {
        dfs.released.countDown();
        host.abandonAll();
        wal.close();
    }

    private void deposit(long partitionId, long account, long amount) {
        RowTransaction t = host.served(partitionId).access().begin(transactions, Isolation.SERIALIZABLE, "test");
        t.put("ACCOUNTS", Arrays.asList(account, amount));
        t.commit();
    }

    private Long balance(long partitionId, long account) {
        RowTransaction t = host.served(partitionId).access().begin(transactions, Isolation.SNAPSHOT, "test");
        List<Object> row = t.get("ACCOUNTS", List.of(account));
        t.commit();
        return row == null ? null : (Long) row.get(1);
    }

    @Test
    void aCloseStuckOnTheDfsHoldsUpNoOtherPartition() throws Exception {
        host.open("BANK", 1, null, null);
        host.open("BANK", 2, null, null);
        deposit(1, 7, 100);
        deposit(2, 8, 200);

        dfs.gatedPrefix = PartitionHost.partitionDirectory("BANK", 1) + "/";
        CompletableFuture<Void> stuck = CompletableFuture.runAsync(() -> {
            try {
                host.close(1);
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });
        assertTimeoutPreemptively(Duration.ofSeconds(20), () -> dfs.blocked.await(), "partition 1's close never wrote");

        assertTimeoutPreemptively(Duration.ofSeconds(20), () -> {
            host.close(2);
            host.open("BANK", 3, null, null);
        }, "partition 2's close or 3's open waited for partition 1's");
        assertEquals(ErrorCode.NOT_OWNER, assertThrows(ElasTrasException.class, () -> host.served(2)).code());
        assertNotNull(host.served(3));
        assertFalse(stuck.isDone(), "partition 1's close is still held by the DFS");

        dfs.released.countDown();
        stuck.get(20, TimeUnit.SECONDS);
        host.open("BANK", 1, null, null);
        host.open("BANK", 2, null, null);
        assertEquals(100L, balance(1, 7), "partition 1 closed with its data");
        assertEquals(200L, balance(2, 8), "partition 2 closed with its data");
    }
}
