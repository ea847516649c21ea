package org.elastras.catalog.row;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Random;

import org.elastras.catalog.key.CorruptEncodingException;
import org.elastras.catalog.key.KeyBytes;
import org.elastras.catalog.schema.Column;
import org.elastras.catalog.schema.ColumnType;
import org.elastras.catalog.schema.RandomValues;
import org.elastras.catalog.schema.TableKind;
import org.elastras.catalog.schema.TableSchema;
import org.elastras.catalog.schema.TpccSchema;
import org.junit.jupiter.api.Test;

/** Rows round-trip through key + value, wrong values are refused by name, and corrupt values are caught. */
class RowCodecTest {

    private static final RowCodec DISTRICT = new RowCodec(TpccSchema.database("tpcc").table("DISTRICT"));

    private static List<Object> district() {
        return Arrays.asList(3, 7, "north", null, "", "Santa Barbara", "CA", "931060000",
                new BigDecimal("0.0825"), new BigDecimal("30000.00"), 3001);
    }

    @Test
    void randomRowsRoundTrip() {
        long seed = Long.getLong("elastras.test.seed", System.nanoTime());
        System.out.println("RowCodecTest seed " + seed);
        Random random = new Random(seed);
        for (int t = 0; t < 100; t++) {
            List<Column> columns = new ArrayList<>();
            int keyColumns = 1 + random.nextInt(2);
            int n = keyColumns + random.nextInt(12);
            for (int i = 0; i < n; i++) {
                columns.add(new Column("C" + i, RandomValues.type(random), i >= keyColumns && random.nextBoolean()));
            }
            String[] key = new String[keyColumns];
            for (int i = 0; i < keyColumns; i++) {
                key[i] = "C" + i;
            }
            TableSchema table = new TableSchema("T" + t, TableKind.PLAIN, columns, Arrays.asList(key));
            RowCodec codec = new RowCodec(table);
            for (int r = 0; r < 50; r++) {
                List<Object> row = RandomValues.row(random, columns);
                byte[] k = codec.encodeKey(row);
                byte[] v = codec.encodeValue(row);
                RowCodec.EncodedRow once = codec.encode(row);
                assertArrayEquals(k, once.key(), "encode's key is encodeKey's");
                assertArrayEquals(v, once.value(), "encode's value is encodeValue's");
                assertEquals(codec.normalize(row), once.row());
                for (int i = 0; i < keyColumns; i++) {
                    assertEquals(once.row().get(i), once.keyValues().get(i), "key values in key order");
                }
                List<Object> back = codec.decode(k, v);
                assertTrue(RandomValues.same(row, back), "seed " + seed + " " + table + ": " + RandomValues.show(row)
                        + " came back as " + RandomValues.show(back) + " via value " + KeyBytes.toHex(v));
                // Some columns, in any order, one maybe twice: what the full decode has for them.
                int[] some = new int[1 + random.nextInt(n + 1)];
                List<Object> expected = new ArrayList<>();
                for (int i = 0; i < some.length; i++) {
                    some[i] = random.nextInt(n);
                    expected.add(back.get(some[i]));
                }
                List<Object> part = codec.decodeColumns(k, v, some);
                assertTrue(RandomValues.same(expected, part), "seed " + seed + " " + table + " columns " + Arrays.toString(some)
                        + ": " + RandomValues.show(part) + " instead of " + RandomValues.show(expected));
                // Some value columns changed in place: byte for byte the whole row's encoding with them set.
                List<Object> other = RandomValues.row(random, columns);
                List<Integer> changed = new ArrayList<>();
                for (int i = keyColumns; i < n; i++) {
                    if (random.nextBoolean()) {
                        changed.add(i);
                    }
                }
                java.util.Collections.shuffle(changed, random);
                List<Object> next = new ArrayList<>(row);
                List<Object> newValues = new ArrayList<>();
                for (int c : changed) {
                    next.set(c, other.get(c));
                    newValues.add(other.get(c));
                }
                assertArrayEquals(codec.encodeValue(next), codec.patchValue(v, changed.stream().mapToInt(Integer::intValue)
                        .toArray(), newValues), "seed " + seed + " " + table + " columns " + changed);
            }
        }
    }

