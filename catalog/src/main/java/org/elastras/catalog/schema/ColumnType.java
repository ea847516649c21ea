package org.elastras.catalog.schema;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.Arrays;

/**
 * A column's type: a {@link TypeKind} with its parameters, the Java values it admits and the order
 * those values sort in. Immutable.
 *
 * <p>Java values, after {@link #normalize}: BOOLEAN {@code Boolean}; INT {@code Integer}; BIGINT and
 * TIMESTAMP (microseconds since the epoch) {@code Long}; DOUBLE {@code Double}; DECIMAL
 * {@code BigDecimal} with exactly the declared scale (stored as the scaled, i.e. unscaled-value,
 * {@code long}, which the precision limit of 18 guarantees fits); VARCHAR {@code String};
 * BYTES {@code byte[]}.
 *
 * <p>Order, which the key encoding reproduces byte for byte: numbers numerically; DOUBLE as
 * {@link Double#compare} (so -0.0 before 0.0 and NaN after +infinity, all NaNs equal); false before
 * true; VARCHAR by Unicode code point (which is UTF-8 byte order, and differs from
 * {@link String#compareTo} for characters beyond U+FFFF); BYTES unsigned lexicographically, a
 * prefix first.
 *
 * @param kind the kind
 * @param length the declared maximum length of VARCHAR (code points) and BYTES (bytes); 0 otherwise
 * @param precision the declared number of decimal digits of DECIMAL; 0 otherwise
 * @param scale the declared number of fractional digits of DECIMAL; 0 otherwise
 */
public record ColumnType(TypeKind kind, int length, int precision, int scale) {

    public static final ColumnType BOOLEAN = new ColumnType(TypeKind.BOOLEAN, 0, 0, 0);
    public static final ColumnType INT = new ColumnType(TypeKind.INT, 0, 0, 0);
    public static final ColumnType BIGINT = new ColumnType(TypeKind.BIGINT, 0, 0, 0);
    public static final ColumnType DOUBLE = new ColumnType(TypeKind.DOUBLE, 0, 0, 0);
    public static final ColumnType TIMESTAMP = new ColumnType(TypeKind.TIMESTAMP, 0, 0, 0);

    public ColumnType {
        if (kind == null) {
            throw new SchemaException("column type kind is missing; use one of the ColumnType constants or factories");
        }
        switch (kind) {
            case VARCHAR -> requireLength(kind, length, SchemaLimits.VARCHAR_LENGTH_MAX, precision, scale);
            case BYTES -> requireLength(kind, length, SchemaLimits.BYTES_LENGTH_MAX, precision, scale);
            case DECIMAL -> {
                if (precision < 1 || precision > SchemaLimits.DECIMAL_PRECISION_MAX) {
                    throw new SchemaException("DECIMAL precision " + precision + " is out of range; use 1 to "
                            + SchemaLimits.DECIMAL_PRECISION_MAX + " digits (values are held as a scaled long)");
                }
                if (scale < 0 || scale > precision) {
                    throw new SchemaException("DECIMAL(" + precision + "," + scale
                            + ") has a scale outside [0, precision]; use a scale from 0 to " + precision);
                }
                if (length != 0) {
                    throw new SchemaException("DECIMAL takes no length, got " + length);
                }
            }
            default -> {
                if (length != 0 || precision != 0 || scale != 0) {
                    throw new SchemaException(kind + " takes no parameters, got length " + length
                            + ", precision " + precision + ", scale " + scale);
                }
            }
        }
    }

    private static void requireLength(TypeKind kind, int length, int max, int precision, int scale) {
        if (length < 1 || length > max) {
            throw new SchemaException(kind + "(" + length + ") has a length outside [1, " + max + "]; declare a length in that range");
        }
        if (precision != 0 || scale != 0) {
            throw new SchemaException(kind + " takes no precision or scale, got " + precision + ", " + scale);
        }
    }

