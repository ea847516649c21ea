package org.elastras.catalog.key;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import org.elastras.catalog.schema.Column;
import org.elastras.catalog.schema.RandomValues;
import org.junit.jupiter.api.Test;

/**
 * For random composite keys over random column types: byte order of the encodings equals value order,
 * decoding inverts encoding, and a prefix range holds exactly the keys with that prefix. Seeded; the
 * seed is printed and is in every assertion message; rerun one with -Delastras.test.seed=<seed>.
 */
class KeyCodecOrderPropertyTest {

    private static final int SCHEMAS = 60;
    private static final int KEYS_PER_SCHEMA = 150;

    @Test
    void byteOrderEqualsValueOrderAndDecodeInvertsEncode() {
        long seed = Long.getLong("elastras.test.seed", System.nanoTime());
        System.out.println("KeyCodecOrderPropertyTest seed " + seed);
        Random random = new Random(seed);
        for (int s = 0; s < SCHEMAS; s++) {
            List<Column> columns = randomColumns(random);
            KeyCodec codec = new KeyCodec("test key", columns);
            List<List<Object>> keys = randomKeys(random, columns);
            List<byte[]> encoded = new ArrayList<>();
            for (List<Object> key : keys) {
                byte[] e = codec.encode(key);
                List<Object> back = codec.decode(e);
                assertTrue(RandomValues.same(key, back), "seed " + seed + " " + columns + ": decode(encode("
                        + RandomValues.show(key) + ")) = " + RandomValues.show(back));
                encoded.add(e);
            }
            for (int i = 0; i < keys.size(); i++) {
                for (int j = 0; j < keys.size(); j++) {
                    int byValue = Integer.signum(RandomValues.compare(columns, keys.get(i), keys.get(j)));
                    int byBytes = Integer.signum(KeyBytes.compare(encoded.get(i), encoded.get(j)));
                    if (byValue != byBytes) {
                        assertEquals(byValue, byBytes, "seed " + seed + " " + columns + ": " + RandomValues.show(keys.get(i))
                                + " vs " + RandomValues.show(keys.get(j)) + " encoded " + KeyBytes.toHex(encoded.get(i))
                                + " vs " + KeyBytes.toHex(encoded.get(j)));
                    }
                }
            }
        }
    }

    @Test
    void prefixRangeHoldsExactlyTheKeysWithThatPrefix() {
        long seed = Long.getLong("elastras.test.seed", System.nanoTime());
        System.out.println("KeyCodecOrderPropertyTest prefix seed " + seed);
        Random random = new Random(seed);
        for (int s = 0; s < SCHEMAS; s++) {
            List<Column> columns = randomColumns(random);
            KeyCodec codec = new KeyCodec("test key", columns);
            List<List<Object>> keys = randomKeys(random, columns);
            for (int p = 0; p < 10; p++) {
                List<Object> source = keys.get(random.nextInt(keys.size()));
                int length = random.nextInt(columns.size() + 1);
                List<Object> prefix = source.subList(0, length);
                KeyRange range = codec.prefixRange(prefix);
                int inside = 0;
                for (List<Object> key : keys) {
                    boolean hasPrefix = RandomValues.compare(columns, key.subList(0, length), prefix) == 0;
                    boolean contained = range.contains(codec.encode(key));
                    assertEquals(hasPrefix, contained, "seed " + seed + " " + columns + ": key " + RandomValues.show(key)
                            + " prefix " + RandomValues.show(prefix) + " range " + range);
                    inside += contained ? 1 : 0;
                    if (hasPrefix) {
                        assertEquals(codec.encodePrefix(prefix).length, codec.prefixLength(codec.encode(key), length),
                                "seed " + seed + ": prefixLength of " + RandomValues.show(key));
                    }
                }
                assertTrue(inside >= 1, "seed " + seed + ": the source key itself is in its prefix range");
            }
        }
    }

    private static List<Column> randomColumns(Random random) {
        int n = 1 + random.nextInt(4);
        List<Column> columns = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            columns.add(new Column("C" + i, RandomValues.type(random), random.nextInt(3) == 0));
        }
        return columns;
    }

    /** Keys that often share a prefix with an earlier key, so ties in leading columns are common. */
    private static List<List<Object>> randomKeys(Random random, List<Column> columns) {
        List<List<Object>> keys = new ArrayList<>();
        for (int k = 0; k < KEYS_PER_SCHEMA; k++) {
            List<Object> key = RandomValues.row(random, columns);
            if (!keys.isEmpty() && random.nextBoolean()) {
                List<Object> earlier = keys.get(random.nextInt(keys.size()));
                int shared = random.nextInt(columns.size() + 1);
                for (int i = 0; i < shared; i++) {
                    key.set(i, earlier.get(i));
                }
            }
            keys.add(key);
        }
        return keys;
    }
}
