package org.elastras.storage.sstable;

import org.elastras.storage.store.Version;
import org.elastras.storage.util.ByteCoding;
import org.elastras.storage.util.Checksums;
import org.elastras.storage.util.CorruptionException;

/**
 * One data block read from the DFS and verified: checksum, trailer, every entry, and the order
 * of its entries against the index. Immutable, so cached blocks are shared by every thread.
 */
final class Block {

    /** Rough bytes a cached block costs beyond its data: object headers, the cache entry, the key. */
    private static final int CACHE_OVERHEAD_BYTES = 96;

    private final String path;
    private final long fileOffset;
    private final byte[] bytes;
    private final int entriesEnd;
    private final int restartCount;
    private final int entryCount;

    private Block(String path, long fileOffset, byte[] bytes, int entriesEnd, int restartCount, int entryCount) {
        this.path = path;
        this.fileOffset = fileOffset;
        this.bytes = bytes;
        this.entriesEnd = entriesEnd;
        this.restartCount = restartCount;
        this.entryCount = entryCount;
    }

    /**
     * Verifies a block just read from the DFS and wraps it.
     *
     * @param previousKey last key of the previous block, or null for the first block
     * @param previousCts last cts of the previous block (ignored if {@code previousKey} is null)
     * @param lastKey the last key of this block, as the index says
     * @param lastCts the last cts of this block, as the index says
     * @throws CorruptionException if anything does not hold; names the file and the offset
     */
    static Block decode(byte[] bytes, String path, long fileOffset, byte[] previousKey, long previousCts,
            byte[] lastKey, long lastCts) throws CorruptionException {
        int minBytes = SsTableFormat.BLOCK_TRAILER_FIXED_BYTES + 4;
        if (bytes.length < minBytes) {
            throw new CorruptionException(path, fileOffset, "data block of " + bytes.length
                    + " bytes is shorter than the minimum " + minBytes);
        }
        int crcAt = bytes.length - SsTableFormat.CRC_BYTES;
        int stored = ByteCoding.getInt(bytes, crcAt);
        int actual = Checksums.crc32c(bytes, 0, crcAt);
        if (stored != actual) {
            throw new CorruptionException(path, fileOffset, "data block checksum mismatch (stored "
                    + Integer.toHexString(stored) + ", computed " + Integer.toHexString(actual) + ")");
        }
        int entryCount = ByteCoding.getInt(bytes, crcAt - 8);
        int restartCount = ByteCoding.getInt(bytes, crcAt - 4);
        long entriesEnd = (long) crcAt - 8 - 4L * restartCount;
        if (restartCount < 1 || entryCount < restartCount || entriesEnd < 0) {
            throw new CorruptionException(path, fileOffset + crcAt - 8, "data block trailer claims "
                    + entryCount + " entries and " + restartCount + " restarts in " + bytes.length + " bytes");
        }
        Block block = new Block(path, fileOffset, bytes, (int) entriesEnd, restartCount, entryCount);
        block.verifyEntries(previousKey, previousCts, lastKey, lastCts);
        return block;
    }

    /**
     * Walks every entry once: each decodes, restart offsets point at entries with no shared
     * prefix, the order is strict and starts after the previous block, and the last entry is the
     * one the index names.
     */
    private void verifyEntries(byte[] previousKey, long previousCts, byte[] lastKey, long lastCts)
            throws CorruptionException {
        BlockCursor cursor = new BlockCursor(this);
        int restartsSeen = 0;
        int entriesSeen = 0;
        byte[] priorKey = previousKey;
        long priorCts = previousCts;
        for (cursor.seekToFirst(); cursor.valid(); cursor.next()) {
            int at = cursor.entryOffset();
            if (restartsSeen < restartCount && restart(restartsSeen) == at) {
                if (cursor.sharedBytes() != 0) {
                    throw corruption(at, "entry at a restart point shares " + cursor.sharedBytes() + " key bytes");
                }
                restartsSeen++;
            } else if (restartsSeen < restartCount && restart(restartsSeen) < at) {
                throw corruption(entriesEnd + 4L * restartsSeen, "restart offset " + restart(restartsSeen)
                        + " is not the start of an entry");
            }
            if (priorKey != null && cursor.compareTo(priorKey, priorCts) <= 0) {
                throw corruption(at, "entry does not sort after the one before it");
            }
            priorKey = cursor.keyCopy();
            priorCts = cursor.cts();
            entriesSeen++;
        }
        if (restartsSeen != restartCount || restart(0) != 0) {
            throw corruption(entriesEnd, "only " + restartsSeen + " of " + restartCount
                    + " restart offsets point at entries");
        }
        if (entriesSeen != entryCount) {
            throw corruption(entriesEnd, "trailer says " + entryCount + " entries, found " + entriesSeen);
        }
        if (priorKey == null || Version.compare(priorKey, priorCts, lastKey, lastCts) != 0) {
            throw corruption(entriesEnd, "last entry of the block is not the one the index names");
        }
    }

    CorruptionException corruption(long blockPosition, String what) {
        return new CorruptionException(path, fileOffset + blockPosition, what);
    }

    byte[] bytes() {
        return bytes;
    }

    /** Offset (from the block start) where the entries end and the restart array begins. */
    int entriesEnd() {
        return entriesEnd;
    }

    int restartCount() {
        return restartCount;
    }

    int restart(int i) {
        return ByteCoding.getInt(bytes, entriesEnd + 4 * i);
    }

    long fileOffset() {
        return fileOffset;
    }

    /** Bytes this block is charged in the {@link BlockCache}. */
    long cacheChargeBytes() {
        return (long) bytes.length + CACHE_OVERHEAD_BYTES;
    }
}
