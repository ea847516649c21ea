package org.elastras.storage.store;

import java.lang.invoke.VarHandle;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.NoSuchElementException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.elastras.storage.sstable.SsTableReader;
import org.elastras.storage.util.CloseableIterator;
import org.elastras.storage.wal.WalPosition;

/**
 * The in-memory, mutable part of a partition store: versions ordered by {@link Version#ORDER},
 * plus, for each write-ahead log that fed it, the oldest log position of a record applied here
 * (what a recovery would have to replay if this memtable were lost).
 *
 * <p>Layout: each key has one {@link KeyVersions} holding its versions here, newest CTS first, as
 * an immutable list of records in this memtable's {@link VersionArena} (so that a write stores no
 * reference into an old holder; reads and scans get copies). The holders are in a hash table
 * ({@link HolderTable}), for point lookups and for adding a version of a key already here: most
 * of a transaction's work is point reads and writes, and a seek in an ordered map is ~2 log2(n)
 * key compares, each a chain of cache misses, where the hash table is one hash and a compare. The
 * ordered map of the holders, which scans need, is built by group: the keys that share their first
 * two bytes (zero-padded; an OTM's storage keys begin with their table's id, so a group is a
 * table). The first scan that reads a group orders it ({@link #scan}) and every new key's writer
 * in it keeps it ordered from then on; groups no scan reads are never ordered until the flush
 * sorts their keys once ({@link #sortedScan}). (Ordered
 * inserts of new keys were 14 % of the OTM's CPU in the procedure benchmark, whose memtable sees no
 * scan, and ~11 % in TPC-C when one scan ordered every table; TPC-C scans its index tables, not
 * STOCK, ORDERS, ORDER_LINE, NEW_ORDER or HISTORY, whose new keys are now only hashed. The flush's
 * sort of the unordered keys is {@link KeySort}.)
 *
 * <p>Thread-safe: any number of threads may add and read concurrently; iteration is weakly
 * consistent (sees a version added concurrently or not, never a torn one). A version is reachable
 * both ways before {@link #add} returns.
 */
final class MemTable {

    /** A scan over more groups than this orders them all (and every group to come). */
    static final int GROUPS_LISTED_MAX = 64;
    /** The last group: keys beginning 0xFF 0xFF. */
    private static final int GROUP_LAST = 0xFFFF;

    /** The versions' records. */
    private final VersionArena arena = new VersionArena();
    /** Every key here to its versions: the holder in this table is the key's only holder. */
    private final HolderTable<KeyVersions> byKey = new HolderTable<>();
    /**
     * The holders of the ordered groups, by key: null until a scan first orders a group. Set (under
     * this object's monitor) before {@link #indexing} first names a group.
     */
    private volatile ConcurrentSkipListMap<byte[], KeyVersions> byOrder;
    /**
     * The groups whose new holders writers add to {@link #byOrder}: each writer adds its holder
     * unless it is there already (add the version, full fence, look; the builder widens this field,
     * fences and then walks the hash table, so each holder written to is ordered by one or the other
     * before its writer returns). Only grows.
     */
    private volatile Groups indexing = Groups.NONE;
    /** The groups {@link #byOrder} holds completely, which scans may read: a subset of {@link #indexing}. */
    private volatile Groups ordered = Groups.NONE;
    private final Map<String, WalPosition> oldestPositionByWal = new ConcurrentHashMap<>();
    private final AtomicInteger versionCount = new AtomicInteger();
    private final AtomicLong sizeBytes = new AtomicLong();
    private final AtomicLong minCts = new AtomicLong(Long.MAX_VALUE);
    private final AtomicLong maxCts = new AtomicLong(-1);
    /** Where the bytes added are charged, or null (a memtable outside any budget). */
    private final MemtableBudget.Account budget;

    MemTable() {
        this(null);
    }

    /** @param budget the account every byte added here is charged to, or null */
    MemTable(MemtableBudget.Account budget) {
        this.budget = budget;
    }

    /**
     * Adds a version; a version with the same (key, cts) already here is left as it is.
     *
     * @return true if the version was new
     * @throws IllegalStateException if a different value exists for the same (key, cts): two
     *     commits can never share a timestamp on one key, so this is a bug upstream
     */
    boolean add(Version version) {
        return addAll(List.of(version)) == 1;
    }

