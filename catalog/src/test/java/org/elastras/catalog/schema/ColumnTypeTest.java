package org.elastras.catalog.schema;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigDecimal;

import org.junit.jupiter.api.Test;

/** Values are checked against their type, converted to the canonical Java form, and ordered as documented. */
class ColumnTypeTest {

    private static void assertRefused(ColumnType type, Object value, String... fragments) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> type.normalize(value));
        for (String f : fragments) {
            assertTrue(e.getMessage().contains(f), "message '" + e.getMessage() + "' should contain '" + f + "'");
        }
    }

    @Test
    void integralTypesWidenAndRefuseOverflow() {
        assertEquals(7, ColumnType.INT.normalize(7L));
        assertEquals(-3, ColumnType.INT.normalize((short) -3));
        assertEquals(5L, ColumnType.BIGINT.normalize(5));
        assertRefused(ColumnType.INT, 1L << 31, "expected INT", "java.lang.Long 2147483648", "overflows", "BIGINT");
        assertRefused(ColumnType.INT, "7", "expected INT (Java Integer) but got java.lang.String");
        assertRefused(ColumnType.BIGINT, 1.0, "expected BIGINT (Java Long) but got java.lang.Double");
        assertRefused(ColumnType.BOOLEAN, 1, "expected BOOLEAN (Java Boolean) but got java.lang.Integer");
        assertRefused(ColumnType.TIMESTAMP, new java.util.Date(), "expected TIMESTAMP (Java Long)");
    }

    @Test
    void decimalsTakeTheDeclaredScaleAndRefuseRoundingOrOverflow() {
        ColumnType money = ColumnType.decimal(6, 2);
        assertEquals(new BigDecimal("12.50"), money.normalize(new BigDecimal("12.5")));
        assertEquals(2, ((BigDecimal) money.normalize(BigDecimal.ONE)).scale());
        assertRefused(money, new BigDecimal("1.005"), "more than 2 fractional digits");
        assertRefused(money, new BigDecimal("10000.00"), "more than 4 digits before the point");
        assertEquals(new BigDecimal("-9999.99"), money.normalize(new BigDecimal("-9999.99")));
        assertRefused(money, 3, "expected DECIMAL(6,2) (Java BigDecimal) but got java.lang.Integer");
    }

    @Test
    void varcharCountsCodePointsAndRefusesBrokenText() {
        ColumnType v = ColumnType.varchar(3);
        assertEquals("a\uD83D\uDE00b", v.normalize("a\uD83D\uDE00b"), "a surrogate pair is one character");
        assertRefused(v, "abcd", "String of 4 characters", "limit is 3");
        assertRefused(v, "a\uD83Db", "unpaired surrogate at index 1");
        assertRefused(ColumnType.bytes(2), new byte[3], "byte[] of 3 bytes", "limit is 2");
        byte[] b = {1, 2};
        assertArrayEquals(b, (byte[]) ColumnType.bytes(2).normalize(b));
    }

    @Test
    void orderIsTheDocumentedOne() {
        assertTrue(ColumnType.DOUBLE.compareValues(-0.0, 0.0) < 0);
        assertTrue(ColumnType.DOUBLE.compareValues(Double.POSITIVE_INFINITY, Double.NaN) < 0);
        assertTrue(ColumnType.varchar(5).compareValues("\uFFFF", "\uD83D\uDE00") < 0, "code point order, not UTF-16");
        assertTrue(ColumnType.bytes(5).compareValues(new byte[] {1}, new byte[] {1, 0}) < 0);
        assertTrue(ColumnType.bytes(5).compareValues(new byte[] {(byte) 0x80}, new byte[] {0x7F}) > 0, "unsigned");
        assertTrue(ColumnType.INT.compareValues(null, Integer.MIN_VALUE) < 0, "null first");
        assertEquals("DECIMAL(12,2)", ColumnType.decimal(12, 2).toString());
    }
}
