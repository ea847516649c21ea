package org.elastras.storage.store;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

/** {@link KeySort} orders keys as the comparator sort does, whatever their shapes. */
class KeySortTest {

    private static byte[][] sortedByComparator(byte[][] keys) {
        byte[][] expected = keys.clone();
        Arrays.sort(expected, Version::compareKeys);
        return expected;
    }

    private static void assertSortsLikeTheComparator(byte[][] keys) {
        byte[][] expected = sortedByComparator(keys);
        byte[][] actual = keys.clone();
        KeySort.sort(actual, Function.identity());
        assertEquals(expected.length, actual.length);
        for (int i = 0; i < expected.length; i++) {
            assertArrayEquals(expected[i], actual[i], "position " + i + " of " + keys.length);
        }
    }

    /** Distinct random keys of {@code n}, built by {@code maker}. */
    private static byte[][] distinct(int n, Random random, Function<Random, byte[]> maker) {
        Set<ByteBuffer> seen = new LinkedHashSet<>();
        while (seen.size() < n) {
            seen.add(ByteBuffer.wrap(maker.apply(random)));
        }
        return seen.stream().map(ByteBuffer::array).toArray(byte[][]::new);
    }

    @Test
    void tpccLikeKeysOfSeveralTablesSortAsTheComparatorSortsThem() {
        Random random = new Random(29);
        // A table id, then big-endian ints with the sign flipped (KeyCodec's INT), 2 to 4 of them.
        byte[][] keys = distinct(50_000, random, r -> {
            int columns = 2 + r.nextInt(3);
            ByteBuffer b = ByteBuffer.allocate(2 + 4 * columns);
            b.putShort((short) (1 + r.nextInt(11)));
            b.putInt(1 ^ Integer.MIN_VALUE);
            for (int c = 1; c < columns; c++) {
                b.putInt(r.nextInt(c == 1 ? 10 : 3_000) ^ Integer.MIN_VALUE);
            }
            return b.array();
        });
        assertSortsLikeTheComparator(keys);
    }

    @Test
    void keysThatArePrefixesOfOthersAndKeysEndingInZerosComeFirst() {
        Random random = new Random(7);
        // Short alphabets and lengths: many keys are prefixes of others, or equal in their first
        // 8 bytes after the shared prefix once zero-padded (x and x 00 00).
        byte[][] keys = distinct(5_000, random, r -> {
            byte[] k = new byte[3 + r.nextInt(12)];
            k[0] = 42;
            k[1] = 42;
            for (int i = 2; i < k.length; i++) {
                k[i] = (byte) (r.nextInt(3) == 0 ? 0 : r.nextInt(4) * 85);
            }
            return k;
        });
        assertSortsLikeTheComparator(keys);
    }

    @Test
    void keysAlikeInTheirFirstSixteenBytesAreOrderedByTheirTails() {
        Random random = new Random(11);
        // Every key shares 4 bytes, then 12 bytes from a handful of values: long runs of ties that
        // only the full compare can order.
        byte[][] keys = distinct(20_000, random, r -> {
            ByteBuffer b = ByteBuffer.allocate(24);
            b.putInt(0xCAFEBABE);
            long head = r.nextInt(4);
            b.putLong(head * 0x0101010101010101L);
            b.putInt((int) head);
            b.putLong(r.nextLong());
            return b.array();
        });
        assertSortsLikeTheComparator(keys);
    }

    @Test
    void bytesAboveSeventyFAreUnsignedAndShortArraysUseTheComparator() {
        Random random = new Random(3);
        byte[][] keys = distinct(10_000, random, r -> {
            byte[] k = new byte[1 + r.nextInt(10)];
            r.nextBytes(k);
            return k;
        });
        assertSortsLikeTheComparator(keys);
        for (int n : List.of(0, 1, 2, KeySort.SMALL - 1, KeySort.SMALL, KeySort.SMALL + 1, 1_000)) {
            assertSortsLikeTheComparator(Arrays.copyOf(keys, n));
        }
        // The empty key and keys of one byte 00 and 00 00: all prefixes of one another.
        assertSortsLikeTheComparator(new byte[][] {{0, 0}, {}, {0}, {(byte) 0xFF}, {0, 0, 0}, {1}});
    }

    @Test
    void theSharedPrefixAndTheWindowAreWhatTheOrderRestsOn() {
        assertEquals(2, KeySort.sharedPrefix(new byte[][] {{1, 2, 3}, {1, 2, 4}, {1, 2}}, 0, 3, Function.identity()));
        assertEquals(0, KeySort.sharedPrefix(new byte[][] {{1, 2, 3}, {}}, 0, 2, Function.identity()));
        assertEquals(3, KeySort.sharedPrefix(new byte[][] {{9}, {1, 2, 3}}, 1, 2, Function.identity()));
        assertEquals(0x0102000000000000L, KeySort.window(new byte[] {9, 1, 2}, 1));
        assertEquals(0xFF01020304050607L, KeySort.window(new byte[] {(byte) 0xFF, 1, 2, 3, 4, 5, 6, 7, 8}, 0));
        assertEquals(0L, KeySort.window(new byte[] {1}, 1));
    }
}
