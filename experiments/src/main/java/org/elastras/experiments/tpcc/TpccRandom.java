package org.elastras.experiments.tpcc;

import java.math.BigDecimal;
import java.util.SplittableRandom;

/**
 * The random functions of TPC-C over a seeded {@link SplittableRandom}: uniform integers and
 * decimals (clause 2.1.5, 4.3.2.5), NURand (clause 2.1.6), a-strings and n-strings (clause
 * 4.3.2.2), last names from syllables (clause 4.3.2.3), zip codes (clause 4.3.2.7) and the 10%
 * "ORIGINAL" data strings (clause 4.3.3.1). Same seed, same sequence. Not thread-safe: one per
 * thread (use {@link #split()}).
 */
public final class TpccRandom {

    /** Clause 4.3.2.3. */
    static final String[] SYLLABLES = {"BAR", "OUGHT", "ABLE", "PRI", "PRES", "ESE", "ANTI", "CALLY", "ATION", "EING"};
    static final String ORIGINAL = "ORIGINAL";
    /**
     * The a-string alphabet: clause 4.3.2.2 asks for at least 128 different characters. These are
     * 62 ASCII letters and digits, 62 Latin-1 letters (U+00C0..U+00FF without the signs U+00D7 and
     * U+00F7) and U+00AA, U+00B5, U+00BA, U+0100.
     */
    static final char[] ALPHABET = alphabet();

    private final SplittableRandom random;

    public TpccRandom(long seed) {
        this(new SplittableRandom(seed));
    }

    private TpccRandom(SplittableRandom random) {
        this.random = random;
    }

    /** An independent generator derived from this one. */
    public TpccRandom split() {
        return new TpccRandom(random.split());
    }

    private static char[] alphabet() {
        StringBuilder s = new StringBuilder(128);
        for (char c = 'a'; c <= 'z'; c++) {
            s.append(c);
        }
        for (char c = 'A'; c <= 'Z'; c++) {
            s.append(c);
        }
        for (char c = '0'; c <= '9'; c++) {
            s.append(c);
        }
        for (char c = '\u00C0'; c <= '\u00FF' && s.length() < 128; c++) {
            if (c != '\u00D7' && c != '\u00F7') {
                s.append(c);
            }
        }
        for (char c : new char[] {'\u00AA', '\u00B5', '\u00BA', '\u0100'}) {
            if (s.length() < 128) {
                s.append(c);
            }
        }
        if (s.length() != 128 || s.chars().distinct().count() != 128) {
            throw new IllegalStateException("the a-string alphabet must have 128 distinct characters, has " + s.length());
        }
        return s.toString().toCharArray();
    }

    /** Uniform in [x, y], both inclusive (clause 2.1.5). */
    public int uniform(int x, int y) {
        if (x > y) {
            throw new IllegalArgumentException("empty range [" + x + ", " + y + "]");
        }
        return x + random.nextInt(y - x + 1);
    }

    /** Uniform in [x, y] with {@code scale} decimal places, e.g. (1.00, 100.00, 2) for I_PRICE. */
    public BigDecimal uniformDecimal(String x, String y, int scale) {
        long low = new BigDecimal(x).movePointRight(scale).longValueExact();
        long high = new BigDecimal(y).movePointRight(scale).longValueExact();
        return BigDecimal.valueOf(low + random.nextLong(high - low + 1), scale);
    }

    /** NURand(A, x, y) = (((random(0, A) | random(x, y)) + C) % (y - x + 1)) + x (clause 2.1.6). */
    public int nuRand(int a, int x, int y, int c) {
        return (((uniform(0, a) | uniform(x, y)) + c) % (y - x + 1)) + x;
    }

    /** A random a-string of length in [min, max] (clause 4.3.2.2). */
    public String aString(int min, int max) {
        int length = uniform(min, max);
        char[] s = new char[length];
        for (int i = 0; i < length; i++) {
            s[i] = ALPHABET[random.nextInt(ALPHABET.length)];
        }
        return new String(s);
    }

    /** A random n-string (digits) of length in [min, max] (clause 4.3.2.2). */
    public String nString(int min, int max) {
        int length = uniform(min, max);
        char[] s = new char[length];
        for (int i = 0; i < length; i++) {
            s[i] = (char) ('0' + random.nextInt(10));
        }
        return new String(s);
    }

    /** Two random upper-case letters, for *_STATE. */
    public String state() {
        return "" + (char) ('A' + random.nextInt(26)) + (char) ('A' + random.nextInt(26));
    }

    /** Zip code: a random n-string of 4 digits followed by "11111" (clause 4.3.2.7). */
    public String zip() {
        return nString(4, 4) + "11111";
    }

    /**
     * I_DATA or S_DATA: an a-string of 26..50 characters; in 10% of rows "ORIGINAL" replaces the
     * characters at a random position (clause 4.3.3.1).
     */
    public String dataWithOriginal() {
        String s = aString(26, 50);
        if (uniform(1, 100) > 10) {
            return s;
        }
        int at = uniform(0, s.length() - ORIGINAL.length());
        return s.substring(0, at) + ORIGINAL + s.substring(at + ORIGINAL.length());
    }

    /** The last name of number 0..999: the syllables of its three digits (clause 4.3.2.3). */
    public static String lastName(int number) {
        if (number < 0 || number > 999) {
            throw new IllegalArgumentException("a last-name number is 0..999, got " + number);
        }
        return SYLLABLES[number / 100] + SYLLABLES[number / 10 % 10] + SYLLABLES[number % 10];
    }

    /** A random permutation of 1..n (for O_C_ID, clause 4.3.3.1). */
    public int[] permutation(int n) {
        int[] p = new int[n];
        for (int i = 0; i < n; i++) {
            p[i] = i + 1;
        }
        for (int i = n - 1; i > 0; i--) {
            int j = random.nextInt(i + 1);
            int t = p[i];
            p[i] = p[j];
            p[j] = t;
        }
        return p;
    }
}