    /**
     * Adds the versions of one commit, as {@link #add} does each; the counters every applying
     * thread shares are written once for all of them, not once per version.
     *
     * @return how many versions were new
     */
    int addAll(List<Version> versions) {
        int added = 0;
        long bytes = 0;
        long min = Long.MAX_VALUE;
        long max = -1;
        for (int i = 0; i < versions.size(); i++) {
            Version v = versions.get(i);
            if (addVersion(v)) {
                added++;
                bytes += v.sizeBytes();
                min = Math.min(min, v.cts());
                max = Math.max(max, v.cts());
            }
        }
        if (added > 0) {
            count(added, bytes, min, max);
        }
        return added;
    }

    private boolean addVersion(Version version) {
        KeyVersions holder = byKey.getOrInsert(version.key(), HolderTable.hash(version.key()), KeyVersions::new);
        boolean added = holder.add(arena, version);
        if (!holder.indexed) {
            // Whoever adds to a holder sees it ordered before returning, not only the writer that
            // made it: another writer of the same key may add to it and return first.
            VarHandle.fullFence();
            Groups g = indexing;
            if (g != Groups.NONE && g.covers(group(holder.key))) {
                byOrder.putIfAbsent(holder.key, holder);
                holder.indexed = true;
            }
        }
        return added;
    }

    /** The group of a key: its first two bytes, zero-padded, unsigned. Groups follow key order. */
    static int group(byte[] key) {
        int b0 = key.length > 0 ? key[0] & 0xFF : 0;
        int b1 = key.length > 1 ? key[1] & 0xFF : 0;
        return b0 << 8 | b1;
    }

    /** The last group holding a key below {@code keyExclusive}, or -1 if none can. */
    static int lastGroupBelow(byte[] keyExclusive) {
        int g = group(keyExclusive);
        // The group's smallest key is its prefix without trailing zero bytes: nothing of the group is below it.
        int smallestLength = (g & 0xFF) != 0 ? 2 : g != 0 ? 1 : 0;
        return keyExclusive.length == smallestLength ? g - 1 : g;
    }

    /** The ordered holders, with groups {@code fromGroup} to {@code toGroup} ordered now if no scan ordered them yet. */
    private ConcurrentSkipListMap<byte[], KeyVersions> orderedHolders(int fromGroup, int toGroup) {
        if (ordered.coversAll(fromGroup, toGroup)) {
            return byOrder;
        }
        synchronized (this) {
            Groups done = ordered;
            if (!done.coversAll(fromGroup, toGroup)) {
                if (byOrder == null) {
                    byOrder = new ConcurrentSkipListMap<>(Version::compareKeys);
                }
                ConcurrentSkipListMap<byte[], KeyVersions> map = byOrder;
                Groups building = done.with(fromGroup, toGroup);
                indexing = building;
                VarHandle.fullFence();
                byKey.forEach(h -> {
                    if (!h.indexed && building.covers(group(h.key))) {
                        map.putIfAbsent(h.key, h);
                        h.indexed = true;
                    }
                });
                ordered = building;
            }
            return byOrder;
        }
    }

    /** Writes a shared counter only when it changes: a read costs no cache-line transfer between cores. */
    private void count(int versions, long bytes, long min, long max) {
        versionCount.addAndGet(versions);
        sizeBytes.addAndGet(bytes);
        if (budget != null) {
            budget.grew(bytes);
        }
        if (min < minCts.get()) {
            minCts.accumulateAndGet(min, Math::min);
        }
        if (max > maxCts.get()) {
            maxCts.accumulateAndGet(max, Math::max);
        }
    }

    /** Records that a WAL record at {@code position} of log {@code walId} was applied here. */
    void noteWalPosition(String walId, WalPosition position) {
        WalPosition oldest = oldestPositionByWal.get(walId);
        if (oldest == null || position.compareTo(oldest) < 0) {
            oldestPositionByWal.merge(walId, position, WalPosition::min);
        }
    }

    /** The newest version of {@code key} with cts <= {@code snapshotCts}, tombstones included. */
    Version get(byte[] key, long snapshotCts) {
        return get(key, SsTableReader.keyHash(key), -1, snapshotCts);
    }

