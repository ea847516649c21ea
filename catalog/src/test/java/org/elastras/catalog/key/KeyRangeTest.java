package org.elastras.catalog.key;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HexFormat;
import java.util.List;

import org.junit.jupiter.api.Test;

/** Half-open ranges with +infinity ends: containment, overlap, splitting and immutability. */
class KeyRangeTest {

    private static byte[] hex(String s) {
        return HexFormat.of().parseHex(s);
    }

    private static KeyRange range(String start, String end) {
        return new KeyRange(hex(start), hex(end));
    }

    @Test
    void containsIsHalfOpenAndEmptyEndIsInfinity() {
        KeyRange r = range("10", "20");
        assertTrue(r.contains(hex("10")));
        assertTrue(r.contains(hex("1fffff")));
        assertFalse(r.contains(hex("20")));
        assertFalse(r.contains(hex("0fff")));
        KeyRange tail = range("20", "");
        assertTrue(tail.contains(hex("ffffffff")));
        assertTrue(KeyRange.ALL.contains(new byte[0]));
    }

    @Test
    void overlapsOnlyWhenAKeyIsShared() {
        assertFalse(range("10", "20").overlaps(range("20", "30")));
        assertFalse(range("20", "30").overlaps(range("10", "20")));
        assertTrue(range("10", "21").overlaps(range("20", "30")));
        assertTrue(range("10", "").overlaps(range("20", "30")));
        assertTrue(range("30", "").overlaps(range("", "")));
        assertFalse(range("30", "").overlaps(range("", "30")));
    }

    @Test
    void splitGivesTwoAdjacentHalves() {
        assertEquals(List.of(range("10", "18"), range("18", "")), range("10", "").splitAt(hex("18")));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> range("10", "20").splitAt(hex("10")));
        assertTrue(e.getMessage().contains("above the start"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> range("10", "20").splitAt(hex("20")));
    }

    @Test
    void rangesAreNeverEmptyAndCannotBeChangedFromOutside() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> range("20", "20"));
        assertTrue(e.getMessage().contains("is not below its end"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> range("20", "10"));
        byte[] start = hex("10");
        KeyRange r = new KeyRange(start, hex("20"));
        start[0] = 0x30;
        r.start()[0] = 0x30;
        assertEquals(range("10", "20"), r);
        assertEquals("[10, +inf)", range("10", "").toString());
    }
}
