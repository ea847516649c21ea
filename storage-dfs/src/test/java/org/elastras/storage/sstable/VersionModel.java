package org.elastras.storage.sstable;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.elastras.storage.store.Version;

/**
 * The answer key for SSTable tests: versions kept in plain {@link TreeMap}s (key, then cts), with
 * a generator of awkward random data. Independent of the table code on purpose: it never uses
 * {@link Version#ORDER} to answer. Not thread-safe while being filled; read-only afterwards.
 */
final class VersionModel {

    /** Seed used when -Dsstable.seed is not given: fixed, so a CI failure replays exactly. */
    static long seed(long defaultSeed) {
        return Long.getLong("sstable.seed", defaultSeed);
    }

    private final TreeMap<byte[], TreeMap<Long, Version>> byKey = new TreeMap<>(Arrays::compareUnsigned);
    private final List<byte[]> keys = new ArrayList<>();
    private long maxCts;

    /** Fills the model with {@code keyCount} keys of awkward shapes and 1 to 8 versions each. */
    static VersionModel random(Random random, int keyCount) {
        VersionModel model = new VersionModel();
        model.put(new byte[0], random, 1 + random.nextInt(4));
        while (model.byKey.size() < keyCount) {
            byte[] key;
            int shape = random.nextInt(10);
            if (shape < 4) {
                key = smallAlphabetKey(random, 1 + random.nextInt(6));
            } else if (shape < 6 && !model.keys.isEmpty()) {
                // A key that extends an existing one: the existing key is a prefix of it.
                byte[] base = model.keys.get(random.nextInt(model.keys.size()));
                key = Arrays.copyOf(base, base.length + 1 + random.nextInt(3));
                for (int i = base.length; i < key.length; i++) {
                    key[i] = (byte) random.nextInt(256);
                }
            } else if (shape < 7) {
                key = new byte[200 + random.nextInt(2500)];
                Arrays.fill(key, 0, 150, (byte) 'L');
                for (int i = 150; i < key.length; i++) {
                    key[i] = (byte) random.nextInt(256);
                }
            } else {
                key = new byte[1 + random.nextInt(24)];
                random.nextBytes(key);
            }
            int versions = random.nextInt(10) == 0 ? 8 + random.nextInt(40) : 1 + random.nextInt(8);
            model.put(key, random, versions);
        }
        return model;
    }

    private static byte[] smallAlphabetKey(Random random, int length) {
        byte[] alphabet = {0x00, 0x01, 'a', 'b', (byte) 0x7F, (byte) 0x80, (byte) 0xFF};
        byte[] key = new byte[length];
        for (int i = 0; i < length; i++) {
            key[i] = alphabet[random.nextInt(alphabet.length)];
        }
        return key;
    }

    private void put(byte[] key, Random random, int versionCount) {
        TreeMap<Long, Version> versions = byKey.computeIfAbsent(key, k -> {
            keys.add(k);
            return new TreeMap<>();
        });
        for (int i = 0; i < versionCount; i++) {
            long cts = random.nextInt(8) == 0 ? random.nextInt(3) : 1 + random.nextInt(2000);
            byte[] value;
            int kind = random.nextInt(20);
            if (kind < 4) {
                value = null;
            } else if (kind == 4) {
                value = new byte[0];
            } else if (kind == 5) {
                value = new byte[3000 + random.nextInt(3000)];
                random.nextBytes(value);
            } else {
                value = new byte[random.nextInt(60)];
                random.nextBytes(value);
            }
            versions.put(cts, new Version(key, cts, value));
            maxCts = Math.max(maxCts, cts);
        }
    }

    /** Every version in the order a table stores them: key ascending, cts descending. */
    List<Version> versionsInOrder() {
        List<Version> all = new ArrayList<>();
        for (TreeMap<Long, Version> versions : byKey.values()) {
            all.addAll(versions.descendingMap().values());
        }
        return all;
    }

    /** The newest version of key with cts <= snapshot, or null. */
    Version get(byte[] key, long snapshot) {
        TreeMap<Long, Version> versions = byKey.get(key);
        if (versions == null) {
            return null;
        }
        Map.Entry<Long, Version> e = versions.floorEntry(snapshot);
        return e == null ? null : e.getValue();
    }

    /** Every version from the first key >= fromKey (null: all), in table order. */
    List<Version> scan(byte[] fromKey) {
        List<Version> all = new ArrayList<>();
        var tail = fromKey == null ? byKey : byKey.tailMap(fromKey, true);
        for (TreeMap<Long, Version> versions : tail.values()) {
            all.addAll(versions.descendingMap().values());
        }
        return all;
    }

    List<byte[]> keys() {
        return keys;
    }

    long maxCts() {
        return maxCts;
    }

    /** A key near the model's keys but usually absent: an existing key with a byte changed, added or removed. */
    static byte[] probeKey(Random random, List<byte[]> keys) {
        byte[] base = keys.get(random.nextInt(keys.size()));
        switch (random.nextInt(4)) {
            case 0:
                return base;
            case 1:
                return Arrays.copyOf(base, base.length + 1);
            case 2:
                return base.length == 0 ? new byte[] {(byte) 0xFF} : Arrays.copyOf(base, base.length - 1);
            default:
                byte[] changed = base.length == 0 ? new byte[1] : base.clone();
                changed[random.nextInt(changed.length)] ^= (byte) (1 + random.nextInt(255));
                return changed;
        }
    }

    static String hex(byte[] key) {
        return key == null ? "null" : HexFormat.of().formatHex(key, 0, Math.min(key.length, 40))
                + (key.length > 40 ? "...(" + key.length + " bytes)" : "");
    }
}
