package org.elastras.storage.store;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.TreeMap;

/** The obviously-correct model of a multi-version store that tests compare against. Not thread-safe. */
final class StoreModel {

    private final TreeMap<byte[], TreeMap<Long, byte[]>> versions = new TreeMap<>(Arrays::compareUnsigned);
    private static final byte[] TOMBSTONE = new byte[0];

    void apply(Version v) {
        versions.computeIfAbsent(v.key(), k -> new TreeMap<>()).putIfAbsent(v.cts(), v.isTombstone() ? TOMBSTONE : v.value());
    }

    /** The visible value at a snapshot, or null. */
    byte[] get(byte[] key, long snapshot) {
        TreeMap<Long, byte[]> byCts = versions.get(key);
        if (byCts == null) {
            return null;
        }
        Map.Entry<Long, byte[]> e = byCts.floorEntry(snapshot);
        return e == null || e.getValue() == TOMBSTONE ? null : e.getValue();
    }

    /** Visible (key, value) pairs in [from, to) at a snapshot, at most limit. */
    List<byte[][]> scan(byte[] from, byte[] to, long snapshot, int limit) {
        List<byte[][]> out = new ArrayList<>();
        NavigableMap<byte[], TreeMap<Long, byte[]>> range = from == null ? versions : versions.tailMap(from, true);
        for (var e : range.entrySet()) {
            if (out.size() >= limit || (to != null && Arrays.compareUnsigned(e.getKey(), to) >= 0)) {
                break;
            }
            byte[] v = get(e.getKey(), snapshot);
            if (v != null) {
                out.add(new byte[][] {e.getKey(), v});
            }
        }
        return out;
    }

    List<byte[]> keys() {
        return new ArrayList<>(versions.keySet());
    }
}
