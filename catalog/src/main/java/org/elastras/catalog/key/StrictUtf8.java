package org.elastras.catalog.key;

/**
 * Decodes stored UTF-8 strictly, in one pass and without a {@link java.nio.charset.CharsetDecoder}:
 * a stored VARCHAR that is not well-formed UTF-8 is corruption, never a string with replacement
 * characters.
 *
 * <p>Well-formed means the Unicode standard's table 3-7: no overlong form (C0, C1, E0 80..9F, F0
 * 80..8F), no surrogate code point (ED A0..BF), nothing above U+10FFFF (F4 90.., F5..FF), no stray
 * or missing continuation byte. That is what {@code CharsetDecoder} with {@code REPORT} accepts,
 * which the codecs used before (session 22): a third of an OTM's decoding time in TPC-C went to
 * making a decoder and a {@code CharBuffer} per non-ASCII string (TPC-C's a-strings are half
 * Latin-1 letters, 2-byte UTF-8).
 */
public final class StrictUtf8 {

    private StrictUtf8() {
    }

    /**
     * The string of {@code length} bytes of {@code bytes} from {@code offset}, or null if they are
     * not well-formed UTF-8.
     *
     * @throws IndexOutOfBoundsException if the range is not inside {@code bytes}
     */
    public static String decode(byte[] bytes, int offset, int length) {
        java.util.Objects.checkFromIndexSize(offset, length, bytes.length);
        char[] chars = new char[length]; // a code point takes at least as many bytes as UTF-16 chars
        int n = 0;
        int i = offset;
        int end = offset + length;
        while (i < end) {
            int b0 = bytes[i];
            if (b0 >= 0) {
                chars[n++] = (char) b0;
                i++;
                continue;
            }
            b0 &= 0xFF;
            if (b0 < 0xC2) {
                return null; // a continuation byte where a code point starts, or an overlong C0/C1
            }
            if (b0 < 0xE0) {
                if (i + 1 >= end || !continuation(bytes[i + 1])) {
                    return null;
                }
                chars[n++] = (char) (((b0 & 0x1F) << 6) | (bytes[i + 1] & 0x3F));
                i += 2;
            } else if (b0 < 0xF0) {
                if (i + 2 >= end || !continuation(bytes[i + 1]) || !continuation(bytes[i + 2])) {
                    return null;
                }
                int cp = ((b0 & 0x0F) << 12) | ((bytes[i + 1] & 0x3F) << 6) | (bytes[i + 2] & 0x3F);
                if (cp < 0x800 || Character.isSurrogate((char) cp)) {
                    return null; // overlong, or a surrogate
                }
                chars[n++] = (char) cp;
                i += 3;
            } else if (b0 < 0xF5) {
                if (i + 3 >= end || !continuation(bytes[i + 1]) || !continuation(bytes[i + 2])
                        || !continuation(bytes[i + 3])) {
                    return null;
                }
                int cp = ((b0 & 0x07) << 18) | ((bytes[i + 1] & 0x3F) << 12) | ((bytes[i + 2] & 0x3F) << 6)
                        | (bytes[i + 3] & 0x3F);
                if (cp < 0x10000 || cp > Character.MAX_CODE_POINT) {
                    return null; // overlong, or beyond Unicode
                }
                chars[n++] = Character.highSurrogate(cp);
                chars[n++] = Character.lowSurrogate(cp);
                i += 4;
            } else {
                return null; // F5..FF start nothing
            }
        }
        return new String(chars, 0, n);
    }

    /**
     * Whether {@code s}, decoded by {@link #decode}, has more than {@code max} code points: its
     * UTF-16 length bounds them from above, so they are counted only past it.
     */
    public static boolean longerThan(String s, int max) {
        return s.length() > max && s.codePointCount(0, s.length()) > max;
    }

    private static boolean continuation(byte b) {
        return (b & 0xC0) == 0x80;
    }
}
