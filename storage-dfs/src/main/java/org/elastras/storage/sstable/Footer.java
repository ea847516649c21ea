package org.elastras.storage.sstable;

import org.elastras.storage.util.ByteCoding;
import org.elastras.storage.util.Checksums;
import org.elastras.storage.util.CorruptionException;

/**
 * The fixed-size footer at the end of an SSTable, decoded and verified (layout in
 * {@link SsTableFormat}). Immutable.
 */
record Footer(long indexOffset, int indexSize, long filterOffset, int filterSize, long keyRangeOffset,
        int keyRangeSize, int dataBlockCount, long entryCount, long minCts, long maxCts) {

    /** Smallest index block: a one-byte count and the crc. */
    private static final int INDEX_BYTES_MIN = 1 + SsTableFormat.CRC_BYTES;
    /** Smallest key range block: two zero lengths and the crc. */
    private static final int KEY_RANGE_BYTES_MIN = 2 + SsTableFormat.CRC_BYTES;

    /**
     * Decodes the footer read at {@code footerOffset} (the file's length minus
     * {@link SsTableFormat#FOOTER_BYTES}) and checks every field against the others.
     *
     * @throws CorruptionException naming the file and the footer's offset if anything is off
     */
    static Footer decode(byte[] bytes, String path, long footerOffset) throws CorruptionException {
        int stored = ByteCoding.getInt(bytes, SsTableFormat.FOOTER_CRC);
        int actual = Checksums.crc32c(bytes, 0, SsTableFormat.FOOTER_CRC);
        if (stored != actual) {
            throw new CorruptionException(path, footerOffset, "footer checksum mismatch (stored "
                    + Integer.toHexString(stored) + ", computed " + Integer.toHexString(actual)
                    + "); an unfinished, truncated or damaged SSTable");
        }
        long magic = ByteCoding.getLong(bytes, SsTableFormat.FOOTER_MAGIC);
        if (magic != SsTableFormat.MAGIC) {
            throw new CorruptionException(path, footerOffset + SsTableFormat.FOOTER_MAGIC, "bad magic "
                    + Long.toHexString(magic) + ": not an SSTable");
        }
        int version = ByteCoding.getInt(bytes, SsTableFormat.FOOTER_FORMAT_VERSION);
        if (version != SsTableFormat.FORMAT_VERSION) {
            throw new CorruptionException(path, footerOffset + SsTableFormat.FOOTER_FORMAT_VERSION,
                    "format version " + version + " is not the version " + SsTableFormat.FORMAT_VERSION
                            + " this build reads");
        }
        Footer f = new Footer(
                ByteCoding.getLong(bytes, SsTableFormat.FOOTER_INDEX_OFFSET),
                ByteCoding.getInt(bytes, SsTableFormat.FOOTER_INDEX_SIZE),
                ByteCoding.getLong(bytes, SsTableFormat.FOOTER_FILTER_OFFSET),
                ByteCoding.getInt(bytes, SsTableFormat.FOOTER_FILTER_SIZE),
                ByteCoding.getLong(bytes, SsTableFormat.FOOTER_KEY_RANGE_OFFSET),
                ByteCoding.getInt(bytes, SsTableFormat.FOOTER_KEY_RANGE_SIZE),
                ByteCoding.getInt(bytes, SsTableFormat.FOOTER_DATA_BLOCK_COUNT),
                ByteCoding.getLong(bytes, SsTableFormat.FOOTER_ENTRY_COUNT),
                ByteCoding.getLong(bytes, SsTableFormat.FOOTER_MIN_CTS),
                ByteCoding.getLong(bytes, SsTableFormat.FOOTER_MAX_CTS));
        String problem = f.inconsistency(footerOffset);
        if (problem != null) {
            throw new CorruptionException(path, footerOffset, "footer is inconsistent: " + problem);
        }
        return f;
    }

    /** What is wrong with the fields, or null if they describe a well-formed table. */
    private String inconsistency(long footerOffset) {
        if (indexSize < INDEX_BYTES_MIN || indexSize > SsTableFormat.BLOCK_BYTES_MAX) {
            return "index size " + indexSize;
        }
        if (keyRangeSize < KEY_RANGE_BYTES_MIN || keyRangeSize > SsTableFormat.BLOCK_BYTES_MAX) {
            return "key range size " + keyRangeSize;
        }
        if (filterSize < 0 || filterSize > SsTableFormat.BLOCK_BYTES_MAX) {
            return "filter size " + filterSize;
        }
        // The regions are contiguous: data, filter, key range, index, footer.
        if (filterOffset < 0 || keyRangeOffset != filterOffset + filterSize
                || indexOffset != keyRangeOffset + keyRangeSize || indexOffset + indexSize != footerOffset) {
            return "filter at " + filterOffset + "+" + filterSize + ", key range at " + keyRangeOffset + "+"
                    + keyRangeSize + ", index at " + indexOffset + "+" + indexSize + " do not tile the file up to the"
                    + " footer at " + footerOffset;
        }
        // Every index entry takes at least 4 bytes: this bounds what open() allocates for the index.
        if (dataBlockCount < 0 || dataBlockCount > indexSize / 4 || entryCount < dataBlockCount) {
            return dataBlockCount + " data blocks holding " + entryCount + " entries";
        }
        if (dataBlockCount == 0) {
            if (entryCount != 0 || minCts != Long.MAX_VALUE || maxCts != -1 || filterOffset != 0) {
                return "an empty table with entries, timestamps or data bytes";
            }
        } else if (minCts < 0 || minCts > maxCts) {
            return "min cts " + minCts + " and max cts " + maxCts;
        }
        return null;
    }
}
