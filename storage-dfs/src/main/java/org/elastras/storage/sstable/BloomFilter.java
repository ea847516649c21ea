package org.elastras.storage.sstable;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import org.elastras.storage.util.ByteCoding;
import org.elastras.storage.util.Checksums;
import org.elastras.storage.util.CorruptionException;

/**
 * A bloom filter over the distinct user keys of one SSTable, probed by double hashing; layout in
 * {@link SsTableFormat}. Immutable once decoded, so any number of threads may probe it.
 */
final class BloomFilter {

    private static final long HASH_SEED = 0x6A09E667F3BCC908L;
    private static final long HASH_MULTIPLIER = 0x9E3779B97F4A7C15L;
    /** Reads 8 bytes of a byte array as one little-endian long, in one load. */
    private static final VarHandle LITTLE_ENDIAN_LONG =
            MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

    private final byte[] bits;
    private final int bitsOffset;
    private final long bitCount;
    private final int hashCount;

    private BloomFilter(byte[] bits, int bitsOffset, long bitCount, int hashCount) {
        this.bits = bits;
        this.bitsOffset = bitsOffset;
        this.bitCount = bitCount;
        this.hashCount = hashCount;
    }

    /**
     * The 64-bit hash every filter uses; part of the file format, so it must never change for
     * format version 1. Reads the key 8 bytes at a time (little-endian), folds each word in with a
     * multiply and a finalising mix, then mixes the tail and the length.
     */
    static long hash64(byte[] key) {
        long h = HASH_SEED ^ ((long) key.length * HASH_MULTIPLIER);
        int i = 0;
        for (; i + 8 <= key.length; i += 8) {
            h = (h ^ mix64((long) LITTLE_ENDIAN_LONG.get(key, i))) * HASH_MULTIPLIER;
        }
        long tail = 0;
        for (int shift = 0; i < key.length; i++, shift += 8) {
            tail |= (key[i] & 0xFFL) << shift;
        }
        h = (h ^ mix64(tail)) * HASH_MULTIPLIER;
        return mix64(h);
    }

    /** A bijective 64-bit mixer (the splitmix64 finaliser): every input bit affects every output bit. */
    private static long mix64(long x) {
        x = (x ^ (x >>> 30)) * 0xBF58476D1CE4E5B9L;
        x = (x ^ (x >>> 27)) * 0x94D049BB133111EBL;
        return x ^ (x >>> 31);
    }

    /** Probes per key for a given density: bitsPerKey * ln 2, which minimises false positives. */
    static int hashCountFor(int bitsPerKey) {
        int k = (int) Math.round(bitsPerKey * 0.6931471805599453);
        return Math.max(1, Math.min(SsTableFormat.BLOOM_HASH_COUNT_MAX, k));
    }

    /** Bytes of the bit array for {@code keyCount} keys: at least 8, a multiple of 8. */
    static int bitBytesFor(long keyCount, int bitsPerKey) {
        long bitsWanted = Math.max(64, keyCount * bitsPerKey);
        long bytes = ((bitsWanted + 63) / 64) * 8;
        if (bytes > SsTableFormat.BLOCK_BYTES_MAX - 1 - SsTableFormat.CRC_BYTES) {
            throw new IllegalStateException("bloom filter for " + keyCount + " keys at " + bitsPerKey
                    + " bits per key would exceed the block limit of " + SsTableFormat.BLOCK_BYTES_MAX + " bytes");
        }
        return (int) bytes;
    }

