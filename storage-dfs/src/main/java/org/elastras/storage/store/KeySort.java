package org.elastras.storage.store;

import java.util.Arrays;
import java.util.Comparator;
import java.util.function.Function;

/**
 * Sorts a memtable's holders by key ({@link Version#compareKeys}'s unsigned lexicographic order)
 * for a flush. A comparator sort of the holders themselves compares keys through two pointers per
 * side, a chain of cache misses each time once the array outgrows the caches: the sort of the keys
 * no scan had ordered was 7 % of an OTM's CPU in TPC-C (session 29's profile), most of it in those
 * compares. Here each key is first reduced to a {@code long}: its 8 bytes after the prefix every
 * key shares, zero-padded, in the high bits, and its position in the low bits. Those longs sort as
 * primitives; keys whose reduced bytes tie (the rows of one table, of one district) are sorted
 * again the same way from the longer prefix they share, and the comparator is left for small runs.
 *
 * <p>Why the reduced order is the key order: keys sharing their first {@code c} bytes compare as
 * their rest does; if two zero-padded 8-byte windows of the rest differ, their first difference is
 * either a byte both keys have, or the end of the shorter key, which is then a prefix of the other
 * (a padding zero is below any byte but an equal zero, and equal windows are ties). Stateless.
 */
public final class KeySort {

    /** Below this, the comparator sort is as fast. */
    static final int SMALL = 64;

    private KeySort() {
    }

    /**
     * Sorts {@code items} in place by {@code key}, whose keys must be distinct; the same order as
     * {@code Arrays.sort(items, (a, b) -> Version.compareKeys(key.apply(a), key.apply(b)))}.
     */
    public static <T> void sort(T[] items, Function<T, byte[]> key) {
        sort(items, 0, items.length, key, (a, b) -> Version.compareKeys(key.apply(a), key.apply(b)), -1);
    }

    /**
     * Sorts {@code items[from, to)}, whose keys share more than {@code sharedBefore} bytes unless
     * this is the whole array (-1): a run of keys that tie on their reduced bytes is sorted the
     * same way again, from the longer prefix its keys share; a run whose shared prefix did not
     * grow (keys that are a prefix of one another, zero-padded alike) gets the comparator.
     */
    private static <T> void sort(T[] items, int from, int to, Function<T, byte[]> key, Comparator<T> byKey, int sharedBefore) {
        int n = to - from;
        if (n < SMALL) {
            Arrays.sort(items, from, to, byKey);
            return;
        }
        int shared = sharedPrefix(items, from, to, key);
        if (shared <= sharedBefore) {
            Arrays.sort(items, from, to, byKey);
            return;
        }
        int indexBits = 32 - Integer.numberOfLeadingZeros(n - 1);
        long[] reduced = new long[n];
        for (int i = 0; i < n; i++) {
            // The sign bit flipped makes the signed sort of the longs their unsigned order.
            reduced[i] = (window(key.apply(items[from + i]), shared) >>> indexBits << indexBits | i) ^ Long.MIN_VALUE;
        }
        Arrays.sort(reduced);
        T[] in = Arrays.copyOfRange(items, from, to);
        long indexMask = (1L << indexBits) - 1;
        for (int i = 0; i < n; i++) {
            items[from + i] = in[(int) (reduced[i] & indexMask)];
        }
        int runStart = 0;
        for (int i = 0; i < n; i++) {
            if (i == n - 1 || (reduced[i] >>> indexBits) != (reduced[i + 1] >>> indexBits)) {
                if (i > runStart) {
                    sort(items, from + runStart, from + i + 1, key, byKey, shared);
                }
                runStart = i + 1;
            }
        }
    }

    /** The length of the prefix every key of {@code items[from, to)} shares; {@code from < to}. */
    static <T> int sharedPrefix(T[] items, int from, int to, Function<T, byte[]> keyOf) {
        byte[] first = keyOf.apply(items[from]);
        int shared = first.length;
        for (int i = from + 1; i < to && shared > 0; i++) {
            byte[] key = keyOf.apply(items[i]);
            int m = Arrays.mismatch(first, 0, shared, key, 0, Math.min(shared, key.length));
            if (m >= 0) {
                shared = m;
            }
        }
        return shared;
    }

    /** The 8 bytes of {@code key} from {@code from} on, big-endian, zero-padded past its end. */
    static long window(byte[] key, int from) {
        long w = 0;
        int end = Math.min(key.length, from + 8);
        for (int i = from; i < end; i++) {
            w |= (key[i] & 0xFFL) << (8 * (7 - (i - from)));
        }
        return w;
    }
}