    /** VARCHAR of at most {@code maxCodePoints} characters (Unicode code points). */
    public static ColumnType varchar(int maxCodePoints) {
        return new ColumnType(TypeKind.VARCHAR, maxCodePoints, 0, 0);
    }

    /** BYTES of at most {@code maxBytes} bytes. */
    public static ColumnType bytes(int maxBytes) {
        return new ColumnType(TypeKind.BYTES, maxBytes, 0, 0);
    }

    /** DECIMAL with {@code precision} digits in all, {@code scale} of them after the point. */
    public static ColumnType decimal(int precision, int scale) {
        return new ColumnType(TypeKind.DECIMAL, 0, precision, scale);
    }

    /**
     * Checks a non-null value against this type and returns it in its canonical Java form (an
     * {@code Integer} for INT, a {@code BigDecimal} of exactly the declared scale for DECIMAL).
     * Integral boxes ({@code Byte}, {@code Short}, {@code Integer}, {@code Long}) are accepted by the
     * integer types when in range; {@code Float} by DOUBLE.
     *
     * @throws IllegalArgumentException naming the expected type and the value's type or the range it broke
     */
    public Object normalize(Object value) {
        if (value == null) {
            throw new IllegalArgumentException("expected " + this + " but got null");
        }
        switch (kind) {
            case BOOLEAN -> {
                if (value instanceof Boolean) {
                    return value;
                }
            }
            case INT -> {
                if (isIntegralBox(value)) {
                    long v = ((Number) value).longValue();
                    if (v < Integer.MIN_VALUE || v > Integer.MAX_VALUE) {
                        throw new IllegalArgumentException("expected " + this + " (32-bit) but got "
                                + value.getClass().getName() + " " + v + ", which overflows it; use BIGINT for such values");
                    }
                    return (int) v;
                }
            }
            case BIGINT, TIMESTAMP -> {
                if (isIntegralBox(value)) {
                    return ((Number) value).longValue();
                }
            }
            case DOUBLE -> {
                if (value instanceof Double) {
                    return value;
                }
                if (value instanceof Float f) {
                    return f.doubleValue();
                }
            }
            case DECIMAL -> {
                if (value instanceof BigDecimal d) {
                    return normalizeDecimal(d);
                }
            }
            case VARCHAR -> {
                if (value instanceof String s) {
                    checkString(s);
                    return s;
                }
            }
            case BYTES -> {
                if (value instanceof byte[] b) {
                    if (b.length > length) {
                        throw new IllegalArgumentException("expected " + this + " but got byte[] of "
                                + b.length + " bytes; the limit is " + length);
                    }
                    return b;
                }
            }
            default -> throw new IllegalStateException("unhandled kind " + kind);
        }
        throw new IllegalArgumentException("expected " + this + " (Java " + javaTypeName() + ") but got "
                + value.getClass().getName());
    }

    /** 10^0 .. 10^18: DECIMAL bounds, {@link SchemaLimits#DECIMAL_PRECISION_MAX} being 18. */
    private static final long[] POWERS_OF_TEN = powersOfTen();

    private static long[] powersOfTen() {
        long[] p = new long[SchemaLimits.DECIMAL_PRECISION_MAX + 1];
        p[0] = 1;
        for (int i = 1; i < p.length; i++) {
            p[i] = p[i - 1] * 10;
        }
        return p;
    }

    /**
     * Whether a stored DECIMAL's unscaled value has at most this type's precision in digits
     * (|unscaled| < 10^precision), without a {@code BigInteger}. REQUIRES: a DECIMAL type.
     */
    public boolean fitsPrecision(long unscaled) {
        long bound = POWERS_OF_TEN[precision];
        return unscaled > -bound && unscaled < bound;
    }

    private static boolean isIntegralBox(Object value) {
        return value instanceof Integer || value instanceof Long || value instanceof Short || value instanceof Byte;
    }

