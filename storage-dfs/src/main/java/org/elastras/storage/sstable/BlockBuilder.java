package org.elastras.storage.sstable;

import java.util.Arrays;
import org.elastras.storage.util.ByteSink;
import org.elastras.storage.util.Checksums;

/**
 * Builds one data block: prefix-compressed entries with a restart point every
 * {@code restartInterval} entries, then the trailer and its CRC32C (layout in
 * {@link SsTableFormat}). Not thread-safe: owned by one {@link SsTableWriter}.
 *
 * <p>REQUIRES: entries are added in strictly increasing {@link org.elastras.storage.store.Version#ORDER};
 * the writer checks that before calling {@link #add}.
 */
final class BlockBuilder {

    private final int restartInterval;
    private final ByteSink entries;
    private int[] restarts = new int[16];
    private int restartCount;
    private int entryCount;
    private int entriesSinceRestart;
    private byte[] lastKey = new byte[0];

    BlockBuilder(int restartInterval, int blockBytesTarget) {
        if (restartInterval < 1) {
            throw new IllegalArgumentException("restartInterval must be >= 1, got " + restartInterval);
        }
        this.restartInterval = restartInterval;
        this.entries = new ByteSink(blockBytesTarget + blockBytesTarget / 4);
    }

    boolean isEmpty() {
        return entryCount == 0;
    }

    int entryCount() {
        return entryCount;
    }

    /** Bytes the block would take if finished now (entries, trailer and crc). */
    long sizeBytesEstimate() {
        return (long) entries.length() + 4L * restartCount + SsTableFormat.BLOCK_TRAILER_FIXED_BYTES;
    }

    /** Bytes one more entry could add at most: varint headers, flags and the bytes themselves. */
    static long entryBytesMax(int keyBytes, int valueBytes) {
        return 5 + 5 + 1 + 10 + 5 + (long) keyBytes + valueBytes + 4;
    }

    /** Appends an entry; {@code value == null} is a tombstone. */
    void add(byte[] key, long cts, byte[] value) {
        int shared = 0;
        if (entriesSinceRestart == restartInterval || entryCount == 0) {
            if (restartCount == restarts.length) {
                restarts = Arrays.copyOf(restarts, restartCount * 2);
            }
            restarts[restartCount++] = entries.length();
            entriesSinceRestart = 0;
        } else {
            int mismatch = Arrays.mismatch(lastKey, key);
            shared = mismatch < 0 ? key.length : mismatch;
        }
        int valueLength = value == null ? 0 : value.length;
        entries.varint(shared)
                .varint(key.length - shared)
                .u8(value == null ? SsTableFormat.FLAG_TOMBSTONE : 0)
                .varint(cts)
                .varint(valueLength)
                .bytes(key, shared, key.length - shared);
        if (value != null) {
            entries.bytes(value);
        }
        lastKey = key;
        entryCount++;
        entriesSinceRestart++;
    }

    /** The finished block with its trailer and checksum; then the builder is empty again. */
    byte[] finish() {
        if (entryCount == 0) {
            throw new IllegalStateException("finishing an empty data block");
        }
        for (int i = 0; i < restartCount; i++) {
            entries.u32(restarts[i]);
        }
        entries.u32(entryCount).u32(restartCount);
        entries.u32(Checksums.crc32c(entries.array(), 0, entries.length()));
        byte[] block = entries.toByteArray();
        reset();
        return block;
    }

    private void reset() {
        entries.reset();
        restartCount = 0;
        entryCount = 0;
        entriesSinceRestart = 0;
        lastKey = new byte[0];
    }
}