    /**
     * The newest version of {@code key} with cts <= {@code snapshotCts}, tombstones included; null
     * also when no version here is newer than {@code afterCts} (the caller wants only those).
     *
     * @param keyHash {@link SsTableReader#keyHash}{@code (key)}, which the caller probes tables with too
     */
    Version get(byte[] key, long keyHash, long afterCts, long snapshotCts) {
        KeyVersions holder = byKey.get(key, HolderTable.fromKeyHash(keyHash));
        if (holder == null || holder.headCts <= afterCts) {
            return null;
        }
        for (long r = holder.newest; r != VersionArena.NONE; r = arena.older(r)) {
            if (arena.cts(r) <= snapshotCts) {
                return arena.version(holder.key, r);
            }
        }
        return null;
    }

    /** Versions in order from the first one whose key is >= {@code fromKey} (null: from the start) to the end. */
    CloseableIterator<Version> scan(byte[] fromKey) {
        return scan(fromKey, null);
    }

    /**
     * Versions in order of the keys in [{@code fromKey}, {@code toKeyExclusive}) (null: from the
     * start, to the end). The first scan of a group of keys orders that group (and writers keep it
     * ordered from then on).
     */
    CloseableIterator<Version> scan(byte[] fromKey, byte[] toKeyExclusive) {
        int fromGroup = fromKey == null ? 0 : group(fromKey);
        int toGroup = toKeyExclusive == null ? GROUP_LAST : lastGroupBelow(toKeyExclusive);
        if (toGroup < fromGroup
                || (fromKey != null && toKeyExclusive != null && Version.compareKeys(fromKey, toKeyExclusive) >= 0)) {
            return versionsOf(Collections.emptyIterator());
        }
        NavigableMap<byte[], KeyVersions> range = orderedHolders(fromGroup, toGroup);
        if (fromKey != null) {
            range = range.tailMap(fromKey, true);
        }
        if (toKeyExclusive != null) {
            range = range.headMap(toKeyExclusive, false);
        }
        return versionsOf(range.values().iterator());
    }

    /**
     * Every version in order, for a flush of this memtable once frozen (nothing is added any more):
     * the groups scans ordered through their ordered holders, merged with the other keys sorted
     * once, which costs a fraction of keeping them ordered on every new key.
     */
    CloseableIterator<Version> sortedScan() {
        List<KeyVersions> inOrder;
        KeyVersions[] rest;
        // No group is being ordered meanwhile (a scan of the frozen memtable may order one): each
        // holder is then in exactly one of the two lists.
        synchronized (this) {
            ConcurrentSkipListMap<byte[], KeyVersions> map = byOrder;
            if (map != null && ordered.all) {
                return versionsOf(map.values().iterator());
            }
            inOrder = map == null ? List.of() : new ArrayList<>(map.values());
            List<KeyVersions> unordered = new ArrayList<>(Math.max(16, byKey.size() - inOrder.size()));
            byKey.forEach(h -> {
                if (!h.indexed) {
                    unordered.add(h);
                }
            });
            rest = unordered.toArray(new KeyVersions[0]);
        }
        KeySort.sort(rest, h -> h.key);
        return versionsOf(merged(inOrder.iterator(), Arrays.asList(rest).iterator()));
    }

    /** Two iterators of holders in key order (no key in both) as one. */
    private static Iterator<KeyVersions> merged(Iterator<KeyVersions> a, Iterator<KeyVersions> b) {
        return new Iterator<>() {
            private KeyVersions nextA = a.hasNext() ? a.next() : null;
            private KeyVersions nextB = b.hasNext() ? b.next() : null;

            @Override
            public boolean hasNext() {
                return nextA != null || nextB != null;
            }

            @Override
            public KeyVersions next() {
                if (!hasNext()) {
                    throw new NoSuchElementException();
                }
                KeyVersions out;
                if (nextB == null || (nextA != null && Version.compareKeys(nextA.key, nextB.key) < 0)) {
                    out = nextA;
                    nextA = a.hasNext() ? a.next() : null;
                } else {
                    out = nextB;
                    nextB = b.hasNext() ? b.next() : null;
                }
                return out;
            }
        };
    }

    /** Whether scans have ordered every group of this memtable's keys (for tests). */
    boolean isOrdered() {
        return ordered.all;
    }

    /** Whether a scan has ordered the group of {@code key} (for tests). */
    boolean isOrdered(byte[] key) {
        return ordered.covers(group(key));
    }

