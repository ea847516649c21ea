package org.elastras.storage.store;

import java.util.Arrays;
import java.util.Iterator;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentSkipListSet;
import java.util.concurrent.atomic.AtomicLong;
import org.elastras.storage.util.CloseableIterator;
import org.elastras.storage.wal.WalPosition;

/**
 * The in-memory, mutable part of a partition store: versions ordered by {@link Version#ORDER},
 * plus, for each write-ahead log that fed it, the oldest log position of a record applied here
 * (what a recovery would have to replay if this memtable were lost).
 *
 * <p>Two structures hold the same versions: the ordered set, for scans, and a hash index of each
 * key's versions (newest first), for point lookups, which are most of a transaction's reads. A
 * lookup in the ordered set compares the key against ~2 log2(n) versions, each compare a chain of
 * cache misses (node, version, key bytes); the index costs one hash and a short walk. A version is
 * added to the set first, then to the index, and {@link #add} returns only after both.
 *
 * <p>Thread-safe: any number of threads may add and read concurrently; iteration is weakly
 * consistent (sees a version added concurrently or not, never a torn one).
 */
final class MemTable {

    private final ConcurrentSkipListSet<Version> versions = new ConcurrentSkipListSet<>(Version.ORDER);
    /** Point-lookup index over {@link #versions}: each key's versions here, CTS descending. */
    private final ConcurrentHashMap<IndexKey, Chain> byKey = new ConcurrentHashMap<>();
    private final Map<String, WalPosition> oldestPositionByWal = new ConcurrentHashMap<>();
    private final AtomicLong sizeBytes = new AtomicLong();
    private final AtomicLong minCts = new AtomicLong(Long.MAX_VALUE);
    private final AtomicLong maxCts = new AtomicLong(-1);

    /**
     * Adds a version; a version with the same (key, cts) already here is left as it is.
     *
     * @return true if the version was new
     * @throws IllegalStateException if a different value exists for the same (key, cts): two
     *     commits can never share a timestamp on one key, so this is a bug upstream
     */
    boolean add(Version version) {
        if (versions.add(version)) {
            byKey.compute(new IndexKey(version.key()), (key, chain) -> Chain.insert(chain, version));
            sizeBytes.addAndGet(version.sizeBytes());
            minCts.accumulateAndGet(version.cts(), Math::min);
            maxCts.accumulateAndGet(version.cts(), Math::max);
            return true;
        }
        Version existing = versions.ceiling(version);
        if (existing == null || !existing.equals(version)) {
            throw new IllegalStateException("two different values for the same (key, cts): " + existing + " and " + version);
        }
        return false;
    }

    /** Records that a WAL record at {@code position} of log {@code walId} was applied here. */
    void noteWalPosition(String walId, WalPosition position) {
        oldestPositionByWal.merge(walId, position, WalPosition::min);
    }

    /** The newest version of {@code key} with cts <= {@code snapshotCts}, tombstones included. */
    Version get(byte[] key, long snapshotCts) {
        for (Chain c = byKey.get(new IndexKey(key)); c != null; c = c.older) {
            if (c.version.cts() <= snapshotCts) {
                return c.version;
            }
        }
        return null;
    }

    /** Versions in order from the first one whose key is >= {@code fromKey} (null: from the start). */
    CloseableIterator<Version> scan(byte[] fromKey) {
        Iterator<Version> it = fromKey == null ? versions.iterator() : versions.tailSet(probe(fromKey, Long.MAX_VALUE)).iterator();
        return new CloseableIterator<>() {
            @Override
            public boolean hasNext() {
                return it.hasNext();
            }

            @Override
            public Version next() {
                return it.next();
            }

            @Override
            public void close() {
            }
        };
    }

    Map<String, WalPosition> oldestPositionByWal() {
        return Map.copyOf(oldestPositionByWal);
    }

    long sizeBytes() {
        return sizeBytes.get();
    }

    int versionCount() {
        return versions.size();
    }

    boolean isEmpty() {
        return versions.isEmpty();
    }

    long minCts() {
        return minCts.get();
    }

    long maxCts() {
        return maxCts.get();
    }

    /** A key as a hash-map key: compared by content. Immutable (the bytes are never changed). */
    private static final class IndexKey {
        private final byte[] bytes;
        private final int hash;

        IndexKey(byte[] bytes) {
            this.bytes = bytes;
            this.hash = Arrays.hashCode(bytes);
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof IndexKey k && hash == k.hash && Arrays.equals(bytes, k.bytes);
        }

        @Override
        public int hashCode() {
            return hash;
        }
    }

    /**
     * One key's versions, newest CTS first, as an immutable linked list: readers walk it without
     * locks; {@link #insert} builds a new head (commits apply nearly in CTS order, so it copies
     * at most the few versions newer than the inserted one).
     */
    private static final class Chain {
        final Version version;
        final Chain older;

        Chain(Version version, Chain older) {
            this.version = version;
            this.older = older;
        }

        /** The chain with {@code v} in its place. REQUIRES: no version with v's CTS in {@code chain}. */
        static Chain insert(Chain chain, Version v) {
            int newer = 0;
            Chain rest = chain;
            while (rest != null && rest.version.cts() > v.cts()) {
                newer++;
                rest = rest.older;
            }
            if (rest != null && rest.version.cts() == v.cts()) {
                throw new IllegalStateException("the index already holds " + rest.version + " when adding " + v);
            }
            Version[] prefix = new Version[newer];
            Chain c = chain;
            for (int i = 0; i < newer; i++) {
                prefix[i] = c.version;
                c = c.older;
            }
            Chain head = new Chain(v, rest);
            for (int i = newer - 1; i >= 0; i--) {
                head = new Chain(prefix[i], head);
            }
            return head;
        }
    }

    /** The smallest version key that sorts at or before every version of {@code key} visible at {@code cts}. */
    static Version probe(byte[] key, long cts) {
        return new Version(key, cts, null);
    }
}
