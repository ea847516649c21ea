package org.elastras.experiments.tpcc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigDecimal;
import org.junit.jupiter.api.Test;

class TpccRandomTest {

    @Test
    void lastNamesAreTheSyllablesOfTheDigits() {
        // Clause 4.3.2.3: BAR OUGHT ABLE PRI PRES ESE ANTI CALLY ATION EING for 0..9.
        assertEquals("PRICALLYOUGHT", TpccRandom.lastName(371));
        assertEquals("BARBARBAR", TpccRandom.lastName(0));
        assertEquals("EINGEINGEING", TpccRandom.lastName(999));
        assertEquals("OUGHTABLEPRI", TpccRandom.lastName(123));
        assertEquals("BAROUGHTBAR", TpccRandom.lastName(10));
        assertThrows(IllegalArgumentException.class, () -> TpccRandom.lastName(1000));
    }

    @Test
    void nuRandStaysInRangeAndIsSkewed() {
        TpccRandom r = new TpccRandom(1);
        int[] hits = new int[3001];
        for (int i = 0; i < 200_000; i++) {
            int c = r.nuRand(1023, 1, 3000, 259);
            assertTrue(c >= 1 && c <= 3000, "C_ID " + c);
            hits[c]++;
        }
        int max = 0;
        int min = Integer.MAX_VALUE;
        for (int c = 1; c <= 3000; c++) {
            max = Math.max(max, hits[c]);
            min = Math.min(min, hits[c]);
        }
        // Uniform would give about 67 per value; NURand's OR makes some values far more likely.
        assertTrue(max > 3 * min + 50, "NURand should be non-uniform: min " + min + ", max " + max);
        for (int i = 0; i < 50_000; i++) {
            int item = r.nuRand(8191, 1, 100_000, 7911);
            assertTrue(item >= 1 && item <= 100_000);
            int name = r.nuRand(255, 0, 999, 123);
            assertTrue(name >= 0 && name <= 999);
        }
    }

    @Test
    void aboutTenPercentOfDataStringsContainOriginal() {
        TpccRandom r = new TpccRandom(7);
        int original = 0;
        int n = 40_000;
        for (int i = 0; i < n; i++) {
            String s = r.dataWithOriginal();
            assertTrue(s.length() >= 26 && s.length() <= 50, "length " + s.length());
            if (s.contains("ORIGINAL")) {
                original++;
            }
        }
        double share = original / (double) n;
        assertTrue(share > 0.09 && share < 0.11, "ORIGINAL share " + share);
    }

    @Test
    void stringsZipsAndDecimalsFollowTheirFormats() {
        TpccRandom r = new TpccRandom(3);
        assertEquals(128, TpccRandom.ALPHABET.length);
        for (int i = 0; i < 1_000; i++) {
            String a = r.aString(8, 16);
            assertTrue(a.length() >= 8 && a.length() <= 16);
            String zip = r.zip();
            assertTrue(zip.matches("[0-9]{4}11111"), zip);
            assertTrue(r.nString(16, 16).matches("[0-9]{16}"));
            BigDecimal price = r.uniformDecimal("1.00", "100.00", 2);
            assertEquals(2, price.scale());
            assertTrue(price.compareTo(new BigDecimal("1.00")) >= 0 && price.compareTo(new BigDecimal("100.00")) <= 0);
        }
    }

    @Test
    void sameSeedSameSequence() {
        TpccRandom a = new TpccRandom(99);
        TpccRandom b = new TpccRandom(99);
        for (int i = 0; i < 100; i++) {
            assertEquals(a.aString(5, 30), b.aString(5, 30));
        }
        assertNotEquals(new TpccRandom(1).aString(30, 30), new TpccRandom(2).aString(30, 30));
    }

    @Test
    void runConstantDiffersFromLoadConstantByAnAllowedDelta() {
        for (long seed = 0; seed < 200; seed++) {
            NuRandConstants load = NuRandConstants.forLoad(seed);
            NuRandConstants run = load.forRun(seed);
            int delta = Math.abs(run.cLast() - load.cLast());
            assertTrue(delta >= 65 && delta <= 119 && delta != 96 && delta != 112, "delta " + delta);
            assertEquals(load.cId(), run.cId());
        }
        assertTrue(!NuRandConstants.validRunDelta(0, 96) && !NuRandConstants.validRunDelta(200, 88)
                && NuRandConstants.validRunDelta(10, 75));
    }
}