    private BigDecimal normalizeDecimal(BigDecimal d) {
        BigDecimal scaled;
        try {
            scaled = d.setScale(scale, RoundingMode.UNNECESSARY);
        } catch (ArithmeticException e) {
            throw new IllegalArgumentException("expected " + this + " but got BigDecimal " + d.toPlainString()
                    + " with more than " + scale + " fractional digits; round it first", e);
        }
        if (scaled.precision() > precision) { // its unscaled value has more digits than the type's precision
            throw new IllegalArgumentException("expected " + this + " but got BigDecimal " + d.toPlainString()
                    + ", which has more than " + (precision - scale) + " digits before the point");
        }
        return scaled;
    }

    private void checkString(String s) {
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (Character.isHighSurrogate(c) && i + 1 < s.length() && Character.isLowSurrogate(s.charAt(i + 1))) {
                i++;
            } else if (Character.isSurrogate(c)) {
                throw new IllegalArgumentException("expected " + this + " but got a String with an unpaired surrogate at index "
                        + i + ", which is not Unicode text; fix the text or use BYTES");
            }
        }
        int codePoints = s.codePointCount(0, s.length());
        if (codePoints > length) {
            throw new IllegalArgumentException("expected " + this + " but got a String of " + codePoints
                    + " characters; the limit is " + length + " (shorten it or widen the column)");
        }
    }

    /** The Java class name of this type's canonical values. */
    public String javaTypeName() {
        return switch (kind) {
            case BOOLEAN -> "Boolean";
            case INT -> "Integer";
            case BIGINT, TIMESTAMP -> "Long";
            case DOUBLE -> "Double";
            case DECIMAL -> "BigDecimal";
            case VARCHAR -> "String";
            case BYTES -> "byte[]";
        };
    }

    /**
     * Compares two normalized values of this type, null first; the order the key encoding keeps.
     */
    public int compareValues(Object a, Object b) {
        if (a == null || b == null) {
            return a == null ? (b == null ? 0 : -1) : 1;
        }
        return switch (kind) {
            case BOOLEAN -> Boolean.compare((Boolean) a, (Boolean) b);
            case INT -> Integer.compare((Integer) a, (Integer) b);
            case BIGINT, TIMESTAMP -> Long.compare((Long) a, (Long) b);
            case DOUBLE -> Double.compare((Double) a, (Double) b);
            case DECIMAL -> ((BigDecimal) a).compareTo((BigDecimal) b);
            case VARCHAR -> compareCodePoints((String) a, (String) b);
            case BYTES -> Arrays.compareUnsigned((byte[]) a, (byte[]) b);
        };
    }

    /** Whether two normalized values of this type are equal (content equality for BYTES). */
    public boolean valuesEqual(Object a, Object b) {
        return compareValues(a, b) == 0;
    }

    private static int compareCodePoints(String a, String b) {
        int i = 0;
        int j = 0;
        while (i < a.length() && j < b.length()) {
            int ca = a.codePointAt(i);
            int cb = b.codePointAt(j);
            if (ca != cb) {
                return Integer.compare(ca, cb);
            }
            i += Character.charCount(ca);
            j += Character.charCount(cb);
        }
        return Boolean.compare(i < a.length(), j < b.length());
    }

    /**
     * The most bytes a non-null value of this type can take in the key encoding: fixed widths for
     * numbers, and for VARCHAR and BYTES every byte escaped (UTF-8 takes at most 4 bytes a code point,
     * and only U+0000 encodes to the byte 0x00 that is escaped to two) plus the 2-byte terminator.
     */
    public int keyBytesMax() {
        return switch (kind) {
            case BOOLEAN -> 1;
            case INT -> 4;
            case BIGINT, TIMESTAMP, DOUBLE, DECIMAL -> 8;
            case VARCHAR -> 4 * length + 2;
            case BYTES -> 2 * length + 2;
        };
    }

    @Override
    public String toString() {
        return switch (kind) {
            case VARCHAR, BYTES -> kind + "(" + length + ")";
            case DECIMAL -> kind + "(" + precision + "," + scale + ")";
            default -> kind.name();
        };
    }
}