    @Test
    void someColumnsDecodeWithoutTheOthersButTheValuesLayoutIsStillChecked() {
        byte[] key = DISTRICT.encodeKey(district());
        byte[] good = DISTRICT.encodeValue(district());
        int name = 2; // D_NAME, VARCHAR(10)
        int nextOrderId = 10; // D_NEXT_O_ID, the last column
        assertEquals(Arrays.asList(3001, "north", 7, null), DISTRICT.decodeColumns(key, good, new int[] {nextOrderId, name, 1, 3}));
        assertEquals(List.of(), DISTRICT.decodeColumns(key, good, new int[0]));

        byte[] north = "north".getBytes(StandardCharsets.US_ASCII);
        int at = indexOf(good, north);
        byte[] notUtf8 = replaceName(good, at, north.length, new byte[] {(byte) 0xC3, 0x28, 'a', 'b', 'c'});
        assertEquals(List.of(3001), DISTRICT.decodeColumns(key, notUtf8, new int[] {nextOrderId}),
                "a column not asked for is stepped over, its contents unchecked");
        CorruptEncodingException e = assertThrows(CorruptEncodingException.class,
                () -> DISTRICT.decodeColumns(key, notUtf8, new int[] {name}));
        assertTrue(e.getMessage().contains("is not UTF-8"), e.getMessage());
        for (byte[] broken : List.of(Arrays.copyOf(good, good.length - 1), Arrays.copyOf(good, good.length + 1),
                replaceName(good, at, north.length, "abcdefghijklmnopqrstuvwxyzabcdefghijklmno".getBytes(StandardCharsets.US_ASCII)))) {
            assertThrows(CorruptEncodingException.class, () -> DISTRICT.decodeColumns(key, broken, new int[] {1}),
                    "the value's layout is checked past the columns asked for: " + HexFormat.of().formatHex(broken));
        }
        assertThrows(IndexOutOfBoundsException.class, () -> DISTRICT.decodeColumns(key, good, new int[] {11}));
    }

    @Test
    void aPatchChangesOnlyValueColumnsWithFittingValuesOfAWellFormedValue() {
        byte[] good = DISTRICT.encodeValue(district());
        int street2 = 4; // D_STREET_2, VARCHAR(20), nullable
        int ytd = 9; // D_YTD, DECIMAL(12, 2)
        int nextOrderId = 10;
        List<Object> changed = new ArrayList<>(district());
        changed.set(street2, null);
        changed.set(nextOrderId, 3002);
        changed.set(3, "Hollister Ave.");
        assertArrayEquals(DISTRICT.encodeValue(changed), DISTRICT.patchValue(good, new int[] {nextOrderId, street2, 3},
                Arrays.asList(3002, null, "Hollister Ave.")));
        assertArrayEquals(good, DISTRICT.patchValue(good, new int[0], List.of()), "no change, the same bytes");

        assertRefusedPatch(good, new int[] {1}, List.of(8), "D_ID", "primary key");
        assertRefusedPatch(good, new int[] {ytd, ytd}, List.of(BigDecimal.ONE, BigDecimal.TEN), "D_YTD", "twice");
        assertRefusedPatch(good, new int[] {ytd}, List.of(new BigDecimal("12345678901.5")), "D_YTD");
        assertRefusedPatch(good, new int[] {nextOrderId}, Arrays.asList((Object) null), "D_NEXT_O_ID", "NOT NULL");
        assertRefusedPatch(good, new int[] {nextOrderId}, List.of("3002"), "D_NEXT_O_ID");
        assertRefusedPatch(good, new int[] {11}, List.of(1), "no column 11");
        assertRefusedPatch(good, new int[] {ytd}, List.of(), "1 columns to change but 0 values");

        byte[] north = "north".getBytes(StandardCharsets.US_ASCII);
        int at = indexOf(good, north);
        for (byte[] broken : List.of(Arrays.copyOf(good, good.length - 1), Arrays.copyOf(good, good.length + 1),
                replaceName(good, at, north.length, "abcdefghijklmnopqrstuvwxyzabcdefghijklmno".getBytes(StandardCharsets.US_ASCII)))) {
            assertThrows(CorruptEncodingException.class, () -> DISTRICT.patchValue(broken, new int[] {nextOrderId},
                    List.of(1)), "the whole layout is checked: " + HexFormat.of().formatHex(broken));
        }
    }

