package org.elastras.storage.sstable;

import java.util.Arrays;
import java.util.HexFormat;

/**
 * What a finished SSTable holds, as recorded in the partition's MANIFEST. Immutable: callers must
 * not change the key arrays. Equality compares the keys by content.
 *
 * @param fileName name of the file inside the partition's directory
 * @param fileBytes size of the file
 * @param entryCount number of versions (tombstones included)
 * @param smallestKey smallest user key (empty array for an empty table)
 * @param largestKey largest user key (empty array for an empty table)
 * @param minCts smallest commit timestamp of any version (Long.MAX_VALUE if empty)
 * @param maxCts largest commit timestamp of any version (-1 if empty)
 */
public record SsTableInfo(String fileName, long fileBytes, long entryCount, byte[] smallestKey, byte[] largestKey,
        long minCts, long maxCts) {

    public SsTableInfo {
        if (fileName == null || smallestKey == null || largestKey == null) {
            throw new IllegalArgumentException("fileName, smallestKey and largestKey must not be null");
        }
        if (fileBytes < 0 || entryCount < 0) {
            throw new IllegalArgumentException("fileBytes " + fileBytes + " and entryCount " + entryCount
                    + " must be >= 0");
        }
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof SsTableInfo other && fileName.equals(other.fileName) && fileBytes == other.fileBytes
                && entryCount == other.entryCount && Arrays.equals(smallestKey, other.smallestKey)
                && Arrays.equals(largestKey, other.largestKey) && minCts == other.minCts && maxCts == other.maxCts;
    }

    @Override
    public int hashCode() {
        int h = fileName.hashCode();
        h = 31 * h + Long.hashCode(fileBytes);
        h = 31 * h + Long.hashCode(entryCount);
        h = 31 * h + Arrays.hashCode(smallestKey);
        h = 31 * h + Arrays.hashCode(largestKey);
        h = 31 * h + Long.hashCode(minCts);
        return 31 * h + Long.hashCode(maxCts);
    }

    @Override
    public String toString() {
        HexFormat hex = HexFormat.of();
        return "SsTableInfo[" + fileName + ", " + fileBytes + " bytes, " + entryCount + " entries, keys "
                + hex.formatHex(smallestKey) + ".." + hex.formatHex(largestKey) + ", cts " + minCts + ".." + maxCts + "]";
    }
}