    /**
     * Encodes a filter block (hash count, bits, crc) for the given key hashes.
     *
     * @param hashes {@link #hash64} of each distinct key, in {@code hashes[0, count)}
     */
    static byte[] encode(long[] hashes, int count, int bitsPerKey) {
        if (bitsPerKey < 1) {
            throw new IllegalArgumentException("bitsPerKey must be >= 1, got " + bitsPerKey);
        }
        int hashCount = hashCountFor(bitsPerKey);
        int bitBytes = bitBytesFor(count, bitsPerKey);
        byte[] block = new byte[1 + bitBytes + SsTableFormat.CRC_BYTES];
        block[0] = (byte) hashCount;
        long bitCount = (long) bitBytes * 8;
        for (int i = 0; i < count; i++) {
            long h = hashes[i];
            long a = start(h, bitCount);
            long b = step(h, bitCount);
            for (int probe = 0; probe < hashCount; probe++) {
                block[1 + (int) (a >>> 3)] |= (byte) (1 << (a & 7));
                a = next(a, b, bitCount);
            }
        }
        int crc = Checksums.crc32c(block, 0, 1 + bitBytes);
        ByteCoding.putInt(block, 1 + bitBytes, crc);
        return block;
    }

    /**
     * The first probe comes from the high half of the hash and the stride from the low half. The
     * halves must be used independently: deriving both from the whole word (say h and h rotated)
     * makes them linearly related modulo the bit count, and measured false positives doubled.
     */
    private static long start(long h, long bitCount) {
        return (h >>> 32) % bitCount;
    }

    private static long step(long h, long bitCount) {
        long b = (h & 0xFFFFFFFFL) % bitCount;
        return b == 0 ? 1 : b;
    }

    /**
     * The probe after {@code a}: (a + b) mod bitCount, without a division (both are below bitCount,
     * so the sum is below twice it): a compare and a subtract where a 64-bit division was.
     */
    private static long next(long a, long b, long bitCount) {
        long n = a + b;
        return n >= bitCount ? n - bitCount : n;
    }

    /**
     * Decodes and verifies a filter block read from {@code path} at {@code fileOffset}.
     *
     * @throws CorruptionException if the checksum or the header is wrong
     */
    static BloomFilter decode(byte[] block, String path, long fileOffset) throws CorruptionException {
        int minBytes = 1 + 8 + SsTableFormat.CRC_BYTES;
        if (block.length < minBytes) {
            throw new CorruptionException(path, fileOffset, "filter block of " + block.length
                    + " bytes is shorter than the minimum " + minBytes);
        }
        int crcAt = block.length - SsTableFormat.CRC_BYTES;
        int stored = ByteCoding.getInt(block, crcAt);
        int actual = Checksums.crc32c(block, 0, crcAt);
        if (stored != actual) {
            throw new CorruptionException(path, fileOffset, "filter block checksum mismatch (stored "
                    + Integer.toHexString(stored) + ", computed " + Integer.toHexString(actual) + ")");
        }
        int hashCount = block[0] & 0xFF;
        if (hashCount < 1 || hashCount > SsTableFormat.BLOOM_HASH_COUNT_MAX) {
            throw new CorruptionException(path, fileOffset, "filter hash count " + hashCount + " outside [1, "
                    + SsTableFormat.BLOOM_HASH_COUNT_MAX + "]");
        }
        int bitBytes = crcAt - 1;
        if (bitBytes % 8 != 0) {
            throw new CorruptionException(path, fileOffset + 1, "filter bit array of " + bitBytes
                    + " bytes is not a multiple of 8");
        }
        return new BloomFilter(block, 1, (long) bitBytes * 8, hashCount);
    }

    /** False if no key with this hash was added; true if one may have been. */
    boolean mayContain(long hash) {
        long a = start(hash, bitCount);
        long b = step(hash, bitCount);
        for (int probe = 0; probe < hashCount; probe++) {
            if ((bits[bitsOffset + (int) (a >>> 3)] & (1 << (a & 7))) == 0) {
                return false;
            }
            a = next(a, b, bitCount);
        }
        return true;
    }

    boolean mayContain(byte[] key) {
        return mayContain(hash64(key));
    }

    int hashCount() {
        return hashCount;
    }

    long bitCount() {
        return bitCount;
    }
}
