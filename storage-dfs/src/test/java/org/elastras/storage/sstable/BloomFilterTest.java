package org.elastras.storage.sstable;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.elastras.storage.dfs.MemoryDfs;
import org.elastras.storage.store.Version;
import org.junit.jupiter.api.Test;

/** The bloom filter never loses a key and its false-positive rate is close to the theory. */
class BloomFilterTest {

    /** Keys i*2 are added, keys i*2+1 are not: distinct, and similar to each other as real keys are. */
    private static byte[] key(long i) {
        return ByteBuffer.allocate(12).putInt(0x7E57).putLong(i).array();
    }

    private static double theoreticalFalsePositiveRate(int bitsPerKey, long keys, long bitCount) {
        int k = BloomFilter.hashCountFor(bitsPerKey);
        return Math.pow(1 - Math.exp(-(double) k * keys / bitCount), k);
    }

    @Test
    void noFalseNegativesAndAFalsePositiveRateNearTheConfiguredOne() throws IOException {
        int keyCount = 20_000;
        int probes = 200_000;
        for (int bitsPerKey : new int[] {4, 10, 16}) {
            long[] hashes = new long[keyCount];
            for (int i = 0; i < keyCount; i++) {
                hashes[i] = BloomFilter.hash64(key(2L * i));
            }
            BloomFilter filter = BloomFilter.decode(BloomFilter.encode(hashes, keyCount, bitsPerKey), "f", 0);
            for (int i = 0; i < keyCount; i++) {
                assertTrue(filter.mayContain(key(2L * i)), "false negative for key " + i);
            }
            int falsePositives = 0;
            for (int i = 0; i < probes; i++) {
                if (filter.mayContain(key(2L * i + 1))) {
                    falsePositives++;
                }
            }
            double measured = (double) falsePositives / probes;
            double expected = theoreticalFalsePositiveRate(bitsPerKey, keyCount, filter.bitCount());
            System.out.printf("bloom %d bits/key, %d hashes: false positives %.4f%% (theory %.4f%%)%n", bitsPerKey,
                    filter.hashCount(), 100 * measured, 100 * expected);
            assertTrue(measured < expected * 1.25 + 0.0005 && measured > expected * 0.75 - 0.0005,
                    bitsPerKey + " bits/key: measured " + measured + " vs theory " + expected);
        }
    }

    @Test
    void aTableFilterCoversEveryUserKeyOnceWhateverItsVersions() throws IOException {
        MemoryDfs dfs = new MemoryDfs();
        List<Version> versions = new ArrayList<>();
        for (int i = 0; i < 5000; i++) {
            for (int cts = 3; cts >= 1; cts--) {
                versions.add(new Version(key(2L * i), cts, cts == 2 ? null : new byte[] {1}));
            }
        }
        SsTables.write(dfs, "t.sst", new SsTableOptions(4096, 16, 10), versions);
        try (SsTableReader reader = SsTableReader.open(dfs, "t.sst", 1, new BlockCache(0))) {
            int falsePositives = 0;
            for (int i = 0; i < 5000; i++) {
                assertTrue(reader.mayContain(key(2L * i)));
                if (reader.mayContain(key(2L * i + 1))) {
                    falsePositives++;
                }
            }
            // Sized for 5000 keys, not 15000 versions: about 0.8% at 10 bits per key.
            assertTrue(falsePositives < 100, falsePositives + " false positives in 5000");
        }
    }

