package org.elastras.catalog.key;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigDecimal;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;

import org.elastras.catalog.schema.Column;
import org.elastras.catalog.schema.ColumnType;
import org.elastras.catalog.schema.DatabaseSchema;
import org.elastras.catalog.schema.TpccSchema;
import org.junit.jupiter.api.Test;

/** The byte layout is the documented one, edge values sort right, and bad input or bytes are refused. */
class KeyCodecTest {

    private static byte[] hex(String s) {
        return HexFormat.of().parseHex(s);
    }

    private static KeyCodec codec(Column... columns) {
        return new KeyCodec("table T", List.of(columns));
    }

    @Test
    void layoutIsTheDocumentedOne() {
        assertArrayEquals(hex("80000001"), codec(Column.notNull("I", ColumnType.INT)).encode(List.of(1)));
        assertArrayEquals(hex("7fffffff"), codec(Column.notNull("I", ColumnType.INT)).encode(List.of(-1)));
        assertArrayEquals(hex("0000000000000000"), codec(Column.notNull("L", ColumnType.BIGINT)).encode(List.of(Long.MIN_VALUE)));
        assertArrayEquals(hex("8000000000000000"), codec(Column.notNull("D", ColumnType.DOUBLE)).encode(List.of(0.0)));
        assertArrayEquals(hex("7fffffffffffffff"), codec(Column.notNull("D", ColumnType.DOUBLE)).encode(List.of(-0.0)));
        assertArrayEquals(hex("80000000000004d2"),
                codec(Column.notNull("M", ColumnType.decimal(6, 2))).encode(List.of(new BigDecimal("12.34"))));
        assertArrayEquals(hex("6100ff620001"), codec(Column.notNull("S", ColumnType.varchar(5))).encode(List.of("a\0b")));
        assertArrayEquals(hex("00" + "01"), codec(Column.nullable("N", ColumnType.INT), Column.notNull("B", ColumnType.BOOLEAN))
                .encode(Arrays.asList(null, true)));
        assertArrayEquals(hex("0180000005"), codec(Column.nullable("N", ColumnType.INT)).encode(List.of(5)));
    }

    @Test
    void doublesSortAsDoubleCompare() {
        KeyCodec c = codec(Column.notNull("D", ColumnType.DOUBLE));
        double[] ascending = {Double.NEGATIVE_INFINITY, -Double.MAX_VALUE, -1.0, -Double.MIN_VALUE, -0.0, 0.0,
            Double.MIN_VALUE, 1.0, Double.MAX_VALUE, Double.POSITIVE_INFINITY, Double.NaN};
        for (int i = 0; i + 1 < ascending.length; i++) {
            assertTrue(KeyBytes.compare(c.encode(List.of(ascending[i])), c.encode(List.of(ascending[i + 1]))) < 0,
                    ascending[i] + " before " + ascending[i + 1]);
        }
        double otherNaN = Double.longBitsToDouble(0x7ff0000000000001L);
        assertArrayEquals(c.encode(List.of(Double.NaN)), c.encode(List.of(otherNaN)), "every NaN encodes as the canonical one");
        assertEquals(-0.0, (Double) c.decode(c.encode(List.of(-0.0))).get(0));
        assertTrue(1 / (Double) c.decode(c.encode(List.of(-0.0))).get(0) < 0, "-0.0 keeps its sign");
    }

    @Test
    void aStringSortsBeforeItsExtensionsAndZeroBytesKeepTheirPlace() {
        KeyCodec c = codec(Column.notNull("S", ColumnType.varchar(5)), Column.notNull("I", ColumnType.INT));
        String[] ascending = {"", "\0", "\0\0", "\0a", "a", "a\0", "a\0\0", "a\1", "aa", "b"};
        for (int i = 0; i + 1 < ascending.length; i++) {
            byte[] low = c.encode(List.of(ascending[i], Integer.MAX_VALUE));
            byte[] high = c.encode(List.of(ascending[i + 1], Integer.MIN_VALUE));
            assertTrue(KeyBytes.compare(low, high) < 0, "'" + ascending[i] + "' before '" + ascending[i + 1] + "'");
            assertEquals(List.of(ascending[i], Integer.MAX_VALUE), c.decode(low));
        }
    }

