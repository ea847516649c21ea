package org.elastras.client.protocol;

import org.elastras.catalog.schema.Column;
import org.elastras.catalog.schema.TypeKind;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.Base64;

/**
 * Turns a value as it arrives on the wire into the canonical Java value of a catalog column.
 * Stateless.
 *
 * <p>A decoded body holds whatever Java type the encoding produced: JSON has no binary and no
 * decimal, so a BYTES value arrives as a base64 string and a DECIMAL as a {@code Double} (or a
 * string, for full precision); any integer may arrive as an {@code Integer}, {@code Long} or
 * {@code BigInteger} depending on its size. This class widens those forms, losslessly or not at
 * all, and then applies {@link Column#normalize}, which checks the type, range and length:
 * <ul>
 *   <li>BYTES: {@code byte[]}, or a base64 string (standard alphabet);</li>
 *   <li>DECIMAL: {@code BigDecimal}, any integer, a {@code Double}/{@code Float} (through its
 *       shortest decimal form), or a numeric string;</li>
 *   <li>DOUBLE: any number;</li>
 *   <li>INT, BIGINT, TIMESTAMP: any integer in range, including {@code BigInteger};</li>
 *   <li>BOOLEAN, VARCHAR: as they are.</li>
 * </ul>
 */
public final class WireValues {

    private WireValues() {
    }

    /**
     * The canonical value of {@code column} for {@code wireValue}.
     *
     * @param owner what the column belongs to, for messages ("table WAREHOUSE")
     * @throws IllegalArgumentException naming the column, the expected type and what was wrong; a
     *     server answers it with {@link ErrorCode#TYPE_MISMATCH}
     */
    public static Object toColumnValue(String owner, Column column, Object wireValue) {
        return column.normalize(owner, widen(owner, column, wireValue));
    }

    private static Object widen(String owner, Column column, Object v) {
        if (v == null) {
            return null;
        }
        TypeKind kind = column.type().kind();
        switch (kind) {
            case BYTES -> {
                if (v instanceof String s) {
                    try {
                        return Base64.getDecoder().decode(s);
                    } catch (IllegalArgumentException e) {
                        throw new IllegalArgumentException(owner + " column " + column.name()
                                + " is BYTES but got a string that is not base64 (" + e.getMessage()
                                + "); send binary, or base64 in JSON");
                    }
                }
            }
            case DECIMAL -> {
                if (v instanceof Double || v instanceof Float) {
                    double d = ((Number) v).doubleValue();
                    if (Double.isNaN(d) || Double.isInfinite(d)) {
                        throw new IllegalArgumentException(owner + " column " + column.name() + " is "
                                + column.type() + " but got " + d + "; send a finite number");
                    }
                    return new BigDecimal(Double.toString(d));
                }
                if (v instanceof Integer || v instanceof Long || v instanceof Short || v instanceof Byte) {
                    return BigDecimal.valueOf(((Number) v).longValue());
                }
                if (v instanceof BigInteger b) {
                    return new BigDecimal(b);
                }
                if (v instanceof String s) {
                    try {
                        return new BigDecimal(s.trim());
                    } catch (NumberFormatException e) {
                        throw new IllegalArgumentException(owner + " column " + column.name() + " is "
                                + column.type() + " but got the string '" + abbreviate(s) + "', which is not a number");
                    }
                }
            }
            case DOUBLE -> {
                if (v instanceof Number n && !(v instanceof Double)) {
                    return n.doubleValue();
                }
            }
            case INT, BIGINT, TIMESTAMP -> {
                if (v instanceof BigInteger b) {
                    if (b.bitLength() > 63) {
                        throw new IllegalArgumentException(owner + " column " + column.name() + " is "
                                + column.type() + " but got " + abbreviate(b.toString()) + ", which does not fit 64 bits");
                    }
                    return b.longValue();
                }
            }
            default -> {
                return v;
            }
        }
        return v;
    }

    private static String abbreviate(String s) {
        return s.length() <= 40 ? s : s.substring(0, 40) + "...";
    }
}