    @Test
    void theBitsSetAreTheFormatsDoubleHashingModuloTheBitCount() throws IOException {
        // The probes are part of the file format (docs/sstable-format.md): start = (h >>> 32) mod m,
        // step = (h & 0xFFFFFFFF) mod m (0 -> 1), then probe_i+1 = (probe_i + step) mod m. This
        // reference computes them with the division; the filter's own code may not.
        Random random = new Random(11);
        for (int keyCount : new int[] {1, 3, 7, 100, 5_000}) {
            for (int bitsPerKey : new int[] {1, 4, 10, 16}) {
                long[] hashes = new long[keyCount];
                for (int i = 0; i < keyCount; i++) {
                    hashes[i] = i % 3 == 0 ? random.nextLong() : BloomFilter.hash64(key(i));
                }
                byte[] block = BloomFilter.encode(hashes, keyCount, bitsPerKey);
                int k = BloomFilter.hashCountFor(bitsPerKey);
                long m = (long) BloomFilter.bitBytesFor(keyCount, bitsPerKey) * 8;
                byte[] expected = new byte[(int) (m / 8)];
                for (long h : hashes) {
                    long a = (h >>> 32) % m;
                    long step = (h & 0xFFFFFFFFL) % m;
                    step = step == 0 ? 1 : step;
                    for (int p = 0; p < k; p++) {
                        expected[(int) (a >>> 3)] |= (byte) (1 << (a & 7));
                        a = (a + step) % m;
                    }
                }
                assertEquals(k, block[0], "hash count");
                assertTrue(java.util.Arrays.equals(expected, 0, expected.length, block, 1, 1 + expected.length),
                        keyCount + " keys at " + bitsPerKey + " bits per key: the bits differ from the format's");
                BloomFilter filter = BloomFilter.decode(block, "f", 0);
                for (long h : hashes) {
                    assertTrue(filter.mayContain(h), "a key added is found");
                }
            }
        }
    }

    @Test
    void theHashIsPinnedBecauseItIsPartOfTheFileFormat() {
        assertEquals(hashOf(""), BloomFilter.hash64(new byte[0]));
        assertEquals(hashOf("a"), BloomFilter.hash64("a".getBytes(StandardCharsets.UTF_8)));
        assertEquals(hashOf("abcdefgh"), BloomFilter.hash64("abcdefgh".getBytes(StandardCharsets.UTF_8)));
        assertEquals(hashOf("abcdefghijk"), BloomFilter.hash64("abcdefghijk".getBytes(StandardCharsets.UTF_8)));
        assertFalse(BloomFilter.hash64(new byte[] {0}) == BloomFilter.hash64(new byte[] {0, 0}),
                "the length is part of the hash");
    }

    @Test
    void theHashReadsWordsLittleEndianAsTheFormatSaysForEveryLengthAndOffset() {
        java.util.Random random = new java.util.Random(7);
        for (int length = 0; length <= 40; length++) {
            for (int trial = 0; trial < 20; trial++) {
                byte[] key = new byte[length];
                random.nextBytes(key);
                assertEquals(referenceHash(key), BloomFilter.hash64(key), "key of " + length + " bytes");
            }
        }
    }

    /** docs/sstable-format.md's hash, byte by byte, as the format describes it. */
    private static long referenceHash(byte[] key) {
        long multiplier = 0x9E3779B97F4A7C15L;
        long h = 0x6A09E667F3BCC908L ^ ((long) key.length * multiplier);
        int i = 0;
        for (; i + 8 <= key.length; i += 8) {
            long word = 0;
            for (int j = 0; j < 8; j++) {
                word |= (key[i + j] & 0xFFL) << (8 * j);
            }
            h = (h ^ mix(word)) * multiplier;
        }
        long tail = 0;
        for (int shift = 0; i < key.length; i++, shift += 8) {
            tail |= (key[i] & 0xFFL) << shift;
        }
        h = (h ^ mix(tail)) * multiplier;
        return mix(h);
    }

    private static long mix(long x) {
        x = (x ^ (x >>> 30)) * 0xBF58476D1CE4E5B9L;
        x = (x ^ (x >>> 27)) * 0x94D049BB133111EBL;
        return x ^ (x >>> 31);
    }

    /** Values computed once from the algorithm in docs/sstable-format.md (and checked independently). */
    private static long hashOf(String s) {
        return switch (s) {
            case "" -> 0x860373475DE17CC5L;
            case "a" -> 0xBDBB8BE50BE67DD9L;
            case "abcdefgh" -> 0xF4B397D1EAA74A2FL;
            case "abcdefghijk" -> 0x817518CB31CE9904L;
            default -> throw new IllegalArgumentException(s);
        };
    }
}
