package org.elastras.storage.store;

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
 * <p>Thread-safe: any number of threads may add and read concurrently; iteration is weakly
 * consistent (sees a version added concurrently or not, never a torn one).
 */
final class MemTable {

    private final ConcurrentSkipListSet<Version> versions = new ConcurrentSkipListSet<>(Version.ORDER);
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
        Version v = versions.ceiling(probe(key, snapshotCts));
        return v != null && Version.compareKeys(v.key(), key) == 0 ? v : null;
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

    /** The smallest version key that sorts at or before every version of {@code key} visible at {@code cts}. */
    static Version probe(byte[] key, long cts) {
        return new Version(key, cts, null);
    }
}
