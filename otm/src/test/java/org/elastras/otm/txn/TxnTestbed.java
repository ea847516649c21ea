package org.elastras.otm.txn;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicLong;
import org.elastras.storage.dfs.MemoryDfs;
import org.elastras.storage.sstable.BlockCache;
import org.elastras.storage.store.MemtableBudget;
import org.elastras.storage.store.PartitionRecovery;
import org.elastras.storage.store.PartitionStore;
import org.elastras.storage.store.StoreEnvironment;
import org.elastras.storage.store.StoreOptions;
import org.elastras.storage.store.UnappliedCommits;
import org.elastras.storage.wal.WalOptions;
import org.elastras.storage.wal.WalWriter;

/**
 * One OTM's transaction stack on an in-memory DFS for tests: a WAL writer, partition stores, a
 * local timestamp source, a snapshot tracker and a manager driven by a manual clock. Can crash
 * (memtables and unsynced bytes lost) and recover as a new owner from the DFS.
 */
final class TxnTestbed implements AutoCloseable {

    final MemoryDfs dfs = new MemoryDfs();
    final AtomicLong clockMs = new AtomicLong(1_000);
    final TransactionLimits limits;
    final long[] partitionIds;
    /** What flushes and compactions take as their GC horizon: 0 (keep every version) unless a test sets it. */
    volatile java.util.function.LongSupplier gcHorizon = () -> 0;
    private final StoreEnvironment environment;
    private int incarnation;

    /** Set by a test that made the log fail on purpose: closing it then throws. */
    boolean walFailedOnPurpose;
    WalWriter wal;
    UnappliedCommits unapplied;
    LocalTimestampSource timestamps;
    SnapshotTracker snapshots;
    TransactionManager manager;
    final Map<Long, PartitionStore> stores = new TreeMap<>();

    TxnTestbed(TransactionLimits limits, long... partitionIds) throws IOException {
        this(limits, MemtableBudget.unbounded(), partitionIds);
    }

    /** A testbed whose stores share {@code budget} (and never flush by themselves: no maintenance thread). */
    TxnTestbed(TransactionLimits limits, MemtableBudget budget, long... partitionIds) throws IOException {
        this.limits = limits;
        this.partitionIds = partitionIds.clone();
        this.environment = new StoreEnvironment(new BlockCache(1 << 20), null, () -> gcHorizon.getAsLong(), key -> false,
                () -> System.nanoTime() / 1_000_000, budget);
        start(0, false);
    }

    TxnTestbed(long... partitionIds) throws IOException {
        this(TransactionLimits.DEFAULT, partitionIds);
    }

    private void start(long ctsFloor, boolean recover) throws IOException {
        incarnation++;
        String walId = "otm-" + incarnation;
        wal = WalWriter.open(dfs, "wal/" + walId, WalOptions.DEFAULT);
        unapplied = new UnappliedCommits(walId, wal);
        snapshots = new SnapshotTracker(ctsFloor, 100_000);
        timestamps = new LocalTimestampSource(ctsFloor, snapshots);
        manager = new TransactionManager(wal, unapplied, timestamps, snapshots, limits, clockMs::get);
        for (long p : partitionIds) {
            PartitionStore store = PartitionStore.open(dfs, "data/db/" + p, StoreOptions.DEFAULT, environment);
            if (recover) {
                PartitionRecovery.replay(store, p, dfs, id -> "wal/" + id);
            }
            store.finishRecovery(unapplied);
            stores.put(p, store);
            manager.addPartition(p, store);
        }
    }

    /**
     * The OTM dies (stores closed without a flush, unsynced DFS bytes lost, the writer abandoned)
     * and a new incarnation recovers every partition from the manifests and the WAL.
     */
    void crashAndRecover() throws IOException {
        long floor = timestamps.last();
        for (PartitionStore s : stores.values()) {
            s.close();
        }
        stores.clear();
        dfs.crash();
        start(floor, true);
    }

    /** What one client thread does in {@link #runClients}; may throw. */
    interface ClientCalls {
        void run(String client, int call) throws Exception;
    }

    /**
     * Runs {@code calls} calls on each of {@code clients} threads ("client-0", ...) and waits for
     * them; returns the first failure of any thread, or null.
     */
    static Throwable runClients(int clients, int calls, ClientCalls body) throws InterruptedException {
        java.util.concurrent.ConcurrentLinkedQueue<Throwable> failures = new java.util.concurrent.ConcurrentLinkedQueue<>();
        java.util.List<Thread> threads = new java.util.ArrayList<>();
        for (int i = 0; i < clients; i++) {
            String client = "client-" + i;
            threads.add(new Thread(() -> {
                try {
                    for (int c = 0; c < calls; c++) {
                        body.run(client, c);
                    }
                } catch (Throwable e) {
                    failures.add(e);
                }
            }));
        }
        threads.forEach(Thread::start);
        for (Thread t : threads) {
            t.join();
        }
        return failures.peek();
    }

    static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    static String string(byte[] b) {
        return b == null ? null : new String(b, StandardCharsets.UTF_8);
    }

    /** Reads a key in a fresh read-only transaction at the current snapshot. */
    String read(long partition, String key) {
        long t = manager.begin(partition, Isolation.SNAPSHOT, "reader");
        try {
            return string(manager.get(t, bytes(key)));
        } finally {
            manager.commit(t);
        }
    }

    /** Writes key=value in its own transaction and commits. */
    long write(long partition, String key, String value) {
        long t = manager.begin(partition, Isolation.SERIALIZABLE, "writer");
        manager.put(t, bytes(key), bytes(value));
        return manager.commit(t).cts();
    }

    @Override
    public void close() throws IOException {
        for (PartitionStore s : stores.values()) {
            s.close();
        }
        try {
            wal.close();
        } catch (IOException e) {
            if (!walFailedOnPurpose) {
                throw e;
            }
        }
    }
}
