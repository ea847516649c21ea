package org.elastras.catalog.schema;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Random;

/**
 * Random column types and values for property tests, leaning on the edges (extremes, zero bytes,
 * -0.0, NaN, empty and prefix strings). A test helper; every draw comes from the caller's seeded
 * {@link Random}, so a failure replays from its seed.
 */
public final class RandomValues {

    private static final String[] STRINGS = {"", "\0", "a", "a\0", "a\0b", "ab", "b", "\uFFFF", "\uD83D\uDE00", "\u00E9t\u00E9"};
    private static final double[] DOUBLES = {-0.0, 0.0, Double.NaN, Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY,
        Double.MIN_VALUE, -Double.MIN_VALUE, Double.MAX_VALUE, -Double.MAX_VALUE, 1.0, -1.0};
    private static final long[] LONGS = {Long.MIN_VALUE, Long.MIN_VALUE + 1, -1, 0, 1, Long.MAX_VALUE};

    private RandomValues() {
    }

    /** A random column type with small lengths, so prefixes and ties are common. */
    public static ColumnType type(Random random) {
        return switch (random.nextInt(8)) {
            case 0 -> ColumnType.BOOLEAN;
            case 1 -> ColumnType.INT;
            case 2 -> ColumnType.BIGINT;
            case 3 -> ColumnType.DOUBLE;
            case 4 -> decimal(random);
            case 5 -> ColumnType.varchar(1 + random.nextInt(6));
            case 6 -> ColumnType.bytes(1 + random.nextInt(6));
            default -> ColumnType.TIMESTAMP;
        };
    }

    private static ColumnType decimal(Random random) {
        int precision = 1 + random.nextInt(SchemaLimits.DECIMAL_PRECISION_MAX);
        return ColumnType.decimal(precision, random.nextInt(precision + 1));
    }

    /** A random, normalized, non-null value of {@code type}. */
    public static Object value(Random random, ColumnType type) {
        return switch (type.kind()) {
            case BOOLEAN -> random.nextBoolean();
            case INT -> random.nextInt(4) == 0 ? new int[] {Integer.MIN_VALUE, -1, 0, 1, Integer.MAX_VALUE}[random.nextInt(5)]
                    : random.nextInt(4) == 0 ? random.nextInt() : random.nextInt(21) - 10;
            case BIGINT, TIMESTAMP -> random.nextInt(4) == 0 ? LONGS[random.nextInt(LONGS.length)]
                    : random.nextInt(4) == 0 ? random.nextLong() : (long) (random.nextInt(21) - 10);
            case DOUBLE -> random.nextInt(3) == 0 ? DOUBLES[random.nextInt(DOUBLES.length)]
                    : random.nextBoolean() ? (double) (random.nextInt(11) - 5) : random.nextGaussian() * 1e6;
            case DECIMAL -> {
                long bound = BigDecimal.TEN.pow(type.precision()).longValueExact();
                long unscaled = random.nextInt(3) == 0 ? (random.nextBoolean() ? bound - 1 : 1 - bound)
                        : Math.floorMod(random.nextLong(), 2 * bound - 1) - (bound - 1);
                yield BigDecimal.valueOf(unscaled, type.scale());
            }
            case VARCHAR -> {
                String s = random.nextInt(3) == 0 ? STRINGS[random.nextInt(STRINGS.length)] : randomString(random, type.length());
                yield s.codePointCount(0, s.length()) <= type.length() ? s : "";
            }
            case BYTES -> {
                byte[] b = new byte[random.nextInt(type.length() + 1)];
                for (int i = 0; i < b.length; i++) {
                    b[i] = new byte[] {0, 1, (byte) 0xFF, (byte) 0x80, 0x7F}[random.nextInt(5)];
                }
                yield b;
            }
        };
    }

    private static String randomString(Random random, int maxCodePoints) {
        int n = random.nextInt(maxCodePoints + 1);
        StringBuilder b = new StringBuilder();
        int[] alphabet = {0, 'a', 'b', 0x7F, 0x80, 0xE9, 0x7FF, 0x800, 0xFFFF, 0x10000, 0x1F600, 0x10FFFF};
        for (int i = 0; i < n; i++) {
            b.appendCodePoint(alphabet[random.nextInt(alphabet.length)]);
        }
        return b.toString();
    }

    /** A random key made of {@code columns}, NULL in nullable columns a quarter of the time. */
    public static List<Object> row(Random random, List<Column> columns) {
        List<Object> out = new ArrayList<>(columns.size());
        for (Column c : columns) {
            out.add(c.nullable() && random.nextInt(4) == 0 ? null : value(random, c.type()));
        }
        return out;
    }

    /** Column-by-column value order, the order the key encoding must reproduce. */
    public static int compare(List<Column> columns, List<?> a, List<?> b) {
        for (int i = 0; i < Math.min(a.size(), b.size()); i++) {
            int c = columns.get(i).type().compareValues(a.get(i), b.get(i));
            if (c != 0) {
                return c;
            }
        }
        return Integer.compare(a.size(), b.size());
    }

    /** Exact equality of value lists: same Java values, byte arrays by content, -0.0 distinct from 0.0. */
    public static boolean same(List<?> a, List<?> b) {
        if (a.size() != b.size()) {
            return false;
        }
        for (int i = 0; i < a.size(); i++) {
            if (!Objects.deepEquals(a.get(i), b.get(i))) {
                return false;
            }
        }
        return true;
    }

    /** A readable form of a value list, byte arrays in hex. */
    public static String show(List<?> values) {
        List<String> out = new ArrayList<>();
        for (Object v : values) {
            out.add(v instanceof byte[] b ? "0x" + java.util.HexFormat.of().formatHex(b) : String.valueOf(v));
        }
        return out.toString();
    }
}
