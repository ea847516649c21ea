package org.elastras.storage.sstable;

import org.elastras.storage.util.StorageLimits;

/**
 * The byte layout of an SSTable file, in one place; docs/sstable-format.md says the same in prose.
 * Stateless: constants only.
 *
 * <pre>
 * File (every integer big-endian; "varint" is LEB128 unsigned, at most 10 bytes):
 *
 *   [data block 0] ... [data block n-1] [filter block] [key range block] [index block] [footer]
 *
 * The regions are contiguous and in this order; the reader rejects any handle that breaks it.
 *
 * Data block (sorted entries in Version.ORDER: key ascending unsigned, then cts descending):
 *   entry*:
 *     shared       varint   bytes of the key shared with the previous entry's key (0 at a restart)
 *     unshared     varint   bytes of the key that follow
 *     flags        u8       bit 0: tombstone; bits 1-7 must be 0
 *     cts          varint   commit timestamp (>= 0)
 *     valueLength  varint   0 for a tombstone
 *     keySuffix    unshared bytes
 *     value        valueLength bytes
 *   trailer:
 *     restart      u32 * restartCount   offsets (from the block start) of entries with shared = 0;
 *                                       the first is 0; one every restartInterval entries
 *     entryCount   u32      entries in the block (>= 1)
 *     restartCount u32      (>= 1)
 *     crc          u32      CRC32C of every byte of the block before it
 *
 * Filter block (absent, size 0, when bloomBitsPerKey = 0):
 *   hashCount    u8       in [1, 30]
 *   bits         bitBytes (a multiple of 8, >= 8) bit i is bit (i % 8) of byte (i / 8)
 *   crc          u32      CRC32C of hashCount and bits
 *   One entry per distinct user key (not per version). Probe positions, double hashing:
 *   h = hash64(key); m = bitBytes * 8; a = (h >>> 32) mod m; b = (h and 0xFFFFFFFF) mod m, or 1 if 0;
 *   position i = (a + i * b) mod m for i in [0, hashCount). hash64 is {@link BloomFilter#hash64}.
 *
 * Key range block:
 *   smallestKeyLength varint, smallestKey, largestKeyLength varint, largestKey,
 *   crc u32 (CRC32C of the bytes before it). Both keys empty for an empty table.
 *
 * Index block (one entry per data block, in file order):
 *   blockCount   varint
 *   entry*:      lastKeyLength varint, lastKey, lastCts varint, offset varint, size varint
 *                (lastKey, lastCts) is the last entry of the block; size includes the trailer
 *   crc          u32      CRC32C of the bytes before it
 *
 * Footer (FOOTER_BYTES = 80, the last bytes of the file):
 *    0 u64 indexOffset      8 u32 indexSize
 *   12 u64 filterOffset    20 u32 filterSize
 *   24 u64 keyRangeOffset  32 u32 keyRangeSize
 *   36 u32 dataBlockCount
 *   40 u64 entryCount      48 u64 minCts (Long.MAX_VALUE if empty)   56 u64 maxCts (-1 if empty)
 *   64 u32 formatVersion   68 u64 magic
 *   76 u32 crc             CRC32C of bytes [0, 76)
 * </pre>
 */
final class SsTableFormat {

    private SsTableFormat() {
    }

    /** ASCII "ESSTable". */
    static final long MAGIC = 0x455353546162_6C65L;

    static final int FORMAT_VERSION = 1;

    static final int FOOTER_BYTES = 80;

    static final int FOOTER_INDEX_OFFSET = 0;
    static final int FOOTER_INDEX_SIZE = 8;
    static final int FOOTER_FILTER_OFFSET = 12;
    static final int FOOTER_FILTER_SIZE = 20;
    static final int FOOTER_KEY_RANGE_OFFSET = 24;
    static final int FOOTER_KEY_RANGE_SIZE = 32;
    static final int FOOTER_DATA_BLOCK_COUNT = 36;
    static final int FOOTER_ENTRY_COUNT = 40;
    static final int FOOTER_MIN_CTS = 48;
    static final int FOOTER_MAX_CTS = 56;
    static final int FOOTER_FORMAT_VERSION = 64;
    static final int FOOTER_MAGIC = 68;
    static final int FOOTER_CRC = 76;

    /** Bytes of a block's fixed trailer after the restart array: entryCount, restartCount, crc. */
    static final int BLOCK_TRAILER_FIXED_BYTES = 12;

    /** Bytes of a block checksum (every block, filter, key range and index alike). */
    static final int CRC_BYTES = 4;

    static final int FLAG_TOMBSTONE = 1;

    /**
     * Largest block of any kind, on write and on read. A single version larger than this cannot be
     * stored; a handle claiming more is corruption.
     */
    static final int BLOCK_BYTES_MAX = StorageLimits.HARD_RECORD_BYTES_MAX;

    /** Most bloom probes per key; more buys nothing at any bits-per-key we accept. */
    static final int BLOOM_HASH_COUNT_MAX = 30;
}
