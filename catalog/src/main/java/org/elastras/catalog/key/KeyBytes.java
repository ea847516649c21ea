package org.elastras.catalog.key;

import java.util.Arrays;
import java.util.HexFormat;

/**
 * Helpers over encoded keys, which sort by unsigned lexicographic byte order. Stateless.
 *
 * <p>The empty array has two meanings by position: as a range start it is the smallest key, as a
 * range end (and as the result of {@link #prefixEnd}) it is +infinity.
 */
public final class KeyBytes {

    private static final HexFormat HEX = HexFormat.of();

    private KeyBytes() {
    }

    /** Unsigned lexicographic comparison: the order of encoded keys. */
    public static int compare(byte[] a, byte[] b) {
        return Arrays.compareUnsigned(a, b);
    }

    /**
     * The smallest byte string greater than every string that starts with {@code prefix}: the prefix
     * with trailing 0xFF bytes dropped and its last byte incremented. The empty array (+infinity) if
     * the prefix is empty or all 0xFF, since then no finite bound exists. Every key starting with
     * {@code prefix} lies in {@code [prefix, prefixEnd(prefix))}, and no other key does.
     */
    public static byte[] prefixEnd(byte[] prefix) {
        int last = prefix.length - 1;
        while (last >= 0 && prefix[last] == (byte) 0xFF) {
            last--;
        }
        if (last < 0) {
            return new byte[0];
        }
        byte[] end = Arrays.copyOf(prefix, last + 1);
        end[last]++;
        return end;
    }

    /** The smallest byte string greater than {@code key}: {@code key} followed by 0x00. */
    public static byte[] successor(byte[] key) {
        return Arrays.copyOf(key, key.length + 1);
    }

    /** Lower-case hex of {@code bytes}, for messages. */
    public static String toHex(byte[] bytes) {
        return HEX.formatHex(bytes);
    }
}
