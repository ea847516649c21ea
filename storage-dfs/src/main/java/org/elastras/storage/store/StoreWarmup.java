package org.elastras.storage.store;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.elastras.storage.dfs.Dfs;
import org.elastras.storage.util.CloseableIterator;
import org.elastras.storage.wal.WalPosition;

/**
 * Runs a partition store's open path once on scratch data, so that the first real open on a
 * freshly started process does not pay for class loading and interpreted code: a partition moved
 * into a new OTM is unavailable while it opens, and on a cold JVM under load that open took
 * 150 ms where a warm one takes 15-40 ms (BENCHMARKS.md, "First moves into a new OTM").
 *
 * <p>What it does, in a scratch directory of its own that it deletes afterwards: writes versions,
 * flushes them into tables, reads them back from the memtable and the tables, hands the store
 * over as a move does ({@link PartitionStore#closeAfterFlush}), opens it again from the manifest and
 * tables, and reads and scans it. Nothing outside the scratch directory is touched.
 */
public final class StoreWarmup {

    /**
     * Versions written, in records of {@link #VERSIONS_PER_RECORD}: a few blocks, enough to run
     * every class of the path (4,000 took twice as long and warmed no better).
     */
    static final int VERSIONS = 600;
    static final int VERSIONS_PER_RECORD = 8;
    private static final String WARMUP_LOG = "warmup";
    /** The warm-up's pretend log: nothing is ever in flight, so its replay point is its end. */
    private static final WalPosition WARMUP_REPLAY_POINT = new WalPosition(2, 0);

    private StoreWarmup() {
    }

    /**
     * Warms the open path in {@code directory}, which is deleted first (a warm-up cut short
     * before may have left it) and afterwards.
     *
     * @return the versions read back, which is every version written (a warm-up that reads back
     *     anything else throws: its store would not be one to serve from)
     * @throws IOException if the DFS fails; the caller may go on without the warm-up
     */
    public static int run(Dfs dfs, String directory, StoreEnvironment environment) throws IOException {
        if (dfs == null || directory == null || directory.isEmpty() || environment == null) {
            throw new IllegalArgumentException("a warm-up needs a DFS, a scratch directory and a store environment");
        }
        dfs.delete(directory);
        try {
            StoreOptions options = StoreOptions.DEFAULT;
            PartitionStore store = PartitionStore.open(dfs, directory, options, environment);
            List<byte[]> keys = new ArrayList<>(VERSIONS);
            try {
                store.finishRecovery(WalCursor.fixed(WARMUP_LOG, WARMUP_REPLAY_POINT));
                for (int first = 0; first < VERSIONS; first += VERSIONS_PER_RECORD) {
                    List<Version> record = new ArrayList<>(VERSIONS_PER_RECORD);
                    for (int i = first; i < Math.min(VERSIONS, first + VERSIONS_PER_RECORD); i++) {
                        byte[] key = key(i);
                        keys.add(key);
                        record.add(new Version(key, 1 + i, value(i)));
                    }
                    store.apply(WARMUP_LOG, new WalPosition(1, first), record);
                    if (first == VERSIONS / 2) {
                        store.flush();
                    }
                }
                readAll(store, keys);
                store.closeAfterFlush();
            } finally {
                store.close();
            }
            PartitionStore reopened = PartitionStore.open(dfs, directory, options, environment);
            try {
                reopened.finishRecovery(WalCursor.fixed(WARMUP_LOG, WARMUP_REPLAY_POINT));
                return readAll(reopened, keys);
            } finally {
                reopened.close();
            }
        } finally {
            dfs.delete(directory);
        }
    }

    /** Reads every key at the newest snapshot and scans the store; returns the versions seen. */
    private static int readAll(PartitionStore store, List<byte[]> keys) throws IOException {
        for (int i = 0; i < keys.size(); i++) {
            byte[] value = store.get(keys.get(i), Long.MAX_VALUE);
            if (value == null || value.length != value(i).length) {
                throw new IllegalStateException("warm-up store lost key " + i);
            }
        }
        int scanned = 0;
        try (CloseableIterator<Version> scan = store.scan(null, null, Long.MAX_VALUE, keys.size() + 1)) {
            while (scan.hasNext()) {
                scan.next();
                scanned++;
            }
        }
        if (scanned != keys.size()) {
            throw new IllegalStateException("warm-up store scanned " + scanned + " versions of " + keys.size());
        }
        return scanned;
    }

    private static byte[] key(int i) {
        return String.format("warmup/%08d", i).getBytes(StandardCharsets.US_ASCII);
    }

    private static byte[] value(int i) {
        return new byte[48 + i % 32];
    }
}
