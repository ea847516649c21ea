package org.elastras.storage.sstable;

/**
 * What a finished SSTable holds, as recorded in the partition's MANIFEST. Immutable.
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
}
