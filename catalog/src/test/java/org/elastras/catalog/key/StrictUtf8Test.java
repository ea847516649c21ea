package org.elastras.catalog.key;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * {@link StrictUtf8} must accept exactly what the JDK's strict decoder accepts, and decode it to the
 * same string: checked on every sequence of up to two bytes, on every lead byte with the boundary
 * values of the continuation bytes, and on random byte strings built to be nearly UTF-8.
 */
class StrictUtf8Test {

    private static final byte[] BOUNDARIES = {0x00, 0x41, 0x7F, (byte) 0x80, (byte) 0x8F, (byte) 0x90, (byte) 0x9F,
            (byte) 0xA0, (byte) 0xBF, (byte) 0xC0, (byte) 0xC2, (byte) 0xE0, (byte) 0xF4, (byte) 0xFF};

    private final CharsetDecoder jdk = StandardCharsets.UTF_8.newDecoder()
            .onMalformedInput(CodingErrorAction.REPORT)
            .onUnmappableCharacter(CodingErrorAction.REPORT);

    @Test
    void everySequenceOfUpToTwoBytesDecodesAsTheJdkDecodesIt() {
        assertSame(new byte[0]);
        for (int a = 0; a < 256; a++) {
            assertSame(new byte[] {(byte) a});
            for (int b = 0; b < 256; b++) {
                assertSame(new byte[] {(byte) a, (byte) b});
            }
        }
    }

    @Test
    void everyLeadByteWithBoundaryContinuationsDecodesAsTheJdkDecodesIt() {
        for (int lead = 0x80; lead < 256; lead++) {
            for (byte b1 : BOUNDARIES) {
                for (byte b2 : BOUNDARIES) {
                    assertSame(new byte[] {(byte) lead, b1, b2});
                    for (byte b3 : BOUNDARIES) {
                        assertSame(new byte[] {(byte) lead, b1, b2, b3});
                        assertSame(new byte[] {'x', (byte) lead, b1, b2, b3, 'y'});
                    }
                }
            }
        }
    }

    @Test
    void theEdgesOfEachFormAreAcceptedOrRefusedByTheStandard() {
        assertEquals("\u0080", decode(0xC2, 0x80));
        assertNull(decode(0xC1, 0xBF), "overlong 2-byte form of U+007F");
        assertEquals("\u0800", decode(0xE0, 0xA0, 0x80));
        assertNull(decode(0xE0, 0x9F, 0xBF), "overlong 3-byte form");
        assertEquals("\uD7FF", decode(0xED, 0x9F, 0xBF));
        assertNull(decode(0xED, 0xA0, 0x80), "surrogate U+D800");
        assertEquals("\uE000", decode(0xEE, 0x80, 0x80));
        assertEquals(new String(Character.toChars(0x10000)), decode(0xF0, 0x90, 0x80, 0x80));
        assertNull(decode(0xF0, 0x8F, 0xBF, 0xBF), "overlong 4-byte form");
        assertEquals(new String(Character.toChars(0x10FFFF)), decode(0xF4, 0x8F, 0xBF, 0xBF));
        assertNull(decode(0xF4, 0x90, 0x80, 0x80), "above U+10FFFF");
        assertNull(decode(0xE2, 0x82), "truncated");
        assertNull(decode(0x80), "a stray continuation byte");
    }

    @Test
    void randomStringsRoundTripAndNearlyUtf8BytesDecodeAsTheJdkDecodesThem() {
        Random random = new Random(22);
        int refused = 0;
        for (int round = 0; round < 50_000; round++) {
            StringBuilder s = new StringBuilder();
            int length = random.nextInt(40);
            for (int i = 0; i < length; i++) {
                int cp = switch (random.nextInt(4)) {
                    case 0 -> random.nextInt(0x80);
                    case 1 -> 0x80 + random.nextInt(0x780);
                    case 2 -> 0x800 + random.nextInt(0xD800 - 0x800);
                    default -> 0x10000 + random.nextInt(0x100000);
                };
                s.appendCodePoint(cp);
            }
            byte[] utf8 = s.toString().getBytes(StandardCharsets.UTF_8);
            assertEquals(s.toString(), StrictUtf8.decode(utf8, 0, utf8.length));
            if (utf8.length > 0) {
                utf8[random.nextInt(utf8.length)] = (byte) random.nextInt(256); // one byte changed
                refused += assertSame(utf8) == null ? 1 : 0;
            }
        }
        assertTrue(refused > 1_000, "the damaged strings include malformed ones: " + refused);
    }

    @Test
    void decodesARangeInsideTheArrayAndChecksTheRange() {
        byte[] bytes = "[nördlich]".getBytes(StandardCharsets.UTF_8);
        assertEquals("nördlich", StrictUtf8.decode(bytes, 1, bytes.length - 2));
        assertNull(StrictUtf8.decode(bytes, 3, 1), "half of the two bytes of ö");
        assertThrows(IndexOutOfBoundsException.class, () -> StrictUtf8.decode(bytes, 5, bytes.length));
    }

    @Test
    void longerThanCountsCodePointsNotChars() {
        String twoCodePoints = new String(Character.toChars(0x1F600)) + new String(Character.toChars(0x1F601));
        assertEquals(4, twoCodePoints.length());
        assertFalse(StrictUtf8.longerThan(twoCodePoints, 2));
        assertTrue(StrictUtf8.longerThan(twoCodePoints, 1));
        assertFalse(StrictUtf8.longerThan("abc", 3));
        assertTrue(StrictUtf8.longerThan("abcd", 3));
    }

    private static String decode(int... bytes) {
        byte[] b = new byte[bytes.length];
        for (int i = 0; i < bytes.length; i++) {
            b[i] = (byte) bytes[i];
        }
        return StrictUtf8.decode(b, 0, b.length);
    }

    /** Asserts both decoders agree on {@code bytes}; returns the string (null if refused). */
    private String assertSame(byte[] bytes) {
        String expected;
        try {
            expected = jdk.reset().decode(ByteBuffer.wrap(bytes)).toString();
        } catch (CharacterCodingException e) {
            expected = null;
        }
        String actual = StrictUtf8.decode(bytes, 0, bytes.length);
        assertEquals(expected, actual, () -> "bytes " + java.util.HexFormat.ofDelimiter(" ").formatHex(bytes));
        return actual;
    }
}