    @Test
    void aChildKeyStartsWithItsRootKeyBytes() {
        DatabaseSchema tpcc = TpccSchema.database("tpcc");
        byte[] root = KeyCodec.forPartitionKey(tpcc).encode(List.of(7));
        KeyCodec orderLine = KeyCodec.forPrimaryKey(tpcc.table("ORDER_LINE"));
        byte[] child = orderLine.encode(List.of(7, 3, 1001, 2));
        assertArrayEquals(root, Arrays.copyOf(child, orderLine.prefixLength(child, 1)));
        KeyRange warehouse7 = new KeyRange(root, KeyBytes.prefixEnd(root));
        assertTrue(warehouse7.contains(child));
        assertTrue(!warehouse7.contains(orderLine.encode(List.of(8, 0, 0, 0))));
        assertTrue(!warehouse7.contains(orderLine.encode(List.of(6, Integer.MAX_VALUE, Integer.MAX_VALUE, Integer.MAX_VALUE))));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> KeyCodec.forPartitionKey(
                DatabaseSchema.singlePartition("t").plain("A", t -> t.column("ID", ColumnType.INT).key("ID")).build()));
        assertTrue(e.getMessage().contains("single-partition"), e.getMessage());
    }

    @Test
    void prefixEndAndSuccessor() {
        assertArrayEquals(hex("0102"), KeyBytes.prefixEnd(hex("0101")));
        assertArrayEquals(hex("02"), KeyBytes.prefixEnd(hex("01ffff")));
        assertArrayEquals(new byte[0], KeyBytes.prefixEnd(hex("ffff")), "all 0xFF: no finite bound");
        assertArrayEquals(new byte[0], KeyBytes.prefixEnd(new byte[0]));
        assertArrayEquals(hex("01ff00"), KeyBytes.successor(hex("01ff")));
        KeyRange all = codec(Column.notNull("I", ColumnType.INT)).prefixRange(List.of());
        assertEquals(KeyRange.ALL, all);
    }

    @Test
    void badValuesAreRefusedNamingOwnerColumnAndTypes() {
        KeyCodec c = codec(Column.notNull("ID", ColumnType.INT), Column.notNull("NAME", ColumnType.varchar(3)));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> c.encode(List.of("x", "y")));
        assertTrue(e.getMessage().contains("table T column ID: expected INT (Java Integer) but got java.lang.String"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> c.encode(List.of(1)));
        assertTrue(e.getMessage().contains("has 2 columns"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> c.encode(Arrays.asList(null, "y")));
        assertTrue(e.getMessage().contains("table T column ID is INT NOT NULL but got null"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> c.encode(List.of(1, "long")));
        assertTrue(e.getMessage().contains("column NAME") && e.getMessage().contains("limit is 3"), e.getMessage());
    }

    @Test
    void corruptBytesAreRefusedWithTheOffset() {
        KeyCodec c = codec(Column.nullable("N", ColumnType.INT), Column.notNull("S", ColumnType.varchar(2)),
                Column.notNull("B", ColumnType.BOOLEAN));
        byte[] good = c.encode(Arrays.asList(5, "ab", true));
        assertEquals(Arrays.asList(5, "ab", true), c.decode(good));
        assertCorrupt(c, Arrays.copyOf(good, good.length - 1), "ends inside column B");
        assertCorrupt(c, Arrays.copyOf(good, good.length + 1), "1 bytes after the last column");
        byte[] badMark = good.clone();
        badMark[0] = 7;
        assertCorrupt(c, badMark, "at byte 0", "null mark 7");
        assertCorrupt(c, hex("00" + "610002" + "01"), "after 0x00 in column S");
        assertCorrupt(c, hex("00" + "616161" + "0001" + "01"), "longer than 2");
        assertCorrupt(c, hex("00" + "ff" + "0001" + "01"), "not UTF-8");
        assertCorrupt(c, hex("00" + "0001" + "02"), "BOOLEAN byte 2");
        KeyCodec d = codec(Column.notNull("D", ColumnType.DOUBLE));
        assertCorrupt(d, hex("fff0000000000001"), "non-canonical NaN");
        KeyCodec m = codec(Column.notNull("M", ColumnType.decimal(2, 0)));
        assertCorrupt(m, hex("8000000000000064"), "exceeds precision 2");
    }

    private static void assertCorrupt(KeyCodec c, byte[] bytes, String... fragments) {
        CorruptEncodingException e = assertThrows(CorruptEncodingException.class, () -> c.decode(bytes),
                () -> "should refuse " + KeyBytes.toHex(bytes));
        for (String f : fragments) {
            assertTrue(e.getMessage().contains(f), "message '" + e.getMessage() + "' should contain '" + f + "'");
        }
    }
}