    /**
     * A set of key groups: listed (sorted, at most {@link #GROUPS_LISTED_MAX}), or all of them.
     * Immutable.
     */
    private static final class Groups {
        static final Groups NONE = new Groups(new int[0], false);
        static final Groups ALL = new Groups(new int[0], true);

        final int[] sorted;
        final boolean all;

        private Groups(int[] sorted, boolean all) {
            this.sorted = sorted;
            this.all = all;
        }

        boolean covers(int group) {
            return all || Arrays.binarySearch(sorted, group) >= 0;
        }

        /** Whether every group from {@code from} to {@code to} (inclusive) is here. */
        boolean coversAll(int from, int to) {
            if (all) {
                return true;
            }
            if (to - from + 1 > sorted.length) {
                return false;
            }
            int at = Arrays.binarySearch(sorted, from);
            return at >= 0 && at + (to - from) < sorted.length && sorted[at + (to - from)] == to;
        }

        /** These groups and those from {@code from} to {@code to} (inclusive). */
        Groups with(int from, int to) {
            if (all) {
                return this;
            }
            java.util.TreeSet<Integer> union = new java.util.TreeSet<>();
            for (int g : sorted) {
                union.add(g);
            }
            for (int g = from; g <= to && union.size() <= GROUPS_LISTED_MAX; g++) {
                union.add(g);
            }
            if (union.size() > GROUPS_LISTED_MAX) {
                return ALL;
            }
            return new Groups(union.stream().mapToInt(Integer::intValue).toArray(), false);
        }
    }

    private CloseableIterator<Version> versionsOf(Iterator<KeyVersions> keys) {
        return new CloseableIterator<>() {
            private byte[] key;
            private long next = VersionArena.NONE;

            @Override
            public boolean hasNext() {
                while (next == VersionArena.NONE && keys.hasNext()) {
                    KeyVersions h = keys.next();
                    key = h.key;
                    next = h.newest;
                }
                return next != VersionArena.NONE;
            }

            @Override
            public Version next() {
                if (!hasNext()) {
                    throw new NoSuchElementException();
                }
                Version v = arena.version(key, next);
                next = arena.older(next);
                return v;
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
        return versionCount.get();
    }

    boolean isEmpty() {
        return versionCount.get() == 0;
    }

    long minCts() {
        return minCts.get();
    }

    long maxCts() {
        return maxCts.get();
    }

    /**
     * One key's versions here: the address of its newest record in the memtable's arena (each
     * record names the next older one), and that record's CTS. Readers read without locks;
     * writers add under the holder's monitor, the record first, then its address, the CTS last.
     */
    private static final class KeyVersions extends HolderTable.Entry {
        /** Newest CTS first; {@link VersionArena#NONE} until the first version is added. */
        volatile long newest = VersionArena.NONE;
        /** The newest record's CTS, -1 without one; only grows. */
        volatile long headCts = -1;
        /** Set once the holder is in the ordered map (so writers stop looking). */
        volatile boolean indexed;

        KeyVersions(byte[] key) {
            super(key);
        }

        /**
         * Adds {@code v} in CTS order; false if the same version is here already. Commits apply
         * nearly in CTS order, so a version older than the newest here is rare: the records newer
         * than it are appended again above it (records are immutable; the old copies stay unread).
         */
        synchronized boolean add(VersionArena arena, Version v) {
            long at = newest;
            int newer = 0;
            while (at != VersionArena.NONE && arena.cts(at) > v.cts()) {
                newer++;
                at = arena.older(at);
            }
            if (at != VersionArena.NONE && arena.cts(at) == v.cts()) {
                if (!arena.valueEquals(at, v.value())) {
                    throw new IllegalStateException("two different values for the same (key, cts): "
                            + arena.version(key, at) + " and " + v);
                }
                return false;
            }
            long head = arena.append(v.cts(), at, v.value());
            if (newer > 0) {
                long[] above = new long[newer];
                long r = newest;
                for (int i = 0; i < newer; i++) {
                    above[i] = r;
                    r = arena.older(r);
                }
                for (int i = newer - 1; i >= 0; i--) {
                    head = arena.append(arena.cts(above[i]), head, arena.value(above[i]));
                }
            }
            newest = head;
            if (newer == 0) {
                headCts = v.cts();
            }
            return true;
        }
    }
}