    private static void assertRefusedPatch(byte[] value, int[] columns, List<?> values, String... fragments) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> DISTRICT.patchValue(value, columns, values));
        for (String f : fragments) {
            assertTrue(e.getMessage().contains(f), "'" + f + "' missing from: " + e.getMessage());
        }
    }

    @Test
    void layoutIsTheDocumentedOne() {
        TableSchema t = TableSchema.builder("T", TableKind.PLAIN)
                .column("ID", ColumnType.INT)
                .nullable("A", ColumnType.INT)
                .nullable("B", ColumnType.varchar(4))
                .column("C", ColumnType.decimal(4, 2))
                .column("D", ColumnType.BOOLEAN)
                .key("ID").build();
        RowCodec c = new RowCodec(t);
        byte[] v = c.encodeValue(Arrays.asList(1, null, "hé", new BigDecimal("-0.01"), true));
        // version 01; bitmap 01 (A null); B: length 3 zigzag 06, 68 c3 a9; C: -1 zigzag 01; D: 01
        assertArrayEquals(HexFormat.of().parseHex("01" + "01" + "0668c3a9" + "01" + "01"), v);
        assertEquals(Arrays.asList(1, null, "hé", new BigDecimal("-0.01"), true), c.decode(c.encodeKey(
                Arrays.asList(1, null, "hé", new BigDecimal("-0.01"), true)), v));
    }

    @Test
    void districtRowRoundTripsAndItsKeyIsTheKeyCodecs() {
        List<Object> row = district();
        byte[] key = DISTRICT.encodeKey(row);
        assertArrayEquals(DISTRICT.keyCodec().encode(List.of(3, 7)), key);
        assertEquals(row, DISTRICT.decode(key, DISTRICT.encodeValue(row)));
    }

    @Test
    void wrongValuesNameTableColumnExpectedTypeAndValueType() {
        List<Object> wrongType = district();
        wrongType.set(10, "3001");
        assertRefused(wrongType, "table DISTRICT column D_NEXT_O_ID: expected INT (Java Integer) but got java.lang.String");
        List<Object> overflow = district();
        overflow.set(10, 1L << 40);
        assertRefused(overflow, "table DISTRICT column D_NEXT_O_ID", "expected INT", "java.lang.Long 1099511627776", "overflows");
        List<Object> tooLong = district();
        tooLong.set(2, "a name too long");
        assertRefused(tooLong, "table DISTRICT column D_NAME", "expected VARCHAR(10)", "String of 15 characters", "limit is 10");
        List<Object> nullInNotNull = district();
        nullInNotNull.set(9, null);
        assertRefused(nullInNotNull, "table DISTRICT column D_YTD is DECIMAL(12,2) NOT NULL but got null");
        List<Object> badDecimal = district();
        badDecimal.set(8, new BigDecimal("0.08251"));
        assertRefused(badDecimal, "table DISTRICT column D_TAX", "more than 4 fractional digits");
        assertRefused(district().subList(0, 5), "table DISTRICT has 11 columns but the row has 5 values");
    }

    private static void assertRefused(List<Object> row, String... fragments) {
        for (var encode : List.<java.util.function.Function<List<Object>, byte[]>>of(DISTRICT::encodeValue, DISTRICT::encodeKey)) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> encode.apply(row));
            for (String f : fragments) {
                assertTrue(e.getMessage().contains(f), "message '" + e.getMessage() + "' should contain '" + f + "'");
            }
        }
    }

    @Test
    void encodeRefusesAWrongValueAsNormalizeDoes() {
        List<Object> wrongType = district();
        wrongType.set(10, "3001");
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> DISTRICT.encode(wrongType));
        assertEquals(assertThrows(IllegalArgumentException.class, () -> DISTRICT.normalize(wrongType)).getMessage(),
                e.getMessage());
    }

    @Test
    void corruptValuesAreRefused() {
        byte[] key = DISTRICT.encodeKey(district());
        byte[] good = DISTRICT.encodeValue(district());
        byte[] version = good.clone();
        version[0] = 2;
        assertCorrupt(key, version, "format version 2 is not 1");
        assertCorrupt(key, Arrays.copyOf(good, good.length - 1), "ends inside column D_NEXT_O_ID");
        assertCorrupt(key, Arrays.copyOf(good, good.length + 1), "1 bytes after the last column");
        // DISTRICT has 9 value columns, so the bitmap is bytes 1 and 2; byte 2 bit 0 is value column 8,
        // D_NEXT_O_ID, and its bits 1..7 are unused.
        byte[] unusedBit = good.clone();
        unusedBit[2] |= 0x40;
        assertCorrupt(key, unusedBit, "unused null bitmap bits");
        byte[] notNullMarkedNull = good.clone();
        notNullMarkedNull[2] |= 0x01;
        assertCorrupt(key, notNullMarkedNull, "NOT NULL column D_NEXT_O_ID is marked NULL");
        assertCorrupt(key, new byte[0], "ends inside version");
    }

    @Test
    void storedStringsAreCheckedOnTheAsciiPathAsOnTheUtf8Path() {
        byte[] key = DISTRICT.encodeKey(district());
        byte[] good = DISTRICT.encodeValue(district());
        byte[] north = "north".getBytes(StandardCharsets.US_ASCII);
        int at = indexOf(good, north);
        assertEquals(10, good[at - 1], "D_NAME's length, zigzag-encoded, precedes it");
        // D_NAME is VARCHAR(10): 12 ASCII characters fit the byte bound (4 per character) but not the column.
        assertCorrupt(key, replaceName(good, at, north.length, "abcdefghijkl".getBytes(StandardCharsets.US_ASCII)),
                "is longer than 10");
        assertCorrupt(key, replaceName(good, at, north.length, new byte[] {(byte) 0xC3, 0x28, 'a', 'b', 'c'}),
                "is not UTF-8");
        List<Object> accented = district();
        accented.set(2, "nördlich");
        assertEquals(accented, DISTRICT.decode(key, DISTRICT.encodeValue(accented)));
        assertEquals(district(), DISTRICT.decode(key, good));
    }

    private static int indexOf(byte[] haystack, byte[] needle) {
        for (int i = 0; i + needle.length <= haystack.length; i++) {
            if (Arrays.equals(haystack, i, i + needle.length, needle, 0, needle.length)) {
                return i;
            }
        }
        throw new AssertionError("not found");
    }

    /** {@code value} with the string of {@code length} bytes at {@code at} (its length byte before it) replaced. */
    private static byte[] replaceName(byte[] value, int at, int length, byte[] name) {
        byte[] out = new byte[value.length - length + name.length];
        System.arraycopy(value, 0, out, 0, at - 1);
        out[at - 1] = (byte) (2 * name.length); // zigzag of a small positive length
        System.arraycopy(name, 0, out, at, name.length);
        System.arraycopy(value, at + length, out, at + name.length, value.length - at - length);
        return out;
    }

    private static void assertCorrupt(byte[] key, byte[] value, String fragment) {
        CorruptEncodingException e = assertThrows(CorruptEncodingException.class, () -> DISTRICT.decode(key, value));
        assertTrue(e.getMessage().contains("row value of table DISTRICT") && e.getMessage().contains(fragment),
                "message '" + e.getMessage() + "' should contain '" + fragment + "'");
    }
}
